"""Each call judged as an expert judges it: by the par of the auction after it, in the units
of the event's scoring.

:mod:`bridge.par_game` gives every call the par after it (both sides still free to bid on,
double or sacrifice) and the best par any call open to the player reached. A call is a
mistake (*red*) when what it gave away is worth at least ``threshold_imps`` IMPs (0 IMPs is
never a mistake; the default, 2, leaves out overtrick-sized differences) and the table did not
reach the deal's par in the end: where the final contract scores par at double dummy, one
side's slip was given back by the other, and nobody lost anything at the table. On a board of
a matchpointed pair event with a field (other tables' scores of the deal), what a call gave
away is a share of a top instead: the two pars matchpointed against the field, red from
``threshold_mp`` (an overtrick can be half a top there, so its own threshold).

The better call named is the one a player would make: a pass where a pass was as good, then
a double or redouble, then the cheapest bid whose contract, if it stood, would score the par
by itself, then the cheapest other bid. A bid is declared by the player of the side who first
named its strain (the blamed player himself for a strain his side has not named); where his
partner would declare it but the blamed player takes as many tricks, he is named.

Each red call also gets one of the thesis's ten auction mistake types (thesis Table 3), so
the 33 counters keep their names: the side's role at the end of the auction (passed out,
declaring, defending) and what the call did or missed (a double, a redouble, a pass, a
contract of its own) decide it (:func:`mistake_kind`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from bridgerank.bridge.calls import BID_RANK
from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.par_game import CallValue, ParGame, State
from bridgerank.bridge.scoring import imps, matchpoint_share

__all__ = [
    "DEFAULT_THRESHOLD_IMPS",
    "DEFAULT_THRESHOLD_MP",
    "CallJudgement",
    "CallRules",
    "judge_call_values",
    "mistake_kind",
]

# IMPs a call must give away to be called a mistake (20-40 points are 1 IMP: an overtrick).
DEFAULT_THRESHOLD_IMPS = 2
# The share of a top a call must give away on a matchpointed board with a field.
DEFAULT_THRESHOLD_MP = 0.25


@dataclass(frozen=True)
class CallRules:
    """How calls are judged and counted (``[dds] call_threshold_imps``, ``auction_counters``
    and ``call_threshold_mp``): the least a mistake gives away, in IMPs, which verdicts the
    auction counters count (``par``: these; ``thesis``: :mod:`dds.auction_verdicts`), and the
    least share of a top a mistake gives away on a matchpointed board with a field."""

    threshold_imps: int = DEFAULT_THRESHOLD_IMPS
    counters: str = "par"
    threshold_mp: float = DEFAULT_THRESHOLD_MP

    @property
    def fingerprint(self) -> str:
        """What a board's analysis digest adds for these rules (a change reanalyses)."""
        return f"calls:{self.threshold_imps}:{self.counters}:{self.threshold_mp}"


@dataclass(frozen=True)
class CallJudgement:
    """One call, its par before and after (North-South's), and the verdict.

    ``cost_points`` and ``cost_imps`` are what the call gave away from its side's point of
    view, ``cost_mp`` the share of a top it gave away against the field (None without a
    field); ``red`` whether that is a mistake (see the module docstring); ``alternative`` the
    better call named, ``alternative_declarer`` who would declare it (a bid), ``kind`` the
    thesis's mistake type of a red call.
    """

    index: int
    seat: int
    call: str
    par_before: int
    par_after: int
    cost_points: int
    cost_imps: int
    red: bool
    alternative: str | None = None
    alternative_declarer: int | None = None
    kind: str | None = None
    cost_mp: float | None = None


def _final_role(state: State, side: int) -> str:
    """``passed``, ``declaring`` or ``defending``: the side's role when the auction ended."""
    if state.bid < 0:
        return "passed"
    return "declaring" if state.side == side else "defending"


def mistake_kind(role: str, call: str, alternative: str, standing: State) -> str:
    """The thesis's type of a red ``call`` whose better call was ``alternative``.

    Parameters
    ----------
    role : str
        The caller's side's role at the end of the auction.
    call, alternative : str
        The call made and the better call named.
    standing : State
        The auction before the call (a pass in place of a bid over the opponents' redoubled
        contract is "missed the opponents' last redouble").
    """
    if role == "passed":
        return "passed_higher_contract"
    if role == "defending":
        if call == "X":
            return "defender_erroneously_doubled"
        if alternative == "X":
            return "defender_missed_current_double"
        # a contract of their own, or leaving the opponents a lower one
        return "defender_missed_higher_contract"
    if call == "R":
        return "declarer_erroneous_redouble"
    if alternative == "R":
        return "declarer_missed_redoubling_opponents_erroneous_double"
    if alternative == "X":
        return "declarer_missed_doubling_opponents_last_bid"
    if alternative == "P":
        if standing.bid >= 0 and standing.doubled == 2:
            return "declarer_missed_opponents_last_redouble"
        return "declarer_missed_opponents_last_bid"
    return "declarer_missed_higher_contract"


