"""DDS's own regression suite (../shared/data/dds/list100.txt) through the whole pipeline.

Each of the 100 deals becomes a PBN record (dealer = declarer, auction 1<trump> by declarer,
the real PLAY written in PBN's seat layout) that goes through ingest, clean and dds; the stage's
dd table must equal TABLE and its per-card dd values must equal TRACE, card by card.
"""

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.bridge.cards import SEATS, seat_after
from bridgerank.bridge.ddtable import DDTable
from bridgerank.cleaning.clean.play import trick_winner
from bridgerank.pipeline.cli import main

# The store setting of every golden run: none, DDS answers.
LIVE = "off"

pytestmark = pytest.mark.dds

STRAINS = "SHDCN"


def _read_list100(shared_data):
    records, current = [], None
    for line in shared_data("dds", "list100.txt").read_text().splitlines():
        head, _, rest = line.partition(" ")
        if head == "PBN":
            dealer, vul, trump, first, deal = rest.split(None, 4)
            current = {
                "trump": STRAINS[int(trump)],
                "first": int(first),
                "deal": deal.strip().strip('"'),
            }
            records.append(current)
        elif head == "TABLE":
            current["table"] = [int(value) for value in rest.split()]
        elif head == "PLAY":
            cards = rest.split()[1].strip('"')
            current["play"] = [cards[i : i + 2] for i in range(0, len(cards), 2)]
        elif head == "TRACE":
            current["trace"] = [int(value) for value in rest.split()[1:]]
    return records


def _seat_layout(play, leader, trump):
    """PBN writes each trick from the opening leader's seat: reorder the playing order."""
    rows, trick_leader = [], leader
    for start in range(0, len(play), 4):
        trick = play[start : start + 4]
        by_seat = {seat_after(trick_leader, i): card for i, card in enumerate(trick)}
        rows.append(" ".join(by_seat.get(seat_after(leader, i), "-") for i in range(4)))
        if len(trick) == 4:
            trick_leader = trick_winner(trick, trick_leader, trump)
    return "\n".join(rows)


def _pbn(records):
    games = []
    for number, record in enumerate(records, start=1):
        declarer = seat_after(record["first"], 3)
        games.append(
            "\n".join(
                [
                    '[Event "DDS list100"]',
                    '[Date "2024.01.01"]',
                    f'[Board "{number}"]',
                    '[North "N"]',
                    '[East "E"]',
                    '[South "S"]',
                    '[West "W"]',
                    f'[Dealer "{SEATS[declarer]}"]',
                    '[Vulnerable "None"]',
                    f'[Deal "{record["deal"]}"]',
                    f'[Auction "{SEATS[declarer]}"]',
                    f"1{record['trump'].replace('N', 'NT')} Pass Pass Pass",
                    f'[Play "{SEATS[record["first"]]}"]',
                    _seat_layout(record["play"], record["first"], record["trump"]),
                    f'[Result "{record["trace"][-1]}"]',
                ]
            )
        )
    return "\n\n".join(games) + "\n"


def _golden_run(folder: Path, records: list[dict]) -> tuple[list[dict], sqlite3.Connection]:
    """The list100 deals run up to dds (the tables checked here are its own), solved live:
    whatever the machine's DD store holds, DDS itself answers the golden tests."""
    source = folder / "list100.pbn"
    source.write_text(_pbn(records))
    result = CliRunner().invoke(
        main,
        ["run", str(source), "--to", "dds", "--out", str(folder), "--verbose"],
        env={"BRIDGERANK_DD_STORE": LIVE},
    )
    assert result.exit_code == 0, result.output
    assert "tables: 0 from the DD store, 100 solved" in result.output
    return records, sqlite3.connect(folder / "bridgerank.db")


@pytest.fixture(scope="module")
def golden_db(tmp_path_factory, shared_data):
    return _golden_run(tmp_path_factory.mktemp("golden"), _read_list100(shared_data))


