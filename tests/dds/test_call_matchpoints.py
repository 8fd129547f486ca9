"""Calls on matchpointed boards with a field are judged in shares of a top against the other
tables' scores (issue 47: costs in the units of the event's scoring), and the rest in IMPs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.bridge.cards import SEAT_INDEX
from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.call_fields import attach_fields
from bridgerank.dds.call_values import judge_call_values
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.report.board_view import AuctionCall, call_mistake_words

pytestmark = pytest.mark.dds

# 1955 Bermuda Bowl final, board 104 (West deals, nobody vulnerable): the par is East-West's
# +110; 1C by North gives it 190 (5 IMPs) at double dummy.
DEAL = "N:KJ6.QJT4.4.KQJ52 AQT87.85.A.A9743 954.A72.J98653.8 32.K963.KQT72.T6"
TABLE = DDTable.from_hex("58485757493949494737")
# Five tables of one pair event: auction, contract, declarer, tricks; North-South's score.
TABLES = [
    ("P 1C P 1N P P P", "1N", "S", 3),  # -200
    ("P 1C 1S P 2D P 3C P 3D P P P", "3D", "W", 8),  # +50
    ("P 1C X 2D X P 2S P P P", "2S", "E", 7),  # +50
    ("P 1C 1S P 2D P 3C P 3D P P P", "3D", "W", 9),  # -110
    ("P 1D P 3D P P P", "3D", "N", 6),  # -150
]


def test_against_a_field_a_call_costs_its_share_of_a_top():
    calls = TABLES[0][0].split()
    field = [-150, -110, 50, 50]  # the other four tables
    judged = judge_call_values(calls, SEAT_INDEX["W"], TABLE, (False, False), 1955, 2, field)
    red = [(c.call, c.par_before, c.par_after, c.cost_mp) for c in judged if c.red]
    # 1C: par -110 ties one table and beats one (1.5 of 4), after it -300 beats none
    assert red == [("1C", -110, -300, 0.375)]
    # in IMPs, South's 1NT (-300 to -500) and West's final pass (-500 to -200) are red too:
    # against this field both pars score a zero, so nothing was given away there
    imps = judge_call_values(calls, SEAT_INDEX["W"], TABLE, (False, False), 1955)
    assert [call.call for call in imps if call.red] == ["1C", "1N", "P"]
    assert all(call.cost_mp is None for call in imps)
    # the threshold is a share of a top: 0.4 leaves 1C's 0.375 out
    judged = judge_call_values(calls, 3, TABLE, (False, False), 1955, 2, field, 0.4)
    assert not any(call.red for call in judged)


def _board(scoring: str, number: int, event: str = "Pairs", contract: str = "3D") -> dict:
    return {
        "event": event,
        "date": "1999.06.30",
        "board_no": 1,
        "deal_hash": "d",
        "scoring": scoring,
        "contract": contract,
        "declarer": "S",
        "result": 9 - number,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
        "year": 1999,
    }


def test_a_field_is_three_scored_tables_of_a_matchpointed_event():
    boards = [_board("MP", number) for number in range(3)]
    boards += [_board("IMP", number, "Teams") for number in range(3)]  # IMPs: no field
    boards += [_board("MP", number, "Two") for number in range(2)]  # two tables: no field
    boards += [_board("MP", 0, "Unscored"), _board("MP", 1, "Unscored")]
    boards.append(_board("MP", 2, "Unscored", contract=""))  # no result: no score
    assert attach_fields(boards) == 3
    # 3D by South making 9, 8, 7 tricks: +110, -50, -100
    assert [board["field"] for board in boards[:3]] == [[-100, -50], [-100, 110], [-50, 110]]
    assert all(board["field"] is None for board in boards[3:])
    # [dds] call_min_tables: at two scored tables a deal, the two-table event has a field too
    assert attach_fields(boards, min_tables=2) == 8  # and the unscored event's three
    assert [board["field"] for board in boards[6:8]] == [[-50], [110]]


def _pbn(scoring: str) -> str:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]
    records = []
    for number, (auction, contract, declarer, tricks) in enumerate(TABLES):
        n, s = names[number * 2 % 10], names[(number * 2 + 1) % 10]
        e, w = f"E{number}", f"W{number}"
        records.append(
            f'[Event "Spring Pairs"]\n[Site "Here"]\n[Date "1999.06.30"]\n[Board "1"]\n'
            f'[West "{w}"]\n[North "{n}"]\n[East "{e}"]\n[South "{s}"]\n[Dealer "W"]\n'
            f'[Vulnerable "None"]\n[Deal "{DEAL}"]\n[Scoring "{scoring}"]\n'
            f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{tricks}"]\n'
            f'[Auction "W"]\n{auction}\n'
        )
    return "\n".join(records)


def _red_calls(out: Path) -> list[tuple[str, int, str, float | None]]:
    with sqlite3.connect(out / "bridgerank.db") as conn:
        return conn.execute(
            "select b.auction, c.call_index, c.call, c.cost_mp from call_analysis c"
            " join boards b on b.id = c.board_id where c.mistake_types != ''"
            " order by b.id, c.call_index"
        ).fetchall()


@pytest.mark.parametrize("scoring", ["MP", "IMP"])
def test_the_event_scoring_decides_the_units(tmp_path, scoring):
    source = tmp_path / "pairs.pbn"
    source.write_text(_pbn(scoring))
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["run", str(source), "--to", "dds", "--out", str(out), "--verbose"]
    )
    assert result.exit_code == 0, result.output
    red = _red_calls(out)
    if scoring == "MP":
        assert "calls on 5 boards of matchpointed pair events judged in shares" in result.output
        assert red == [(TABLES[0][0], 1, "1C", 0.375), (TABLES[4][0], 1, "1D", 0.375)]
    else:
        assert "matchpointed" not in result.output
        assert [(auction, index, call) for auction, index, call, _ in red] == [
            (TABLES[0][0], 1, "1C"),
            (TABLES[0][0], 3, "1N"),
            (TABLES[0][0], 6, "P"),
            (TABLES[4][0], 1, "1D"),
            (TABLES[4][0], 3, "3D"),
            (TABLES[4][0], 6, "P"),
        ]
        assert all(share is None for *_, share in red)


def test_the_footnote_gives_the_share_of_a_top():
    row = {
        "mistake_types": "passed_higher_contract",
        "alternative": "P",
        "alternative_declarer": None,
        "alternative_score": 110,
        "actual_score": 300,
        "cost_imps": 5,
        "cost_mp": 0.375,
    }
    cell = AuctionCall(2, "N", "1♣")
    cell.cost = 190.0
    words = call_mistake_words(cell, row)
    assert words.endswith("190 points (38% of a top against the field) given away.")
