"""No call verdict names as the better call the very call it blames, over the embedded sample
and a slice of the championship corpus: the boards cleaned by the pipeline, their auctions
judged with the double dummy tables shipped in data/ (solved by DDS), every call checked."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner

from bridgerank.bridge.auction import Contract, parse_contract
from bridgerank.bridge.cards import SEAT_INDEX
from bridgerank.dds.auction_verdicts import judge_auction
from bridgerank.dds.call_verdicts import blames_itself, judge_calls
from bridgerank.dds.shipped import read_shipped
from bridgerank.pipeline.cli import main

SAMPLE = ("data/sample/1955-Bermuda_Bowl.pbn", "data/sample/usbf_sf_14502.lin")
CORPUS_SLICE = (
    ("pbn", "1996-10th_World_Bridge_Team_Olympiad"),
    ("pbn", "1997-Orbis_Bermuda_Bowl"),
    ("lin", "vugraph-00070.lin"),
)
COLUMNS = "deal, auction, bidstart, contract, declarer, ns_vulnerable, ew_vulnerable, year"


def _judged_calls(sources: list[str], out: Path) -> tuple[int, list[str]]:
    """Clean ``sources`` with the pipeline, judge every auction: the number of calls marked
    as mistakes, and a line for each that blames itself."""
    result = CliRunner().invoke(main, ["run", *sources, "--to", "clean", "--out", str(out)])
    assert result.exit_code == 0, result.output
    tables = read_shipped().tables
    with closing(sqlite3.connect(out / "bridgerank.db")) as conn:
        boards = conn.execute(
            f"select {COLUMNS} from boards where auction != '' and bidstart != ''"
            " and ns_vulnerable is not null and ew_vulnerable is not null"
        ).fetchall()
    assert len(boards) > 100
    marked, wrong = 0, []
    for deal, auction, bidstart, contract, declarer, ns_vul, ew_vul, year in boards:
        table = tables.get(deal)
        assert table is not None, f"no shipped table for {deal}"
        calls, first = auction.split(), SEAT_INDEX[bidstart]
        parsed = parse_contract(contract)
        final = parsed if isinstance(parsed, Contract) else None
        seat = SEAT_INDEX.get(declarer) if final else None
        verdicts = judge_auction(calls, first, final, seat, table, bool(ns_vul), bool(ew_vul), year)
        for call in judge_calls(calls, first, verdicts, table, (bool(ns_vul), bool(ew_vul)), year):
            marked += bool(call.kinds)
            if blames_itself(call, calls, first):
                wrong.append(f"{auction} (call {call.index}): {call.kinds} {call.alternative}")
    return marked, wrong


def test_no_call_verdict_on_the_sample_blames_its_own_better_call(tmp_path):
    marked, wrong = _judged_calls(list(SAMPLE), tmp_path)
    assert marked > 300  # the sample's footnotes (315 when the check was written)
    assert wrong == []


def test_no_call_verdict_on_a_corpus_slice_blames_its_own_better_call(tmp_path, shared_data):
    sources = [str(shared_data(*parts)) for parts in CORPUS_SLICE]
    marked, wrong = _judged_calls(sources, tmp_path)
    assert marked > 1000
    assert wrong == []
