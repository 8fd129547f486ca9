"""Every pair's sessions as a scorecard: the rows of ``pair_scorecards``.

One row per pair and session of the matchpointed field tables (:mod:`ratings.field`): the
session's event and date (else year and round), the two players, the boards they played, their
percentage, their place among the session's pairs (1 the best; pairs level share the better
place) and, where the walk-forward held the session out, the headline's forecast of it made
from the dates before (with its standard deviation): what a player sees on their scorecard,
beside what the rating expected of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bridgerank.ratings.field import FieldTables, pair_sessions
from bridgerank.ratings.holdout import HeldOut

__all__ = ["scorecard_rows"]


def _places(session: np.ndarray, percent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's place in its session (1 + the pairs that scored more) and the number of
    pairs in the session."""
    place = np.empty(len(percent), dtype=np.int64)
    pairs = np.empty(len(percent), dtype=np.int64)
    for value in np.unique(session):
        members = np.flatnonzero(session == value)
        scores = percent[members]
        place[members] = 1 + (scores[None, :] > scores[:, None]).sum(axis=1)
        pairs[members] = len(members)
    return place, pairs


def _forecasts(
    tables: FieldTables, run: HeldOut | None
) -> dict[tuple[int, int, int], tuple[float, float | None]]:
    """The headline's held-out forecast of each (session, player, player), in the order the
    walk-forward made them: its test dates in order, each date's pairs as its target lists
    them."""
    if run is None or not len(run):
        return {}
    predicted = run.predicted("headline")
    variance = run.variance("headline")
    found: dict[tuple[int, int, int], tuple[float, float | None]] = {}
    position = 0
    for period in np.unique(run.period):
        test = pair_sessions(tables.subset(tables.period == period))
        for offset, (session, pair) in enumerate(zip(test.session, test.pair)):
            index = position + offset
            sd = None if variance is None else float(np.sqrt(variance[index]))
            found[(int(session), int(pair[0]), int(pair[1]))] = (float(predicted[index]), sd)
        position += len(test.session)
    return found


def scorecard_rows(tables: FieldTables, run: HeldOut | None) -> list[dict[str, Any]]:
    """The ``pair_scorecards`` rows (see the module docstring).

    Parameters
    ----------
    tables : FieldTables
        The matchpointed tables the headline was fitted on.
    run : HeldOut or None
        The walk-forward, when the data were validated (its ``headline`` forecasts).
    """
    sessions = pair_sessions(tables)
    place, pairs = _places(sessions.session, sessions.percent)
    forecast = _forecasts(tables, run)
    rows = []
    for index, (session, pair) in enumerate(zip(sessions.session, sessions.pair)):
        event, when = tables.sessions[int(session)]
        a, b = sorted((str(tables.players[pair[0]]), str(tables.players[pair[1]])))
        predicted, sd = forecast.get((int(session), int(pair[0]), int(pair[1])), (None, None))
        rows.append(
            {
                "event": event,
                "session": when,
                "player_a": a,
                "player_b": b,
                "boards": int(sessions.boards[index]),
                "percent": float(sessions.percent[index]),
                "place": int(place[index]),
                "pairs": int(pairs[index]),
                "forecast": predicted,
                "forecast_sd": sd,
            }
        )
    return rows
