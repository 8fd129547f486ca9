"""Double dummy evidence from a table's bare result: any board with a deal, a contract, a
declarer and the tricks taken, with or without its auction and play.

Three measures, each against what double dummy analysis says of the same deal:

- *play*: the tricks declarer's side took minus the tricks it takes double dummy in the
  contract's strain (negative: declarer lost tricks, or the defence found the best
  defence where declarer's line needed help); also as North-South IMPs, the score made
  against the contract's double dummy score;
- *bidding*: the contract's double dummy score against the deal's par score, as
  North-South IMPs (negative: North-South's contract is worse for them than par);
- *opening lead*: the tricks the lead gave away, when the play is recorded.

A traveller row (Valet, a club recap) gives the first two; a full record gives all three.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from bridgerank.bridge.auction import PASSED_OUT, Contract, parse_contract
from bridgerank.bridge.cards import SEAT_INDEX
from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.scoring import imps, north_south_score
from bridgerank.dds.solver import par_score


def has_result(board: Mapping[str, Any]) -> bool:
    """Whether a board says what happened: passed out, or a contract, declarer and tricks."""
    if board["contract"] == PASSED_OUT:
        return True
    return (
        isinstance(parse_contract(board["contract"]), Contract)
        and board["declarer"] in SEAT_INDEX
        and board["result"] is not None
    )


def dealer_of(board: Mapping[str, Any]) -> int | None:
    """The dealer's seat: the first bidder when the auction is known, else the board
    number's (Law 2: North deals board 1, East board 2, ...); None when neither is known."""
    if board["bidstart"] in SEAT_INDEX:
        return SEAT_INDEX[board["bidstart"]]
    if board["board_no"]:
        return (int(board["board_no"]) - 1) % 4
    return None


@lru_cache(maxsize=4096)
def _par(table: DDTable, dealer: int, ns_vulnerable: bool, ew_vulnerable: bool) -> int:
    # every table of a deal asks the same question: ask DDS once per worker
    return par_score(table, dealer, ns_vulnerable, ew_vulnerable)


def table_evidence(
    board: Mapping[str, Any],
    table: DDTable,
    lead_cost: int | None,
    known_par: int | None = None,
    lead_best_cards: int | None = None,
) -> dict[str, Any] | None:
    """The ``table_evidence`` row of one board, or None when it has no result.

    Parameters
    ----------
    board : mapping
        A ``boards`` row with known vulnerability.
    table : DDTable
        Its deal's double dummy table.
    lead_cost : int or None
        Tricks the opening lead gave away, when the play was analysed.
    known_par : int, optional
        North-South's par on this board, when the DD store knew it (else DDS computes it).
    lead_best_cards : int, optional
        How many of the opening leader's 13 cards are a double dummy best lead, when every
        lead was valued (:func:`bridgerank.dds.solver.solve_leads`).
    """
    if not has_result(board):
        return None
    vulnerable = (bool(board["ns_vulnerable"]), bool(board["ew_vulnerable"]))
    dealer = dealer_of(board)
    if dealer is None:
        par = None
    else:
        par = known_par if known_par is not None else _par(table, dealer, *vulnerable)
    row: dict[str, Any] = {
        "board_id": board["id"],
        "declarer": "",
        "dd_tricks": None,
        "tricks_vs_dd": None,
        "play_imps": None,
        "ns_dd_score": 0,
        "ns_par": par,
        "bidding_imps": None if par is None else imps(0 - par),
        "lead_cost": lead_cost,
        "lead_best_cards": lead_best_cards,
    }
    contract = parse_contract(board["contract"])
    if not isinstance(contract, Contract):
        return row  # passed out: nothing to play, and North-South's score is 0
    declarer = SEAT_INDEX[board["declarer"]]
    dd_tricks = table.tricks(contract.strain, declarer)

    def ns_score(tricks: int) -> int:
        return north_south_score(
            contract.level,
            contract.strain,
            contract.doubled,
            declarer,
            *vulnerable,
            tricks,
            board["year"],
        )

    dd_score = ns_score(dd_tricks)
    row.update(
        declarer=board["declarer"],
        dd_tricks=dd_tricks,
        tricks_vs_dd=board["result"] - dd_tricks,
        play_imps=imps(ns_score(board["result"]) - dd_score),
        ns_dd_score=dd_score,
        bidding_imps=None if par is None else imps(dd_score - par),
    )
    return row
