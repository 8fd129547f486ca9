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
from typing import Protocol

import numpy as np
from scipy import sparse

__all__ = ["ColouredSweep", "Hypergraph", "colour_classes"]


class Hypergraph(Protocol):
    """What a sweep reads of :class:`bridgerank.ratings.bt.Hypergraph` (which imports this
    module): the players, each game's weight, the winners' and losers' incidences (players
    by games)."""

    n: int
    weights: np.ndarray
    win: sparse.csr_matrix
    lose: sparse.csr_matrix


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
    """One sweep of ``model`` (a key of :data:`~bridgerank.ratings.bt.MODELS`) over
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
        self.model, self.prior = model, prior
        self.weights = graph.weights
        self.classes = []
        for members in colour_classes(graph, players):
            win, lose = graph.win[members], graph.lose[members]
            games = np.union1d(win.indices, lose.indices)
            self.classes.append(_Class(members, games, win[:, games], lose[:, games]))

    def __call__(self, values: np.ndarray, team_w: np.ndarray, team_l: np.ndarray) -> None:
        for part in self.classes:
            at = part.players
            won, lost = team_w[part.games], team_l[part.games]
            numerator, denominator = self._sums(part, won, lost, self.weights[part.games])
            if self.prior:
                numerator, denominator = self._with_prior(values[at], numerator, denominator)
            delta = np.log(numerator) - np.log(denominator)
            old = values[at]
            values[at] = old + delta
            change = delta if self.model == "hbt" else np.exp(values[at]) - np.exp(old)
            team_w[part.games] += part.win.T @ change
            team_l[part.games] += part.lose.T @ change

    def _sums(
        self, part: _Class, won: np.ndarray, lost: np.ndarray, weight: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each player's numerator and denominator over his games (the spec's updates: HBT's
        Newman-style 2.3, GBT's Newman-like 3.4 and Huang's 3.3)."""
        if self.model == "hbt":
            upset = weight / (1 + np.exp(won - lost))
            return part.win @ upset, part.lose @ upset
        per_game = weight / (won + lost)
        if self.model == "gbt-newman":
            return part.win @ (per_game * lost / won), part.lose @ per_game
        return part.win @ (weight / won), part.win @ per_game + part.lose @ per_game

    def _with_prior(
        self, s: np.ndarray, numerator: np.ndarray, denominator: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The virtual win and loss against a player of strength 1, per model."""
        if self.model == "hbt":
            return numerator + 1 / (1 + np.exp(s)), denominator + 1 / (1 + np.exp(-s))
        pi = np.exp(s)
        if self.model == "gbt-newman":
            return numerator + 1 / (pi * (pi + 1)), denominator + 1 / (pi + 1)
        return numerator + 1 / pi, denominator + 2 / (pi + 1)
