"""Elo ratings of a game matrix (spec 6.2; Balduzzi et al. 2018, Prop. 1).

The ratings ``r`` solve ``sum_j M_ij w_ij (P_ij - sigma(r_i - r_j)) = 0`` for every ``i``:
Bradley-Terry with fractional win counts ``w_ij P_ij``, one virtual game per observed ordered
pair (``w = 1``) or as many as the entry's games. The loss is convex and its Hessian a graph
Laplacian, so a damped Newton iteration reaches the same fixed point as Newman's in a handful of
dense solves (the matrices here have at most a few hundred players).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit

from bridgerank.core.errors import ConvergenceWarning, NoEstimate
from bridgerank.ratings.gamematrix.matrix import GameMatrix

#: Elo points per natural-log unit of strength.
ELO_POINTS = 400 / np.log(10)


def _loss(r: np.ndarray, p: np.ndarray, weight: np.ndarray) -> float:
    diff = r[:, None] - r[None, :]
    return float(-np.sum(weight * (p * log_expit(diff) + (1 - p) * log_expit(-diff))))


def components_of(mask: np.ndarray) -> np.ndarray:
    """Connected component of every player in the pattern of observed entries."""
    return connected_components(mask.astype(np.int8), directed=False)[1]


def check_estimable(game: GameMatrix) -> None:
    """Raise :class:`NoEstimate` unless every component of the observed pattern is strongly
    connected by the edges ``j -> i`` where ``i`` beats ``j`` with positive probability."""
    beats = game.mask & (game.p > 0)
    n_strong, strong = connected_components(
        beats.astype(np.int8), directed=True, connection="strong"
    )
    weak = components_of(game.mask)
    if n_strong != len(np.unique(weak)):
        lonely = [game.labels[i] for i in range(game.n) if (strong == strong[i]).sum() == 1][:3]
        raise NoEstimate(
            "the Elo ratings of this game do not exist: some players win (or lose) every "
            f"observed entry with probability 1 (e.g. {lonely}); smooth the counts (alpha > 0) "
            "or clip the probabilities"
        )


def game_elo(
    game: GameMatrix,
    weighted: bool = False,
    tol: float = 1e-12,
    max_iter: int = 200,
) -> np.ndarray:
    """Elo ratings of a game, in natural-log units, mean 0 in each connected component.

    Parameters
    ----------
    game : GameMatrix
        Only its observed entries count.
    weighted : bool
        Weight each entry by its number of games (``W = n_ij P_ij``) instead of one game each.
    tol : float
        Stop when no rating moves more than this in a Newton step (spec: 1e-12 for the tests).
    max_iter : int
        Newton steps at most; a :class:`ConvergenceWarning` says when it was reached.

    Returns
    -------
    numpy.ndarray
        ``r``; ``sigma(r_i - r_j)`` is the fitted probability that ``i`` beats ``j``. Multiply by
        :data:`ELO_POINTS` for Elo points. Players with no observed entry get 0.

    Raises
    ------
    NoEstimate
        When some player wins or loses all its observed entries with probability 1.

    Notes
    -----
    For a complete game the order of ``r`` is the order of the row sums of ``P``, so Elo can
    rank ``i`` above ``j`` although ``P_ij < 1/2`` (test vector G-1).
    """
    check_estimable(game)
    weight = game.mask * (game.counts if weighted else 1.0)
    p = game.p
    components = components_of(game.mask)
    # The Laplacian is singular along each component's constant vector: adding the projector
    # onto those vectors makes it invertible without moving the step (the gradient sums to 0
    # within a component).
    projector = np.zeros((game.n, game.n))
    for label in np.unique(components):
        members = components == label
        projector[np.ix_(members, members)] = 1.0 / members.sum()
    r = np.zeros(game.n)
    loss = _loss(r, p, weight)
    for _ in range(max_iter):
        diff = r[:, None] - r[None, :]
        q = expit(diff)
        gradient = -2 * np.sum(weight * (p - q), axis=1)
        curvature = 2 * weight * q * (1 - q)
        hessian = np.diag(curvature.sum(axis=1)) - curvature + projector
        step = -np.linalg.solve(hessian, gradient)
        scale = 1.0
        while True:  # halve the step until the loss does not rise (far from the optimum)
            trial = r + scale * step
            trial_loss = _loss(trial, p, weight)
            if trial_loss <= loss + 1e-12 * max(abs(loss), 1.0) or scale < 1e-8:
                break
            scale /= 2
        r, loss = trial, trial_loss
        for label in np.unique(components):
            members = components == label
            r[members] -= r[members].mean()
        if np.max(np.abs(scale * step)) < tol:
            return r
    warnings.warn(
        f"the Elo ratings of the game did not converge in {max_iter} Newton steps",
        ConvergenceWarning,
        stacklevel=2,
    )
    return r
