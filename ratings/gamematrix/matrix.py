"""A game matrix with its mask of observed entries, and the scores of a reconstruction.

``P[i, j]`` is the probability that ``i`` beats ``j``; ``P + P.T == 1`` and the diagonal is
one half. ``mask[i, j]`` is True where the entry was observed (symmetric, False on the
diagonal). ``counts[i, j]`` is the number of games behind an entry (1 where unknown).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Sequence

import numpy as np

from bridgerank.core.errors import InvalidGame

#: Probabilities are clipped to [EPS, 1 - EPS] before taking logits (spec 6.8).
EPS = 1e-6


@dataclass
class GameMatrix:
    """Win probabilities among ``n`` players, with the observed entries and their counts."""

    p: np.ndarray
    mask: np.ndarray
    counts: np.ndarray
    labels: list[Hashable] = field(default_factory=list)

    def __post_init__(self) -> None:
        p = np.asarray(self.p, dtype=float)
        n = p.shape[0]
        if p.ndim != 2 or p.shape != (n, n):
            raise InvalidGame(f"a game matrix must be square, got shape {p.shape}")
        mask = np.asarray(self.mask, dtype=bool).copy()
        np.fill_diagonal(mask, False)
        if (mask != mask.T).any():
            raise InvalidGame("the mask of observed entries must be symmetric")
        seen = np.where(mask, p, 0.5)
        if np.any((seen < 0) | (seen > 1)) or not np.allclose(
            (seen + seen.T)[mask], 1.0, atol=1e-9
        ):
            raise InvalidGame("observed entries must be probabilities with P[i,j] + P[j,i] = 1")
        self.p = np.where(mask, p, 0.5)
        np.fill_diagonal(self.p, 0.5)
        self.mask = mask
        self.counts = np.where(mask, np.asarray(self.counts, dtype=float), 0.0)
        if not self.labels:
            self.labels = list(range(n))

    @classmethod
    def complete(cls, p: np.ndarray, labels: Sequence[Hashable] = ()) -> GameMatrix:
        """A fully observed game (every entry one game's worth)."""
        n = np.asarray(p).shape[0]
        mask = ~np.eye(n, dtype=bool)
        return cls(np.asarray(p, dtype=float), mask, mask.astype(float), list(labels))

    @classmethod
    def from_counts(
        cls,
        wins: np.ndarray,
        ties: np.ndarray,
        labels: Sequence[Hashable] = (),
        alpha: float = 0.5,
        min_games: int = 1,
    ) -> GameMatrix:
        """Smoothed win probabilities from counts (spec 7(d) step 3).

        ``P[i,j] = (wins[i,j] + ties[i,j]/2 + alpha) / (n_ij + 2 alpha)`` with
        ``n_ij = wins[i,j] + wins[j,i] + ties[i,j]``; entries with fewer than ``min_games``
        games are unobserved. ``alpha = 0.5`` (Jeffreys) keeps every logit finite.
        """
        wins = np.asarray(wins, dtype=float)
        ties = np.asarray(ties, dtype=float)
        if (ties != ties.T).any():
            raise InvalidGame("ties must be symmetric")
        games = wins + wins.T + ties
        with np.errstate(invalid="ignore", divide="ignore"):
            p = (wins + ties / 2 + alpha) / (games + 2 * alpha)
        mask = games >= max(min_games, 1)
        return cls(np.where(mask, p, 0.5), mask, games, list(labels))

    @property
    def n(self) -> int:
        return self.p.shape[0]

    @property
    def payoff(self) -> np.ndarray:
        """``A = P - 1/2``: antisymmetric, positive where the row player wins."""
        return self.p - 0.5

    def logits(self, eps: float = EPS) -> np.ndarray:
        """``logit(P)`` with probabilities clipped to ``[eps, 1 - eps]``; 0 where unobserved."""
        clipped = np.clip(self.p, eps, 1 - eps)
        return np.where(self.mask, np.log(clipped) - np.log1p(-clipped), 0.0)

    def restricted(self, mask: np.ndarray) -> GameMatrix:
        """The same game with only the entries of ``mask`` (and of this one's) observed."""
        return GameMatrix(self.p, self.mask & mask, self.counts, self.labels)

    @property
    def complete_observed(self) -> bool:
        """Every off-diagonal entry observed."""
        return bool(self.mask.sum() == self.n * (self.n - 1))


def holdout_mask(n: int, rng: np.random.Generator, keep: float = 0.9) -> np.ndarray:
    """Training mask in the manner of Bertrand et al.'s ``generate_mask``: keep each ordered
    entry with probability ``keep``, then drop an entry whose transpose was dropped, so about
    ``1 - keep**2`` (19%) of the pairs are held out (spec 6.6)."""
    kept = rng.random((n, n)) < keep
    kept &= kept.T
    np.fill_diagonal(kept, False)
    return kept


def sign_accuracy(predicted: np.ndarray, game: GameMatrix, pairs: np.ndarray) -> float | None:
    """Share of the pairs in ``pairs`` (a boolean n x n mask) whose winner ``predicted`` gets
    right: ``sign(predicted) == sign(A)``, ties of ``A`` and the diagonal left out (spec 6.6).

    ``predicted`` is any antisymmetric score of the row player (a logit, or ``P_hat - 1/2``).
    None when no decided pair is in ``pairs``.
    """
    a = game.payoff
    scored = pairs & game.mask & (a != 0)
    np.fill_diagonal(scored, False)
    if not scored.any():
        return None
    return float(np.mean(np.sign(predicted[scored]) == np.sign(a[scored])))


def log_loss(probabilities: np.ndarray, game: GameMatrix, pairs: np.ndarray) -> float | None:
    """Mean cross-entropy of the predicted probabilities against the observed ``P`` over the
    ordered pairs of ``pairs`` (each entry weighted by its number of games)."""
    scored = pairs & game.mask
    np.fill_diagonal(scored, False)
    if not scored.any():
        return None
    q = np.clip(probabilities[scored], 1e-12, 1 - 1e-12)
    p = game.p[scored]
    weight = game.counts[scored]
    loss = -(p * np.log(q) + (1 - p) * np.log1p(-q))
    return float(np.sum(weight * loss) / np.sum(weight))
