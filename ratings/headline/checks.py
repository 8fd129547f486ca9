"""What a selector must know of the headline, and whether it is fair to partners: the rows of
the ``rating_checks`` table. Its thresholds are ``[rate.headline]`` settings (``bands``,
``min_band_players``, ``strong_gap``, ``regular_sessions``, ``occasional_sessions``,
``regular_boards``, ``partnership_penalties``).

- ``reliability`` by band of boards played: the sessions split in two (odd and even sessions
  of the data), the headline fitted on each half, and the two halves' ratings of the players
  in a band correlated, stepped up to the whole (Spearman-Brown): how far a rating of a player
  with that many boards would agree with itself on other sessions (the English Bridge Union
  calls a grade "mature" at 1,000 boards: this is that question asked of our data);
- ``coverage_50`` ... ``coverage_95`` by band of boards the pair's players had played before
  the session: the share of held-out sessions inside the headline's central interval;
- the two checks the EBU publishes of its National Grading Scheme, on our data:
  ``strong_partner_rose``: among held-out sessions where a player partnered someone rated
  ``strong_gap`` points or more below them, the share after which the stronger player's
  rating rose (the rating re-fitted before and after the session's date; fair: about half);
  ``regular_gap``: a player's mean session residual (result less the headline's forecast of
  it, in points) with their regular partner less that with occasional partners, averaged over
  the players who have both (fair: under 1 point either way);
- ``synergy``: each partnership of ``regular_boards`` boards or more, its own term beside
  its players' strengths (:func:`~bridgerank.ratings.headline.partnerships.synergies`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats

from bridgerank.ratings.field import FieldTables, pair_sessions
from bridgerank.ratings.headline.fit import (
    HeadlineFit,
    fit_headline,
    headline_settings,
    predict_sessions,
)
from bridgerank.ratings.headline.partnerships import synergies
from bridgerank.ratings.headline.past import Covariates
from bridgerank.ratings.holdout import HeldOut, coverage

if TYPE_CHECKING:
    from bridgerank.core.sections import HeadlineSettings

__all__ = ["rating_checks"]

LEVELS = (0.5, 0.8, 0.9, 0.95)


def _band(boards: np.ndarray, bands: tuple[int, ...]) -> np.ndarray:
    return np.searchsorted(np.array(bands), boards, side="right") - 1


def _band_name(index: int, bands: tuple[int, ...]) -> str:
    low = bands[index]
    return f"{low}+" if index == len(bands) - 1 else f"{low}-{bands[index + 1] - 1}"


def _row(
    measure: str,
    band: str,
    value: float | None,
    n: int,
    low: float | None = None,
    high: float | None = None,
) -> dict[str, Any]:
    return {"measure": measure, "band": band, "value": value, "low": low, "high": high, "n": n}


def reliability_by_band(
    tables: FieldTables,
    penalty: float,
    covariates: Covariates | None = None,
    settings: HeadlineSettings | None = None,
) -> list[dict[str, Any]]:
    """Split-half reliability of the ratings by band of boards played (see the module), the
    headline fitted with its ``penalty`` and prior ``covariates`` on each half; the bands
    and their least players are ``settings``' (None: the shipped defaults)."""
    settings = headline_settings(settings)
    bands, least = settings.bands, settings.min_band_players
    halves = [tables.subset(tables.session % 2 == parity) for parity in (0, 1)]
    if not all(len(half) for half in halves):
        return []
    first, second = (
        fit_headline(half, penalty=penalty, covariates=covariates, settings=settings).theta
        for half in halves
    )
    boards = np.bincount(tables.seats.ravel(), minlength=len(tables.players))
    both = np.array([np.bincount(h.seats.ravel(), minlength=len(boards)) > 0 for h in halves])
    rows = []
    band = _band(boards, bands)
    for index in range(len(bands)):
        mine = (band == index) & both.all(axis=0)
        if mine.sum() < least:
            rows.append(_row("reliability", _band_name(index, bands), None, int(mine.sum())))
            continue
        r = float(np.corrcoef(first[mine], second[mine])[0, 1])
        # stepped up only where the halves agree at all: below zero the formula means nothing
        value = 2 * r / (1 + r) if r > 0 else r
        rows.append(_row("reliability", _band_name(index, bands), value, int(mine.sum())))
    return rows


def _boards_before(tables: FieldTables) -> np.ndarray:
    """Each player's boards in the periods before each period: shape (periods, players)."""
    count = np.zeros((len(tables.periods) + 1, len(tables.players)))
    np.add.at(count, (np.repeat(tables.period, 4) + 1, tables.seats.ravel()), 1)
    return np.cumsum(count, axis=0)[:-1]


