"""How predictable session percentages are at all: the ceiling any rating works under.

A session percentage is lasting skill plus the luck of that day's cards and opponents. The
share of its variance that is the pair's own (its reliability) bounds the correlation any
predictor from past results can reach: about the square root of that share. Three readings:

* ``icc``: one-way intraclass correlation of session percentage by pair, over pairs with
  two sessions or more;
* ``split_half``: the correlation of a pair-session's odd and even boards, stepped up to a
  whole session (Spearman-Brown);
* ``test_retest``: the correlation of a pair's percentage with its next session's.

The root of the ICC is the reach of a pair's own mean: it is blind to who sat opposite, which
a rating that counts the opponents is not, so it is no bound on such a rating (on Valet's
rounds the headline passes it). The reference that counts them is
:func:`known_strengths_correlation`: the correlation with the held-out sessions that a rating
knowing every player's true strength would reach, simulated from the fitted model.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bridgerank.ratings.field import (
    FieldTables,
    SessionScores,
    odd_even_halves,
    pair_percent,
    pair_sessions,
)
from bridgerank.ratings.headline.fit import Design, HeadlineFit


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


def known_strengths_correlation(
    fit: HeadlineFit, tables: FieldTables, draws: int = 100, seed: int = 0
) -> float | None:
    """The correlation with the pair-session percentages of ``tables`` (the held-out ones)
    that a rating knowing every player's true strength would reach, under the fitted model.

    Each draw gives every player a strength from the population the fit implies (normal, with
    the variance of the estimates plus their mean posterior variance: a ridge estimate is
    shrunk, so its own spread is too small), each pair-session its expected percentage from
    the real seating (partner, opponents and field, as the model reads them) and its luck
    (the fit's board variance over its boards, plus the form variance); the correlation of
    the expected with the drawn percentages is averaged over the draws. None without a fit
    or sessions.
    """
    if not len(tables) or not len(fit.theta):
        return None
    boards = pair_sessions(tables).boards
    luck = np.sqrt(100**2 * fit.residual_variance / boards + fit.form_variance)
    spread = np.sqrt(np.var(fit.theta) + np.mean(fit.sd**2))
    design = Design.of(tables, len(fit.theta))
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(draws):
        truth = rng.normal(0, spread, len(fit.theta))
        expected = pair_percent(tables, design.predict(truth))
        drawn = expected + luck * rng.standard_normal(len(expected))
        if np.ptp(expected) > 0:
            found.append(np.corrcoef(expected, drawn)[0, 1])
    return float(np.mean(found)) if found else None
