"""The multiplayer Elos as an online rival: each deal a ranking of its same-direction pairs.

The sessions read the two multiplayer Elo models of the seeds (multielo's generalized Elo and
Elo by ranking probabilities, :mod:`~bridgerank.ratings.replay`) by ranking, deal by deal,
the North-South pairs that played it and, apart, the East-West pairs
(:func:`~bridgerank.ratings.baselines.ranking_games`): a pair's rating is its players' mean
and each player takes the pair's change. This module is that reading as an online rival
(:mod:`~bridgerank.ratings.rivals.online`), so that it can be scored where the rivals are -
on the team events' matches, whose boards are deals at two tables
(:mod:`~bridgerank.ratings.rivals.team_play`).

A pair ``i`` of a deal at ``n`` tables expects to beat ``e_i = sum_j 1 / (1 + 10^((t_j -
t_i) / 400))`` of the other ``n - 1`` pairs of its direction (``t`` the pairs' ratings) and
beat ``a_i = (n - 1) s_i`` of them, ``s_i`` its matchpoint share. Elo by ranking
probabilities moves it by ``K / (n - 1) (a_i - e_i)``, multielo with its linear score
function by ``2 K / n (a_i - e_i)``: the same change up to K's scale for a given ``n``, and
the same change on two tables (``K (a - e)``), where a team board is played. The ratings move
at the end of each session (a team match: its boards are one rating period, as for the
Common Game's Elo), K chosen on the training dates.

A pair's expected share of a deal is ``e_i / (n - 1)``, judged by its own rating alone
(``elo``) or by its rating less its opponents' at the table (``elo_opponents``), as the
sessions' two readings judge it.
"""

from __future__ import annotations

import numpy as np

from bridgerank.ratings.field import FieldTables, deal_pairs, field_share
from bridgerank.ratings.plackett_luce import beat_chance

__all__ = ["MultiplayerElo"]


def _chance(strength: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The chance that position ``i`` beats position ``j`` of its deal."""
    return beat_chance(strength[i], strength[j])


def _beaten(strength: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Each position's expected number of the deal's other pairs beaten."""
    return np.bincount(i, weights=_chance(strength, i, j), minlength=len(strength))


class MultiplayerElo:
    """The players' multiplayer Elo ratings, learned session by session.

    Parameters
    ----------
    k : float
        Points a pair moves per pair beaten beyond expectation (see the module).
    opponents : bool
        Judge a table's North-South by its rating less its East-West's (else alone).
    """

    def __init__(self, k: float, opponents: bool = False) -> None:
        self.k, self.opponents = k, opponents
        self.rating = np.zeros(0)

    def _ratings(self, players: int) -> np.ndarray:
        if len(self.rating) < players:
            self.rating = np.r_[self.rating, np.zeros(players - len(self.rating))]
        return self.rating

    def _pairs(self, tables: FieldTables, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """North-South's and East-West's pair rating at each of ``rows``."""
        rating = self._ratings(len(tables.players))
        seats = tables.seats[rows]
        return rating[seats[:, :2]].mean(axis=1), rating[seats[:, 2:]].mean(axis=1)

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """North-South's expected share at each table of ``rows`` (whole deals)."""
        north_south, east_west = self._pairs(tables, rows)
        strength = north_south - east_west if self.opponents else north_south
        return field_share(tables.group[rows], lambda i, j: _chance(strength, i, j))

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """Every deal of one session, North-South's ranking and East-West's, the ratings moved
        at its end."""
        north_south, east_west = self._pairs(tables, rows)
        group = tables.group[rows]
        i, j = deal_pairs(group)
        others = np.bincount(i, minlength=len(rows)).astype(float)  # n - 1 of each table's deal
        share = tables.share[rows]
        step = self.k / np.maximum(others, 1.0)
        moves = np.zeros(len(self.rating))
        seats = tables.seats[rows]
        for strength, won, pair in (
            (north_south, share, seats[:, :2]),
            (east_west, 1.0 - share, seats[:, 2:]),
        ):
            change = step * (others * won - _beaten(strength, i, j))
            np.add.at(moves, pair.ravel(), np.repeat(change, 2))
        self.rating += moves
