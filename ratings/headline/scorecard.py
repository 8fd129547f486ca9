"""Every pair's sessions as a scorecard: the rows of ``pair_scorecards``.

One row per pair and session of the matchpointed field tables (:mod:`ratings.field`): the
session's event and date (else year and round), the two players, the boards they played, their
percentage, their place (1 the best; pairs level share the better place) among the pairs of
their direction where every pair of the session kept one (a Mitchell movement, ranked
North-South and East-West apart as clubs publish it), else among all the session's pairs,
and, where the walk-forward held the session out, the headline's forecast of it made from the
dates before (with its standard deviation): what a player sees on their scorecard, beside
what the rating expected of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bridgerank.ratings.field import FieldTables, SessionScores, pair_sessions
from bridgerank.ratings.holdout import HeldOut

__all__ = ["scorecard_rows"]


def _directions(tables: FieldTables, sessions: SessionScores) -> list[str]:
    """Each pair-session's direction: "NS" or "EW" when it sat there at every table, else ""."""
    north_south = np.column_stack([tables.session, np.sort(tables.seats[:, :2], axis=1)])
    keys, counts = np.unique(north_south, axis=0, return_counts=True)
    at_north = {tuple(key): int(count) for key, count in zip(keys.tolist(), counts)}
    directions = []
    for session, pair, boards in zip(sessions.session, sessions.pair, sessions.boards):
        sat = at_north.get((int(session), int(pair[0]), int(pair[1])), 0)
        directions.append("NS" if sat == boards else "EW" if sat == 0 else "")
    return directions


def _places(
    session: np.ndarray, direction: list[str], percent: np.ndarray
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Each entry's place (1 + the pairs of its group that scored more), the pairs of its
    group, and the direction it is ranked in ("" where the session is ranked as one: some
    pair changed direction)."""
    place = np.empty(len(percent), dtype=np.int64)
    pairs = np.empty(len(percent), dtype=np.int64)
    ranked = list(direction)
    for value in np.unique(session):
        members = np.flatnonzero(session == value)
        if any(direction[member] == "" for member in members):
            groups = [members]
            for member in members:
                ranked[member] = ""
        else:
            groups = [
                m
                for m in (members[[direction[i] == side for i in members]] for side in ("NS", "EW"))
                if len(m)
            ]
        for group in groups:
            scores = percent[group]
            place[group] = 1 + (scores[None, :] > scores[:, None]).sum(axis=1)
            pairs[group] = len(group)
    return place, pairs, ranked


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
    place, pairs, direction = _places(
        sessions.session, _directions(tables, sessions), sessions.percent
    )
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
                "direction": direction[index],
                "forecast": predicted,
                "forecast_sd": sd,
            }
        )
    return rows
