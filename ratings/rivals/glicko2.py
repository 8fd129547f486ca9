"""Glicko-2, where it can take pairs, as a rival.

Re-implemented from its published algorithm: Mark E. Glickman, "Example of the Glicko-2
system" (Boston University, 2012, glicko.net). A rating period is a session. Glicko rates one
player against another; a pair game is read the way the Elos here read it:

- a pair's rating is the mean of its two players' (``mu``), its deviation the root mean
  square of theirs (``phi``);
- on a deal, North-South at table ``i`` plays every other North-South ``j`` of the deal
  (East-West likewise), each strength taken less its opponents' at its table (so who sat
  opposite counts): the outcome is 1, 1/2 or 0 as it scored more, the same or less, and a
  deal's comparisons weigh ``1 / (n - 1)`` together, one game a deal (the ``n - 1`` are one
  result, not independent games);
- each player of the pair is updated by the published steps with the pair's expectations and
  outcomes and their own deviation and volatility (the volatility by the Illinois iteration).

With ``one_game_a_session`` a session's deals weigh one game together (each ``1 / deals``):
a team match read as deals at two tables (:mod:`~bridgerank.ratings.rivals.team_play`) is
one game between the two teams, its outcome the share of boards won. (Its 16-32 boards taken
as as many games against the same opponents overshoot: the period's update is one step from
the ratings before it, and a newcomer who lost 18 boards of 24 fell 1,300 rating points.)

The system constant ``tau`` is chosen on the training dates; a new player starts at the
published defaults (rating 1500, deviation 350, volatility 0.06). Expected shares are the
mean expected outcome against the deal's other tables.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.special import expit

from bridgerank.ratings.field import FieldTables, deal_pairs, field_share
from bridgerank.ratings.registry import Method
from bridgerank.ratings.rivals.online import online_method

__all__ = ["GLICKO2", "Glicko2Pairs", "new_volatility", "rate_period"]

SCALE = 173.7178  # Glicko-2's scale: (rating - 1500) / SCALE
START_DEVIATION = 350.0 / SCALE
START_VOLATILITY = 0.06
_TOLERANCE = 1e-6
# A period whose information is below this moves no rating (the player is treated as not
# having played): once a player's expected outcomes are all but certain (a team that won every
# board of its first matches), ``v = 1 / information`` grows past what the volatility's
# iteration can square.
_MIN_INFORMATION = 1e-9


def _g(phi: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(1 + 3 * phi**2 / math.pi**2)


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the published algorithm: the new volatility (Illinois iteration)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _TOLERANCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


def rate_period(
    mu: float, phi: float, sigma: float, information: float, surplus: float, tau: float
) -> tuple[float, float, float]:
    """Steps 3-8 of the published algorithm for one player and one rating period, given the
    period's ``information`` (the sum of ``g(phi_j)^2 E_j (1 - E_j)``, so ``v`` is its
    inverse) and ``surplus`` (the sum of ``g(phi_j) (s_j - E_j)``), on the Glicko-2 scale.
    Returns the new ``mu``, ``phi`` and ``sigma``."""
    v = 1 / information
    sigma = new_volatility(sigma, phi, v, v * surplus, tau)
    pre = math.sqrt(phi**2 + sigma**2)
    phi = 1 / math.sqrt(1 / pre**2 + 1 / v)
    return mu + phi**2 * surplus, phi, sigma


class Glicko2Pairs:
    """Every player's Glicko-2 rating, deviation and volatility, learned session by session.

    Held as arrays by player index (``mu``, ``phi``, ``sigma``), the published defaults for
    a player not yet seen; ``known`` marks the players rated or forecast so far, whose
    deviation grows in a session they sit out."""

    def __init__(self, tau: float, one_game_a_session: bool = False) -> None:
        self.tau = tau
        self.one_game_a_session = one_game_a_session
        self.mu = np.zeros(0)
        self.phi = np.zeros(0)
        self.sigma = np.zeros(0)
        self.known = np.zeros(0, dtype=bool)

    def _seen(self, players: np.ndarray) -> None:
        """Hold ``players`` (at the published defaults if new) and mark them known."""
        size = int(players.max()) + 1 if players.size else 0
        extra = size - len(self.mu)
        if extra > 0:
            self.mu = np.concatenate([self.mu, np.zeros(extra)])
            self.phi = np.concatenate([self.phi, np.full(extra, START_DEVIATION)])
            self.sigma = np.concatenate([self.sigma, np.full(extra, START_VOLATILITY)])
            self.known = np.concatenate([self.known, np.zeros(extra, dtype=bool)])
        self.known[players] = True

    def _tables(self, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each table's North-South strength less its opponents', and its deviation."""
        self._seen(seats.ravel())
        mu, phi = self.mu[seats], self.phi[seats]
        strength = mu[:, :2].mean(axis=1) - mu[:, 2:].mean(axis=1)
        deviation = np.sqrt((phi**2).mean(axis=1))
        return strength, deviation

    def _expected(
        self, tables: FieldTables, rows: np.ndarray
    ) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """``expected(i, j)``: North-South at table ``i`` of ``rows`` its expected outcome
        against table ``j`` of its deal, and g of ``j`` (the published g(phi_j))."""
        strength, deviation = self._tables(tables.seats[rows])
        g = _g(deviation)

        def expected(i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            # the logistic function without overflow where a large volatility (a widened
            # grid's) has spread the strengths far apart
            return expit(g[j] * (strength[i] - strength[j])), g[j]

        return expected

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """North-South's expected share at each table of ``rows`` (whole deals)."""
        expected = self._expected(tables, rows)
        return field_share(tables.group[rows], lambda i, j: expected(i, j)[0])

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """One session as one rating period: the published steps 3-8 for every player."""
        group = tables.group[rows]
        i, j = deal_pairs(group)  # every table against each other table of its deal
        expected, g = self._expected(tables, rows)(i, j)
        share = tables.share[rows]
        outcome = (share[i] > share[j]) + 0.5 * (share[i] == share[j])
        others = np.bincount(i, minlength=len(rows))  # n - 1 of each table's deal
        deals = len(np.unique(group)) if self.one_game_a_session else 1
        weight = 1 / others[i] / deals
        tables_of = len(rows)
        table_information = np.bincount(
            i, weights=weight * g**2 * expected * (1 - expected), minlength=tables_of
        )
        table_gains = np.bincount(i, weights=weight * g * (outcome - expected), minlength=tables_of)
        # each player's sums over his seats, table by table: the information is both sides',
        # North-South gains what East-West loses
        seats = tables.seats[rows].ravel()
        size = len(self.mu)
        information = np.bincount(seats, np.repeat(table_information, 4), minlength=size)
        signs = np.tile([1.0, 1.0, -1.0, -1.0], tables_of)
        surplus = np.bincount(seats, signs * np.repeat(table_gains, 4), minlength=size)
        played = np.zeros(size, dtype=bool)
        played[seats] = True
        # a player who did not play: only the deviation grows (step 6 of the published steps)
        resting = self.known & ~played
        self.phi[resting] = np.sqrt(self.phi[resting] ** 2 + self.sigma[resting] ** 2)
        for player in np.flatnonzero(played & (information > _MIN_INFORMATION)).tolist():
            self.mu[player], self.phi[player], self.sigma[player] = rate_period(
                float(self.mu[player]),
                float(self.phi[player]),
                float(self.sigma[player]),
                float(information[player]),
                float(surplus[player]),
                self.tau,
            )


GLICKO2 = Method(
    "glicko2",
    "Glicko-2 (Glickman), a pair its players' mean, each deal one game against the other "
    "tables, who sat opposite counted",
    online_method(Glicko2Pairs, lambda rivals: rivals.glicko2_taus, widen=True),
)
