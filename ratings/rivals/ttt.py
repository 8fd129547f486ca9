"""TrueSkill Through Time, teams of two, as a rival.

TrueSkill Through Time (Dangauthier, Herbrich, Minka and Graepel, 2007; the
``trueskillthroughtime`` package by Landfried and Mocskos, 2021) smooths every player's skill
over the whole history: a session informs the estimates before it as well as after. What it
learns from is what it can take: a session is one game of many teams, its pairs (each a team
of its two players) in the order of their session percentages (equal ones in the order of the
pairs' numbers). It does not learn who sat opposite whom (that is in no session rank); its
forecast of a table does use it. The model is the package's; its message passing is done on
plain floats here (:mod:`~bridgerank.ratings.rivals.ttt_messages`), which gives the package's
figures to the last bit at about a quarter of its cost, so the rival needs no extra package
(the tests check it against the package).

The forecast of a table, as for OpenSkill (:mod:`~bridgerank.ratings.rivals.openskill_pairs`):
North-South's strength is their two players' latest posterior means less their opponents',
and North-South at table ``i`` beats North-South at table ``j`` with ``Phi((s_i - s_j) / c)``,
``c^2`` the eight players' posterior variances plus four times ``beta^2`` (the performance
noise of the four teams). A table's expected share is the mean over the deal's other tables.

Whole-history smoothing is not online: each time the rival forecasts after new sessions it
refits the history of every session it has learned (the walk-forward's training dates), a
few sweeps of the model's message passing. The first refit builds and sweeps the whole
history; each later one extends it by the new dates and sweeps those and the ``WINDOW`` dates
before them (:mod:`~bridgerank.ratings.rivals.ttt_history`), so that a walk-forward's work on
the rival grows with its dates, not with their square. Time is the period's index (one step a date);
the drift ``gamma`` per step is chosen on the training dates
(:mod:`~bridgerank.ratings.rivals.online`), the rest are the package's defaults.

Where a walk-forward holds out hundreds of dates (the team events' rounds: some 400), a refit
at each would cost hours; there the rival refits the whole history once a year (``yearly``:
at its first forecast after a session of a new year is learned) and between refits learns
each game as TrueSkill does, the model's one-game update from the players' latest
posteriors, each widened by the drift of the steps since the player's last game. The refit
then replaces what the one-game updates learned with the smoothed history.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.special import ndtr

from bridgerank.ratings.field import FieldTables, field_share, pair_sessions
from bridgerank.ratings.registry import Method
from bridgerank.ratings.rivals.online import online_method, per_seat
from bridgerank.ratings.rivals.ttt_history import BETA, PRIOR, SmoothedHistory
from bridgerank.ratings.rivals.ttt_messages import forget, game_likelihoods, product

__all__ = ["TTT", "Games", "ThroughTimePairs", "session_games"]

SWEEPS = 4  # backward-forward sweeps of the history at each refit
# dates before the new ones that a refit of an extended history sweeps over again, and its
# sweeps (:mod:`ttt_history`)
WINDOW = 8
WINDOW_SWEEPS = 2


def session_games(tables: FieldTables, rows: np.ndarray) -> list[list[list[int]]]:
    """One session's game: its pairs (each ``[player, player]``), best first.

    A game's teams come in the order of their results (the package's version 1.1.0 maps its
    updates back to the right teams only in this order, and the tests compare with it); equal
    percentages are ordered as the pairs are numbered (the package's draws fail numerically
    in games of many teams: a zero division, a root of a negative)."""
    mask = np.zeros(len(tables), dtype=bool)
    mask[rows] = True
    scores = pair_sessions(tables.subset(mask))
    order = np.argsort(-scores.percent, kind="stable")
    return [[[int(a), int(b)] for a, b in scores.pair[order].tolist()]]


Games = Callable[[FieldTables, np.ndarray], list[list[list[int]]]]


class ThroughTimePairs:
    """Every player's TrueSkill Through Time skill, refitted on the whole learned history.

    ``games(tables, rows)`` reads one session's games, each its teams best first
    (:func:`session_games` by default: the session one game of its pairs)."""

    # what a history smoothed on the early dates says of them is not what one smoothed on
    # the whole training set says: the online driver builds the chosen rival afresh
    goes_on = False

    def __init__(self, gamma: float, games: Games = session_games, yearly: bool = False) -> None:
        self.gamma = gamma
        self.games = games
        self.yearly = yearly
        self.composition: list[list[list[int]]] = []
        self.times: list[int] = []
        self.posterior: dict[int, tuple[float, float]] = {}
        self.last_time: dict[int, int] = {}  # each player's latest game's time
        self.fitted_year: str | None = None  # yearly: the year of the latest refit's games
        self.stale = False
        self.history: SmoothedHistory | None = None

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """Add one session's games; the history is refitted at the next forecast (yearly: in
        the year of the latest refit, the games are learned one by one instead)."""
        games = [game for game in self.games(tables, rows) if len(game) >= 2]  # one team: none
        time = int(tables.period[rows[0]])
        self.composition += games
        self.times += [time] * len(games)
        year = tables.periods[time][:4]
        if self.yearly and year == self.fitted_year and not self.stale:
            for game in games:
                self._one_game(game, time)
        else:
            self.stale = self.stale or bool(games)
            self.fitted_year = year if self.yearly else None

    def _one_game(self, teams: list[list[int]], time: int) -> None:
        """TrueSkill's update of one game's players (teams best first), from their latest
        posteriors widened by the drift since their last game."""
        priors = [
            [
                forget(
                    self.posterior.get(player, PRIOR),
                    self.gamma,
                    time - self.last_time.get(player, time),
                )
                for player in team
            ]
            for team in teams
        ]
        for team, prior, messages in zip(teams, priors, game_likelihoods(priors, BETA)):
            for player, skill, message in zip(team, prior, messages):
                self.posterior[player] = product(message, skill)
                self.last_time[player] = time

    def _refit(self) -> None:
        if self.history is None or not self.history.extend(self.composition, self.times):
            self.history = SmoothedHistory(self.composition, self.times, self.gamma)
        self.history.smooth(SWEEPS, WINDOW, WINDOW_SWEEPS)
        self.posterior, self.last_time = self.history.latest()
        self.stale = False

    def _moments(self, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        moments = per_seat(lambda player: self.posterior.get(player, PRIOR), seats)
        return moments[..., 0], moments[..., 1] * moments[..., 1]

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """North-South's expected share at each table of ``rows`` (whole deals; see the
        module)."""
        if self.stale:
            self._refit()
        mu, variance = self._moments(tables.seats[rows])
        strength = mu[:, :2].sum(axis=1) - mu[:, 2:].sum(axis=1)
        spread = variance.sum(axis=1)

        def beats(i: np.ndarray, j: np.ndarray) -> np.ndarray:
            scale = np.sqrt(spread[i] + spread[j] + 4 * BETA**2)
            return ndtr((strength[i] - strength[j]) / scale)

        return field_share(tables.group[rows], beats)


TTT = Method(
    "ttt",
    "TrueSkill Through Time (teams of two, whole-history smoothing) on each session's order "
    "of pairs; its forecast counts who sat opposite",
    online_method(ThroughTimePairs, lambda rivals: rivals.ttt_gammas, widen=True),
)
