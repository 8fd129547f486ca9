"""The Bradley-Terry family's updates of a player's log-strength, one definition per model.

Each model's step for a player is ``log(numerator) - log(denominator)``, each a sum over his
games of a term of the game's weight and its two teams' sums (of log-strengths for HBT, of
strengths for GBT), plus the prior's virtual win and loss. The terms are written here once,
over arrays of games, and read both by the player-by-player sweep
(:func:`~bridgerank.ratings.bt.fit`, :func:`player_step`) and by the sweep a colour class at a
time (:mod:`~bridgerank.ratings.bt_colours`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np
from scipy import sparse

__all__ = ["UPDATES", "Hypergraph", "Update", "player_step"]


class Hypergraph(Protocol):
    """What a step reads of :class:`bridgerank.ratings.bt.Hypergraph` (which imports this
    module): the players, each game's weight, the winners' and losers' incidences (players by
    games)."""

    n: int
    weights: np.ndarray
    win: sparse.csr_matrix
    lose: sparse.csr_matrix


# A game's term from its weight and the winning and losing teams' sums.
Term = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Update:
    """One model's step: the numerator's term of a game won, the denominator's of a game
    lost and (Huang only) of a game won, the prior's two terms from a log-strength, and
    whether the team sums are of log-strengths."""

    won: Term
    lost: Term
    won_denominator: Term | None
    prior: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    log_space: bool


def _upset(w: np.ndarray, won: np.ndarray, lost: np.ndarray) -> np.ndarray:
    return w / (1 + np.exp(won - lost))


def _share(w: np.ndarray, won: np.ndarray, lost: np.ndarray) -> np.ndarray:
    return w / (won + lost)


def _hbt_prior(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return 1 / (1 + np.exp(s)), 1 / (1 + np.exp(-s))


def _newman_prior(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pi = np.exp(s)
    return 1 / (pi * (pi + 1)), 1 / (pi + 1)


def _huang_prior(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pi = np.exp(s)
    return 1 / pi, 2 / (pi + 1)


# HBT's Newman-style step (spec 2.3), GBT's Newman-like (3.4) and Huang's (3.3), which is
# Zermelo's iteration on 1-vs-1 games.
UPDATES: dict[str, Update] = {
    "hbt": Update(_upset, _upset, None, _hbt_prior, True),
    "gbt-newman": Update(
        lambda w, won, lost: w * lost / (won * (won + lost)), _share, None, _newman_prior, False
    ),
    "gbt-huang": Update(lambda w, won, lost: w / won, _share, _share, _huang_prior, False),
}


def player_step(
    update: Update,
    graph: Hypergraph,
    s: np.ndarray,
    k: int,
    team_w: np.ndarray,
    team_l: np.ndarray,
    prior: bool,
) -> float:
    """Player ``k``'s step under ``update``, from the games' team sums as they stand."""
    won = graph.win.indices[graph.win.indptr[k] : graph.win.indptr[k + 1]]
    lost = graph.lose.indices[graph.lose.indptr[k] : graph.lose.indptr[k + 1]]
    w = graph.weights
    numerator = float(np.sum(update.won(w[won], team_w[won], team_l[won])))
    lost_part = np.sum(update.lost(w[lost], team_w[lost], team_l[lost]))
    if update.won_denominator is None:
        denominator = float(lost_part)
    else:
        won_part = np.sum(update.won_denominator(w[won], team_w[won], team_l[won]))
        denominator = float(won_part + lost_part)
    if prior:
        virtual_win, virtual_loss = update.prior(s[k])
        numerator += float(virtual_win)
        denominator += float(virtual_loss)
    return float(np.log(numerator) - np.log(denominator))
