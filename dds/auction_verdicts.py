"""Auction verdicts: what each partnership could have done better, judged double dummy.

For each side of a board with a legal auction, every alternative the auction left open is
scored with the deal's double dummy tricks (not the tricks taken). The best alternative of
each mistake type is kept; the side made a mistake when the best of all beats what it got,
and the mistake belongs to the type(s) that reached that best: a tie splits the count and
the weight equally, so a side's counts add up to 1 and its weights to the score difference.

The types (thesis Table 3):

* passed out: ``passed_higher_contract`` (any contract with a positive score);
* defending side: ``defender_missed_higher_contract`` (a contract above the final one,
  doubled by the opponents when it fails), ``defender_missed_current_double``,
  ``defender_erroneously_doubled``;
* declaring side: ``declarer_missed_higher_contract`` (a contract above the defenders' last
  bid), ``declarer_missed_doubling_opponents_last_bid``,
  ``declarer_missed_opponents_last_redouble``,
  ``declarer_missed_redoubling_opponents_erroneous_double``,
  ``declarer_missed_opponents_last_bid``, ``declarer_erroneous_redouble``.

A strain is open to a player only if partner was not the first of the pair to name it, over
the whole auction (as the thesis's code read it): a strain partner names first after the
defenders' last bid is closed to this player in the declaring side's alternatives too.

Each alternative is also pinned to the call that gave it up, the one a board page marks: for
a better contract the side bid, the side's call that moved away from it while it stood; else
the side's last call at which the alternative was still a legal call (a contract while the
auction stood below it, a double while the opponents' bid stood undoubled, a pass instead of
the bid over the opponents' last bid, and so on): the moment the side let it go for good. A
"higher contract" of the declaring side is one above the defenders' last bid, so it may be
lower than the contract reached (1H by North, not South's 1NT over it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgerank.bridge.auction import Contract
from bridgerank.bridge.calls import BID_RANK, CONTRACT_BIDS
from bridgerank.bridge.cards import same_side, seat_after
from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable
from bridgerank.bridge.scoring import score

DEFENDER_TYPES = (
    "defender_missed_current_double",
    "defender_erroneously_doubled",
    "defender_missed_higher_contract",
)
DECLARER_TYPES = (
    "declarer_missed_higher_contract",
    "declarer_missed_doubling_opponents_last_bid",
    "declarer_missed_opponents_last_redouble",
    "declarer_missed_redoubling_opponents_erroneous_double",
    "declarer_missed_opponents_last_bid",
    "declarer_erroneous_redouble",
)
PASSED_TYPES = ("passed_higher_contract",)
AUCTION_TYPES = DEFENDER_TYPES + DECLARER_TYPES + PASSED_TYPES


@dataclass
class SideVerdict:
    """The verdict on one partnership's auction.

    ``best`` maps each mistake type open to the side to its best alternative score (the
    side's point of view); ``chosen`` are the types of the mistake (empty when none),
    ``weight`` the score the side gave away.
    """

    side: int  # 0 = North-South, 1 = East-West
    role: str  # passed | declaring | defending
    actual: int
    best: dict[str, int] = field(default_factory=dict)
    chosen: tuple[str, ...] = ()
    weight: int = 0
    # per type in ``best``: the alternative call ("4S", "X", "R", "P"), the seat that would
    # declare it (a bid only), and the index of the call where it was last available
    options: dict[str, Alternative] = field(default_factory=dict)


@dataclass(frozen=True)
class Alternative:
    """The better call a side could have made, who would declare it (bids only), and the
    index in the auction of the call it should have replaced."""

    call: str
    declarer: int | None
    at: int


def _open_strains(calls: list[str], first_seat: int) -> dict[str, set[int]]:
    """Per strain, the seats that could still declare it (partner never named it first)."""
    open_to = {strain: {0, 1, 2, 3} for strain in DDS_STRAINS}
    for index, call in enumerate(calls):
        if call in BID_RANK:
            seat = seat_after(first_seat, index)
            if seat in open_to[call[1]]:
                open_to[call[1]].discard(seat_after(seat, 2))
    return open_to


def declarer_of(calls: list[str], first_seat: int, upto: int) -> int:
    """Who would declare the bid at position ``upto``: first of the pair to name its strain."""
    bidder = seat_after(first_seat, upto)
    strain = calls[upto][1]
    for index in range(upto + 1):
        seat = seat_after(first_seat, index)
        if calls[index] in BID_RANK and calls[index][1] == strain and same_side(seat, bidder):
            return seat
    return bidder


def _best_contract(
    table: DDTable,
    seats: set[int],
    strains: dict[str, set[int]],
    above: int,
    vulnerable: bool,
    year: int | None,
    doubled_if_down: bool,
) -> tuple[int, list[tuple[str, int]]] | None:
    """The best score of a contract above rank ``above``, and every ``(bid, declarer)`` that
    reaches it (cheapest bid first, then the seats N E S W)."""
    best: tuple[int, list[tuple[str, int]]] | None = None
    for bid in CONTRACT_BIDS[above + 1 :]:
        level, strain = int(bid[0]), bid[1]
        for seat in sorted(seats & strains[strain]):
            taken = table.tricks(strain, seat)
            doubled = 1 if doubled_if_down and taken < level + 6 else 0
            value = score(level, strain, doubled, vulnerable, taken, year)
            if best is None or value > best[0]:
                best = (value, [(bid, seat)])
            elif value == best[0]:
                best[1].append((bid, seat))
    return best


def _last_call(calls: list[str], first_seat: int, side: int, legal) -> int:
    """Index of the side's last call at which ``legal(index)`` held (-1: none)."""
    for index in range(len(calls) - 1, -1, -1):
        if seat_after(first_seat, index) % 2 == side and legal(index):
            return index
    return -1


def _rank_before(calls: list[str], index: int) -> int:
    """Rank of the highest bid before call ``index`` (-1: none yet)."""
    return max((BID_RANK[call] for call in calls[:index] if call in BID_RANK), default=-1)


def _moved_away(calls: list[str], first_seat: int, side: int, bid: str, seat: int) -> int | None:
    """Where the side moved away from ``bid`` by ``seat`` while it stood: the side's first bid
    after it (None: the side never bid it so, or it was the last bid)."""
    made = next(
        (
            index
            for index, call in enumerate(calls)
            if call == bid
            and seat_after(first_seat, index) % 2 == side
            and declarer_of(calls, first_seat, index) == seat
        ),
        None,
    )
    return None if made is None else _next_bid(calls, first_seat, side, made)


def _next_bid(calls: list[str], first_seat: int, side: int, after: int) -> int | None:
    """The side's first bid after call ``after`` (None: it bid no more)."""
    return next(
        (
            index
            for index in range(after + 1, len(calls))
            if calls[index] in BID_RANK and seat_after(first_seat, index) % 2 == side
        ),
        None,
    )


def _better_contract(
    calls: list[str], first_seat: int, side: int, best: tuple[int, list[tuple[str, int]]]
) -> Alternative:
    """A better contract, pinned to the call that gave up the last of the best contracts:
    the side's call that moved away from one of them while it stood (the side bid it, then
    bid on), else the side's last call made while the auction stood below one (where the side
    could have bid it and chose otherwise), named as the cheapest of them open at that call.

    The blamed call is never the better contract itself: a contract the side bid and bid
    past is blamed on the bid past it, and one the side never bid was not its call."""
    _, contracts = best
    given_up = [
        (at, bid, seat)
        for bid, seat in contracts
        if (at := _moved_away(calls, first_seat, side, bid, seat)) is not None
    ]
    if given_up:
        at, bid, seat = max(given_up, key=lambda item: item[0])  # the latest: for good
        return Alternative(bid, seat, at)
    highest = max(BID_RANK[bid] for bid, _ in contracts)
    at = _last_call(calls, first_seat, side, lambda i: _rank_before(calls, i) < highest)
    below = _rank_before(calls, at) if at >= 0 else -1
    bid, seat = next((b, s) for b, s in contracts if BID_RANK[b] > below)
    return Alternative(bid, seat, at)


def _verdict(side: int, role: str, actual: int, best: dict[str, int]) -> SideVerdict:
    verdict = SideVerdict(side, role, actual, best)
    top = max(best.values(), default=None)
    if top is not None and top > actual:
        verdict.chosen = tuple(kind for kind, value in best.items() if value == top)
        verdict.weight = top - actual
    return verdict


def judge_auction(
    calls: list[str],
    first_seat: int,
    contract: Contract | None,
    declarer: int | None,
    table: DDTable,
    ns_vulnerable: bool,
    ew_vulnerable: bool,
    year: int | None,
) -> list[SideVerdict]:
    """Judge both partnerships' auctions.

    Parameters
    ----------
    calls : list of str
        A legal auction in canonical calls.
    first_seat : int
        Seat of the first call.
    contract : Contract or None
        The final contract; None when passed out.
    declarer : int or None
        Declarer's seat; None when passed out.
    table : DDTable
        The deal's double dummy table.
    ns_vulnerable, ew_vulnerable : bool
    year : int or None
        For the undertrick table (:mod:`dds.scoring`).

    Returns
    -------
    list of SideVerdict
        North-South first, then East-West.
    """
    vulnerable = (ns_vulnerable, ew_vulnerable)
    strains = _open_strains(calls, first_seat)
    if contract is None or declarer is None:
        verdicts = []
        for side in (0, 1):
            best = _best_contract(
                table, {side, side + 2}, strains, -1, vulnerable[side], year, doubled_if_down=False
            )
            # nothing was bid, so either seat of the side could declare any strain: a best exists
            assert best is not None
            verdict = _verdict(side, "passed", 0, {"passed_higher_contract": max(best[0], 0)})
            verdict.options["passed_higher_contract"] = _better_contract(
                calls, first_seat, side, best
            )
            verdicts.append(verdict)
        return verdicts
    declaring = declarer % 2
    defending = 1 - declaring
    level, strain, doubled = contract.level, contract.strain, contract.doubled
    taken = table.tricks(strain, declarer)
    current = score(level, strain, doubled, vulnerable[declaring], taken, year)
    final_rank = BID_RANK[f"{level}{strain}"]
    defenders = {defending, defending + 2}
    declarers = {declaring, declaring + 2}

    # after the final bid both defenders call (three passes end a legal auction)
    defenders_last = _last_call(calls, first_seat, defending, lambda i: True)

    defence: dict[str, int] = {}
    options: dict[str, Alternative] = {}
    if doubled == 0:
        defence["defender_missed_current_double"] = -score(
            level, strain, 1, vulnerable[declaring], taken, year
        )
        options["defender_missed_current_double"] = Alternative("X", None, defenders_last)
    else:
        defence["defender_erroneously_doubled"] = -score(
            level, strain, 0, vulnerable[declaring], taken, year
        )
        their_double = _last_call(calls, first_seat, defending, lambda i: calls[i] == "X")
        options["defender_erroneously_doubled"] = Alternative("P", None, their_double)
    higher = _best_contract(
        table, defenders, strains, final_rank, vulnerable[defending], year, doubled_if_down=True
    )
    if higher is not None:
        defence["defender_missed_higher_contract"] = higher[0]
        options["defender_missed_higher_contract"] = _better_contract(
            calls, first_seat, defending, higher
        )

    attack: dict[str, int] = {}
    last_defender_bid, redoubled_by_them = None, False
    for index in range(len(calls) - 1, -1, -1):
        seat = seat_after(first_seat, index)
        if calls[index] in BID_RANK:
            if seat % 2 == defending:
                last_defender_bid = index
                break
            redoubled_by_them = False
        elif calls[index] == "R" and seat % 2 == defending:
            redoubled_by_them = True
    above = -1 if last_defender_bid is None else BID_RANK[calls[last_defender_bid]]
    higher = _best_contract(
        table, declarers, strains, above, vulnerable[declaring], year, doubled_if_down=True
    )
    if higher is not None:
        attack["declarer_missed_higher_contract"] = higher[0]
        options["declarer_missed_higher_contract"] = _better_contract(
            calls, first_seat, declaring, higher
        )
    if last_defender_bid is not None:
        bid = calls[last_defender_bid]
        their_declarer = declarer_of(calls, first_seat, last_defender_bid)
        their_tricks = table.tricks(bid[1], their_declarer)
        # the declaring side's bid over it: where it could have passed or doubled instead
        over = next(i for i in range(last_defender_bid + 1, len(calls)) if calls[i] in BID_RANK)

        def theirs(doubling: int) -> int:
            return -score(int(bid[0]), bid[1], doubling, vulnerable[defending], their_tricks, year)

        # where the side had doubled it already, passing kept it doubled (a double of a doubled
        # bid is no call), and the undoubled contract was given up by that double
        ours_doubled = next(
            (
                i
                for i in range(last_defender_bid + 1, over)
                if calls[i] == "X" and seat_after(first_seat, i) % 2 == declaring
            ),
            None,
        )
        attack["declarer_missed_doubling_opponents_last_bid"] = theirs(1)
        options["declarer_missed_doubling_opponents_last_bid"] = Alternative(
            "X" if ours_doubled is None else "P", None, over
        )
        attack["declarer_missed_opponents_last_bid"] = theirs(0)
        options["declarer_missed_opponents_last_bid"] = Alternative(
            "P", None, over if ours_doubled is None else ours_doubled
        )
        if redoubled_by_them:  # passing left it redoubled
            attack["declarer_missed_opponents_last_redouble"] = theirs(2)
            options["declarer_missed_opponents_last_redouble"] = Alternative("P", None, over)
    # (score redoubled, the call that gave it up: a redouble missed, or a run from one)
    redoubles: list[tuple[int, Alternative]] = []
    start = 0 if last_defender_bid is None else last_defender_bid + 1
    pending = None  # our last bid since then, and whether the defenders doubled it
    for index in range(start, len(calls)):
        seat = seat_after(first_seat, index)
        call = calls[index]
        if call in BID_RANK:
            pending = index if seat % 2 == declaring else None
        elif call == "X" and pending is not None and seat % 2 == defending:
            bid = calls[pending]
            ours = declarer_of(calls, first_seat, pending)
            value = score(
                int(bid[0]), bid[1], 2, vulnerable[declaring], table.tricks(bid[1], ours), year
            )
            redoubles.append((value, _redouble_option(calls, first_seat, declaring, index)))
    if redoubles:
        value, option = max(redoubles, key=lambda item: item[0])
        attack["declarer_missed_redoubling_opponents_erroneous_double"] = value
        options["declarer_missed_redoubling_opponents_erroneous_double"] = option
    if doubled == 2:
        attack["declarer_erroneous_redouble"] = score(
            level, strain, 1, vulnerable[declaring], taken, year
        )
        ours_redouble = _last_call(calls, first_seat, declaring, lambda i: calls[i] == "R")
        options["declarer_erroneous_redouble"] = Alternative("P", None, ours_redouble)
    verdicts = [
        _verdict(declaring, "declaring", current, attack),
        _verdict(defending, "defending", -current, defence),
    ]
    for verdict in verdicts:
        verdict.options = {kind: options[kind] for kind in verdict.best}
    return sorted(verdicts, key=lambda verdict: verdict.side)


def _redouble_option(calls: list[str], first_seat: int, side: int, double: int) -> Alternative:
    """Where the side gave up playing the opponents' double at ``double`` redoubled: when it
    redoubled, its next bid (which ran from the redouble: a pass was the better call there);
    else its last call while the double stood (up to and including the first call after it
    that is not a pass), where a redouble was the better call."""
    end = next((i for i in range(double + 1, len(calls)) if calls[i] != "P"), len(calls) - 1)
    last = max(i for i in range(double + 1, end + 1) if seat_after(first_seat, i) % 2 == side)
    if calls[last] != "R":
        return Alternative("R", None, last)
    ran = _next_bid(calls, first_seat, side, last)
    # not run from: the contract reached is the redoubled one, no mistake to pin
    return Alternative("P", None, last if ran is None else ran)
