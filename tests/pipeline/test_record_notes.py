"""The record's alerts, notes and commentary tied to the cleaned auction's calls."""

from __future__ import annotations

import json

from bridgerank.cleaning.ingest.lin import read_lin
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.pipeline.report.board_view import auction_rows
from bridgerank.pipeline.report.record_notes import (
    call_notes,
    commentary,
    with_suit_symbols,
)


def _board(record, source_format: str) -> dict:
    """A board row as the site reads it: the raw auction, the extra fields, the format."""
    extra = {k: v for k, v in record.values.items() if k in ("notes", "call_notes", "commentary")}
    return {
        "raw_auction": record.values.get("auction"),
        "record_extra": json.dumps(extra) if extra else None,
        "source_format": source_format,
    }


def test_pbn_notes_refer_to_the_call_before_them_whatever_the_tokens():
    text = (
        '[Board "1"]\n[Auction "N"]\n1C =1= X 1S=2= Pass! AP\n'
        '[Note "1:clubs or 15-19 balanced"]\n[Note "2:0-5 hcp, 4\\\\S"]\n'
    )
    [record] = read_pbn(text)
    notes = call_notes(_board(record, "pbn"))
    # 1C is call 0, X call 1, 1S call 2; PBN's "!" is a good call, not an alert
    assert notes == {0: "clubs or 15-19 balanced", 2: "0-5 hcp, 4\u2660"}


def test_lin_alerts_and_their_explanations():
    lin = "qx|o1|md|3SAKQJHAKQJDAKQCAK,S2H2D2C2,,|mb|1C!|an|strong !H|mb|p|mb|1D!|mb|p|mb|p|mb|p|"
    [record] = read_lin(lin)
    notes = call_notes(_board(record, "lin"))
    assert notes == {0: "strong \u2665", 2: "alerted"}
    # lettered in auction order on the page, under the dealer's (South's) column
    rows = auction_rows("1C P 1D P P P", "S", (), notes)
    marked = [(c.text, c.note_mark, c.note) for row in rows for c in row if c and c.note]
    assert marked == [("1\u2663", "a", "strong \u2665"), ("1\u2666", "b", "alerted")]


def test_commentary_keeps_a_diagram_as_laid_out_and_prose_as_prose():
    text = (
        '[Board "1"]\n{Board 1        \\S A K\n                \\H Q J\n'
        "    \\S 4 3            \\S Q J\n}\n"
        '[Auction "N"]\nPass {A quiet\nstart with @S.} Pass Pass Pass\n'
    )
    [record] = read_pbn(text)
    comments = commentary(_board(record, "pbn"))
    assert [c.laid_out for c in comments] == [True, False]
    assert comments[0].text.splitlines()[0] == "Board 1        \u2660 A K"
    assert comments[1].text == "A quiet\nstart with \u2660."


def test_a_record_without_notes_or_with_damaged_extra_fields_shows_none():
    board = {"raw_auction": "1C P", "record_extra": "not json", "source_format": "lin"}
    assert call_notes(board) == {} and commentary(board) == []
    assert call_notes({"raw_auction": None, "record_extra": None}) == {}
    assert with_suit_symbols("5!d and 3\\C") == "5\u2666 and 3\u2663"