def coverage_by_band(
    run: HeldOut, tables: FieldTables, settings: HeadlineSettings | None = None
) -> list[dict[str, Any]]:
    """The headline's interval coverage of held-out sessions by band of the pair's boards
    before the session (the mean of its two players'); the bands are ``settings``' (None:
    the shipped defaults)."""
    bands = headline_settings(settings).bands
    variance = run.variance("headline")
    if variance is None or not len(run):
        return []
    sessions = pair_sessions(tables.subset(np.isin(tables.period, np.unique(run.period))))
    before = _boards_before(tables)[sessions.period[:, None], sessions.pair].mean(axis=1)
    band = _band(before, bands)
    predicted, actual = run.predicted("headline"), run.actual
    rows = []
    for level in LEVELS:
        for index in range(len(bands)):
            mine = band == index
            value = (
                coverage(predicted[mine], actual[mine], variance[mine], level)
                if mine.any()
                else None
            )
            rows.append(
                _row(
                    f"coverage_{round(100 * level)}",
                    _band_name(index, bands),
                    value,
                    int(mine.sum()),
                )
            )
    return rows


def strong_partner_rose(
    tables: FieldTables,
    periods: np.ndarray,
    penalty: float,
    covariates: Covariates | None = None,
    settings: HeadlineSettings | None = None,
) -> dict[str, Any]:
    """The share of held-out sessions with a partner ``strong_gap`` points weaker (of
    ``settings``, None: the shipped defaults) after which the stronger player's rating rose
    (fitted before and after the session's date, at the headline's ``penalty`` with its
    prior ``covariates``)."""
    settings = headline_settings(settings)
    strong_gap = settings.strong_gap
    rose = total = 0
    tested = list(np.unique(periods))
    fits: dict[int, HeadlineFit] = {}

    def fit_before(period: int) -> np.ndarray:
        if period not in fits:
            fits[period] = fit_headline(
                tables.subset(tables.period < period),
                penalty=penalty,
                covariates=covariates,
                settings=settings,
            )
        return fits[period].theta

    for period, following in zip(tested, tested[1:]):
        before, after = fit_before(period), fit_before(following)
        sessions = pair_sessions(tables.subset(tables.period == period))
        for first, second in sessions.pair.tolist():
            gap = 100 * (before[first] - before[second])
            if abs(gap) < strong_gap:
                continue
            strong = first if gap > 0 else second
            rose += int(after[strong] > before[strong])
            total += 1
    return _row("strong_partner_rose", "all", rose / total if total else None, total)


def regular_gap(
    tables: FieldTables, fit: HeadlineFit, settings: HeadlineSettings | None = None
) -> dict[str, Any]:
    """Players' mean residual with their regular partner (``regular_sessions`` sessions
    together or more) less with occasional partners (``occasional_sessions`` or fewer), in
    points, averaged over the players with both, with a 95% interval; ``settings`` None: the
    shipped defaults."""
    settings = headline_settings(settings)
    regular_count = settings.regular_sessions
    occasional_count = settings.occasional_sessions
    sessions = pair_sessions(tables)
    predicted, _ = predict_sessions(fit, tables, settings=settings)
    residual = sessions.percent - predicted
    together: dict[tuple[int, int], list[float]] = defaultdict(list)
    for (first, second), value in zip(sessions.pair.tolist(), residual):
        together[(first, second)].append(value)
        together[(second, first)].append(value)
    by_player: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for (player, _), values in together.items():
        by_player[player].append((len(values), float(np.mean(values))))
    gaps = []
    for partnerships in by_player.values():
        regular = [mean for count, mean in partnerships if count >= regular_count]
        occasional = [mean for count, mean in partnerships if count <= occasional_count]
        if regular and occasional:
            gaps.append(np.mean(regular) - np.mean(occasional))
    if len(gaps) < 3:
        return _row("regular_gap", "all", None, len(gaps))
    mean = float(np.mean(gaps))
    half = float(stats.t.ppf(0.975, len(gaps) - 1) * np.std(gaps, ddof=1) / np.sqrt(len(gaps)))
    return _row("regular_gap", "all", mean, len(gaps), mean - half, mean + half)


def rating_checks(
    tables: FieldTables,
    fit: HeadlineFit,
    run: HeldOut | None,
    covariates: Covariates | None = None,
    settings: HeadlineSettings | None = None,
) -> list[dict[str, Any]]:
    """Every ``rating_checks`` row (see the module) of the headline ``fit``.

    Parameters
    ----------
    tables : FieldTables
        The tables the headline was fitted on.
    fit : HeadlineFit
        The headline fitted on them.
    run : HeldOut or None
        The walk-forward, for the held-out rows (None: none of them).
    covariates : callable, optional
        The headline's prior covariates.
    settings : HeadlineSettings, optional
        ``[rate.headline]``, the checks' thresholds (None: the shipped defaults).

    Returns
    -------
    list of dict
        The rows, measure by measure.
    """
    settings = headline_settings(settings)
    rows = reliability_by_band(tables, fit.penalty, covariates, settings)
    if run is not None and len(run):
        rows += coverage_by_band(run, tables, settings)
        rows.append(strong_partner_rose(tables, run.period, fit.penalty, covariates, settings))
    rows.append(regular_gap(tables, fit, settings))
    for pair in synergies(tables, fit.penalty, covariates, settings):
        rows.append(
            _row(
                "synergy",
                f"{pair['player']} & {pair['partner']}",
                pair["synergy"],
                pair["boards"],
                pair["low"],
                pair["high"],
            )
        )
    return rows
