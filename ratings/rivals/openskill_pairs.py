"""OpenSkill (the model of the ``openskill`` package), Plackett-Luce with teams of two, as a
rival.

What it learns from is what it can take: each deal is two rankings, of its North-South pairs
and of its East-West pairs, by their matchpoints on it (ties share a place), each pair a team
of its two players; the package's Plackett-Luce update
(:mod:`~bridgerank.ratings.rivals.openskill_update`, on plain floats: the package's figures
to the last bit) runs on every ranking in date order.
It rates players, not partnerships, and does not model who sat opposite.

Its forecast of a table gives it that much: North-South's strength at a table is their two
players' means less their opponents', and North-South at table ``i`` beats North-South at
table ``j`` with the Plackett-Luce probability of two teams, ``1 / (1 + exp(-(v_i - v_j) /
c))``, where ``c^2`` adds the eight players' variances and four times the model's ``beta^2``
(a team's performance noise, for each pair at the two tables). A table's expected share is
the mean of those over the other tables. The model's ``beta`` is chosen on the training
dates (:mod:`~bridgerank.ratings.rivals.online`); the rest are the package's defaults.
"""

from __future__ import annotations

import numpy as np

from bridgerank.ratings.field import FieldTables, deal_order, field_share, places
from bridgerank.ratings.registry import Method
from bridgerank.ratings.rivals.online import online_method, per_seat
from bridgerank.ratings.rivals.openskill_update import NEW, Rating, rate_ranking

__all__ = ["OPENSKILL", "OpenSkillPairs"]


class OpenSkillPairs:
    """Every player's OpenSkill rating, learned deal by deal."""

    def __init__(self, beta: float) -> None:
        self.beta = float(beta)
        self.ratings: dict[int, Rating] = {}

    def _moments(self, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ratings = per_seat(lambda player: self.ratings.get(player, NEW), seats)
        return ratings[..., 0], ratings[..., 1] ** 2

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """North-South's expected share at each table of ``rows`` (whole deals; see the
        module)."""
        mu, variance = self._moments(tables.seats[rows])
        strength = mu[:, :2].sum(axis=1) - mu[:, 2:].sum(axis=1)
        spread = variance.sum(axis=1)

        def beats(i: np.ndarray, j: np.ndarray) -> np.ndarray:
            scale = np.sqrt(spread[i] + spread[j] + 4 * self.beta**2)
            return 1 / (1 + np.exp(-(strength[i] - strength[j]) / scale))

        return field_share(tables.group[rows], beats)

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """The package's update on each deal's two rankings of pairs."""
        ratings = self.ratings
        order = deal_order(tables, rows)
        group, seats, share = tables.group[order], tables.seats[order], tables.share[order]
        bounds = np.flatnonzero(np.r_[True, group[1:] != group[:-1], True]).tolist()
        # each direction's pairs and their places on their deal (1 the best; equal shares
        # share a place)
        sides = [
            (seats[:, list(columns)].tolist(), (1.0 + places(shares, group)).tolist())
            for columns, shares in (((0, 1), share), ((2, 3), 1 - share))
        ]
        for start, end in zip(bounds[:-1], bounds[1:]):
            for pairs, ranks in sides:
                ranking = pairs[start:end]
                for pair in ranking:
                    for player in pair:
                        ratings.setdefault(player, NEW)
                ratings.update(rate_ranking(ranking, ratings, ranks[start:end], self.beta))


OPENSKILL = Method(
    "openskill",
    "OpenSkill (Plackett-Luce, teams of two) on each deal's order of pairs; its forecast "
    "counts who sat opposite",
    online_method(OpenSkillPairs, lambda rivals: rivals.openskill_betas, widen=True),
)
