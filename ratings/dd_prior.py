"""Players' past double dummy measures, as covariates of the headline rating.

From ``table_evidence`` (:mod:`bridgerank.dds.table_evidence`), three measures per player,
each a mean shrunk toward zero by a few pseudo-boards (a player seen on two boards has no
measure to speak of; ``[rate.headline] dd_shrinks`` for the pair-session headline,
``[rate.teams] dd_shrinks`` for the team studies):

- *declarer play*: tricks taken as declarer minus the double dummy tricks;
- *defence*: double dummy tricks minus the tricks declarer took, when defending;
- *bidding*: the IMPs of the side's contract against par (double dummy), from the player's
  side.

Computed on the tables it is given; the headline gives each table its players' measures from
earlier periods only (:func:`~bridgerank.ratings.headline.past.past_columns`), since a measure of
the very boards a fit learns from carries their results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import FieldTables

# FieldTables' seat columns are North, South, East, West.
_COLUMN = {"N": 0, "S": 1, "E": 2, "W": 3}
FEATURES = ("declarer_play", "defence", "bidding")


@dataclass
class BoardEvidence:
    """Evidence per board, in board id order; NaN where a measure is unknown."""

    board: np.ndarray
    declarer: np.ndarray  # FieldTables column of declarer, -1 when passed out
    tricks_vs_dd: np.ndarray
    bidding_imps: np.ndarray
    # tricks the opening lead cost against the best lead, where it was valued
    lead_cost: np.ndarray | None = None

    @classmethod
    def of(cls, rows: Iterable[Mapping]) -> BoardEvidence:
        """From ``table_evidence`` rows (board_id, declarer, tricks_vs_dd, bidding_imps and,
        where the rows have it, lead_cost)."""
        rows = sorted(rows, key=lambda row: row["board_id"])

        def column(name: str) -> np.ndarray:
            return np.array(
                [np.nan if row[name] is None else row[name] for row in rows], dtype=float
            )

        return cls(
            board=np.array([row["board_id"] for row in rows], dtype=np.int64),
            declarer=np.array([_COLUMN.get(row["declarer"], -1) for row in rows], dtype=np.int64),
            tricks_vs_dd=column("tricks_vs_dd"),
            bidding_imps=column("bidding_imps"),
            lead_cost=column("lead_cost") if rows and "lead_cost" in rows[0] else None,
        )

    def __len__(self) -> int:
        return len(self.board)

    def coverage(self, tables: FieldTables) -> float:
        """Share of ``tables`` with evidence."""
        return float(self.rows_of(tables.board)[1].mean()) if len(tables) else 0.0

    def rows_of(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each board id's row here (any row where it has none) and whether it has one."""
        position = np.searchsorted(self.board, boards)
        position = np.minimum(position, max(len(self.board) - 1, 0))
        found = self.board[position] == boards if len(self.board) else np.zeros(len(boards), bool)
        return position, found

    def player_measures(
        self, tables: FieldTables, shrinks: tuple[float, ...] | None = None
    ) -> np.ndarray:
        """The three shrunk measures of every player of ``tables``: shape (players, 3); each
        mean shrunk toward zero by the pseudo-boards of ``shrinks`` (one per measure of
        :data:`FEATURES`; None: ``[rate.headline] dd_shrinks`` of the shipped defaults)."""
        if shrinks is None:
            shrinks = default_settings().rate.headline.dd_shrinks
        players = len(tables.players)
        position, found = self.rows_of(tables.board)
        seats = tables.seats[found]
        declarer = self.declarer[position[found]]
        tricks = self.tricks_vs_dd[position[found]]
        bidding = self.bidding_imps[position[found]]
        terms = measure_terms(seats, declarer, tricks, bidding)
        out = np.zeros((players, len(FEATURES)))
        for feature, ((_, who, values), shrink) in enumerate(zip(terms, shrinks)):
            out[:, feature] = shrunk_means(who, values, players, shrink)
        return out


def shrunk_means(who: np.ndarray, values: np.ndarray, size: int, shrink: float) -> np.ndarray:
    """Each of ``size`` players' sum of ``values`` (``who`` the player of each) over their
    count plus ``shrink``: their mean, shrunk toward zero by ``shrink`` pseudo-entries."""
    total = np.bincount(who, weights=values, minlength=size)
    return total / (np.bincount(who, minlength=size) + shrink)


def measure_terms(
    seats: np.ndarray, declarer: np.ndarray, tricks: np.ndarray, bidding: np.ndarray
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each of :data:`FEATURES`' terms on tables: for each feature, the table of each term,
    its player and its value.

    Parameters
    ----------
    seats : ndarray
        (tables, 4) player indices of North, South, East and West.
    declarer : ndarray
        Each table's declarer column (0-3), -1 when passed out or unknown.
    tricks, bidding : ndarray
        Each table's tricks against double dummy and North-South's contract against par in
        IMPs; NaN where unknown.
    """
    rows = np.flatnonzero((declarer >= 0) & ~np.isnan(tricks))
    declarers = seats[rows, declarer[rows]]
    # the defenders sit on the other side: N/S (columns 0, 1) against E/W (2, 3)
    side = declarer[rows] // 2
    defenders = np.concatenate([seats[rows, 2 * (1 - side)], seats[rows, 2 * (1 - side) + 1]])
    known = np.flatnonzero(~np.isnan(bidding))
    bid = np.repeat(bidding[known], 2)
    return [
        (rows, declarers, tricks[rows]),
        (np.concatenate([rows, rows]), defenders, -np.concatenate([tricks[rows]] * 2)),
        (
            np.concatenate([np.repeat(known, 2)] * 2),
            np.concatenate([seats[known][:, :2].ravel(), seats[known][:, 2:].ravel()]),
            np.concatenate([bid, -bid]),
        ),
    ]
