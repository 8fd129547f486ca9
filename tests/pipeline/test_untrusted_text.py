"""Control and bidi characters in hand records: stored as they came, shown as visible escapes
in every page, every CSV file and every line of the terminal (bridgerank.core.untrusted)."""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.core.untrusted import LAYOUT, visible
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.predict import PredictOutcome
from bridgerank.pipeline.predict_view import print_forecasts
from bridgerank.pipeline.report.forecasts import forecast_rows

# NUL, BEL, ESC (starting a colour and a window-title sequence) and a right-to-left override.
PLAYER = "Boris\x00\x07\x1b[31m\u202eSchapiro"
EVENT = "Bermuda\x1b]0;x\x07 Bowl\u202e 1955"
# A file name cannot hold NUL: the rest will do.
FILE = "evil\x1b\x07\u202ecp.pbn"
JUNK = "notes\x1b\u202e.txt"
# The rate stage's slow sections (synthetic who-beats-whom games, bootstrap intervals) are off.
FAST = "[rate]\nbootstrap_resamples = 0\n[rate.cycles]\nseeds = 2\n"


def _hidden(text: str) -> list[str]:
    """The characters of ``text`` that a page, a CSV file or a terminal must not hold raw."""
    return [
        char
        for char in text
        if char not in LAYOUT and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    ]


def _invoke(*arguments: object) -> str:
    result = CliRunner().invoke(main, [str(argument) for argument in arguments])
    assert result.exit_code in (0, 1), result.output
    return result.output


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory, test_data):
    """Two deals, both rooms, with a hostile player, event and file name, run to the report;
    beside it a file that is no bridge data, under a hostile name too."""
    folder = tmp_path_factory.mktemp("untrusted")
    sources = folder / "in"
    sources.mkdir()
    records = (test_data / "bermuda1955_head.pbn").read_text().split("\n\n")[:4]
    text = "\n\n".join(records).replace("Boris Schapiro", PLAYER)
    text = text.replace("Bermuda Bowl 1955 - Seg 1", EVENT)
    # ingest takes a NUL in a file's first 8 KB for a binary file: comments come first
    (sources / FILE).write_text("% PBN 2.0\n" + "% a comment\n" * 800 + text + "\n")
    (sources / JUNK).write_text("not a hand record\n")
    settings = folder / "fast.toml"
    settings.write_text(FAST)
    out = folder / "out"
    output = _invoke(
        "run", sources, "--out", out, "--db", out / "bridgerank.db", "--config", settings
    )
    return out, output


@pytest.mark.dds
def test_the_database_keeps_the_text_as_it_came(hostile_run):
    out, _ = hostile_run
    with sqlite3.connect(out / "bridgerank.db") as db:
        events = {row[0] for row in db.execute("select event from boards")}
        norths = {row[0] for row in db.execute("select north from boards")}
        paths = {Path(row[0]).name for row in db.execute("select path from source_files")}
    assert events == {EVENT} and PLAYER in norths and FILE in paths


@pytest.mark.dds
def test_pages_and_csv_files_show_escapes_and_hold_no_control_character(hostile_run):
    out, _ = hostile_run
    files = sorted((out / "report").rglob("*.html")) + sorted((out / "csv").glob("*.csv"))
    assert len(files) > 30
    for path in files:
        assert _hidden(path.read_text(encoding="utf-8")) == [], path
    site = out / "report"
    player, event = visible(PLAYER), visible(EVENT)
    assert player == r"Boris\x00\x07\x1b[31m\u202eSchapiro"
    # the front page's forest plot (SVG text) and table, the player's page, the board pages
    front = (site / "index.html").read_text()
    assert f">{player}</a></text>" in front and f">{player}</a></td>" in front
    page = next(p for p in (site / "players").glob("*.html") if player in p.read_text())
    assert f"<h1>{player}</h1>" in page.read_text() and event in page.read_text()
    boards = [p.read_text() for p in (site / "boards").glob("*.html")]
    assert all(f"<title>{event}, board" in b and player in b for b in boards)
    csv_text = (out / "csv" / "boards.csv").read_text()
    assert visible(FILE) in csv_text and event in csv_text and player in csv_text
    assert player in (out / "csv" / "player_stats.csv").read_text()


@pytest.mark.dds
def test_the_terminal_gets_escapes(hostile_run):
    out, output = hostile_run
    assert _hidden(output) == [] and "1 not bridge data" in output
    shown = _invoke("show", "Boris", "--out", out, "--db", out / "bridgerank.db")
    assert _hidden(shown) == []
    lines = shown.splitlines()
    assert lines[0] == visible(PLAYER) and lines[1] == "=" * len(lines[0])
    assert f"Events: {visible(EVENT)} (2)" in shown
    # several players match: their names listed, escaped
    several = _invoke("show", "o", "--out", out, "--db", out / "bridgerank.db")
    assert visible(PLAYER) in several and _hidden(several) == []
    status = _invoke("status", "--out", out, "--db", out / "bridgerank.db")
    assert f"skipped by ingest: {out.parent / 'in' / visible(JUNK)}" in status
    assert _hidden(status) == []


def test_an_error_line_naming_a_file_gets_escapes(tmp_path):
    named = tmp_path / JUNK
    named.write_text("not a hand record\n")
    output = _invoke("run", named, "--out", tmp_path, "--db", tmp_path / "bridgerank.db")
    assert f"error: {tmp_path / visible(JUNK)}: not a bridge hand-record file" in output
    assert _hidden(output) == []


def test_forecasts_get_escapes(capsys):
    row = {
        "event": EVENT,
        "session": "1\u202e",
        "player_a": PLAYER,
        "player_b": "Terence Reese",
        "boards": 24,
        "rated": 2,
        "predicted": 52.5,
        "low_80": 45.0,
        "high_80": 60.0,
    }
    played = row | {"actual": 49.0}  # a stored forecast whose result is in: its line too
    outcome = PredictOutcome(
        forecast=[row], already_rated=[(EVENT, "2\x07")], stored=[played], score={"scored": 0}
    )
    print_forecasts(
        outcome, forecast_rows(outcome.stored, outcome.imp_stored)
    )  # as `bridgerank predict` prints it
    printed = capsys.readouterr().out
    assert _hidden(printed) == []
    assert visible(EVENT)[:28] in printed and f"not forecast: {visible(EVENT)} 2\\x07" in printed
    assert f"{visible(EVENT)[:22]} " in printed and "52.5%  49.0%  yes" in printed


def test_the_escapes_follow_one_convention():
    assert visible("\x00\x07\x1b\x7f\x85") == r"\x00\x07\x1b\x7f\x85"
    bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
    assert visible(bidi) == "".join(f"\\u{ord(char):04x}" for char in bidi)
    assert visible("\U000e0041\ud800\u2028") == r"\U000e0041\ud800\u2028"
    # tabs and line breaks: escaped on a terminal line, kept where a page or CSV keeps them
    assert visible("a\tb\nc") == r"a\x09b\x0ac" and visible("a\tb\nc", LAYOUT) == "a\tb\nc"
    # ordinary text is untouched, joiners and non-breaking spaces included
    for text in (
        "Zoë Ó Súilleabháin",
        "\u0645\u062d\u0645\u062f\u200c",
        "a\u00a0b",
        "\U0001f468\u200d\U0001f469",
    ):
        assert visible(text) == text
    assert visible(visible(PLAYER)) == visible(PLAYER)
