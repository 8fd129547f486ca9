"""One interface over the game-matrix methods: fit on the observed entries of a game with
``k`` cyclic components, reconstruct every entry, score the reconstruction.

Every method gets the same capacity: one transitive component plus ``k`` discs (spec 6.6: "all
methods use the same number k of disc components"). Elo and Hyperbolic Elo have the transitive
component only. The neural decomposition (6.7) is optional: it needs PyTorch, and a fit costs
seconds where the others cost milliseconds, so it joins only when asked for
(:func:`method_fitters`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Protocol

import numpy as np
from scipy.special import expit

from bridgerank.ratings.gamematrix import disc_fit, discs, melo
from bridgerank.ratings.gamematrix.hyperbolic import search_beta
from bridgerank.ratings.gamematrix.matrix import GameMatrix, log_loss, sign_accuracy
from bridgerank.ratings.gamematrix.matrix_elo import game_elo
from bridgerank.ratings.gamematrix.neural import NeuralOptions, fit_neural


class Reconstruction(Protocol):
    """A fitted method: a predicted logit and probability for every ordered pair."""

    def logits(self) -> np.ndarray: ...

    def probabilities(self) -> np.ndarray: ...


@dataclass
class RatingDifferences:
    """Elo: ``sigma(r_i - r_j)``."""

    r: np.ndarray

    def logits(self) -> np.ndarray:
        return self.r[:, None] - self.r[None, :]

    def probabilities(self) -> np.ndarray:
        return expit(self.logits())


@dataclass
class LowRank:
    """A reconstruction given directly as a logit matrix (the normal decomposition)."""

    matrix: np.ndarray

    def logits(self) -> np.ndarray:
        return self.matrix

    def probabilities(self) -> np.ndarray:
        return expit(self.matrix)


Fitter = Callable[[GameMatrix, int, np.random.Generator], Reconstruction]


def _elo(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
    return RatingDifferences(game_elo(game))


def _melo(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
    return melo.fit_batch(game, k)


def _melo_online(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
    return melo.fit_online(game, k, rng)


def _normal(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
    # The Schur form needs every entry: unobserved logits enter as 0 (a tie).
    return LowRank(discs.decompose(game.logits()).reconstruct(k + 1))


def _disc_rating(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
    return disc_fit.fit_discs(game, k + 1)


def _hyperbolic(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
    return search_beta(game)


#: name -> (label, fitter), in the order of the paper's tables.
METHODS: dict[str, tuple[str, Fitter]] = {
    "elo": ("Elo of the game (6.2)", _elo),
    "melo": ("mElo, batch: Hodge + Schur (6.3)", _melo),
    "melo_online": ("mElo, online updates (6.3)", _melo_online),
    "normal": ("normal (Schur) decomposition (6.4)", _normal),
    "disc_rating": ("disc rating, masked fit (6.4)", _disc_rating),
    "hyperbolic": ("Hyperbolic Elo, beta searched (6.5)", _hyperbolic),
}


#: The optional method's name and label.
NEURAL = "neural"
NEURAL_LABEL = "neural decomposition (6.7)"


def neural_fitter(options: NeuralOptions) -> Fitter:
    """The neural decomposition with ``options``, seeded from the hold-out's generator."""

    def fit(game: GameMatrix, k: int, rng: np.random.Generator) -> Reconstruction:
        return fit_neural(game, k, int(rng.integers(2**31)), options)

    return fit


def method_fitters(neural: NeuralOptions | None = None) -> dict[str, Fitter]:
    """The six methods of :data:`METHODS`, and the neural decomposition when ``neural`` holds
    its options."""
    fitters = {name: fitter for name, (_, fitter) in METHODS.items()}
    if neural is not None:
        fitters[NEURAL] = neural_fitter(neural)
    return fitters


@dataclass
class MethodScore:
    """Sign accuracy on the training entries, the held-out ones and both; held-out log-loss."""

    method: str
    train: float | None
    test: float | None
    overall: float | None
    test_log_loss: float | None


def score(
    method: str,
    game: GameMatrix,
    train: np.ndarray,
    k: int,
    rng: np.random.Generator,
    fitters: Mapping[str, Fitter] | None = None,
) -> MethodScore:
    """Fit ``method`` (looked up in ``fitters``, by default the six of :data:`METHODS`) on the
    entries of ``train`` and score it on those and on the rest of the game's observed
    entries."""
    fitter = (fitters or method_fitters())[method]
    fitted = fitter(game.restricted(train), k, rng)
    predicted = fitted.logits()
    test = game.mask & ~train
    return MethodScore(
        method,
        sign_accuracy(predicted, game, train),
        sign_accuracy(predicted, game, test),
        sign_accuracy(predicted, game, game.mask),
        log_loss(fitted.probabilities(), game, test),
    )
