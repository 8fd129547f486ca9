"""Synthetic games for the paper's protocol: a transitive part plus ``k`` random disc games.

``logit P = (rho_i - rho_j) + cyclic * sum_l (u_li v_lj - v_li u_lj)`` with ``rho``, ``u``,
``v`` standard normal per player: each part adds the same variance (2 per unit of scale) to an
entry's logit, so ``cyclic`` sets how hybrid the game is.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from bridgerank.ratings.gamematrix.matrix import GameMatrix


def synthetic_game(
    n: int, k: int, rng: np.random.Generator, cyclic: float = 1.0, transitive: float = 1.0
) -> GameMatrix:
    """A complete game of ``n`` players: transitive part of scale ``transitive`` and ``k``
    discs of scale ``cyclic`` (module docstring)."""
    rho = transitive * rng.normal(size=n)
    logits = rho[:, None] - rho[None, :]
    for _ in range(k):
        u, v = rng.normal(size=n), rng.normal(size=n)
        logits += cyclic * (np.outer(u, v) - np.outer(v, u))
    return GameMatrix.complete(expit(logits))