def _named(game: ParGame, state: State, judged: CallValue) -> tuple[str, int | None]:
    """The better call to name among the best ones (module docstring), with its declarer."""
    best = [call for call, _declarer in judged.best if call != judged.call]
    if not best:  # the call made was among the best: nothing to name
        return judged.call, None

    def stands_at_par(bid: str) -> bool:
        # the contract scores the par as it stands, or doubled (a sacrifice)
        for ending in (("P", "P", "P"), ("X", "P", "P", "P")):
            after = game.after(state, bid)
            for call in ending:
                after = game.after(after, call)
            if game.value(after) == judged.par_before:
                return True
        return False

    order: list[str] = [call for call in ("P", "X", "R") if call in best]
    bids = sorted((call for call in best if call in BID_RANK), key=BID_RANK.__getitem__)
    order += [bid for bid in bids if stands_at_par(bid)] + bids
    call = order[0]
    declarer = game.declarer_after(state, call)
    if declarer is not None and declarer != state.seat:
        strain = call[1]
        if game.table.tricks(strain, declarer) == game.table.tricks(strain, state.seat):
            declarer = state.seat  # as many tricks: the blamed player is named
    return call, declarer


def judge_call_values(
    calls: list[str],
    first_seat: int,
    table: DDTable,
    vulnerable: tuple[bool, bool],
    year: int | None,
    threshold_imps: int = DEFAULT_THRESHOLD_IMPS,
    field: Sequence[int] | None = None,
    threshold_mp: float = DEFAULT_THRESHOLD_MP,
) -> list[CallJudgement]:
    """Every call of an auction, judged by the par after it (module docstring).

    Parameters
    ----------
    calls : list of str
        The auction's calls (``P``, ``X``, ``R``, ``1C`` ... ``7N``) from ``first_seat`` on.
    first_seat : int
        The dealer (0 = North).
    table : DDTable
    vulnerable : tuple of bool
        North-South's and East-West's.
    year : int or None
        The board's year (its undertrick scale).
    threshold_imps : int
        The least a mistake gives away, in IMPs (at least 1: 0 IMPs is never a mistake).
    field : sequence of int, optional
        The other tables' North-South scores of the deal, when the board is of a matchpointed
        event with a field: costs are then shares of a top against them.
    threshold_mp : float
        The least share of a top a mistake gives away against a field (above 0).

    Returns
    -------
    list of CallJudgement

    Raises
    ------
    ValueError
        The auction holds a call that is not legal where it stands.
    """
    game = ParGame(table, vulnerable, first_seat, year)
    judged = game.judge(calls)
    states = [game.start()]
    for call in calls:
        states.append(game.after(states[-1], call))
    end = states[-1]
    # the table reached par: its final contract (as far as the auction went) scores it
    reached_par = judged[-1].par_after == game.par() if judged and end.ended else False
    verdicts = []
    for value, state in zip(judged, states):
        cost_imps = abs(imps(value.cost))
        cost_mp = None
        if field:
            # North-South's shares; the two pars' difference is the same share for East-West
            cost_mp = abs(
                matchpoint_share(value.par_before, field) - matchpoint_share(value.par_after, field)
            )
            big_enough = cost_mp >= max(threshold_mp, 1e-9)
        else:
            big_enough = cost_imps >= max(threshold_imps, 1)
        red = value.cost > 0 and big_enough and not reached_par
        named: tuple[str | None, int | None, str | None] = (None, None, None)
        if red:
            alternative, declarer = _named(game, state, value)
            role = _final_role(end, value.seat % 2)
            named = (alternative, declarer, mistake_kind(role, value.call, alternative, state))
        verdicts.append(
            CallJudgement(
                value.index,
                value.seat,
                value.call,
                value.par_before,
                value.par_after,
                value.cost,
                cost_imps,
                red,
                *named,
                cost_mp,
            )
        )
    return verdicts
