"""Multiplayer Elo through ranking probabilities (Duersch, Lambrecht and Oechssler), K
calibration, and the skill-o-meter.

Finishing orders follow Plackett-Luce with weights ``w_i = 10^(r_i / 400)``. Position ``j``
(0 = first) pays ``n - 1 - j``, tied players share the mean payoff of their positions; the
update is ``r_i += K / (n - 1) * (a_i - e_i)`` with ``e_i`` the expected payoff, which has the
closed form ``sum_k 1 / (1 + 10^((r_k - r_i) / 400))`` (pairwise marginals of Plackett-Luce
are Bradley-Terry), so the position matrix is needed only for predictions and log-loss.

Position probabilities: exact enumeration for tiny fields, the forward subset dynamic
programme (O(2^n n)) for medium ones, Gumbel-max Monte Carlo beyond.

The skill-o-meter: in a p-deterministic game (with probability p the stronger player always
wins, else the order is random) the spread of Elo ratings grows with p; the benchmark table
(N = 1000 players) inverts an observed spread into the p of a real game.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy.optimize import minimize_scalar

SCALE = 400.0
EXACT_LIMIT = 16  # players; the subset DP needs 2^n memory

# sigma of final ratings against p, from the benchmark (spec 5.7): pooled and 2-player rows.
BENCHMARK_P = np.array([0.0, 0.05, 0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.70, 0.80, 0.90, 0.95,
                        0.99])
BENCHMARK_SIGMA = {
    "pooled": np.array([0.0, 10.039, 20.828, 42.108, 64.391, 89.625, 118.813, 154.972, 204.694,
                        280.362, 443.062, 678.712, 1488.734]),
    "n2": np.array([0.0, 8.852, 20.464, 42.533, 65.353, 90.422, 120.667, 155.811, 208.627,
                    283.780, 452.934, 678.712, 1488.734]),
}


def _weights(ratings: Sequence[float], scale: float = SCALE) -> np.ndarray:
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
        taken[step:2 * step] = taken[:step] + w[bit]
        popcount[step:2 * step] = popcount[:step] + 1
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


def position_matrix(ratings: Sequence[float], method: str = "auto", samples: int = 20_000,
                    seed: int = 0, scale: float = SCALE) -> np.ndarray:
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


def payoffs(places: Sequence[float]) -> np.ndarray:
    """Payoff of each player: opponents finished ahead of, ties counting a half."""
    places = np.asarray(places, dtype=float)
    n = len(places)
    better = (places[None, :] < places[:, None]).sum(axis=1)
    tied = (places[None, :] == places[:, None]).sum(axis=1)
    return n - 1 - better - (tied - 1) / 2


def expected_payoffs(ratings: Sequence[float], scale: float = SCALE) -> np.ndarray:
    """Expected payoffs in closed form: sum of pairwise Elo expectations."""
    r = np.asarray(ratings, dtype=float)
    pairwise = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / scale))
    np.fill_diagonal(pairwise, 0)
    return pairwise.sum(axis=1)


def update(ratings: Sequence[float], places: Sequence[float], k: float = 32,
           scale: float = SCALE) -> np.ndarray:
    """Ratings after one game: ``r + K / (n - 1) * (a - e)``."""
    r = np.asarray(ratings, dtype=float)
    return r + k / (len(r) - 1) * (payoffs(places) - expected_payoffs(r, scale))


def order_log_probability(ratings: Sequence[float], places: Sequence[float],
                          scale: float = SCALE) -> float:
    """log P(observed order) under Plackett-Luce (ties broken in listing order)."""
    w = _weights(ratings, scale)
    order = np.argsort(np.asarray(places, dtype=float), kind="stable")
    remaining = w[order][::-1].cumsum()[::-1]
    return float(np.sum(np.log(w[order]) - np.log(remaining)))


Match = tuple[Sequence[int], Sequence[float]]


def replay(matches: Sequence[Match], k: float, n_players: int, scale: float = SCALE,
           loss: str = "mse") -> tuple[np.ndarray, float]:
    """Run the ratings through matches in order from 0; return them and the prequential loss.

    ``mse``: mean over matches of the mean over players of ((a - e) / (n - 1))^2, the
    reference's Brier-type loss; ``log``: mean negative log Plackett-Luce probability of the
    observed order, with pre-match ratings.
    """
    ratings = np.zeros(n_players)
    total = 0.0
    for players, places in matches:
        players = list(players)
        current = ratings[players]
        n = len(players)
        if loss == "mse":
            error = (payoffs(places) - expected_payoffs(current, scale)) / (n - 1)
            total += float(np.mean(error ** 2))
        else:
            total -= order_log_probability(current, places, scale)
        ratings[players] = update(current, places, k, scale)
    return ratings, total / max(len(matches), 1)


def calibrate_k(matches: Sequence[Match], n_players: int, scale: float = SCALE,
                loss: str = "mse") -> tuple[float, float]:
    """K minimising the prequential loss on [0, scale / 2] (bounded Brent); returns (K, loss)."""
    result = minimize_scalar(lambda k: replay(matches, k, n_players, scale, loss)[1],
                             bounds=(0, scale / 2), method="bounded",
                             options={"xatol": 1e-6, "maxiter": 500})
    return float(result.x), float(result.fun)


def simulate_p_deterministic(n_players: int, matches: int, per_match: int, p: float,
                             rng: np.random.Generator) -> list[Match]:
    """Matches of a p-deterministic game: player 0 strongest; with probability p by skill."""
    out: list[Match] = []
    for _ in range(matches):
        players = rng.choice(n_players, per_match, replace=False)
        if rng.random() < p:
            players = np.sort(players)
        out.append((players.tolist(), list(range(1, per_match + 1))))
    return out


def p_from_sigma(sigma: float, table: str = "pooled") -> float:
    """Invert a rating spread into p by monotone interpolation of the benchmark table."""
    values = BENCHMARK_SIGMA[table]
    if sigma <= 0:
        return 0.0
    if sigma >= values[-1]:
        return float(BENCHMARK_P[-1])
    return float(np.interp(sigma, values, BENCHMARK_P))


@dataclass
class SkillReading:
    """The skill-o-meter's verdict on a data set."""

    k: float
    sigma: float
    p: float
    players: int


def skill_o_meter(matches: Sequence[Match], n_players: int, min_games: int = 25,
                  table: str = "pooled") -> SkillReading:
    """Calibrate K, rate, take the spread of regular players' ratings, invert it into p."""
    k, _ = calibrate_k(matches, n_players)
    ratings, _ = replay(matches, k, n_players)
    games = np.zeros(n_players, dtype=int)
    for players, _ in matches:
        games[list(players)] += 1
    regular = ratings[games >= min_games]
    sigma = float(np.std(regular, ddof=1)) if len(regular) > 1 else 0.0
    return SkillReading(k, sigma, p_from_sigma(sigma, table), int(len(regular)))
