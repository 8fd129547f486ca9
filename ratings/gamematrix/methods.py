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
class LowRank:
    """A reconstruction given directly as a logit matrix (Elo's rating differences, the normal
    decomposition)."""

    matrix: np.ndarray

    def logits(self) -> np.ndarray:
        return self.matrix

    def probabilities(self) -> np.ndarray:
        return expit(self.matrix)


def _differences(r: np.ndarray) -> np.ndarray:
    """Elo's logits, ``r_i - r_j``: the game's ratings as a reconstruction's matrix."""
    return r[:, None] - r[None, :]


Fitter = Callable[[GameMatrix, int, np.random.Generator], Reconstruction]


#: name -> (label, fitter), in the order of the paper's tables.
METHODS: dict[str, tuple[str, Fitter]] = {
    "elo": ("Elo of the game (6.2)", lambda game, k, rng: LowRank(_differences(game_elo(game)))),
    "melo": ("mElo, batch: Hodge + Schur (6.3)", lambda game, k, rng: melo.fit_batch(game, k)),
    "melo_online": (
        "mElo, online updates (6.3)",
        lambda game, k, rng: melo.fit_online(game, k, rng),
    ),
    "normal": (
        "normal (Schur) decomposition (6.4)",
        # the Schur form needs every entry: unobserved logits enter as 0 (a tie)
        lambda game, k, rng: LowRank(discs.decompose(game.logits()).reconstruct(k + 1)),
    ),
    "disc_rating": (
        "disc rating, masked fit (6.4)",
        lambda game, k, rng: disc_fit.fit_discs(game, k + 1),
    ),
    "hyperbolic": ("Hyperbolic Elo, beta searched (6.5)", lambda game, k, rng: search_beta(game)),
}


#: The optional method's name.
NEURAL = "neural"


def method_fitters(neural: NeuralOptions | None = None) -> dict[str, Fitter]:
    """The six methods of :data:`METHODS`, and the neural decomposition when ``neural`` holds
    its options."""
    fitters = {name: fitter for name, (_, fitter) in METHODS.items()}
    if neural is not None:
        # seeded from the hold-out's generator
        fitters[NEURAL] = lambda game, k, rng: fit_neural(game, k, int(rng.integers(2**31)), neural)
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
