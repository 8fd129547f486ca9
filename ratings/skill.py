"""The skill-o-meter (Duersch, Lambrecht and Oechssler): how much a game is decided by skill.

In a p-deterministic game (with probability p the stronger player always wins, else the order
is random) the spread of Elo ratings, with K calibrated on the games, grows with p; the
benchmark table (N = 1000 players) inverts an observed spread into the p of a real game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike

from bridgerank.ratings.replay import Games, calibrate, replay

Match = tuple[Sequence[int], Sequence[float]]

# sigma of final ratings against p, from the benchmark (spec 5.7): p, then the pooled and the
# 2-player rows.
_BENCHMARK = np.array(
    [
        [0.0, 0.0, 0.0],
        [0.05, 10.039, 8.852],
        [0.10, 20.828, 20.464],
        [0.20, 42.108, 42.533],
        [0.30, 64.391, 65.353],
        [0.40, 89.625, 90.422],
        [0.50, 118.813, 120.667],
        [0.60, 154.972, 155.811],
        [0.70, 204.694, 208.627],
        [0.80, 280.362, 283.780],
        [0.90, 443.062, 452.934],
        [0.95, 678.712, 678.712],
        [0.99, 1488.734, 1488.734],
    ]
)
BENCHMARK_P = _BENCHMARK[:, 0]
BENCHMARK_SIGMA = {"pooled": _BENCHMARK[:, 1], "n2": _BENCHMARK[:, 2]}


def simulate_p_deterministic(
    n_players: int, matches: int, per_match: int, p: float, rng: np.random.Generator
) -> list[Match]:
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


def read_spread(
    k: float, ratings: ArrayLike, played: ArrayLike, min_games: int = 25, table: str = "pooled"
) -> SkillReading:
    """The verdict on ratings already replayed with K: spread of regular players, inverted."""
    values, counts = np.asarray(ratings, dtype=float), np.asarray(played)
    regular = values[counts >= min_games]
    sigma = float(np.std(regular, ddof=1)) if len(regular) > 1 else 0.0
    return SkillReading(k, sigma, p_from_sigma(sigma, table), int(len(regular)))


def skill_o_meter(
    matches: Sequence[Match], n_players: int, min_games: int = 25, table: str = "pooled"
) -> SkillReading:
    """Calibrate K, rate, take the spread of regular players' ratings, invert it into p."""
    games = Games.from_matches(matches, n_players)
    k, _ = calibrate(games, "dlo")
    played = np.zeros(n_players, dtype=int)
    for players, _ in matches:
        played[list(players)] += 1
    return read_spread(k, replay(games, "dlo", k).ratings, played, min_games, table)
