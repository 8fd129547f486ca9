"""Multiplayer Elo through ranking probabilities (Duersch, Lambrecht and Oechssler).

Finishing orders follow Plackett-Luce with weights ``w_i = 10^(r_i / 400)``. Position ``j``
(0 = first) pays ``n - 1 - j``, tied players share the mean payoff of their positions; the
update is ``r_i += K / (n - 1) * (a_i - e_i)`` with ``e_i`` the expected payoff, which has the
closed form ``sum_k 1 / (1 + 10^((r_k - r_i) / 400))`` (pairwise marginals of Plackett-Luce
are Bradley-Terry), so the position matrix is needed only for predictions and log-loss.

Position probabilities: exact enumeration for tiny fields, the forward subset dynamic
programme (O(2^n n)) for medium ones, Gumbel-max Monte Carlo beyond.

Replaying games in order and calibrating K: :mod:`ratings.replay`; the skill-o-meter:
:mod:`ratings.skill`.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike

SCALE = 400.0
EXACT_LIMIT = 16  # players; the subset DP needs 2^n memory


def _weights(ratings: ArrayLike, scale: float = SCALE) -> np.ndarray:
    r = np.asarray(ratings, dtype=float)
    return 10 ** ((r - r.max()) / scale)  # relative weights: no overflow


def _enumerate(w: np.ndarray) -> np.ndarray:
    n = len(w)
    p = np.zeros((n, n))
    for order in itertools.permutations(range(n)):
        probability, remaining = 1.0, w.sum()
        for player in order:
            probability *= w[player] / remaining
            remaining -= w[player]
        for position, player in enumerate(order):
            p[player, position] += probability
    return p


def _subset_dp(w: np.ndarray) -> np.ndarray:
    n = len(w)
    size = 1 << n
    mass = np.zeros(size)  # probability that the first |S| finishers are exactly S
    mass[0] = 1.0
    taken = np.zeros(size)  # total weight of S
    popcount = np.zeros(size, dtype=int)
    for bit in range(n):
        step = 1 << bit
        taken[step : 2 * step] = taken[:step] + w[bit]
        popcount[step : 2 * step] = popcount[:step] + 1
    total = w.sum()
    p = np.zeros((n, n))
    for subset in range(size - 1):
        if mass[subset] == 0:
            continue
        remaining = total - taken[subset]
        for player in range(n):
            bit = 1 << player
            if subset & bit:
                continue
            share = mass[subset] * w[player] / remaining
            mass[subset | bit] += share
            p[player, popcount[subset]] += share
    return p


def _monte_carlo(w: np.ndarray, samples: int, seed: int) -> np.ndarray:
    n = len(w)
    rng = np.random.default_rng(seed)
    keys = np.log(w)[None, :] + rng.gumbel(size=(samples, n))
    positions = np.argsort(np.argsort(-keys, axis=1), axis=1)
    p = np.zeros((n, n))
    for player in range(n):
        p[player] = np.bincount(positions[:, player], minlength=n) / samples
    return p


def position_matrix(
    ratings: ArrayLike,
    method: str = "auto",
    samples: int = 20_000,
    seed: int = 0,
    scale: float = SCALE,
) -> np.ndarray:
    """``p[i, j]``: probability that player i finishes in position j (0 = first).

    Parameters
    ----------
    method : {"auto", "enumerate", "dp", "monte-carlo"}
        "auto": enumeration up to 6 players, the subset DP up to 16, Monte Carlo beyond.
    """
    w = _weights(ratings, scale)
    n = len(w)
    if method == "auto":
        method = "enumerate" if n <= 6 else "dp" if n <= EXACT_LIMIT else "monte-carlo"
    if method == "enumerate":
        return _enumerate(w)
    if method == "dp":
        return _subset_dp(w)
    return _monte_carlo(w, samples, seed)


def payoffs(places: ArrayLike) -> np.ndarray:
    """Payoff of each player: opponents finished ahead of, ties counting a half."""
    places = np.asarray(places, dtype=float)
    n = len(places)
    better = (places[None, :] < places[:, None]).sum(axis=1)
    tied = (places[None, :] == places[:, None]).sum(axis=1)
    return n - 1 - better - (tied - 1) / 2


def beat_chance(mine: ArrayLike, theirs: ArrayLike, scale: float = SCALE) -> np.ndarray:
    """The Elo expectation that a rating of ``mine`` beats one of ``theirs`` (arrays
    broadcast): ``1 / (1 + 10^((theirs - mine) / scale))``."""
    return 1 / (1 + 10 ** ((np.asarray(theirs) - np.asarray(mine)) / scale))


def expected_payoffs(ratings: ArrayLike, scale: float = SCALE) -> np.ndarray:
    """Expected payoffs in closed form: sum of pairwise Elo expectations."""
    r = np.asarray(ratings, dtype=float)
    pairwise = beat_chance(r[:, None], r[None, :], scale)
    np.fill_diagonal(pairwise, 0)
    return pairwise.sum(axis=1)


def update(
    ratings: ArrayLike, places: ArrayLike, k: float = 32, scale: float = SCALE
) -> np.ndarray:
    """Ratings after one game: ``r + K / (n - 1) * (a - e)``."""
    r = np.asarray(ratings, dtype=float)
    return r + k / (len(r) - 1) * (payoffs(places) - expected_payoffs(r, scale))


def order_log_probability(ratings: ArrayLike, places: ArrayLike, scale: float = SCALE) -> float:
    """log P(observed order) under Plackett-Luce (ties broken in listing order)."""
    w = _weights(ratings, scale)
    order = np.argsort(np.asarray(places, dtype=float), kind="stable")
    remaining = w[order][::-1].cumsum()[::-1]
    return float(np.sum(np.log(w[order]) - np.log(remaining)))
