"""What sampling noise alone makes of a transitive game.

An entry built from a few boards is noisy, and noise looks like cycles: with ``m`` observed
pairs among ``n`` players, ratings can explain only ``n - 1`` directions of the ``m``, so even
a perfectly transitive game measured on few boards shows a transitive share well below 1. The
reference: draw each entry's wins anew from the Elo fit of the game (a purely transitive game
with the same players, pairs and numbers of boards), smooth them as the data were, and read the
transitive share of each draw. A share inside that range is what a transitive game measured
this way would show; only a share below it is evidence of cycles.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.gamematrix.matrix_elo import game_elo
from bridgerank.ratings.gamematrix.structure import transitive_share


@dataclass
class NoiseReference:
    """The transitive share of transitive games measured like this one: 5%, mean, 95%."""

    low: float
    mean: float
    high: float

    def explains(self, share: float) -> bool:
        """The observed share is within what noise on a transitive game gives."""
        return share >= self.low


def noise_reference(
    game: GameMatrix, rng: np.random.Generator, draws: int = 200, alpha: float = 0.5
) -> NoiseReference:
    """Transitive shares of ``draws`` transitive games measured like ``game`` (module
    docstring); entries are redrawn from their number of games (ties counted as games)."""
    r = game_elo(game, weighted=True)
    expected = expit(r[:, None] - r[None, :])
    upper = np.triu(game.mask, 1)
    rows, cols = np.nonzero(upper)
    games = np.rint(game.counts[rows, cols]).astype(np.int64)
    shares = np.empty(draws)
    for draw in range(draws):
        won = rng.binomial(games, expected[rows, cols])
        wins = np.zeros((game.n, game.n))
        wins[rows, cols] = won
        wins[cols, rows] = games - won
        simulated = GameMatrix.from_counts(wins, np.zeros_like(wins), (), alpha, 1)
        simulated = GameMatrix(simulated.p, game.mask, game.counts)
        shares[draw] = transitive_share(simulated)
    return NoiseReference(
        float(np.quantile(shares, 0.05)), float(shares.mean()), float(np.quantile(shares, 0.95))
    )
