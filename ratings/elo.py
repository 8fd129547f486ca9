"""Generalized multiplayer Elo (the ``multielo`` package's model), with ties and history.

For a game of N >= 2 players finishing in places (lower is better, equal = tie):

* expected score ``E_A = sum_{i != A} 1 / (1 + base^((R_i - R_A) / D)) / (N (N - 1) / 2)``;
* actual score from a score function of the place: linear ``(N - p) / (N (N - 1) / 2)`` or
  exponential ``(alpha^(N - p) - 1) / sum_i (alpha^(N - i) - 1)``; tied players share the mean
  of the scores of the places they straddle;
* update ``R'_A = R_A + K (N - 1) (S_A - E_A)``: zero-sum, since scores and expectations both
  sum to 1.

Defaults as the package: K = 32, D = 400, base 10, alpha = 1 (linear), initial rating 1000.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from bridgerank.core.errors import InvalidGame


def score_function(n: int, alpha: float = 1.0) -> np.ndarray:
    """Actual scores of places 1..n (linear when ``alpha == 1``, exponential above)."""
    if alpha < 1:
        raise InvalidGame(f"score function base must be >= 1, not {alpha}")
    places = np.arange(1, n + 1)
    if alpha == 1:
        return (n - places) / (n * (n - 1) / 2)
    powers = alpha ** (n - places) - 1
    return powers / powers.sum()


def actual_scores(result_order: ArrayLike, alpha: float = 1.0) -> np.ndarray:
    """Scores of players given their places (ties share the mean of their places' scores)."""
    order = np.asarray(result_order, dtype=float)
    n = len(order)
    base = score_function(n, alpha)
    ranks = np.argsort(np.argsort(order, kind="stable"), kind="stable")
    scores = base[ranks]
    for place in np.unique(order):
        tied = order == place
        scores[tied] = scores[tied].mean()
    return scores


def expected_scores(ratings: ArrayLike, d: float = 400, base: float = 10) -> np.ndarray:
    """Expected scores: normalised sums of pairwise Elo expectations (sum 1)."""
    ratings = np.asarray(ratings, dtype=float)
    n = len(ratings)
    difference = ratings[None, :] - ratings[:, None]  # [A, i] = R_i - R_A
    pairwise = 1 / (1 + base ** (difference / d))
    np.fill_diagonal(pairwise, 0)
    return pairwise.sum(axis=1) / (n * (n - 1) / 2)


def update(
    ratings: ArrayLike,
    result_order: ArrayLike,
    k: float = 32,
    d: float = 400,
    alpha: float = 1.0,
    base: float = 10,
) -> np.ndarray:
    """New ratings after one game."""
    ratings = np.asarray(ratings, dtype=float)
    n = len(ratings)
    if n < 2:
        raise InvalidGame("a game needs at least two players")
    return ratings + k * (n - 1) * (
        actual_scores(result_order, alpha) - expected_scores(ratings, d, base)
    )


@dataclass
class EloTracker:
    """Ratings over a sequence of games, with each player's history.

    Games are processed in the order given (sort them by date first): the method is online,
    and the result depends on that order.
    """

    k: float = 32
    d: float = 400
    alpha: float = 1.0
    initial: float = 1000
    ratings: dict[Hashable, float] = field(default_factory=dict)
    history: dict[Hashable, list[tuple[int, float]]] = field(default_factory=dict)
    games: int = 0

    def play(self, players: Sequence[Hashable], result_order: Sequence[float]) -> None:
        """Record one game: players and their places."""
        if len(players) < 2:
            return
        current = [self.ratings.get(player, self.initial) for player in players]
        new = update(current, result_order, self.k, self.d, self.alpha)
        self.games += 1
        for player, rating in zip(players, new):
            self.ratings[player] = float(rating)
            self.history.setdefault(player, []).append((self.games, float(rating)))

    def play_all(self, games: Iterable[tuple[Sequence[Hashable], Sequence[float]]]) -> None:
        """Record games in order."""
        for players, result_order in games:
            self.play(players, result_order)
