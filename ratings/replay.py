"""Replaying multiplayer games in order: ratings, histories, the prequential loss, and K.

One driver serves both multiplayer Elo models and both kinds of player: single players (the
skill-o-meter's simulated games, the DLO reference's examples) and teams whose rating is the
mean of their members' (bridge pairs), every member taking the team's change.

Both models move a team by a multiple of ``target - e``, where ``e_i = sum_k 1 / (1 +
10^((r_k - r_i) / scale))`` is the expected number of opponents beaten:

* ranking-probability Elo (``dlo``, :mod:`ratings.plackett_luce`): ``K / (n - 1)`` times
  ``a - e``, ``a`` the opponents actually beaten (ties half);
* multielo (``elo``, :mod:`ratings.elo`): ``K (n - 1) (s - e / C(n, 2))``, ``s`` the score
  function's share, which is ``2K / n`` times ``C(n, 2) s - e``.

The games are compiled once (indices, payoffs, targets), so the many replays of a K search
cost a few small array operations per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Sequence

import numpy as np
from scipy.optimize import minimize_scalar

from bridgerank.core.errors import InvalidGame
from bridgerank.ratings import elo, plackett_luce

SCALE = plackett_luce.SCALE
METHODS = ("elo", "dlo")


@dataclass
class Games:
    """Games compiled for replaying.

    Attributes
    ----------
    players : list
        Player keys; the replay's rating vector is indexed like this list.
    members : list of ndarray
        Per game, an int array (teams, team size) of player indices.
    places : list of ndarray
        Per game, each team's place (1 = first; equal places are ties).
    """

    players: list[Hashable]
    members: list[np.ndarray]
    places: list[np.ndarray]
    _payoffs: list[np.ndarray] = field(default_factory=list, repr=False)
    _targets: dict[tuple[str, float], list[np.ndarray]] = field(default_factory=dict, repr=False)
    _shared: list[bool] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        for members, places in zip(self.members, self.places):
            if len(members) < 2 or len(members) != len(places):
                raise InvalidGame("a game needs two teams or more, each with a place")
        self._payoffs = [plackett_luce.payoffs(places) for places in self.places]
        # A player in two teams of one game (a data error) needs the slower exact update.
        self._shared = [len(np.unique(m)) != m.size for m in self.members]

    def __len__(self) -> int:
        return len(self.members)

    @classmethod
    def from_rankings(cls, rankings: Sequence) -> Games:
        """Games from objects with ``teams`` (tuples of player keys) and ``places``."""
        index: dict[Hashable, int] = {}
        members = []
        for ranking in rankings:
            members.append(
                np.array(
                    [[index.setdefault(p, len(index)) for p in team] for team in ranking.teams],
                    dtype=np.intp,
                )
            )
        places = [np.asarray(ranking.places, dtype=float) for ranking in rankings]
        return cls(list(index), members, places)

    @classmethod
    def from_matches(
        cls, matches: Sequence[tuple[Sequence[int], Sequence[float]]], n_players: int
    ) -> Games:
        """Games of single players given by index ``0 .. n_players - 1``."""
        members = [np.asarray(players, dtype=np.intp).reshape(-1, 1) for players, _ in matches]
        places = [np.asarray(places, dtype=float) for _, places in matches]
        return cls(list(range(n_players)), members, places)

    def targets(self, method: str, alpha: float = 1.0) -> list[np.ndarray]:
        """What each team's expected payoff is pulled towards, per game (see the module)."""
        key = (method, alpha)
        if key not in self._targets:
            if method == "dlo":
                self._targets[key] = self._payoffs
            elif method == "elo":
                self._targets[key] = [
                    elo.actual_scores(places, alpha) * len(places) * (len(places) - 1) / 2
                    for places in self.places
                ]
            else:
                raise InvalidGame(f"unknown method {method!r}; choose from {METHODS}")
        return self._targets[key]


