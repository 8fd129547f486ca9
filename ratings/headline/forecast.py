"""Forecasts of an event not yet rated: each pair's session percentage from stored headline
ratings, with a prediction interval, and the score of those forecasts once the results are in.

The forecast uses only what is known before play: each table's North-South share is predicted
from the four players' strengths centred on the deal's other tables (:class:`headline.Design`),
whether each pair had played together before (the familiarity term,
:mod:`~bridgerank.ratings.headline.familiarity`) and the stratum each pair entered in where
the file prints one (the entry term, :mod:`~bridgerank.ratings.headline.entry`, weighed by
the sessions its players have behind them in the ratings); a pair's percentage is the mean
over its tables. A player with no rating counts as average, with the prior's uncertainty (the
spread of strengths the ridge penalty allows): his pair's stratum is then what places it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Any, Hashable, Iterable, Mapping, Sequence

import numpy as np

from bridgerank.ratings.field import field_tables, pair_percent, pair_sessions
from bridgerank.ratings.headline.design import Design
from bridgerank.ratings.headline.entry import entry_offset
from bridgerank.ratings.headline.familiarity import named_column
from bridgerank.ratings.holdout import Z80

if TYPE_CHECKING:
    from bridgerank.core.sections import HeadlineSettings


@dataclass(frozen=True)
class StoredRatings:
    """What a forecast needs of a fitted headline rating.

    Attributes
    ----------
    rating : mapping
        Player -> (strength, standard deviation), in matchpoint-percentage points.
    residual_variance : float
        A table's share's variance around the model (share units).
    form_variance : float
        A pair-session's variance beyond ratings and board luck (squared points).
    penalty : float
        The ridge penalty: an unrated player's strength has variance
        ``residual_variance / penalty``.
    familiarity : float
        A familiar partnership's bonus in a table's ``d`` (matchpoint share).
    familiar : set of tuple
        The partnerships (two players, sorted) that count as familiar from now on.
    entry_effects : mapping
        Each entry code's term in a table's ``d`` at full weight (matchpoint share).
    sessions : mapping
        Player -> sessions rated (what weighs his pairs' entries down).
    """

    rating: Mapping[str, tuple[float, float]]
    residual_variance: float
    form_variance: float
    penalty: float
    familiarity: float = 0.0
    familiar: AbstractSet[tuple[str, str]] = field(default_factory=frozenset)
    entry_effects: Mapping[str, float] = field(default_factory=dict)
    sessions: Mapping[str, int] = field(default_factory=dict)

    @property
    def unrated_sd(self) -> float:
        """Standard deviation (points) of a player the ratings have never seen."""
        return 100 * float(np.sqrt(self.residual_variance / self.penalty))


def forecast(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    ratings: StoredRatings,
    min_tables: int = 3,
    settings: HeadlineSettings | None = None,
) -> list[dict[str, Any]]:
    """Each pair-session's forecast percentage and 80% interval.

    Parameters
    ----------
    boards : iterable of mapping
        Board rows (as :func:`~bridgerank.ratings.field.field_tables` takes them); their
        results decide only which tables were played, never the forecast.
    player_of : mapping
        Raw name -> player name, as the ratings know players.
    ratings : StoredRatings
    min_tables : int
        Tables a deal needs to be matchpointed.
    settings : HeadlineSettings, optional
        ``[rate.headline]``: its ``entry_sessions`` weighs the pairs' entries down as the fit
        did (None: the shipped defaults).

    Returns
    -------
    list of dict
        ``event``, ``session`` (date), ``player_a``, ``player_b`` (alphabetical, as the file
        names them), ``boards``,
        ``rated`` (how many of the two have a rating), ``predicted``, ``sd``, ``low_80``,
        ``high_80``, in session then pair order.
    """
    # pairs by the names in the file (what a later ingest will store), players by who they are
    tables = field_tables(boards, {}, min_tables)
    if len(tables) == 0:
        return []
    names = [str(player) for player in tables.players]
    who = [str(player_of.get(name, name)) for name in names]
    unknown = (0.0, ratings.unrated_sd)
    known = np.array([player in ratings.rating for player in who])
    strength = np.array([ratings.rating.get(player, unknown)[0] for player in who]) / 100
    sd = np.array([ratings.rating.get(player, unknown)[1] for player in who]) / 100
    design = Design.of(tables, len(names))
    offset = ratings.familiarity * named_column(tables, who, ratings.familiar)
    if ratings.entry_effects:
        played = np.array([ratings.sessions.get(player, 0) for player in who])
        entry_sessions = None if settings is None else settings.entry_sessions
        offset = offset + entry_offset(
            tables,
            ratings.entry_effects,
            before=played[tables.seats],
            entry_sessions=entry_sessions,
        )
    percent = pair_percent(tables, design.predict(strength, offset))
    sessions = pair_sessions(tables)
    first, second = sessions.pair[:, 0], sessions.pair[:, 1]
    variance = (
        100**2 * (sd[first] ** 2 + sd[second] ** 2 + ratings.residual_variance / sessions.boards)
        + ratings.form_variance
    )
    spread = np.sqrt(variance)
    rows = []
    for entry in range(len(percent)):
        pair = sorted((names[first[entry]], names[second[entry]]))
        event, date = tables.sessions[sessions.session[entry]]
        rows.append(
            {
                "event": event,
                "session": date,
                "player_a": pair[0],
                "player_b": pair[1],
                "boards": int(sessions.boards[entry]),
                "rated": int(known[first[entry]]) + int(known[second[entry]]),
                "predicted": float(percent[entry]),
                "sd": float(spread[entry]),
                "low_80": float(percent[entry] - Z80 * spread[entry]),
                "high_80": float(percent[entry] + Z80 * spread[entry]),
            }
        )
    return rows


def actual_percentages(
    boards: Iterable[Mapping[str, Any]], min_tables: int = 3
) -> dict[tuple[str, str, str, str], float]:
    """Each pair-session's actual percentage, keyed as :func:`forecast` names its rows:
    ``(event, session, player_a, player_b)``, the players as the boards name them."""
    tables = field_tables(boards, {}, min_tables)
    sessions = pair_sessions(tables)
    names = [str(player) for player in tables.players]
    actual = {}
    for entry, percent in enumerate(sessions.percent):
        pair = sorted(names[index] for index in sessions.pair[entry])
        event, date = tables.sessions[sessions.session[entry]]
        actual[(event, date, pair[0], pair[1])] = float(percent)
    return actual


def forecast_score(rows: Sequence[Mapping[str, Any]]) -> dict[str, float | int | None]:
    """How forecasts fared: pair-sessions with a result, Pearson correlation, RMSE (points) and
    the share inside the 80% intervals; rows need ``predicted``, ``low_80``, ``high_80`` and
    ``actual`` (None: no result yet)."""
    scored = [row for row in rows if row.get("actual") is not None]
    if not scored:
        return {"scored": 0, "pearson": None, "rmse": None, "coverage_80": None}
    predicted = np.array([row["predicted"] for row in scored])
    actual = np.array([row["actual"] for row in scored])
    inside = [row["low_80"] <= row["actual"] <= row["high_80"] for row in scored]
    pearson = (
        float(np.corrcoef(predicted, actual)[0, 1])
        if len(scored) > 2 and predicted.std() > 0 and actual.std() > 0
        else None
    )
    return {
        "scored": len(scored),
        "pearson": pearson,
        "rmse": float(np.sqrt(np.mean((predicted - actual) ** 2))),
        "coverage_80": float(np.mean(inside)),
    }
