"""Multidimensional Elo, mElo (spec 6.3; Balduzzi et al. 2018).

``P_hat[i, j] = sigma(r_i - r_j + c_i^T Omega c_j)`` with ``c_i`` in R^{2k} and ``Omega`` the
block-diagonal of ``[[0, 1], [-1, 0]]``: a rating plus k disc games per player. Two ways to fit:

* online (:func:`online_step`, :func:`fit_online`): the gradient step of one game at a time,
  the update of the riix and poprank implementations, in natural-log units;
* batch (:func:`fit_batch`): the transitive part by the Hodge projection of the logits onto
  rating differences, then the k strongest discs of what is left (:mod:`.discs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from bridgerank.ratings.gamematrix.discs import decompose
from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.gamematrix.matrix_elo import components_of


def omega_product(c: np.ndarray) -> np.ndarray:
    """``Omega c`` for a vector (or the rows of a matrix) of disc coordinates:
    each pair ``(x, y)`` becomes ``(y, -x)``."""
    out = np.empty_like(c)
    out[..., 0::2] = c[..., 1::2]
    out[..., 1::2] = -c[..., 0::2]
    return out


@dataclass
class Melo:
    """mElo ratings: ``r`` (n,) and disc coordinates ``c`` (n, 2k), natural-log units."""

    r: np.ndarray
    c: np.ndarray

    def logits(self) -> np.ndarray:
        """``r_i - r_j + c_i^T Omega c_j`` for every pair."""
        return self.r[:, None] - self.r[None, :] + self.c @ omega_product(self.c).T

    def probabilities(self) -> np.ndarray:
        return expit(self.logits())


def online_step(
    r_i: float,
    r_j: float,
    c_i: np.ndarray,
    c_j: np.ndarray,
    outcome: float,
    rate_r: float,
    rate_c: float,
) -> tuple[float, float, np.ndarray, np.ndarray, float]:
    """One game of ``i`` against ``j`` (``outcome`` 1, 1/2 or 0 for ``i``; fractions allowed).

    Returns ``(r_i', r_j', c_i', c_j', p_hat)``: ``delta = outcome - p_hat``, the ratings move
    by ``+-rate_r delta``, ``c_i += rate_c delta Omega c_j``, ``c_j -= rate_c delta Omega c_i``
    (both from the old coordinates; test vector G-4).
    """
    p_hat = float(expit(r_i - r_j + c_i @ omega_product(c_j)))
    delta = outcome - p_hat
    return (
        r_i + rate_r * delta,
        r_j - rate_r * delta,
        c_i + rate_c * delta * omega_product(c_j),
        c_j - rate_c * delta * omega_product(c_i),
        p_hat,
    )


def round_robin(players: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The circle method: ``n - 1`` rounds (``n`` rounded up to even) in which every player
    meets one other, together every pair once. Each round is ``(firsts, seconds)``."""
    order = list(players) + ([-1] if len(players) % 2 else [])
    size = len(order)
    rounds = []
    for _ in range(size - 1):
        firsts = np.array(order[: size // 2])
        seconds = np.array(order[size // 2 :][::-1])
        real = (firsts >= 0) & (seconds >= 0)
        rounds.append((firsts[real], seconds[real]))
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


def fit_online(
    game: GameMatrix,
    k: int,
    rng: np.random.Generator,
    epochs: int = 30,
    rate_r: float = 0.1,
    rate_c: float = 0.05,
    init_scale: float = 0.1,
) -> Melo:
    """Online mElo over the observed entries, with the entry's probability as the outcome (the
    expected result of one game). ``c`` starts small and random (``c = 0`` is a stationary
    point).

    Each epoch plays every observed pair once in a random round-robin schedule: the games of
    one round share no player, so applying them together is the same as applying them one
    after another (:func:`online_step`), and a round costs one vector operation.
    """
    r = np.zeros(game.n)
    c = rng.normal(scale=init_scale, size=(game.n, 2 * k))
    for _ in range(epochs):
        rounds = round_robin(rng.permutation(game.n))
        for number in rng.permutation(len(rounds)):
            first, second = rounds[number]
            seen = game.mask[first, second]
            i, j = first[seen], second[seen]
            if not len(i):
                continue
            omega_i, omega_j = omega_product(c[i]), omega_product(c[j])
            p_hat = expit(r[i] - r[j] + np.sum(c[i] * omega_j, axis=1))
            delta = game.p[i, j] - p_hat
            r[i] += rate_r * delta
            r[j] -= rate_r * delta
            c[i] += rate_c * delta[:, None] * omega_j
            c[j] -= rate_c * delta[:, None] * omega_i
    return Melo(r - r.mean(), c)


def transitive_part(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The Hodge projection: ratings ``r`` (mean 0 per component) whose differences come
    closest to the observed logits in least squares. For a complete game,
    ``r_i = (1/n) sum_j L_ij``, the column averages."""
    weight = mask.astype(float)
    laplacian = np.diag(weight.sum(axis=1)) - weight
    components = components_of(mask)
    for label in np.unique(components):
        members = components == label
        laplacian[np.ix_(members, members)] += 1.0 / members.sum()
    r = np.linalg.solve(laplacian, np.sum(weight * logits, axis=1))
    for label in np.unique(components):
        members = components == label
        r[members] -= r[members].mean()
    return r


def fit_batch(game: GameMatrix, k: int) -> Melo:
    """Batch mElo: the transitive part of ``logit P`` (:func:`transitive_part`), then the
    ``k`` strongest discs of the residual, unobserved entries taken as 0 (test vector G-3)."""
    logits = game.logits()
    r = transitive_part(logits, game.mask)
    residual = np.where(game.mask, logits - (r[:, None] - r[None, :]), 0.0)
    discs = decompose(residual)
    k = min(k, len(discs))
    root = np.sqrt(discs.strength[:k])
    c = np.zeros((game.n, 2 * k))
    c[:, 0::2] = discs.u[:, :k] * root
    c[:, 1::2] = discs.v[:, :k] * root
    return Melo(r, c)
