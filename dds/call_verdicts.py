"""Each call of an auction with its double dummy reading.

For every call: the contract that would stand if the auction stopped there, scored for
North-South at its double dummy tricks (0 while nothing is bid), so a reader can follow the
auction's value call by call as the play's page follows the tricks. And where a side's
auction verdict (:mod:`dds.auction_verdicts`) found a mistake, the call that made it: the
side's last call at which the better alternative was still legal, with the mistake type(s),
that alternative, its score and the score given away. A tie between types that point at
different calls splits the score given away between those calls, as the counters split it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgerank.bridge.calls import BID_RANK
from bridgerank.bridge.cards import seat_after
from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.scoring import score
from bridgerank.dds.auction_verdicts import SideVerdict, declarer_of

__all__ = ["CallVerdict", "blames_itself", "judge_calls", "standing_scores"]

DOUBLING = {"X": 1, "R": 2}


@dataclass
class CallVerdict:
    """One call and what double dummy says of it.

    ``alternative_score`` and ``actual_score`` are the calling side's (the contract reached,
    at double dummy tricks); ``cost`` is the score the call gave away (0: not a mistake).
    """

    index: int
    seat: int
    call: str
    ns_dd_score: int
    kinds: tuple[str, ...] = ()
    alternative: str | None = None
    alternative_declarer: int | None = None
    alternative_score: int | None = None
    actual_score: int | None = None
    cost: float = 0.0


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


def judge_calls(
    calls: list[str],
    first_seat: int,
    verdicts: list[SideVerdict],
    table: DDTable,
    vulnerable: tuple[bool, bool],
    year: int | None,
) -> list[CallVerdict]:
    """Every call's verdict (see the module docstring).

    Parameters
    ----------
    calls, first_seat, table, year
        As :func:`~dds.auction_verdicts.judge_auction` took them.
    verdicts : list of SideVerdict
        Both sides' verdicts on this auction, as it returned them.
    vulnerable : tuple of bool
        North-South's and East-West's vulnerability.

    Returns
    -------
    list of CallVerdict
        One per call, in auction order.
    """
    standing = standing_scores(calls, first_seat, table, vulnerable, year)
    result = [
        CallVerdict(index, seat_after(first_seat, index), call, standing[index])
        for index, call in enumerate(calls)
    ]
    for verdict in verdicts:
        for kind in verdict.chosen:
            option = verdict.options[kind]
            call = result[option.at]
            if not call.kinds:
                call.alternative = option.call
                call.alternative_declarer = option.declarer
                call.alternative_score = verdict.best[kind]
                call.actual_score = verdict.actual
            call.kinds += (kind,)
            call.cost += verdict.weight / len(verdict.chosen)
    return result


def blames_itself(call: CallVerdict, calls: list[str], first_seat: int) -> bool:
    """Whether a mistake's better call is the very call it blames: the same call, and for a
    bid the same declarer (a verdict no player would accept; none should be found)."""
    if not call.kinds or call.alternative != call.call:
        return False
    if call.call not in BID_RANK:
        return True
    return call.alternative_declarer == declarer_of(calls, first_seat, call.index)
