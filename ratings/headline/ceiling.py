"""How predictable session percentages are: references for the headline that are not the
headline itself.

A session percentage is lasting skill plus the luck of that day's cards and opponents. The
share of its variance that is the pair's own (its reliability) says how far a pair's own
past percentages reach: about the square root of that share. Three readings:

* ``icc``: one-way intraclass correlation of session percentage by pair, over pairs with
  two sessions or more;
* ``split_half``: the correlation of a pair-session's odd and even boards, stepped up to a
  whole session (Spearman-Brown);
* ``test_retest``: the correlation of a pair's percentage with its next session's.

The root of the ICC is the reach of a pair's own mean: it is blind to who sat opposite and to
what is known of a pair before play, which a rating may use, so it is no bound on such a
rating (on Valet's rounds the headline passes it). :func:`known_strengths_correlation` is the
correlation with the held-out sessions that a rating knowing every player's true strength
would reach, simulated from the fitted model. :func:`relearned_correlation` is a results-only
rating of the headline's form, if its model were true: the headline's own model simulated and
learned again from results as many and as seated as these. It is a reference of the model,
not of the data: a forecast that knows more than results (a pair's stratum at entry, its
players' past double dummy measures) or models them better can pass it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bridgerank.ratings.field import (
    FieldTables,
    SessionScores,
    odd_even_halves,
    pair_percent,
    pair_session_entries,
    pair_sessions,
)
from bridgerank.ratings.headline.design import Design
from bridgerank.ratings.headline.fit import HeadlineFit, fit_strengths, headline_settings

if TYPE_CHECKING:
    from bridgerank.core.sections import HeadlineSettings


def icc(sessions: SessionScores) -> tuple[float | None, int]:
    """ICC(1) of session percentage by pair, and the number of pairs with 2+ sessions."""
    keys, inverse = np.unique(sessions.pair, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    counts = np.bincount(inverse)
    keep = counts[inverse] >= 2
    if keep.sum() < 4:
        return None, 0
    groups, values = inverse[keep], sessions.percent[keep]
    _, groups = np.unique(groups, return_inverse=True)
    sizes = np.bincount(groups)
    means = np.bincount(groups, weights=values) / sizes
    grand = values.mean()
    a, n = len(sizes), len(values)
    between = float((sizes * (means - grand) ** 2).sum() / (a - 1))
    within = float(((values - means[groups]) ** 2).sum() / (n - a))
    k0 = (n - (sizes**2).sum() / n) / (a - 1)
    return (between - within) / (between + (k0 - 1) * within), a


def split_half(tables: FieldTables) -> tuple[float | None, int]:
    """Spearman-Brown split-half reliability of pair-session percentages (odd vs even
    boards of each pair in each session), and the pair-sessions used."""
    first, second, count = odd_even_halves(tables)
    usable = count >= 4
    if usable.sum() < 10:
        return None, int(usable.sum())
    r = float(np.corrcoef(first[usable], second[usable])[0, 1])
    return 2 * r / (1 + r), int(usable.sum())


def retest_correlation(sessions: SessionScores) -> tuple[float | None, int]:
    """Correlation of a pair's session percentage with its next session's, and the number
    of consecutive session pairs."""
    order = np.lexsort(
        (sessions.session, sessions.period, sessions.pair[:, 1], sessions.pair[:, 0])
    )
    pair = sessions.pair[order]
    percent = sessions.percent[order]
    same = (pair[1:] == pair[:-1]).all(axis=1)
    if same.sum() < 10:
        return None, int(same.sum())
    return float(np.corrcoef(percent[:-1][same], percent[1:][same])[0, 1]), int(same.sum())


def ceiling(tables: FieldTables) -> list[dict[str, Any]]:
    """The three readings and the correlation ceiling they imply (the root of the ICC)."""
    sessions = pair_sessions(tables)
    reliability, pairs = icc(sessions)
    half, used = split_half(tables)
    retest, consecutive = retest_correlation(sessions)
    bound = float(np.sqrt(reliability)) if reliability and reliability > 0 else None
    return [
        {"measure": "icc", "value": reliability, "n": pairs},
        {"measure": "split_half", "value": half, "n": used},
        {"measure": "test_retest", "value": retest, "n": consecutive},
        {"measure": "correlation_ceiling", "value": bound, "n": pairs},
    ]


def population_spread(fit: HeadlineFit) -> float:
    """The spread (SD) of the players' strengths the fit implies: the variance of the
    estimates plus their mean posterior variance (a ridge estimate is shrunk, so its own
    spread is too small)."""
    return float(np.sqrt(np.var(fit.theta) + np.mean(fit.sd**2)))


class SimulatedResults:
    """Results drawn from the fitted model at the seating of ``tables``: the design and each
    table's pair-sessions built once, for the many draws that share them."""

    def __init__(self, fit: HeadlineFit, tables: FieldTables) -> None:
        self.fit = fit
        self.design = Design.of(tables, len(fit.theta))
        # one form effect per pair and session, as the prediction intervals have it
        self._entry = pair_session_entries(tables)

    def shares(self, truth: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """North-South's share at every table, the players' strengths being ``truth``: each
        pair's form of the day (the fit's form variance, shared by its two players: a shift
        of both strengths for the session) and each table's luck (the fit's board variance,
        centred on the deal: a deal's shares sum to what matchpointing gives)."""
        design, entry, count = self.design, self._entry, len(self.design.group)
        form = rng.normal(0, np.sqrt(self.fit.form_variance) / 100, entry.max() + 1)
        day = design.a @ truth + form[entry[:count]] - form[entry[count:]]
        # the fit's board variance is that of a table's luck before its deal's centring (its
        # residuals are divided by the tables less the deals): drawn so, then centred
        luck = design.centre(rng.normal(0, np.sqrt(self.fit.residual_variance), count))
        return 0.5 + design.scale * design.centre(day) + luck


def known_strengths_correlation(
    fit: HeadlineFit,
    tables: FieldTables,
    draws: int = 100,
    seed: int = 0,
    spread: float | None = None,
) -> float | None:
    """The correlation with the pair-session percentages of ``tables`` (the held-out ones)
    that a rating knowing every player's true strength would reach, under the fitted model.

    Each draw gives every player a strength from a normal population of SD ``spread`` (by
    default the fit's own, :func:`population_spread`; the rate stage gives the one the data
    show, :func:`calibrated_spread`), each pair-session its expected percentage from the
    real seating (partner, opponents and field, as the model reads them) and its result
    drawn from the model (:class:`SimulatedResults`: the boards' luck and the pair's form);
    the correlation of the expected with the drawn percentages is averaged over the draws.
    None without a fit or sessions.
    """
    if not len(tables) or not len(fit.theta):
        return None
    spread = population_spread(fit) if spread is None else spread
    model = SimulatedResults(fit, tables)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(draws):
        truth = rng.normal(0, spread, len(fit.theta))
        expected = pair_percent(tables, model.design.predict(truth))
        drawn = pair_percent(tables, model.shares(truth, rng))
        if np.ptp(expected) > 0:
            found.append(np.corrcoef(expected, drawn)[0, 1])
    return float(np.mean(found)) if found else None


# The budget of :func:`relearned_correlation` is ``[rate.headline]``'s: ``relearned_draws``
# simulated data sets (the mean moves about 0.005 between seeds at 50; one data set's
# correlation varies by about 0.035 from draw to draw), fewer where the fits hold more than
# ``relearned_work`` training tables in all (40 million: 50 draws of the ACBL sessions' 29
# walk-forward fits), never fewer than ``min_relearned_draws``.
# Halvings of the interval searched for the spread that reproduces the real ICC.
CALIBRATION_STEPS = 12


@dataclass
class Relearned:
    """What a results-only rating of the headline's form reaches when its model is true: the
    mean held-out correlation over the draws, and its 10% and 90% quantiles (how far one data
    set of this size strays from the mean by luck alone)."""

    mean: float
    low: float
    high: float
    draws: int


def calibrated_spread(
    fit: HeadlineFit, tables: FieldTables, draws: int = 10, seed: int = 0
) -> float | None:
    """The spread (SD) of the players' strengths whose simulated results
    (:class:`SimulatedResults`) have, on average, the real results' intraclass correlation of
    session percentage by pair (:func:`icc`): the population the data show, where the fit's
    own (its estimates' variance plus their mean posterior variance) makes the pairs more
    persistent than the sessions are. None without an ICC to match."""
    real, _ = icc(pair_sessions(tables))
    if real is None:
        return None
    players = len(fit.theta)
    model = SimulatedResults(fit, tables)
    # the same draws at every spread tried, so the simulated ICC rises smoothly with it
    rng = np.random.default_rng(seed)
    shapes = [(rng.standard_normal(players), rng.integers(2**32)) for _ in range(draws)]

    def simulated_icc(spread: float) -> float:
        values = []
        for shape, noise in shapes:
            shares = model.shares(spread * shape, np.random.default_rng(noise))
            value, _ = icc(pair_sessions(tables, ns_share=shares))
            values.append(value if value is not None else 0.0)
        return float(np.mean(values))

    low, high = 0.0, 2 * population_spread(fit)
    for _ in range(CALIBRATION_STEPS):
        middle = (low + high) / 2
        low, high = (middle, high) if simulated_icc(middle) < real else (low, middle)
    return (low + high) / 2


def relearned_correlation(
    fit: HeadlineFit,
    tables: FieldTables,
    test_periods: np.ndarray,
    draws: int | None = None,
    seed: int = 0,
    spread: float | None = None,
    settings: HeadlineSettings | None = None,
) -> Relearned | None:
    """The held-out correlation of a results-only rating of the headline's form, if its model
    were true: it must learn the strengths from results as many and as seated as these, and
    knows nothing else of the players (no entries, no double dummy measures).

    Each draw gives every player a strength from the population the data show (``spread``,
    by default :func:`calibrated_spread`: the real sessions' ICC reproduced), draws every table's
    result from the model (:class:`SimulatedResults`), then walks forward over
    ``test_periods`` as the validation does: the strengths fitted on the earlier periods'
    simulated results at the penalty the model implies (board variance over the strengths'
    variance, so the fit is the posterior mean: no rating learning from these results alone
    does better in squared error when the model holds) predict each test period's
    pair-sessions. The
    correlation over all of them is one draw's.
    None without a fit, tests, at least two draws or an ICC to match. ``draws`` (None:
    ``relearned_draws``) is cut to the work budget of ``settings`` (``[rate.headline]``,
    None: the shipped defaults).
    """
    settings = headline_settings(settings)
    if draws is None:
        draws = settings.relearned_draws
    tests = np.unique(test_periods)
    if not len(tables) or not len(fit.theta) or not len(tests) or draws < 2:
        return None
    if spread is None:
        spread = calibrated_spread(fit, tables, seed=seed)
    if not spread:
        return None
    penalty = fit.residual_variance / spread**2
    players = len(fit.theta)
    # the seating is the same in every draw: each test's designs are built once
    folds = []
    for period in tests:
        train, test = tables.period < period, tables.period == period
        held_out = tables.subset(test)
        folds.append(
            (
                train,
                test,
                Design.of(tables.subset(train), players),
                held_out,
                Design.of(held_out, players),
            )
        )
    # fewer draws where every fit is large (a championship's many tables), never under the
    # minimum: the work of a draw is the training tables of all its fits
    work = sum(int(train.sum()) for train, *_ in folds)
    draws = min(draws, max(settings.min_relearned_draws, settings.relearned_work // max(work, 1)))
    model = SimulatedResults(fit, tables)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(draws):
        truth = rng.normal(0, spread, players)
        shares = model.shares(truth, rng)
        predicted, actual = [], []
        theta = None
        for train, test, design, held_out, test_design in folds:
            # the last fold's strengths start the next fit: a few more tables, nearly the same
            theta = fit_strengths(design, shares[train], penalty, theta)
            predicted.append(pair_percent(held_out, test_design.predict(theta)))
            actual.append(pair_percent(held_out, shares[test]))
        found.append(np.corrcoef(np.concatenate(predicted), np.concatenate(actual))[0, 1])
    low, high = np.quantile(found, [0.1, 0.9])
    return Relearned(float(np.mean(found)), float(low), float(high), draws)
