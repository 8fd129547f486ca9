"""The English Bridge Union's National Grading Scheme (NGS), as a rival.

Re-implemented from its published method: English Bridge Union, "National Grading Scheme:
Full description" (the NGS Working Group, version 16, April 2018), and the scheme's public
notes (EBU blog 59, March 2013). What it says, and what is kept:

- a grade is a percentage: the score a pair of two players of that grade would make in a
  match-pointed session against average opponents (50 is the average player);
- after each session, each player gets a *session grade*: the pair's percentage, plus the
  strength of the opponents they met less 50 (``SOpp``: the mean grade of the opponents at
  their tables), plus half the difference between the player's grade and their partner's::

      SG_a = P + (SOpp - 50) + (G_a - G_b) / 2

  so partners of different grades move apart by what their grades already say, and a good
  score against strong opponents is worth more;
- a grade is the mean of the player's session grades weighted by boards played, the effect of
  earlier sessions decaying as later boards are played (the scheme keeps about the last 2,000
  boards of three years; here each later board multiplies an earlier one's weight by a
  constant, its half-life in boards chosen on the training dates);
- a player without a graded session stands at 50.

A pair's expected percentage in a session is the mean of its players' grades less the
opponents' strength above 50; at one table, North-South's expected share is ``0.5 + (G_NS -
G_EW) / 100`` with ``G`` a pair's mean grade. Left out: the extra weight of national events,
the pull between the grades of fixed partnerships, and the scheme's treatment of Butler,
cross-IMPed and team events (the validation is of match-pointed pairs).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from bridgerank.ratings.field import FieldTables, deal_order
from bridgerank.ratings.registry import Method
from bridgerank.ratings.rivals.online import online_method, per_seat

__all__ = ["NGS", "NationalGrades"]

AVERAGE = 50.0


class NationalGrades:
    """Every player's grade, learned session by session."""

    def __init__(self, half_life: float) -> None:
        self.keep = 0.5 ** (1 / half_life)  # an earlier board's weight after one more board
        self.weighted: dict[int, float] = defaultdict(float)  # sum of weight * session grade
        self.weight: dict[int, float] = defaultdict(float)

    def grade(self, player: int) -> float:
        """The player's grade (50 before any session)."""
        weight = self.weight[player]
        return self.weighted[player] / weight if weight > 0 else AVERAGE

    def _pair_grades(self, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        grades = per_seat(self.grade, seats)
        return grades[:, :2].mean(axis=1), grades[:, 2:].mean(axis=1)

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """North-South's expected share at each table of one deal."""
        north_south, east_west = self._pair_grades(tables.seats[rows])
        return 0.5 + (north_south - east_west) / 100

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """Each player's session grade from one session, then their grade."""
        # per player of the session: boards, the pair's matchpoints and the opponents' grades
        boards: dict[int, int] = defaultdict(int)
        shares: dict[int, float] = defaultdict(float)
        opponents: dict[int, float] = defaultdict(float)
        partner: dict[int, int] = {}
        # the grades stand still through the session: the pairs' at every table at once,
        # the tables deal by deal
        order = deal_order(tables, rows)
        seated = tables.seats[order]
        north_south, east_west = self._pair_grades(seated)
        for seats, share, ns_grade, ew_grade in zip(
            seated.tolist(), tables.share[order], north_south, east_west
        ):
            for side, (first, second) in enumerate((seats[:2], seats[2:])):
                mine = share if side == 0 else 1 - share
                facing = ew_grade if side == 0 else ns_grade
                for player, other in ((first, second), (second, first)):
                    boards[player] += 1
                    shares[player] += mine
                    opponents[player] += facing
                    partner[player] = other
        grades = {player: self.grade(player) for player in boards}
        for player, count in boards.items():
            percent = 100 * shares[player] / count
            strength = opponents[player] / count
            mate = grades.get(partner[player], self.grade(partner[player]))
            session = percent + (strength - AVERAGE) + (grades[player] - mate) / 2
            fade = self.keep**count
            self.weighted[player] = self.weighted[player] * fade + count * session
            self.weight[player] = self.weight[player] * fade + count


NGS = Method(
    "ngs",
    "the English Bridge Union's National Grading Scheme: session grades against the "
    "opponents' strength and the partner's grade, averaged with decaying weights",
    online_method(NationalGrades, lambda rivals: rivals.ngs_half_lives, widen=True),
)
