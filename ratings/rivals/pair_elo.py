"""The partnership Elo of the Common Game, the rating ACBL clubs see.

Re-implemented from its published description: Ping Hu, "Rating Study from ACBL
Tournaments" and "Bridge Rating Study - Follow Up" (Bridge Winners, 2020), after John Curley,
"Bridge Rating System for Partnerships" (The Bridge World, 2010). What it says:

- a rating belongs to a partnership, not to a player (a new partnership starts level, at 0,
  whatever its players did with others);
- a board's result is set against the other tables that played it: North-South at table
  ``i`` beat, tied or lost to North-South at table ``j`` (``+1``, ``0``, ``-1``), and expected
  ``(F(a_i - b_i) - F(a_j - b_j)) / 2``, with ``F(x) = tanh(x / 2000)`` and ``a``, ``b`` the
  two partnerships' ratings at a table (so who sat opposite counts);
- a partnership's rating moves by ``K`` times what it scored above what it was expected to,
  at the end of each game.

The published K depends on the partnership's "number of effective boards"; its schedule is
not published in full, so here ``K`` is one number, chosen on the training dates (see
:mod:`~bridgerank.ratings.rivals.online`). A comparison's score summed over the other tables
is ``(n - 1)(2 s - 1)`` for a table's matchpoint share ``s`` among ``n`` tables, so the
update needs the shares alone.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from bridgerank.ratings.field import FieldTables, deal_order
from bridgerank.ratings.registry import Method
from bridgerank.ratings.rivals.online import online_method

__all__ = ["PAIR_ELO", "PairElo", "SCALE"]

SCALE = 2000.0  # the published F(x) = tanh(x / 2000)


class PairElo:
    """The Common Game's partnership ratings, learned session by session."""

    def __init__(self, k: float) -> None:
        self.k = k
        self.rating: dict[tuple[int, int], float] = defaultdict(float)

    @staticmethod
    def _pairs(tables: FieldTables, rows: np.ndarray) -> tuple[list, np.ndarray, np.ndarray]:
        """The partnerships at ``rows`` (each its two players in order, as rated), and each
        table's North-South's and East-West's index among them: a partnership's rating is
        read once, however many tables it sat at."""
        pairs = np.sort(tables.seats[rows].reshape(-1, 2, 2), axis=2)
        width = int(pairs.max()) + 1 if pairs.size else 1
        codes, index = np.unique(
            (pairs[..., 0] * width + pairs[..., 1]).ravel(), return_inverse=True
        )
        index = index.reshape(-1, 2)
        keys = [(code // width, code % width) for code in codes.tolist()]
        return keys, index[:, 0], index[:, 1]

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """North-South's expected share at each table of ``rows`` (whole deals): half of one
        plus the mean expected comparison with the other tables of its deal."""
        return self._share(tables, rows, *self._pairs(tables, rows))

    def _share(
        self,
        tables: FieldTables,
        rows: np.ndarray,
        keys: list,
        north_south: np.ndarray,
        east_west: np.ndarray,
    ) -> np.ndarray:
        rating = np.array([self.rating[key] for key in keys])
        strength = np.tanh((rating[north_south] - rating[east_west]) / SCALE)
        deal = np.unique(tables.group[rows], return_inverse=True)[1]
        total, tables_of_deal = np.bincount(deal, weights=strength), np.bincount(deal)
        others = (total[deal] - strength) / (tables_of_deal[deal] - 1)
        return 0.5 + (strength - others) / 4

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """Every deal of one session, the ratings moved at its end."""
        # the ratings stand still through the session: every deal's expectation at once, in
        # deal order, and the moves summed deal by deal as they come
        rows = deal_order(tables, rows)
        keys, north_south, east_west = self._pairs(tables, rows)
        expected = self._share(tables, rows, keys, north_south, east_west)
        # beat +1, tie 0, lost -1 against each other table, over the tables: 2 (s - e)
        surplus = 2 * (tables.share[rows] - expected)
        moves: dict[tuple[int, int], float] = defaultdict(float)
        for ns, ew, value in zip(north_south.tolist(), east_west.tolist(), surplus.tolist()):
            moves[keys[ns]] += self.k * value
            moves[keys[ew]] -= self.k * value
        for pair, move in moves.items():
            self.rating[pair] += move


PAIR_ELO = Method(
    "pair_elo",
    "the Common Game's partnership Elo (ACBL clubs): a rating per partnership, each board "
    "against the other tables, who sat opposite counted",
    online_method(PairElo, lambda rivals: rivals.pair_elo_k, widen=True),
)
