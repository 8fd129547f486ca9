"""Disc ratings fitted on the observed entries only (spec 6.4; the solver of Bertrand,
Czarnecki and Gidel 2023, reimplemented).

``P_hat = sigma(E)``, ``E = sum_l (u_l v_l^T - v_l u_l^T)``; the loss is the mean binary
cross-entropy over the observed entries. Components are fitted one after another; each by
alternating L-BFGS over ``u_l`` (with ``v_l`` fixed) and ``v_l`` (with ``u_l`` fixed), both
convex, with a soft penalty keeping the new vectors orthogonal to the earlier ones. The first
component starts as Elo (``u = 0``, ``v`` constant), so with ``k = 1`` the fit can stay Elo
("skill" ``u``, "consistency" ``v``) or bend into a disc where the data ask for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from bridgerank.ratings.gamematrix.matrix import GameMatrix

_LBFGS = {"gtol": 1e-6}

#: Start of every ``v``: with it, ``u`` is in Elo points.
V_START = np.log(10) / 400


@dataclass
class DiscRating:
    """Fitted discs: ``u[:, l]`` and ``v[:, l]`` for component ``l``."""

    u: np.ndarray
    v: np.ndarray

    def logits(self) -> np.ndarray:
        return self.u @ self.v.T - self.v @ self.u.T

    def probabilities(self) -> np.ndarray:
        return expit(self.logits())


def _penalty(x: np.ndarray, earlier: np.ndarray) -> tuple[float, np.ndarray]:
    """Soft orthogonality to the earlier vectors: ``||x^T V||^2 / (2 ||V||^2)``, gradient."""
    if earlier.shape[1] == 0:
        return 0.0, np.zeros_like(x)
    norm = np.sum(earlier**2)
    projection = x @ earlier
    return float(projection @ projection / (2 * norm)), earlier @ projection / norm


def _objective(
    x: np.ndarray,
    other: np.ndarray,
    is_u: bool,
    base: np.ndarray,
    earlier: np.ndarray,
    weight: np.ndarray,
    p: np.ndarray,
    orthogonality: float,
) -> tuple[float, np.ndarray]:
    """Loss and gradient in ``u`` (``is_u``) or ``v`` of one component, the others fixed."""
    uu, vv = (x, other) if is_u else (other, x)
    e = base + np.outer(uu, vv) - np.outer(vv, uu)
    log_win = log_expit(e)  # one transcendental pass: log sigma(-e) = log sigma(e) - e
    loss = np.sum(weight * ((1 - p) * e - log_win))
    g = weight * (np.exp(log_win) - p)  # antisymmetric, so d/du = 2 g v and d/dv = -2 g u
    grad = 2 * g @ vv if is_u else -2 * g @ uu
    pen, pen_grad = _penalty(x, earlier)
    return float(loss + orthogonality * pen), grad + orthogonality * pen_grad


def _solve(start: np.ndarray, args: tuple) -> np.ndarray:
    return minimize(_objective, start, args=args, jac=True, method="L-BFGS-B", options=_LBFGS).x


def fit_discs(
    game: GameMatrix,
    k: int,
    rounds: int = 10,
    orthogonality: float = 1.0,
) -> DiscRating:
    """Fit ``k`` disc components greedily on the observed entries of ``game``.

    Parameters
    ----------
    game : GameMatrix
    k : int
        Components; the first plays the role of Elo when the game is transitive.
    rounds : int
        Alternations of the two L-BFGS solves per component (``max_alt_min``; 10 by default,
        100 in Bertrand et al.'s experiments).
    orthogonality : float
        Weight of the soft orthogonality penalty.

    Returns
    -------
    DiscRating
    """
    observed = game.mask
    # The mean cross-entropy, times n so a player's gradient is of order one (L-BFGS's
    # gradient tolerance is absolute).
    weight = observed * (game.n / max(observed.sum(), 1))
    p = game.p
    n = game.n
    base = np.zeros((n, n))
    us = np.zeros((n, 0))
    vs = np.zeros((n, 0))
    for _ in range(k):
        earlier = np.hstack([us, vs])
        u, v = np.zeros(n), np.full(n, V_START)

        for _ in range(rounds):
            u = _solve(u, (v, True, base, earlier, weight, p, orthogonality))
            v = _solve(v, (u, False, base, earlier, weight, p, orthogonality))
        base = base + np.outer(u, v) - np.outer(v, u)
        us = np.column_stack([us, u])
        vs = np.column_stack([vs, v])
    return DiscRating(us, vs)
