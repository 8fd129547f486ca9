"""The thesis's card counters per board and seat, for the team headline's card-level prior.

The dds stage gives every card played a double dummy verdict (``card_analysis``: the tricks
it cost, 0 for a card that kept the double dummy result). Per board and seat this module
counts three kinds of card and how many of them cost a trick:

- **opening leads** (the board's first card, by the leader);
- **declarer's cards** (declarer's own and dummy's, both played by declarer: counted to the
  declarer's seat);
- **defenders' cards** after the lead.

:class:`~bridgerank.ratings.team_evidence.PlayerRecords` sums them per player over the
periods before a match and turns them into shrunk rates (``[rate.teams] card_shrinks``), so a
player's later results can be set against their earlier card play, as the thesis asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

__all__ = ["CARD_KINDS", "CardCounts"]

# The kinds counted, in their column order, and the roles of ``card_analysis`` each reads.
CARD_KINDS = ("lead", "declarer", "defender")
_KIND_OF_ROLE = {"lead": 0, "declarer": 1, "dummy": 1, "defender": 2}
_COLUMN = {"N": 0, "S": 1, "E": 2, "W": 3}  # PlayerRecords' seat columns
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


@dataclass
class CardCounts:
    """Per board (ids ascending), per seat column (N, S, E, W) and per kind
    (:data:`CARD_KINDS`): the cards played and those that cost a trick."""

    board: np.ndarray  # (boards,)
    played: np.ndarray  # (boards, 4, 3)
    costly: np.ndarray  # (boards, 4, 3)

    @classmethod
    def of(cls, rows: Iterable[Mapping]) -> CardCounts:
        """From rows of ``board_id``, ``seat``, ``role``, ``cards`` and ``costly`` (the
        ``card_analysis`` rows of one board, seat and role, counted)."""
        rows = list(rows)
        board = np.unique(np.array([row["board_id"] for row in rows], dtype=np.int64))
        played = np.zeros((len(board), 4, len(CARD_KINDS)))
        costly = np.zeros_like(played)
        at = {int(number): position for position, number in enumerate(board)}
        for row in rows:
            kind = _KIND_OF_ROLE.get(row["role"])
            if kind is None:
                continue
            # dummy's cards are declarer's decisions
            seat = _PARTNER[row["seat"]] if row["role"] == "dummy" else row["seat"]
            here = (at[int(row["board_id"])], _COLUMN[seat], kind)
            played[here] += row["cards"]
            costly[here] += row["costly"]
        return cls(board, played, costly)

    def __len__(self) -> int:
        return len(self.board)

    def aligned(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``played`` and ``costly`` for boards ``ids`` in that order (zeros where no card of
        the board was analysed)."""
        played = np.zeros((len(ids), 4, len(CARD_KINDS)))
        costly = np.zeros_like(played)
        if len(self) and len(ids):
            position = np.minimum(np.searchsorted(self.board, ids), len(self) - 1)
            found = self.board[position] == ids
            played[found] = self.played[position[found]]
            costly[found] = self.costly[position[found]]
        return played, costly
