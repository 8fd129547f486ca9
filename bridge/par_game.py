"""The auction as a game at double dummy: the par of the auction from any point.

Both sides see all four hands and every contract's double dummy tricks. From any point of an
auction, each player in turn may pass, double the opponents' undoubled bid, redouble a
doubled bid of his side, or bid higher; the auction ends as the laws end it (three passes
after a bid, four with none) and the contract scores at its double dummy tricks. Played out
with both sides choosing their best at every turn (North-South maximising their score,
East-West minimising it), the auction from a point has one value: the *par from that point*.
From the start it is the deal's par (DDS's, which :func:`tests` check it against); after a
sacrifice it counts the opponents' chance to bid on over it, after a double their chance to
run.

A call's worth is the par after it. The calls open to a player all lead to a par; the best
of them is the par before his call, and a call whose par is worse for his side gave the
difference away - a verdict an expert accepts, since the opponents may bid again.

Who declares a contract follows the laws' rule: the player of the side who first named its
strain. A strain a side has named is declared by that player for the rest of the auction; a
strain it has not named yet, by the player of the two who takes more tricks in it (the side
can arrange who names it first), except when the player to call names it now: then he does.

The game is solved backwards over the 35 bids, highest first: for a standing bid, the value
of each state (who bid, doubled or not, who acted last, passes since) needs only the states
of the same bid and the best of the higher bids for each side, so a configuration of
declarers costs a few thousand steps and the states of every bid.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgerank.bridge.calls import BID_RANK, CONTRACT_BIDS
from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.scoring import score

__all__ = ["CallValue", "ParGame", "State"]

_BIDS = len(CONTRACT_BIDS)
# The strains of CONTRACT_BIDS (clubs up to notrump) as DDTable names them.
_STRAIN_OF = tuple(bid[1] for bid in CONTRACT_BIDS)
_LEVEL_OF = tuple(int(bid[0]) for bid in CONTRACT_BIDS)
_STRAIN_INDEX = {strain: index for index, strain in enumerate("CDHSN")}
_FREE = -1


def _side(seat: int) -> int:
    return seat % 2


def _better(side: int, a: int, b: int) -> bool:
    """Whether NS score ``a`` is better than ``b`` for ``side`` (0 maximises, 1 minimises)."""
    return a > b if side == 0 else a < b


@dataclass(frozen=True)
class State:
    """A point of an auction, as the game needs it.

    ``bid`` is the standing bid's index in CONTRACT_BIDS (-1: none yet), ``side`` its side
    (0 = North-South), ``doubled`` 0, 1 or 2 (which says who acted last: the bid's side
    undoubled or redoubled, the opponents doubled), ``passes`` the passes since the last
    action (before any bid: since the start),
    ``seat`` the player to call, ``declarers`` per side and strain the seat that named it
    first (-1: not named yet), ``ended`` whether the auction is over.
    """

    bid: int
    side: int
    doubled: int
    passes: int
    seat: int
    declarers: tuple[int, ...]  # 10: side * 5 + strain (C D H S N)
    ended: bool = False


@dataclass(frozen=True)
class CallValue:
    """One call of an auction, judged by the par after it.

    ``par_after`` is the par (North-South's score) after the call made, ``par_before`` the
    best par any call open to the player reached (the par before the call), ``best`` those
    calls (with the seat that would declare, for a bid). ``cost`` is what the call gave away,
    in points, from its side's point of view (0: one of the best).
    """

    index: int
    seat: int
    call: str
    par_before: int
    par_after: int
    best: tuple[tuple[str, int | None], ...]

    @property
    def cost(self) -> int:
        return abs(self.par_before - self.par_after)


# No bid above 7NT: a side's best "higher bid" there is one it never chooses.
_NONE_ABOVE = (-(10**9), 10**9)
# The best of several values for North-South (max) and for East-West (min).
_BEST = (max, min)


class _Solved:
    """The game's values for one configuration of declarers, from the top bid down to
    ``lowest`` (extended on demand).

    A standing bid's states are few: who acted last follows from the doubling (the bidder's
    side undoubled or redoubled, the opponents doubled), so ``values[b][s][d][p]`` is North-
    South's score with bid ``b`` standing by side ``s``, doubled ``d`` times, ``p`` passes
    since the last action. ``higher[m][i]``: the best for side ``m`` of bidding any bid from
    index ``i`` up (at 35, none: a value side ``m`` never prefers).
    """

    def __init__(self, game: ParGame, declarers: tuple[int, ...]) -> None:
        self.game, self.declarers = game, declarers
        self.values: list[tuple[tuple[tuple[int, ...], ...], ...] | None] = [None] * _BIDS
        self.higher: list[list[int]] = [[_NONE_ABOVE[m]] * (_BIDS + 1) for m in range(2)]
        self.lowest = _BIDS
        # each side's declarer of each strain (C D H S N) under this configuration
        self._declarer = [
            [
                declarers[side * 5 + k]
                if declarers[side * 5 + k] != _FREE
                else game.best_seat(side, "CDHSN"[k])
                for k in range(5)
            ]
            for side in (0, 1)
        ]

    def declarer(self, side: int, strain: str) -> int:
        return self._declarer[side][_STRAIN_INDEX[strain]]

    def solve_down_to(self, bid: int) -> None:
        """Solve every bid from the lowest solved down to ``bid``."""
        while self.lowest > max(bid, 0):
            self.lowest -= 1
            self._solve(self.lowest)

    def _solve(self, b: int) -> None:
        finals, strain, higher = self.game.finals[b], b % 5, self.higher
        by_side = []
        for s in (0, 1):
            o = 1 - s
            mine, theirs = _BEST[s], _BEST[o]
            own, above = higher[s][b + 1], higher[o][b + 1]
            f0, f1, f2 = finals[self._declarer[s][strain]]
            # redoubled, by the bidder's side: the opponents, partner, the opponents call
            r2 = theirs(f2, above)
            r1 = mine(r2, own)
            r0 = theirs(r1, above)
            # doubled, by the opponents: the bidder's side (who may redouble) calls first
            x2 = mine(f1, own, r0)
            x1 = theirs(x2, above)
            x0 = mine(x1, own, r0)
            # undoubled: the opponents (who may double), the bidder's partner, the opponents
            u2 = theirs(f0, above, x0)
            u1 = mine(u2, own)
            u0 = theirs(u1, above, x0)
            by_side.append(((u0, u1, u2), (x0, x1, x2), (r0, r1, r2)))
            higher[s][b] = mine(u0, own)
        self.values[b] = (by_side[0], by_side[1])

    def value(self, bid: int, side: int, doubled: int, passes: int) -> int:
        self.solve_down_to(bid)
        table = self.values[bid]
        assert table is not None
        return table[side][doubled][passes]

    def opening(self, seat: int, passes: int) -> int:
        """The value before any bid, ``passes`` passes made and ``seat`` to call."""
        self.solve_down_to(0)
        value = 0  # four passes: passed out
        for p in range(3, passes - 1, -1):
            mover = _side(seat + p - passes)
            value = _BEST[mover](value, self.higher[mover][0])
        return value


class ParGame:
    """The auction game of one deal (see the module docstring).

    Parameters
    ----------
    table : DDTable
        The deal's double dummy tricks.
    vulnerable : tuple of bool
        North-South's and East-West's vulnerability.
    dealer : int
        The seat that calls first (0 = North).
    year : int, optional
        The board's year, for the undertrick scale in force (:func:`~bridge.scoring.score`).
    """

    def __init__(
        self, table: DDTable, vulnerable: tuple[bool, bool], dealer: int, year: int | None = None
    ) -> None:
        self.table, self.vulnerable, self.dealer, self.year = table, vulnerable, dealer, year
        self._solved: dict[tuple[int, ...], _Solved] = {}
        self._best_seat = {
            (side, strain): max((side, side + 2), key=lambda seat: table.tricks(strain, seat))
            for side in (0, 1)
            for strain in "CDHSN"
        }
        # finals[bid][declarer]: North-South's score undoubled, doubled and redoubled
        self.finals = [
            [tuple(self.final(bid, seat % 2, d, seat) for d in (0, 1, 2)) for seat in range(4)]
            for bid in range(_BIDS)
        ]

    # -- the pieces ----------------------------------------------------------------------

    def best_seat(self, side: int, strain: str) -> int:
        """The player of ``side`` who takes more tricks in ``strain`` (North or East on a tie)."""
        return self._best_seat[(side, strain)]

    def final(self, bid: int, side: int, doubled: int, declarer: int) -> int:
        """North-South's score of the auction ending on ``bid`` by ``side``'s ``declarer``."""
        level, strain = _LEVEL_OF[bid], _STRAIN_OF[bid]
        tricks = self.table.tricks(strain, declarer)
        value = score(level, strain, doubled, self.vulnerable[side], tricks, self.year)
        return value if side == 0 else -value

    def _solution(self, declarers: tuple[int, ...]) -> _Solved:
        # A strain named first by the player of the side who takes more tricks in it has the
        # values of one not named yet (the side would have him declare it): one solution.
        key = tuple(
            _FREE if seat == self._best_seat[(index // 5, "CDHSN"[index % 5])] else seat
            for index, seat in enumerate(declarers)
        )
        solved = self._solved.get(key)
        if solved is None:
            solved = self._solved[key] = _Solved(self, key)
        return solved

    # -- states --------------------------------------------------------------------------

    def start(self) -> State:
        """The state before the first call."""
        return State(-1, 0, 0, 0, self.dealer, (_FREE,) * 10)

    def after(self, state: State, call: str) -> State:
        """The state after ``call`` (``P``, ``X``, ``R`` or a bid), which must be legal."""
        if state.ended:
            raise ValueError("the auction is over")
        seat, mover = state.seat, _side(state.seat)
        following = (seat + 1) % 4
        if call == "P":
            passes = state.passes + 1
            ended = passes == (3 if state.bid >= 0 else 4)
            return State(
                state.bid, state.side, state.doubled, passes, following, state.declarers, ended
            )
        if call == "X":
            if state.bid < 0 or state.side == mover or state.doubled:
                raise ValueError("a double needs the opponents' undoubled bid")
            return State(state.bid, state.side, 1, 0, following, state.declarers)
        if call == "R":
            if state.bid < 0 or state.side != mover or state.doubled != 1:
                raise ValueError("a redouble needs the opponents' double of one's own bid")
            return State(state.bid, state.side, 2, 0, following, state.declarers)
        bid = BID_RANK[call]
        if bid <= state.bid:
            raise ValueError(f"{call} is not above the standing bid")
        declarers = list(state.declarers)
        key = mover * 5 + _STRAIN_INDEX[call[1]]
        if declarers[key] == _FREE:
            declarers[key] = seat
        return State(bid, mover, 0, 0, following, tuple(declarers))

    def value(self, state: State) -> int:
        """The par from ``state``: North-South's score with both sides at their best."""
        if state.ended and state.bid < 0:
            return 0
        solved = self._solution(state.declarers)
        if state.ended:
            declarer = solved.declarer(state.side, _STRAIN_OF[state.bid])
            return self.final(state.bid, state.side, state.doubled, declarer)
        if state.bid < 0:
            return solved.opening(state.seat, state.passes)
        return solved.value(state.bid, state.side, state.doubled, state.passes)

    def par(self) -> int:
        """The deal's par: the par from the start (North-South's score)."""
        return self.value(self.start())

    def option_values(self, state: State) -> dict[str, int]:
        """The par after each call open to the player to call: ``value(after(state, call))``
        for every legal call, read from the solutions directly."""
        values, bounded = self._bounds(state)
        for bid in bounded:
            values[bid] = self._exact_bid(state, bid)
        return values

    def _bounds(self, state: State) -> tuple[dict[str, int], set[str]]:
        """Every legal call's value with the declarers as they stand, and the bids whose
        true value may be worse for the caller: those in a strain his side has not named,
        where he takes fewer tricks than partner (he would declare it). Worse tricks in a
        strain can only lower a side's par, so those values bound the true ones."""
        mover, seat = _side(state.seat), state.seat
        solved = self._solution(state.declarers)
        values: dict[str, int] = {}
        if state.bid < 0:
            passes = state.passes + 1
            values["P"] = 0 if passes == 4 else solved.opening((seat + 1) % 4, passes)
        else:
            b, s, d = state.bid, state.side, state.doubled
            if state.passes == 2:
                values["P"] = self.final(b, s, d, solved.declarer(s, _STRAIN_OF[b]))
            else:
                values["P"] = solved.value(b, s, d, state.passes + 1)
            if not d and s != mover:
                values["X"] = solved.value(b, s, 1, 0)
            if d == 1 and s == mover:
                values["R"] = solved.value(b, s, 2, 0)
        solved.solve_down_to(state.bid + 1)
        for bid in range(state.bid + 1, _BIDS):
            values[CONTRACT_BIDS[bid]] = solved.value(bid, mover, 0, 0)
        weaker = {
            strain
            for index, strain in enumerate("CDHSN")
            if state.declarers[mover * 5 + index] == _FREE
            and self.table.tricks(strain, seat) < self.table.tricks(strain, (seat + 2) % 4)
        }
        bounded = {bid for bid in values if bid in BID_RANK and bid[1] in weaker}
        return values, bounded

    def _exact_bid(self, state: State, bid: str) -> int:
        """The value of ``bid`` by the player to call, who names its strain first."""
        key = _side(state.seat) * 5 + _STRAIN_INDEX[bid[1]]
        declarers = state.declarers[:key] + (state.seat,) + state.declarers[key + 1 :]
        return self._solution(declarers).value(BID_RANK[bid], _side(state.seat), 0, 0)

    def declarer_after(self, state: State, call: str) -> int | None:
        """Who would declare if ``call`` were a bid that stood (None for P, X, R)."""
        if call not in BID_RANK:
            return None
        fixed = state.declarers[_side(state.seat) * 5 + _STRAIN_INDEX[call[1]]]
        return fixed if fixed != _FREE else state.seat

    # -- an auction ----------------------------------------------------------------------

    def judge(self, calls: list[str]) -> list[CallValue]:
        """Every call of ``calls`` (from the dealer on) with the par before and after it.

        Raises
        ------
        ValueError
            A call is not legal where it stands, or follows the end of the auction.
        """
        judged: list[CallValue] = []
        state = self.start()
        for index, call in enumerate(calls):
            if state.ended:
                raise ValueError(f"call {index + 1} ({call}) follows the end of the auction")
            values, bounded = self._bounds(state)
            if call not in values:
                raise ValueError(f"call {index + 1} ({call}) is not legal there")
            mover = _side(state.seat)
            exact = {option: value for option, value in values.items() if option not in bounded}
            if call in bounded:
                exact[call] = self._exact_bid(state, call)
            before = _BEST[mover](exact.values())
            # a bounded bid can be among the best only if its bound is at least as good
            for option in sorted(bounded - {call}, key=values.__getitem__, reverse=mover == 0):
                if _better(mover, before, values[option]):
                    break
                exact[option] = self._exact_bid(state, option)
                before = _BEST[mover](before, exact[option])
            best = tuple(
                (option, self.declarer_after(state, option))
                for option in values  # the calls' order: P, X, R, the bids upwards
                if exact.get(option) == before
            )
            judged.append(CallValue(index, state.seat, call, before, exact[call], best))
            state = self.after(state, call)
        return judged
