"""Double dummy evidence from a bare table result, on a deal whose every number can be worked
out by hand, and the lead-only play that is judged as a lead and not as a claim."""

from __future__ import annotations

import pytest

from bridgerank.dds.analysis import analyse_board, play_request
from bridgerank.dds.solver import solve_plays, solve_tables
from bridgerank.dds.table_evidence import dealer_of, has_result, table_evidence

# North holds every spade, East every heart, South every diamond, West every club.
SUITS = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def _board(**change):
    board = {
        "id": 7,
        "deal": SUITS,
        "contract": "4S",
        "declarer": "N",
        "result": 13,
        "bidstart": "",
        "board_no": 1,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
        "year": 2001,
        "auction": "",
        "play": "",
        "play_order": "",
        "lead": "E",
        "claim": None,
    }
    board.update(change)
    return board


@pytest.fixture(scope="module")
def table():
    [(solved, error)] = solve_tables([SUITS])
    assert error is None
    return solved


def test_the_suits_deal_by_hand(table):
    # North in spades ruffs East's heart lead and runs the spades; in no trump East runs hearts
    assert table.tricks("S", 0) == 13 and table.tricks("N", 0) == 0


@pytest.mark.parametrize(
    "result, tricks_vs_dd, play_imps",
    [
        (13, 0, 0),  # 4S+3 = 510, as double dummy
        (10, -3, -3),  # 4S= 420 against 510: 90 points, 3 IMPs lost in the play
    ],
)
def test_play_and_bidding_against_double_dummy(table, result, tricks_vs_dd, play_imps):
    row = table_evidence(_board(result=result), table, lead_cost=None)
    assert row["dd_tricks"] == 13 and row["tricks_vs_dd"] == tricks_vs_dd
    assert row["play_imps"] == play_imps
    # par is 7S by North-South, 1510 (East-West's 7NT doubled goes 13 down); 4S's double
    # dummy 510 falls 1000 short: 14 IMPs lost in the bidding, whatever the play
    assert row["ns_dd_score"] == 510 and row["ns_par"] == 1510
    assert row["bidding_imps"] == -14


def test_east_west_contract_is_scored_for_north_south(table):
    # 2H by East: South leads a diamond, East ruffs and runs the hearts: 2H+5 = 260
    row = table_evidence(_board(contract="2H", declarer="E", result=13), table, None)
    assert row["dd_tricks"] == 13 and row["ns_dd_score"] == -260
    assert row["bidding_imps"] == -18  # -260 against North-South's par +1510: 1770 points


def test_passed_out_and_incomplete_boards():
    assert has_result(_board(contract="P", declarer="P", result=None))
    assert not has_result(_board(result=None))
    assert not has_result(_board(declarer=""))
    # the dealer: the first bidder, else the board number's (board 6 is dealt by East)
    assert dealer_of(_board(bidstart="W", board_no=6)) == 3
    assert dealer_of(_board(board_no=6)) == 1
    assert dealer_of(_board(board_no=None)) is None


def test_a_passed_out_board_gives_only_the_bidding(table):
    row = table_evidence(_board(contract="P", declarer="P", result=None), table, None)
    assert row["dd_tricks"] is None and row["ns_dd_score"] == 0
    assert row["bidding_imps"] == -17  # 0 against 1510


def test_a_lead_alone_is_judged_as_a_lead_and_claims_nothing(table):
    # a record that stops after East's ace of hearts: the lead costs nothing (East's hearts
    # are all ruffed anyway) and no claim is counted, although the result is known
    board = _board(play="HA", play_order="E", result=13)
    [(trace, error)] = solve_plays([play_request(board)])
    assert error is None
    result = analyse_board(board, table, trace)
    assert result.status == "ok" and result.has_play
    east = next(row for row in result.seats if row["seat"] == "E")
    assert east["leads"] == 1 and east["lead_mistakes"] == 0
    assert all(row["claims"] == 0 for row in result.seats)
    assert result.evidence["lead_cost"] == 0 and result.evidence["tricks_vs_dd"] == 0
