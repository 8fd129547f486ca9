"""Hyperbolic Elo (spec 6.5; Vadori and Savani 2024, Theorem 1).

Squash the logits with ``phi_beta(x) = tanh(beta x) / beta`` (odd, increasing, bounded by
``1/beta``), take the Elo ratings of the squashed game, and map rating differences back with
the inverse. As beta grows every win counts nearly the same, so Elo of the squashed game
approaches Elo of the sign game and keeps every transitive relation that plain Elo can break.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from bridgerank.ratings.gamematrix.matrix import GameMatrix, sign_accuracy
from bridgerank.ratings.gamematrix.matrix_elo import game_elo

#: beta = 0 means plain Elo.
BETAS = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)


def phi(x: np.ndarray, beta: float) -> np.ndarray:
    """``tanh(beta x) / beta`` (the identity at beta = 0)."""
    return np.asarray(x, dtype=float) if beta == 0 else np.tanh(beta * np.asarray(x)) / beta


def phi_inverse(y: np.ndarray, beta: float) -> np.ndarray:
    """``artanh(beta y) / beta`` for ``|y| < 1/beta``, and +-inf beyond (spec 6.5's convention,
    so the reconstruction stays a probability)."""
    y = np.asarray(y, dtype=float)
    if beta == 0:
        return y
    z = beta * y
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = np.arctanh(np.clip(z, -1 + 1e-300, 1 - 1e-16)) / beta
    return np.where(z >= 1, np.inf, np.where(z <= -1, -np.inf, inside))


def squashed(game: GameMatrix, beta: float) -> GameMatrix:
    """The transformed game ``P_beta = sigma(phi_beta(logit P))`` on the same entries."""
    p_beta = np.where(game.mask, expit(phi(game.logits(), beta)), 0.5)
    return GameMatrix(p_beta, game.mask, game.counts, game.labels)


@dataclass
class HyperbolicElo:
    """Ratings ``r`` of the squashed game at ``beta`` (display ``beta * r``: differences shrink
    like 1/beta)."""

    beta: float
    r: np.ndarray

    def logits(self) -> np.ndarray:
        """Reconstructed logits ``phi_beta^{-1}(r_i - r_j)`` (infinite where saturated)."""
        return phi_inverse(self.r[:, None] - self.r[None, :], self.beta)

    def probabilities(self) -> np.ndarray:
        return expit(self.logits())


def hyperbolic_elo(game: GameMatrix, beta: float) -> HyperbolicElo:
    """Hyperbolic Elo of ``game`` at one ``beta`` (test vector G-1's table)."""
    return HyperbolicElo(beta, game_elo(squashed(game, beta), tol=1e-13))


def preserves_transitivity(game: GameMatrix, beta: float) -> bool:
    """The exact check for a complete game: every pair with ``A_ij > 0`` has the larger row sum
    of ``P_beta`` (by Elo's ordering property, its rating is then higher)."""
    rows = squashed(game, beta).p.sum(axis=1)
    wins = game.payoff > 0
    return bool(np.all((rows[:, None] > rows[None, :])[wins]))


def sufficient_beta_holds(game: GameMatrix, beta: float) -> bool:
    """Condition (S) of spec 6.5 for a complete, regular, transitive game:
    ``2 (m_beta - 1/2) > (n - 2)(M_beta - m_beta)`` with ``m_beta`` and ``M_beta`` the squashed
    smallest and largest winning probabilities."""
    logits = game.logits()
    winning = logits[game.payoff > 0]
    low = expit(phi(winning.min(), beta))
    high = expit(phi(winning.max(), beta))
    return bool(2 * (low - 0.5) > (game.n - 2) * (high - low))


def search_beta(
    game: GameMatrix, pairs: np.ndarray | None = None, betas: tuple[float, ...] = BETAS
) -> HyperbolicElo:
    """The beta of ``betas`` whose ratings get most winners of ``pairs`` (default: the
    observed entries) right, the smallest on ties; the spec's "double beta until the sign
    accuracy stops improving", over a fixed ladder."""
    if not betas:
        raise ValueError("search_beta needs at least one beta")
    pairs = game.mask if pairs is None else pairs
    best: tuple[float, HyperbolicElo] | None = None
    for beta in betas:
        fitted = hyperbolic_elo(game, beta)
        difference = fitted.r[:, None] - fitted.r[None, :]
        accuracy = sign_accuracy(difference, game, pairs) or 0.0
        if best is None or accuracy > best[0] + 1e-12:
            best = (accuracy, fitted)
    return best[1]  # type: ignore[index]


def _bisect(holds, low: float, high: float) -> float:
    """The smallest beta in ``[low, high]`` where the monotone condition ``holds`` starts."""
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (low, middle) if holds(middle) else (middle, high)
    return high


def exact_threshold(game: GameMatrix, high: float = 1e3) -> float:
    """For a complete transitive game: the beta from which :func:`preserves_transitivity`
    holds (by bisection; the check is monotone in beta for such games)."""
    return _bisect(lambda beta: preserves_transitivity(game, beta), 0.0, high)


def explicit_threshold(game: GameMatrix, high: float = 1e3) -> float:
    """The beta from which spec 6.5's explicit sufficient form holds:
    ``tanh(beta l_min) h(beta) > (n - 2)(1 - tanh(beta l_min))`` with
    ``h(beta) = 4 beta tanh(1/(2 beta))``."""
    low_logit = float(game.logits()[game.payoff > 0].min())

    def holds(beta: float) -> bool:
        t = np.tanh(beta * low_logit)
        return bool(t * 4 * beta * np.tanh(1 / (2 * beta)) > (game.n - 2) * (1 - t))

    return _bisect(holds, 1e-9, high)


def asymptotic_threshold(game: GameMatrix) -> float:
    """``ln(n - 1) / (2 l_min)``: the explicit bound's large-beta form."""
    return float(np.log(game.n - 1) / (2 * game.logits()[game.payoff > 0].min()))