@dataclass
class Replay:
    """The outcome of a replay: final ratings, the prequential loss, and (if kept) histories."""

    ratings: np.ndarray
    loss: float
    history: dict[int, list[tuple[int, float]]] | None = None

    def by_player(self, games: Games) -> dict[Hashable, float]:
        """Final ratings keyed by player."""
        return {player: float(value) for player, value in zip(games.players, self.ratings)}

    def history_by_player(self, games: Games) -> dict[Hashable, list[tuple[int, float]]]:
        """Each player's (game number, rating after it), keyed by player."""
        return {games.players[i]: points for i, points in (self.history or {}).items()}


def replay(
    games: Games,
    method: str,
    k: float,
    *,
    scale: float = SCALE,
    loss: str = "mse",
    alpha: float = 1.0,
    initial: float = 0.0,
    keep_history: bool = False,
    start: np.ndarray | None = None,
) -> Replay:
    """Rate through the games in order, from ``initial``; measure each game before it counts.

    Parameters
    ----------
    games : Games
    method : {"elo", "dlo"}
    k : float
    scale : float
        Rating points for a factor 10 in odds.
    loss : {"mse", "log"}
        ``mse``: per game the mean over teams of ((a - e) / (n - 1))^2, the DLO reference's
        Brier-type error; ``log``: minus the log Plackett-Luce probability of the order seen.
    alpha : float
        Base of multielo's score function (1: linear).
    initial : float
    keep_history : bool
        Also record every player's rating after each of their games.
    start : ndarray, optional
        Every player's rating before the first game (in place of ``initial``): a replay of
        earlier games' ratings goes on over later ones, as one replay of them all would.

    Returns
    -------
    Replay
        Mean loss over games.
    """
    targets = games.targets(method, alpha)
    if start is None:
        ratings = np.full(len(games.players), float(initial))
    else:
        ratings = np.array(start, dtype=float)
    history: dict[int, list[tuple[int, float]]] | None = {} if keep_history else None
    total = 0.0
    for number, (members, places, payoff, target, shared) in enumerate(
        zip(games.members, games.places, games._payoffs, targets, games._shared), start=1
    ):
        n = len(members)
        # a team's mean rating; np.add.reduce is what .mean() and .sum() call, without
        # their Python layers (a replay is some hundred thousand small games, a K search
        # some twenty replays)
        team = np.add.reduce(ratings[members], axis=1) / members.shape[1]
        # Expected opponents beaten; the diagonal term (a team against itself) is 1/2.
        beaten = 1.0 / (1.0 + 10.0 ** ((team[None, :] - team[:, None]) / scale))
        expected = np.add.reduce(beaten, axis=1) - 0.5
        if loss == "mse":
            error = (payoff - expected) / (n - 1)
            total += float(error @ error) / n
        else:
            total -= plackett_luce.order_log_probability(team, places, scale)
        step = k / (n - 1) if method == "dlo" else 2.0 * k / n
        change = step * (target - expected)
        if shared:
            np.add.at(ratings, members.ravel(), np.repeat(change, members.shape[1]))
        else:
            ratings[members] += change[:, None]
        if history is not None:
            for player in members.ravel():
                history.setdefault(int(player), []).append((number, float(ratings[player])))
    return Replay(ratings, total / max(len(games), 1), history)


def calibrate(
    games: Games,
    method: str,
    *,
    upper: float = SCALE / 2,
    loss: str = "mse",
    scale: float = SCALE,
    xatol: float = 1e-6,
) -> tuple[float, float]:
    """K minimising the prequential loss on [0, upper] (bounded Brent); returns (K, loss)."""
    result = minimize_scalar(
        lambda k: replay(games, method, k, scale=scale, loss=loss).loss,
        bounds=(0, upper),
        method="bounded",
        options={"xatol": xatol, "maxiter": 500},
    )
    return float(result.x), float(result.fun)
