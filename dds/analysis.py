"""One board's double dummy analysis, from its row, its deal's table and its play trace.

The solver's tables and traces are computed before (:mod:`dds.workers`); this turns them
into the rows of ``card_analysis``, ``auction_analysis``, ``table_evidence`` and
``seat_stats`` (the par score, a cheap function of a table, is asked of DDS here).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from bridgerank.bridge.auction import PASSED_OUT, Contract, parse_contract
from bridgerank.bridge.cards import SEAT_INDEX, SEATS
from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.auction_verdicts import judge_auction
from bridgerank.dds.call_values import CallJudgement, CallRules, judge_call_values
from bridgerank.dds.card_verdicts import judge_cards, judge_claim, seats_of
from bridgerank.dds.counters import seat_counters
from bridgerank.dds.solver import LeadRequest, LeadValues, PlayRequest
from bridgerank.dds.standing import standing_scores
from bridgerank.dds.table_evidence import has_result, table_evidence

# The board columns the analysis reads; their digest tells when a board must be redone.
BOARD_FIELDS = (
    "id",
    "deal",
    "deal_hash",
    "auction",
    "bidstart",
    "contract",
    "declarer",
    "lead",
    "play",
    "play_order",
    "claim",
    "ns_vulnerable",
    "ew_vulnerable",
    "year",
    "board_no",
    "result",
)


@dataclass
class BoardResult:
    """What the analysis of one board produced, ready to insert."""

    board_id: int
    status: str  # ok | skipped | failed
    reason: str = ""
    cards: list[dict[str, Any]] = field(default_factory=list)
    sides: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    evidence: dict[str, Any] | None = None  # the table_evidence row
    has_play: bool = False
    has_auction: bool = False


def _contract(board: Mapping[str, Any]) -> Contract | None:
    parsed = parse_contract(board["contract"])
    return parsed if isinstance(parsed, Contract) else None


def play_request(board: Mapping[str, Any]) -> PlayRequest | None:
    """The solver request for a board's play, or None when it has no play to analyse."""
    contract = _contract(board)
    if not board["play"] or contract is None or not board["lead"] or not board["play_order"]:
        return None
    return PlayRequest(
        board["deal"], SEAT_INDEX[board["lead"]], contract.strain, tuple(board["play"].split())
    )


def lead_request(board: Mapping[str, Any]) -> LeadRequest | None:
    """The opening lead to value when a board's play is its lead alone (a traveller's lead
    card): every lead of that deal, strain and leader is valued at once, and the one-card
    trace is read from those values (:func:`lead_trace`)."""
    return lead_of_play(play_request(board))


def lead_of_play(request: PlayRequest | None) -> LeadRequest | None:
    """The opening lead to value of a play that is its lead alone (else None)."""
    if request is None or len(request.cards) != 1:
        return None
    return LeadRequest(request.deal, request.leader, request.trump)


def lead_trace(values: LeadValues, card: str) -> list[int] | None:
    """A one-card play's trace from its deal's lead values: declarer side's tricks before
    the lead (the defence's best lead) and after it; None when the card is not valued."""
    if card not in values:
        return None
    return [min(values.values()), values[card]]


def best_leads(values: LeadValues) -> int:
    """How many cards of the leader's hand are a double dummy best lead."""
    least = min(values.values())
    return sum(1 for tricks in values.values() if tricks == least)


def needs_table(board: Mapping[str, Any]) -> bool:
    """Whether a board's analysis uses its deal's table: the auction's verdict does, and so
    does the evidence of any board with a result (:mod:`dds.table_evidence`)."""
    return (bool(board["auction"]) and bool(board["bidstart"])) or has_result(board)


def _call_row(board_id: int, call: CallJudgement, standing: int) -> dict[str, Any]:
    """A ``call_analysis`` row: the call, the contract standing after it, the par before
    and after it (North-South's) and, for a mistake, the better call and what it gave away
    (the side's scores: the par after the better call and after the call made)."""
    declarer = call.alternative_declarer
    sign = 1 if call.seat % 2 == 0 else -1
    return {
        "board_id": board_id,
        "call_index": call.index,
        "seat": SEATS[call.seat],
        "call": call.call,
        "ns_dd_score": standing,
        "par_before": call.par_before,
        "par_after": call.par_after,
        "mistake_types": call.kind or "",
        "alternative": call.alternative,
        "alternative_declarer": None if declarer is None else SEATS[declarer],
        "alternative_score": sign * call.par_before if call.red else None,
        "actual_score": sign * call.par_after if call.red else None,
        "cost": float(call.cost_points) if call.red else 0.0,
        "cost_imps": call.cost_imps if call.red else 0,
        "cost_mp": call.cost_mp if call.red else None,
    }