def test_the_golden_run_bypasses_a_poisoned_store(tmp_path, shared_data, monkeypatch):
    """A store that holds a wrong table and a wrong trace for every list100 deal and play:
    a run that reads it finds the poison, says so, solves every deal and mends the store;
    the golden run never reads a store."""
    from bridgerank.dds.dd_store import DDStore
    from bridgerank.dds.solver import PlayRequest, solver_version

    records = _read_list100(shared_data)
    poisoned = tmp_path / "poisoned.sqlite"
    store = DDStore(str(poisoned), solver_version())
    wrong = DDTable.from_hex("7" * 20)
    store.add_tables({_canonical(record["deal"]): wrong for record in records})
    store.add_traces(
        {
            PlayRequest(
                _canonical(record["deal"]), record["first"], record["trump"], tuple(record["play"])
            ): [7] * (len(record["play"]) + 1)
            for record in records
        }
    )
    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(poisoned))
    (tmp_path / "reads").mkdir()
    source = tmp_path / "reads" / "list100.pbn"
    source.write_text(_pbn(records))
    reads = CliRunner().invoke(
        main, ["run", str(source), "--to", "dds", "--out", str(source.parent), "--verbose"]
    )
    words = " ".join(reads.output.split())
    assert "tables: 0 from the DD store, 100 solved; play traces: 0 from it, 99 solved" in words
    assert f"warning: the DD store at {poisoned} gave " in words
    (tmp_path / "golden").mkdir()
    _, db = _golden_run(tmp_path / "golden", records)
    tables = dict(
        db.execute("select b.board_no, t.tricks from boards b join dd_tables t using (deal_hash)")
    )
    assert all([int(d, 16) for d in tables[n]] == r["table"] for n, r in enumerate(records, 1))
    mended = DDStore(str(poisoned), solver_version()).tables([_canonical(records[0]["deal"])])
    assert [int(d, 16) for d in mended[_canonical(records[0]["deal"])].hex] == records[0]["table"]


def _canonical(deal: str) -> str:
    from bridgerank.bridge.cards import deal_to_pbn, parse_deal

    return deal_to_pbn(parse_deal(deal))


def test_all_100_records_reach_the_dds_stage(golden_db):
    records, db = golden_db
    assert db.execute("select count(*) from boards").fetchone()[0] == 100
    assert (
        db.execute(
            "select count(*) from board_analysis where status = 'ok' and has_play and has_auction"
        ).fetchone()[0]
        == 100
    )


def test_tables_equal_dds_table(golden_db):
    records, db = golden_db
    tables = dict(
        db.execute(
            "select b.board_no, t.tricks from boards b "
            "join dd_tables t on t.deal_hash = b.deal_hash"
        )
    )
    for number, record in enumerate(records, start=1):
        assert [int(digit, 16) for digit in tables[number]] == record["table"], number


def test_card_by_card_equal_dds_trace(golden_db):
    records, db = golden_db
    for number, record in enumerate(records, start=1):
        rows = db.execute(
            "select c.card, c.dd_before, c.dd_after from card_analysis c "
            "join boards b on b.id = c.board_id where b.board_no = ? "
            "order by c.card_index",
            (number,),
        ).fetchall()
        assert [card for card, _, _ in rows] == record["play"], number
        trace = record["trace"]
        # DDS's TRACE stops after card 48: the last trick is forced
        ours = [rows[0][1]] + [after for _, _, after in rows]
        assert ours[: len(trace)] == trace, number
        assert all(value == trace[-1] for value in ours[len(trace) :]), number


def test_par_scores_equal_dds_par(shared_data):
    """The PAR line of every list100 deal ("NS -110") from our stored table format."""
    from bridgerank.dds.solver import par_score

    lines = shared_data("dds", "list100.txt").read_text().splitlines()
    checked = 0
    for number, line in enumerate(lines):
        if not line.startswith("PBN"):
            continue
        dealer, vul = int(line.split()[1]), int(line.split()[2])
        table_line = next(text for text in lines[number:] if text.startswith("TABLE"))
        par_line = next(text for text in lines[number:] if text.startswith("PAR "))
        values = [int(value) for value in table_line.split()[1:]]
        table = "".join(format(value, "x") for value in values)
        ns_vul, ew_vul = {0: (False, False), 1: (True, True), 2: (True, False), 3: (False, True)}[
            vul
        ]
        expected = int(par_line.split('"')[1].split()[1])
        assert par_score(DDTable.from_hex(table), dealer, ns_vul, ew_vul) == expected, line
        checked += 1
    assert checked == 100
