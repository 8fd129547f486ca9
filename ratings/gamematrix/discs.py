"""The real Schur (normal) decomposition of an antisymmetric matrix into disc games
(spec 6.4; Bertrand, Czarnecki and Gidel 2023).

``L = sum_l lambda_l (u_l v_l^T - v_l u_l^T)`` with ``lambda_1 >= lambda_2 >= ... > 0`` and
``{u_l, v_l}`` orthonormal. Each term is a disc game: player ``i`` is the point
``(u_li, v_li)`` and beats ``j`` by ``lambda_l rho_i rho_j sin(theta_j - theta_i)``. A disc is
transitive when every player's point lies in one open half-plane through the origin (then one
of its vectors can be made positive and the disc orders the players); otherwise it holds a
cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import schur

#: Blocks smaller than this (relative to the largest) are numerical zeros, not discs.
RELATIVE_ZERO = 1e-10


@dataclass
class Discs:
    """Disc games, strongest first: ``strength[l]`` is lambda_l; ``u[:, l]``, ``v[:, l]``."""

    strength: np.ndarray
    u: np.ndarray
    v: np.ndarray

    def __len__(self) -> int:
        return len(self.strength)

    def reconstruct(self, k: int | None = None) -> np.ndarray:
        """The sum of the ``k`` strongest discs (all by default): the best rank-2k
        approximation of the decomposed matrix in Frobenius norm."""
        k = len(self) if k is None else min(k, len(self))
        u, v, lam = self.u[:, :k], self.v[:, :k], self.strength[:k]
        return (u * lam) @ v.T - (v * lam) @ u.T

    def is_transitive(self, disc: int) -> bool:
        """Disc ``disc`` orders the players: its nonzero points fit in an open half-plane
        through the origin (the largest gap between their sorted angles exceeds pi)."""
        return disc_is_transitive(self.u[:, disc], self.v[:, disc])


def disc_is_transitive(u: np.ndarray, v: np.ndarray, tol: float = 1e-9) -> bool:
    """Whether the points ``(u_i, v_i)`` lie in an open half-plane through the origin
    (points at the origin are ignored: such a player ties everyone in this disc)."""
    radius = np.hypot(u, v)
    live = radius > tol * max(float(radius.max(initial=0.0)), 1.0)
    if live.sum() <= 1:
        return True
    angles = np.sort(np.arctan2(v[live], u[live]))
    gaps = np.diff(np.concatenate([angles, angles[:1] + 2 * np.pi]))
    return bool(gaps.max() > np.pi + tol)


def decompose(matrix: np.ndarray, atol: float = 1e-12) -> Discs:
    """Disc games of an antisymmetric matrix by the real Schur form ``L = Z T Z^T``.

    Parameters
    ----------
    matrix : numpy.ndarray
        Antisymmetric (``L = logit P`` or ``P - 1/2``); symmetrised as ``(L - L^T)/2`` first,
        to absorb rounding.
    atol : float
        Blocks weaker than this are zeros (a residual of rounding errors holds no disc).

    Returns
    -------
    Discs
        In decreasing strength. A disc's vectors are unique only up to a rotation in their
        plane: compare strengths and reconstructions, never raw vectors.
    """
    skew = (np.asarray(matrix, dtype=float) - np.asarray(matrix, dtype=float).T) / 2
    n = skew.shape[0]
    if n < 2 or np.abs(skew).max() <= atol:
        return Discs(np.zeros(0), np.zeros((n, 0)), np.zeros((n, 0)))
    t, z = schur(skew, output="real")
    floor = max(RELATIVE_ZERO * np.abs(t).max(), atol)
    strengths, us, vs = [], [], []
    col = 0
    while col < n - 1:
        b = t[col, col + 1]
        if abs(b) > floor and abs(t[col + 1, col]) > floor:
            u, v = z[:, col], z[:, col + 1]
            if b < 0:
                u, v = v, u
            strengths.append(abs(b))
            us.append(u)
            vs.append(v)
            col += 2
        else:
            col += 1
    order = np.argsort(strengths)[::-1]
    return Discs(
        np.asarray(strengths)[order],
        np.column_stack(us)[:, order] if us else np.zeros((n, 0)),
        np.column_stack(vs)[:, order] if vs else np.zeros((n, 0)),
    )
