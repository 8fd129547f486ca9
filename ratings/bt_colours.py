"""Gauss-Seidel sweeps of the Bradley-Terry family, a colour class of players at a time.

A sweep of :func:`~bridgerank.ratings.bt.fit` updates one player at a time, each update reading
the team sums of the player's games as the updates before it left them. Two players who share
no game read nothing of each other's update, so a set of players none of whom share a game
(a *colour class*: a colouring of the graph joining players who meet in a game) can be updated
together, from the same team sums, in a few array operations. A sweep over the classes in turn
is then the player-by-player sweep with the players taken class by class: the same iterates as
that order gives, the same fixed point as any order, at a cost of array operations per class
rather than per player (a thousand players in some forty classes on the corpus's team games).
The classes come from a greedy colouring in player order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from bridgerank.ratings.bt_updates import UPDATES, Hypergraph

__all__ = ["ColouredSweep", "colour_classes"]


def colour_classes(graph: Hypergraph, players: np.ndarray) -> list[np.ndarray]:
    """``players`` in classes of players who share no game of ``graph``: a greedy colouring
    in the order given, each player the first class none of his opponents or teammates is in."""
    both = (graph.win + graph.lose).tocsr()
    meets = (both @ both.T).tocsr()
    colour = np.full(graph.n, -1, dtype=np.int64)
    for player in players.tolist():
        neighbours = meets.indices[meets.indptr[player] : meets.indptr[player + 1]]
        taken = colour[neighbours]
        used = np.zeros(len(neighbours) + 1, dtype=bool)
        used[taken[(taken >= 0) & (taken <= len(neighbours))]] = True
        colour[player] = int(np.argmin(used))  # the first colour free
    return [np.flatnonzero(colour == c) for c in range(int(colour.max()) + 1)]


@dataclass
class _Class:
    """One colour class: its players, the games they play, and their incidences on those."""

    players: np.ndarray
    games: np.ndarray
    win: sparse.csr_matrix  # players x games of the class
    lose: sparse.csr_matrix


class ColouredSweep:
    """One sweep of ``model`` (a key of :data:`~bridgerank.ratings.bt_updates.UPDATES`) over
    ``players``, class by class (:func:`colour_classes`), updating the values and the games'
    team sums in place as the player-by-player sweep does.

    Parameters
    ----------
    graph : Hypergraph
    model : str
    players : ndarray
        The players with games, in the order the colouring takes them.
    prior : bool
        The virtual win and loss of :func:`~bridgerank.ratings.bt.fit`.
    """

    def __init__(self, graph: Hypergraph, model: str, players: np.ndarray, prior: bool) -> None:
        self.update, self.prior = UPDATES[model], prior
        self.weights = graph.weights
        self.classes = []
        for members in colour_classes(graph, players):
            win, lose = graph.win[members], graph.lose[members]
            games = np.union1d(win.indices, lose.indices)
            self.classes.append(_Class(members, games, win[:, games], lose[:, games]))

    def __call__(self, values: np.ndarray, team_w: np.ndarray, team_l: np.ndarray) -> None:
        update = self.update
        for part in self.classes:
            at = part.players
            weight = self.weights[part.games]
            won, lost = team_w[part.games], team_l[part.games]
            numerator = part.win @ update.won(weight, won, lost)
            denominator = part.lose @ update.lost(weight, won, lost)
            if update.won_denominator is not None:
                denominator = part.win @ update.won_denominator(weight, won, lost) + denominator
            if self.prior:
                virtual_win, virtual_loss = update.prior(values[at])
                numerator, denominator = numerator + virtual_win, denominator + virtual_loss
            delta = np.log(numerator) - np.log(denominator)
            old = values[at]
            values[at] = old + delta
            change = delta if update.log_space else np.exp(values[at]) - np.exp(old)
            team_w[part.games] += part.win.T @ change
            team_l[part.games] += part.lose.T @ change
