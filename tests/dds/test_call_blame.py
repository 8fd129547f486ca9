"""No call verdict names as the better call the very call it blames, over the embedded sample
and a slice of the championship corpus: the boards cleaned by the pipeline, their auctions
judged by the par after each call (dds.call_values) with the double dummy tables shipped in
data/ (solved by DDS), every call checked - and every auction of them legal to the game."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner

from bridgerank.bridge.calls import BID_RANK
from bridgerank.bridge.cards import SEAT_INDEX
from bridgerank.dds.call_values import judge_call_values
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
    for deal, auction, bidstart, _contract, _declarer, ns_vul, ew_vul, year in boards:
        table = tables.get(deal)
        assert table is not None, f"no shipped table for {deal}"
        calls, first = auction.split(), SEAT_INDEX[bidstart]
        for call in judge_call_values(calls, first, table, (bool(ns_vul), bool(ew_vul)), year):
            marked += call.red
            if not call.red or call.alternative != call.call:
                continue
            same = call.call not in BID_RANK or (
                call.alternative_declarer == _bidder_declares(calls, first, call)
            )
            if same:
                wrong.append(f"{auction} (call {call.index}): {call.kind} {call.alternative}")
    return marked, wrong


def _bidder_declares(calls: list[str], first: int, call) -> int:
    """Who would declare the bid ``call`` made: the first of its side to name the strain."""
    strain = call.call[1]
    for index, made in enumerate(calls[: call.index + 1]):
        seat = (first + index) % 4
        if made in BID_RANK and made[1] == strain and seat % 2 == call.seat % 2:
            return seat
    return call.seat


def test_no_call_verdict_on_the_sample_blames_its_own_better_call(tmp_path):
    marked, wrong = _judged_calls(list(SAMPLE), tmp_path)
    assert marked > 300  # the sample's footnotes (473 when the check was written)
    assert wrong == []


def test_no_call_verdict_on_a_corpus_slice_blames_its_own_better_call(tmp_path, shared_data):
    sources = [str(shared_data(*parts)) for parts in CORPUS_SLICE]
    marked, wrong = _judged_calls(sources, tmp_path)
    assert marked > 1000
    assert wrong == []
