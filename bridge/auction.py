"""Auction legality and what an auction implies: the final contract and its declarer.

Calls are canonical (:mod:`cleaning.tokens`): ``P``, ``X``, ``R`` and ``1C`` ... ``7N``.
Seats are indices 0-3 (North, East, South, West); the first call is made by ``first_seat``.
"""

from __future__ import annotations

from typing import NamedTuple

from bridgerank.bridge.calls import BID_RANK
from bridgerank.bridge.cards import same_side, seat_after
from bridgerank.core.errors import BadRecord


class Contract(NamedTuple):
    """A final contract: ``level`` 1-7 and ``strain`` in ``CDHSN``, ``doubled`` 0/1/2."""

    level: int
    strain: str
    doubled: int

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{('', 'X', 'R')[self.doubled]}"


PASSED_OUT = "P"


def _check_passes(calls: list[str]) -> None:
    """Three passes end an auction exactly once, at its end (four when nobody bids)."""
    count = len(calls)
    first_bid = next((i for i, call in enumerate(calls) if call != "P"), count)
    if first_bid == count:
        if count == 4:
            return
        raise BadRecord("auction_bad_passes", f"passed out with {count} passes")
    if first_bid > 3:
        raise BadRecord("auction_bad_passes", "passed out, then the bidding went on")
    if count - first_bid < 4 or calls[-3:] != ["P", "P", "P"]:
        raise BadRecord("auction_bad_passes", "the auction does not end with three passes")
    if calls[-4] == "P":
        raise BadRecord("auction_bad_passes", "more than three final passes")
    run = 0
    for index in range(first_bid, count - 3):
        run = run + 1 if calls[index] == "P" else 0
        if run == 3:
            raise BadRecord(
                "auction_bad_passes", f"three passes before the end, at call {index + 1}"
            )


def validate_auction(calls: list[str], first_seat: int) -> None:
    """Check an auction against the laws on calls.

    Parameters
    ----------
    calls : list of str
        Canonical calls in order.
    first_seat : int
        Seat of the first call.

    Raises
    ------
    BadRecord
        ``auction_missing``, ``auction_bad_passes``, ``auction_insufficient_bid``,
        ``auction_illegal_double`` or ``auction_illegal_redouble``, checked in that order.
    """
    if not calls:
        raise BadRecord("auction_missing", "no calls")
    _check_passes(calls)
    last_rank = -1
    for index, call in enumerate(calls):
        rank = BID_RANK.get(call)
        if rank is not None:
            if rank <= last_rank:
                raise BadRecord("auction_insufficient_bid", f"{call} at call {index + 1}")
            last_rank = rank
    bidder = None
    doubled = 0
    for index, call in enumerate(calls):
        seat = seat_after(first_seat, index)
        if call in BID_RANK:
            bidder, doubled = seat, 0
        elif call == "X":
            if bidder is None or doubled or same_side(seat, bidder):
                raise BadRecord("auction_illegal_double", f"double at call {index + 1}")
            doubled = 1
        elif call == "R":
            if bidder is None or doubled != 1 or not same_side(seat, bidder):
                raise BadRecord("auction_illegal_redouble", f"redouble at call {index + 1}")
            doubled = 2


def final_contract(calls: list[str], first_seat: int) -> tuple[Contract | None, int | None]:
    """The contract and declarer seat a legal auction ends in.

    Returns ``(None, None)`` for a passed-out auction. The declarer is the first player of
    the side that won the auction to have named the final strain.
    """
    first_to_name: dict[tuple[int, str], int] = {}
    last_bid = None
    last_bidder = None
    doubled = 0
    for index, call in enumerate(calls):
        seat = seat_after(first_seat, index)
        if call in BID_RANK:
            first_to_name.setdefault((seat % 2, call[1]), seat)
            last_bid, last_bidder, doubled = call, seat, 0
        elif call == "X":
            doubled = 1
        elif call == "R":
            doubled = 2
    if last_bid is None or last_bidder is None:
        return None, None
    contract = Contract(int(last_bid[0]), last_bid[1], doubled)
    return contract, first_to_name[(last_bidder % 2, last_bid[1])]


def parse_contract(text: str | None) -> Contract | str | None:
    """Normalise a raw contract: a :class:`Contract`, ``"P"`` when passed out, None if unreadable.

    Accepts ``3NT``, ``3N``, ``4SX``, ``4S*`` (doubled), ``7NTXX``, ``Pass``; case-insensitive.
    """
    token = (text or "").strip().upper().replace(" ", "")
    if not token or token in {"?", "#", "-"}:
        return None
    if token in {"P", "PASS", "PASSED", "AP", "ALLPASS"}:
        return PASSED_OUT
    token = token.replace("**", "R").replace("*", "X").replace("XX", "R")
    if token[0] not in "1234567":
        return None
    level = int(token[0])
    rest = token[1:]
    if rest.startswith("NT"):
        strain, rest = "N", rest[2:]
    elif rest[:1] in {"C", "D", "H", "S", "N"}:
        strain, rest = rest[0], rest[1:]
    else:
        return None
    doubled = {"": 0, "X": 1, "R": 2}.get(rest)
    if doubled is None:
        return None
    return Contract(level, strain, doubled)