def analyse_board(
    board: Mapping[str, Any],
    table: DDTable | None,
    trace: list[int] | None,
    table_error: str | None = None,
    trace_error: str | None = None,
    par: int | None = None,
    lead_values: LeadValues | None = None,
    rules: CallRules | None = None,
) -> BoardResult:
    """Analyse one board.

    Parameters
    ----------
    board : mapping
        A ``boards`` row (at least :data:`BOARD_FIELDS`), with ``field``, the other tables'
        North-South scores of its deal when it is of a matchpointed event with a field
        (:func:`~bridgerank.dds.call_fields.attach_fields`).
    table : DDTable or None
        The deal's double dummy table (:mod:`dds.solver`), when the auction is analysed.
    trace : list of int or None
        The play's double dummy trace, when the play is analysed.
    table_error, trace_error : str, optional
        The solver's errors, recorded as the reason when a part could not be analysed.
    par : int, optional
        North-South's par score on this board, when the DD store knew it (else DDS is asked).
    lead_values : dict, optional
        Every opening lead's value, when they were solved (a board whose play is its lead).
    rules : CallRules, optional
        How calls are judged and which verdicts the auction counters count (default: the
        shipped settings').

    Returns
    -------
    BoardResult
    """
    rules = rules or CallRules()
    result = BoardResult(board["id"], "ok")
    if board["ns_vulnerable"] is None or board["ew_vulnerable"] is None:
        result.status, result.reason = "skipped", "vulnerability unknown: nothing can be scored"
        return result
    vulnerable = (bool(board["ns_vulnerable"]), bool(board["ew_vulnerable"]))
    year = board["year"]
    contract = _contract(board)
    declarer = SEAT_INDEX.get(board["declarer"])
    problems = []

    cards = []
    claim = None
    if play_request(board) is not None:
        if trace is None:
            problems.append(trace_error or "no play trace")
        else:
            # a play to analyse has a contract (play_request), so a cleaned board's declarer
            assert contract is not None and declarer is not None
            cards = judge_cards(
                board["play"].split(),
                seats_of(board["play_order"]),
                trace,
                contract,
                declarer,
                vulnerable[declarer % 2],
                year,
            )
            result.has_play = True
            if board["claim"] is not None and len(cards) < 52:
                claim = judge_claim(
                    board["claim"], trace[-1], contract, vulnerable[declarer % 2], year
                )
    auction = None
    judged: list[CallJudgement] | None = None
    if has_result(board) and table is not None:
        lead_cost = cards[0].cost_tricks if cards else None
        best = None if lead_values is None else best_leads(lead_values)
        result.evidence = table_evidence(board, table, lead_cost, par, best)
    if bool(board["auction"]) and bool(board["bidstart"]):
        if table is None:
            problems.append(table_error or "no double dummy table")
        else:
            passed = board["contract"] == PASSED_OUT
            auction = judge_auction(
                board["auction"].split(),
                SEAT_INDEX[board["bidstart"]],
                None if passed else contract,
                None if passed else declarer,
                table,
                vulnerable[0],
                vulnerable[1],
                year,
            )
            calls = board["auction"].split()
            first = SEAT_INDEX[board["bidstart"]]
            try:
                judged = judge_call_values(
                    calls,
                    first,
                    table,
                    vulnerable,
                    year,
                    rules.threshold_imps,
                    board.get("field"),
                    rules.threshold_mp,
                )
            except ValueError as problem:  # a cleaned auction is legal: never, but said
                problems.append(f"auction not judged: {problem}")
                judged = []
            standing = standing_scores(calls, first, table, vulnerable, year)
            result.calls = [_call_row(board["id"], call, standing[call.index]) for call in judged]
            result.has_auction = True
    if has_result(board) and table is None and not problems:
        problems.append(table_error or "no double dummy table")
    if problems and not (result.has_play or result.has_auction or result.evidence):
        result.status = "failed"
    result.reason = "; ".join(problems)

    result.cards = [
        {
            "board_id": board["id"],
            "card_index": c.card_index,
            "seat": SEATS[c.seat],
            "role": c.role,
            "card": c.card,
            "dd_before": c.dd_before,
            "dd_after": c.dd_after,
            "cost_tricks": c.cost_tricks,
            "cost_points": c.cost_points,
        }
        for c in cards
    ]
    for verdict in auction or ():
        result.sides.append(
            {
                "board_id": board["id"],
                "side": ("NS", "EW")[verdict.side],
                "role": verdict.role,
                "actual_score": verdict.actual,
                "alternatives": json.dumps(verdict.best),
                "mistake_types": ",".join(verdict.chosen),
                "mistake": 1 if verdict.chosen else 0,
                "weight": verdict.weight,
            }
        )
    counts = seat_counters(declarer, cards, claim, auction, judged, rules.counters)
    for seat in range(4):
        row = {"board_id": board["id"], "seat": SEATS[seat]}
        row.update(counts[seat])
        result.seats.append(row)
    return result
