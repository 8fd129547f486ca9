"""The contract standing after each call of an auction, at double dummy.

For every call: the contract that would stand if the auction stopped there, scored for
North-South at its double dummy tricks (0 while nothing is bid), so a reader can follow the
auction's value call by call as the play's page follows the tricks. (What each call was worth
with the auction free to go on is its par: :mod:`dds.call_values`.)
"""

from __future__ import annotations

from bridgerank.bridge.calls import BID_RANK
from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.scoring import score
from bridgerank.dds.auction_verdicts import declarer_of

__all__ = ["standing_scores"]

DOUBLING = {"X": 1, "R": 2}


def standing_scores(
    calls: list[str],
    first_seat: int,
    table: DDTable,
    vulnerable: tuple[bool, bool],
    year: int | None,
) -> list[int]:
    """North-South's double dummy score of the contract standing after each call."""
    values, bid_at, doubling = [], None, 0
    for index, call in enumerate(calls):
        if call in BID_RANK:
            bid_at, doubling = index, 0
        elif call in DOUBLING:
            doubling = DOUBLING[call]
        if bid_at is None:
            values.append(0)
            continue
        bid = calls[bid_at]
        declarer = declarer_of(calls, first_seat, bid_at)
        side = declarer % 2
        value = score(
            int(bid[0]), bid[1], doubling, vulnerable[side], table.tricks(bid[1], declarer), year
        )
        values.append(value if side == 0 else -value)
    return values
