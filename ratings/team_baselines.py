"""The team matches' baselines: a coin, the players' past IMPs per board, and any
per-player standing scaled to IMPs (hypergraph Bradley-Terry's, the WBF masterpoints').

Each is a walk-forward method (``predict(train, test, target)``) of the team boards
(:class:`~bridgerank.ratings.team_boards.TeamBoards`): the held-out team matches
(:mod:`~bridgerank.ratings.team_matches`) and the team events' matches
(:mod:`~bridgerank.ratings.event_matches`) measure their headlines against them.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from bridgerank.ratings.holdout import Forecast, Predict, Target
from bridgerank.ratings.team_boards import TeamBoards, match_margins

__all__ = ["coin_imps", "hbt_strength", "imp_average", "scaled_baseline", "walked_hbt"]


def coin_imps(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
    """Every match level."""
    return Forecast(np.zeros(len(np.unique(test.match))))


def imp_average(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
    """Each player's past IMPs per board for their team (unseen: 0); a board is expected the
    mean of team A's four minus the mean of team B's, times four (the teams' sums)."""
    players = len(train.players)
    credit = np.concatenate([np.repeat(train.imps, 4), -np.repeat(train.imps, 4)])
    who = np.concatenate([train.seats[:, :4].ravel(), train.seats[:, 4:].ravel()])
    total = np.bincount(who, weights=credit, minlength=players)
    count = np.bincount(who, minlength=players)
    mean = total / np.maximum(count, 1) / 4  # a board's IMPs shared among four players
    board = mean[test.seats[:, :4]].sum(axis=1) - mean[test.seats[:, 4:]].sum(axis=1)
    return Forecast(match_margins(test, board)[0])


def scaled_baseline(strength: Callable[[TeamBoards], np.ndarray]) -> Predict:
    """A method from any per-player standing (``strength(train)``, one value a player): a
    board's expected IMPs are a straight line in the standings' difference (team A's sum
    minus team B's), fitted on the training boards."""

    def predict(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
        value = strength(train)

        def difference(data: TeamBoards) -> np.ndarray:
            return value[data.seats[:, :4]].sum(axis=1) - value[data.seats[:, 4:]].sum(axis=1)

        x = difference(train)
        slope = float(x @ train.imps / (x @ x)) if x @ x > 0 else 0.0
        return Forecast(match_margins(test, slope * difference(test))[0])

    return predict


def hbt_strength(train: TeamBoards, start: np.ndarray | None = None) -> np.ndarray:
    """Hypergraph Bradley-Terry log-strengths from the training boards won and lost (ties
    half each), with the prior, Newton's steps from ``start`` (None: zero); for
    :func:`scaled_baseline`."""
    from bridgerank.ratings.bt import Hypergraph, fit_hbt_newton

    edges = []
    for seats, value in zip(train.seats.tolist(), train.imps):
        a, b = seats[:4], seats[4:]
        if value > 0:
            edges.append((a, b, 1.0))
        elif value < 0:
            edges.append((b, a, 1.0))
        else:
            edges.extend([(a, b, 0.5), (b, a, 0.5)])
    # the sparse solve: the dense one is cubic in the players, and this runs once per date
    graph = Hypergraph(edges, len(train.players))
    strength = fit_hbt_newton(graph, prior=True, solver="sparse", start=start).s
    return np.nan_to_num(strength)


def walked_hbt() -> Callable[[TeamBoards], np.ndarray]:
    """:func:`hbt_strength` for a walk-forward: each training set holds the one before, so
    each fit starts from the one before it (the prior makes the estimate unique: the start
    changes only the steps taken)."""
    previous: list[np.ndarray] = []

    def strength(train: TeamBoards) -> np.ndarray:
        start = previous[-1] if previous and len(previous[-1]) == len(train.players) else None
        previous[:] = [hbt_strength(train, start)]
        return previous[0]

    return strength
