"""Hostile input (issue 25): a giant tag, a gzip bomb, endless lines and records are refused
in seconds and bounded memory, with one clear line, and nothing stored is lost."""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bridgerank.cleaning.ingest import lin, pbn, recap, sqldump, valet
from bridgerank.cleaning.ingest.limits import Limits, OverLimit
from bridgerank.cleaning.ingest.pbn import _tag, read_pbn
from bridgerank.cleaning.ingest.sources import _LineMeter, scan, text_lines
from bridgerank.cleaning.ingest.stage import ingest_file
from bridgerank.cleaning.ingest.tables import RawBoard, SkippedFile, SourceFile
from bridgerank.core.errors import SourceError
from bridgerank.core.store import open_engine
from tests.measured import PEAK_MB, SECONDS, bridgerank_measured, error_lines

MIB = 1 << 20

GOOD_GAME = (
    '[Event "Club night"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
    '[North "Ann"]\n[East "Bob"]\n[South "Cat"]\n[West "Dan"]\n'
    '[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n\n'
)


def _pbn_with_a_giant_tag(path: Path, chars: int) -> Path:
    """A ``.pbn.gz`` whose North tag holds ``chars`` letters, written a megabyte at a time."""
    piece = b"a" * MIB
    with gzip.open(path, "wb", compresslevel=6) as out:
        out.write(b'[Event "x"]\n[Board "1"]\n[North "')
        for start in range(0, chars, MIB):
            out.write(piece[: min(MIB, chars - start)])
        out.write(b'"]\n[South "b"]\n\n')
    return path


def _gzip_bomb(path: Path, size: int, line: int = 0) -> Path:
    """A gzip file of ``size`` bytes of letters once decompressed, one line unless ``line``
    (then lines of that many bytes), about a thousandth of that on disk.

    One megabyte is compressed once and written as many gzip members (RFC 1952 allows a
    file of several; every reader decompresses them one after the other): quick to write,
    and a real bomb to read.
    """
    chunk = b"a" * MIB
    if line:
        chunk = (b"a" * (line - 1) + b"\n") * (MIB // line + 1)
        chunk = chunk[: MIB - MIB % line]
    member = gzip.compress(chunk, compresslevel=9, mtime=0)
    with open(path, "wb") as out:
        for _ in range(size // len(chunk)):
            out.write(member)
    return path


def _stored(out: Path) -> tuple[int, int]:
    engine = open_engine(f"sqlite:///{out / 'bridgerank.db'}")
    with engine.connect() as conn:
        files = conn.execute(select(func.count()).select_from(SourceFile)).scalar_one()
        boards = conn.execute(select(func.count()).select_from(RawBoard)).scalar_one()
    engine.dispose()
    return files, boards


def test_a_30_mb_pbn_tag_is_one_error_line_in_seconds_and_bounded_memory(tmp_path):
    giant = _pbn_with_a_giant_tag(tmp_path / "giant.pbn.gz", 30_000_000)
    assert giant.stat().st_size < 100_000  # 30 MB of tag, 30 KB on disk
    good = tmp_path / "good.pbn"
    good.write_text(GOOD_GAME)
    out = tmp_path / "out"
    assert bridgerank_measured("ingest", good, "--out", out)["code"] == 0
    run = bridgerank_measured("ingest", giant, "--out", out)
    assert run["code"] == 1, run
    assert error_lines(run) == [
        f"error: {giant}: line 3 is longer than 2048 KB ([ingest] max_line_kb)"
    ], run["stderr"]
    assert run["seconds"] < SECONDS and run["peak_mb"] < PEAK_MB, run
    assert _stored(out) == (1, 1)  # what was stored before stays


def test_a_30_mb_tag_the_line_limit_lets_through_is_parsed_in_bounded_memory(tmp_path):
    # With the line limit raised, the tag reaches the PBN parser, which once held about 170
    # bytes a character (5 GB here); now the game's own bound refuses it.
    giant = _pbn_with_a_giant_tag(tmp_path / "giant.pbn.gz", 30_000_000)
    config = tmp_path / "big_lines.toml"
    config.write_text("[ingest]\nmax_line_kb = 65536\n")
    run = bridgerank_measured("ingest", giant, "--out", tmp_path / "out", "--config", config)
    assert run["code"] == 1, run
    assert error_lines(run) == [
        f"error: {giant}: the PBN game of line 1 holds more than 16,777,216 characters "
        "or 100,000 tags and tokens"
    ], run["stderr"]
    assert run["seconds"] < SECONDS and run["peak_mb"] < PEAK_MB, run


def test_a_tag_just_under_the_line_limit_is_stored_whole(engine, tmp_path):
    big = _pbn_with_a_giant_tag(tmp_path / "big.pbn.gz", 2048 * 1024 - len('[North ""]'))
    assert ingest_file(engine, big) == ("ingested", 1)
    with engine.connect() as conn:
        north = conn.execute(select(RawBoard.northname)).scalar_one()
    assert north == "a" * (2048 * 1024 - len('[North ""]'))


def test_a_gzip_bomb_of_one_4_gib_line_is_one_error_line_in_seconds(tmp_path):
    bomb = _gzip_bomb(tmp_path / "bomb.pbn.gz", 4 << 30)
    assert bomb.stat().st_size < 6 * MIB
    run = bridgerank_measured("ingest", bomb, "--out", tmp_path / "out")
    assert run["code"] == 1, run
    assert error_lines(run) == [
        f"error: {bomb}: line 1 is longer than 2048 KB ([ingest] max_line_kb)"
    ], run["stderr"]
    assert run["seconds"] < SECONDS and run["peak_mb"] < PEAK_MB, run


def test_a_gzip_bomb_found_in_a_folder_is_a_skipped_file_and_the_rest_is_stored(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    bomb = _gzip_bomb(folder / "bomb.pbn.gz", 4 << 30)
    (folder / "good.pbn").write_text(GOOD_GAME)
    out = tmp_path / "out"
    run = bridgerank_measured("ingest", folder, "--out", out)
    assert run["code"] == 0, run
    assert run["seconds"] < SECONDS and run["peak_mb"] < PEAK_MB, run
    assert "1 ingested, 1 unreadable" in run["stdout"], run
    assert _stored(out) == (1, 1)
    engine = open_engine(f"sqlite:///{out / 'bridgerank.db'}")
    with engine.connect() as conn:
        skipped = conn.execute(select(SkippedFile.path, SkippedFile.reason)).all()
    engine.dispose()
    assert skipped == [(str(bomb), "line 1 is longer than 2048 KB ([ingest] max_line_kb)")]


def test_a_gzip_bomb_of_short_lines_stops_at_the_size_limit(tmp_path):
    bomb = _gzip_bomb(tmp_path / "lines.pbn.gz", 4 << 30, line=80)
    config = tmp_path / "small_files.toml"
    config.write_text("[ingest]\nmax_file_mb = 64\n")
    run = bridgerank_measured("ingest", bomb, "--out", tmp_path / "out", "--config", config)
    assert run["code"] == 1, run
    assert error_lines(run) == [
        f"error: {bomb}: larger than 64 MB once decompressed ([ingest] max_file_mb)"
    ], run["stderr"]
    assert run["seconds"] < SECONDS and run["peak_mb"] < PEAK_MB, run


def test_limits_are_checked_as_the_bytes_stream_by(tmp_path):
    plain = tmp_path / "long.pbn"
    plain.write_bytes(b"[Event " + b"x" * 5000 + b"]\n")
    with pytest.raises(SourceError, match="line 1 is longer than 4 KB"):
        scan(plain, Limits(file_bytes=MIB, line_bytes=4096))
    with pytest.raises(SourceError, match="larger than 0 MB \\("):
        scan(plain, Limits(file_bytes=4096, line_bytes=MIB))
    assert scan(plain, Limits(file_bytes=5009, line_bytes=5008)).size == 5009


def test_reading_keeps_the_limits_when_the_file_grew_after_its_scan(tmp_path):
    path = tmp_path / "grown.pbn"
    path.write_text(GOOD_GAME + "[Note " + "x" * 5000 + "]\n")
    with pytest.raises(SourceError, match="line 14 is longer than 4 KB"):
        with text_lines(path, "utf-8", Limits(file_bytes=MIB, line_bytes=4096)) as lines:
            list(lines)
    with pytest.raises(SourceError, match="larger than 0 MB"):
        with text_lines(path, "utf-8", Limits(file_bytes=1000, line_bytes=MIB)) as lines:
            list(lines)


@pytest.mark.parametrize("end", [b"\n", b"\r", b"\r\n"])
@pytest.mark.parametrize("chunk", [1, 3, 7, 64])
def test_the_line_meter_counts_lines_as_the_readers_do(end, chunk):
    lines = [b"x" * 5, b"", b"y" * 9, b"z" * 4, b"w" * 12]
    data = end.join(lines) + end

    def first_over(limit: int) -> int | None:
        meter = _LineMeter(limit)
        for start in range(0, len(data), chunk):
            over = meter.feed(data[start : start + chunk])
            if over is not None:
                return over
        return None

    assert first_over(12) is None
    assert first_over(11) == 5
    assert first_over(8) == 3
    assert first_over(4) == 1


# unescaped quotes


def test_a_quote_inside_a_tag_value_is_kept_up_to_the_last_quote():
    text = (
        '[Event "Club"]\n[Board "1"]\n[North "John "Jack" Smith"]\n'
        '[South "O\\"Brien"]\n[East "Back\\\\slash"]\n[West "Kim"] \n'
        '[Auction "N"] 1NT "x" ]\nPass Pass Pass\n'
    )
    [record] = read_pbn(text)
    assert record.values["northname"] == 'John "Jack" Smith'
    assert record.values["southname"] == 'O"Brien'
    assert record.values["eastname"] == "Back\\slash"
    assert record.values["westname"] == "Kim"
    assert record.values["bidstart"] == "N"
    assert record.values["auction"] == '1NT "x" ] Pass Pass Pass'
    assert "unreadable_tags" not in record.values


def test_a_tag_with_no_closing_quote_is_recorded_not_dropped(engine, tmp_path):
    text = (
        '[Event "The "Elite" club" ]\n\n'  # recovered; a header-only game
        '[Event "Night]\n'  # not recoverable: noted in the next game
        '[Board "1"]\n[North "Ann]\n[South "Cat"]\n[Auction "N"]\n1NT\n'
        '[Note "1:said "stop\n'  # ends the auction; its words are not calls
        "Pass\n\n"
        '[Board "2"]\n[North "Bob"]\n'
    )
    first, second = read_pbn(text)
    assert first.values["event"] == 'The "Elite" club'
    assert first.values["unreadable_tags"] == '[Event "Night]\n[North "Ann]\n[Note "1:said "stop'
    assert "northname" not in first.values and first.values["southname"] == "Cat"
    assert first.values["auction"] == "1NT"
    assert "unreadable_tags" not in second.values and second.values["northname"] == "Bob"
    path = tmp_path / "broken.pbn"
    path.write_text(text)
    assert ingest_file(engine, path) == ("ingested", 2)
    with engine.connect() as conn:
        extra = conn.execute(select(RawBoard.extra).order_by(RawBoard.record_no)).scalars().all()
    assert json.loads(extra[0])["unreadable_tags"].startswith('[Event "Night]')
    assert extra[1] is None


def test_plain_and_escaped_values_read_as_before():
    text = '[Event "a \\\\\\" b"]\n[Board "1"]\n[North "x\\\\"]\n[South "\\\\\\\\"]\n'
    [record] = read_pbn(text)
    assert record.values["event"] == 'a \\" b'
    assert record.values["northname"] == "x\\"
    assert record.values["southname"] == "\\\\"


# The regular expression tags were read with (fine on a short line): wherever it reads a
# tag, the new reading must read the same.
_OLD_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _as_before(line: str) -> None:
    old = _OLD_TAG.match(line)
    if old is not None:
        value = old.group(2).replace('\\"', '"').replace("\\\\", "\\")
        assert _tag(line) == (old.group(1), value, old.end()), line


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(['"', "\\", "]", "[", " ", "a", "\t", "N"]), max_size=30))
def test_a_tag_the_old_expression_read_reads_the_same(pieces):
    _as_before('[North "' + "".join(pieces))
    _as_before("[ Deal  " + "".join(pieces))


def test_every_real_tag_line_reads_as_before(test_data, shared_data):
    files = sorted(test_data.glob("*.pbn"))
    files += sorted(shared_data("pbn").rglob("*.pbn"))[:200]
    lines = 0
    for path in files:
        for line in path.read_text(encoding="latin-1").splitlines():
            if line.strip().startswith("["):
                _as_before(line.strip())
                lines += 1
    assert lines > 50_000


# what readers gather across lines


def _refused(engine, path: Path, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        ingest_file(engine, path)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(SourceFile)).scalar_one() == 0


def test_a_pbn_game_past_its_bounds_refuses_the_file(engine, tmp_path, monkeypatch):
    monkeypatch.setattr(pbn, "GAME_ITEMS", 500)
    path = tmp_path / "endless.pbn"
    path.write_text(GOOD_GAME + '[Board "2"]\n[Play "W"]\n' + "SA HA DA CA\n" * 200)
    _refused(engine, path, "the PBN game of line 14 holds more than")
    monkeypatch.setattr(pbn, "GAME_ITEMS", 100_000)
    monkeypatch.setattr(pbn, "GAME_CHARS", 1000)
    headers = "".join(f'[Tag{n} "{"v" * 50}"]\n\n' for n in range(30))
    path.write_text(headers + GOOD_GAME)
    _refused(engine, path, "the PBN tags inherited by '#' hold more than 1,000 characters")


def test_a_lin_field_or_table_past_its_bounds_refuses_the_file(engine, tmp_path, monkeypatch):
    monkeypatch.setattr(lin, "FIELD_CHARS", 1000)
    path = tmp_path / "field.lin"
    path.write_text("pn|Ann,Bob,Cat,Dan|md|1S2H3D4C,,,|nt|" + "words\n" * 400 + "|")
    _refused(engine, path, "a LIN field runs over more than 1,000 characters")
    monkeypatch.setattr(lin, "TABLE_ITEMS", 100)
    path.write_text("pn|Ann,Bob,Cat,Dan|md|1S2H3D4C,,,|" + "mb|p|\n" * 101)
    _refused(engine, path, "the LIN table of line 1 has more than 100 calls, cards and comments")


def _recap_page(body: str) -> str:
    return f"<!DOCTYPE html><html><body>BridgeComposer\n{body}</body></html>\n"


def test_a_recap_page_past_its_bounds_refuses_the_file(engine, tmp_path, monkeypatch):
    path = tmp_path / "recap.html"
    monkeypatch.setattr(recap, "OPEN_CHARS", 10_000)
    path.write_text(_recap_page("<!-- never closed\n" + "text\n" * 20_000))
    _refused(engine, path, "a tag, comment or script of the recap page runs over 10,000")
    monkeypatch.setattr(recap, "PAGE_ITEMS", 100)
    path.write_text(_recap_page('<table><tr class="bcst"><td>1</td></tr></table>\n' * 101))
    _refused(engine, path, "the recap page holds more than 100 boards and table results")
    monkeypatch.setattr(recap, "PAGE_DEPTH", 50)
    path.write_text(_recap_page("<div>\n" * 60))
    _refused(engine, path, "the recap page nests elements more than 50 deep")


def test_a_valet_side_file_past_its_bound_refuses_the_file(engine, tmp_path, monkeypatch):
    monkeypatch.setattr(valet, "SIDE_FILE_BYTES", 100)
    (tmp_path / "names.txt").write_text("".join(f"{n}|Player {n}\n" for n in range(50)))
    scores = tmp_path / "scores.txt"
    scores.write_text("1|1|1|2|3|4|3N|N|9|SA\n")
    _refused(engine, scores, "names.txt beside it is larger than 0 MB")


def test_a_dump_with_no_line_feed_streams_through_a_bounded_window(monkeypatch):
    # Rows ended by a carriage return alone: the window once grew to the whole file.
    monkeypatch.setattr(sqldump, "_WINDOW_CHARS", 100)
    monkeypatch.setattr(sqldump, "LOOKAHEAD_CHARS", 2000)
    row = "(1,'Event','Site','2001','1'" + ",''" * 25 + ")," + "\r"
    text = "INSERT INTO bridgedeals VALUES\r" + row * 3000
    widest = 0
    refill = sqldump._Window.refill

    def measured(window, keep_from):
        nonlocal widest
        cut = refill(window, keep_from)
        widest = max(widest, len(window.text))
        return cut

    monkeypatch.setattr(sqldump._Window, "refill", measured)
    streamed = list(sqldump.read_sqldump(io.StringIO(text, newline="")))
    assert len(streamed) == 3000 and all(r.parse_error is None for r in streamed)
    # kept before the row and after it, and the lines read in: a few lookaheads, not 330 KB
    assert widest < 4 * 2000, widest


def test_over_limit_is_a_plain_exception_the_reading_turns_into_a_source_error(tmp_path):
    path = tmp_path / "x.pbn"
    path.write_text(GOOD_GAME)
    with pytest.raises(SourceError, match=f"{path}: too much"):
        with text_lines(path, "utf-8"):
            raise OverLimit("too much")


def test_a_file_changed_between_its_hash_and_its_parse_is_refused_and_read_again_later(
    engine, tmp_path, monkeypatch, test_data
):
    """Review 4's defect 5: the file is overwritten after ingest hashed it and before it is
    parsed (another event's boards in place of its own). Nothing is stored under the first
    digest; the next run, on the file as it now is, stores it."""
    from bridgerank.cleaning.ingest import sources

    path = tmp_path / "growing.pbn"
    path.write_text(GOOD_GAME)
    other = (test_data / "bermuda1955_head.pbn").read_bytes()
    real_scan = sources.scan

    def scan_then_change(scanned, limits=None):
        content = real_scan(scanned, limits)
        path.write_bytes(other)  # an editor saving, a download going on
        return content

    monkeypatch.setattr(sources, "scan", scan_then_change)
    _refused(engine, path, "the file changed while it was read")
    monkeypatch.undo()
    assert ingest_file(engine, path) == ("ingested", 12)
    with engine.connect() as conn:
        stored = conn.execute(select(SourceFile.sha256)).scalar_one()
    assert stored == scan(path).sha256


def test_one_stray_byte_leaves_a_utf8_files_names_as_written(tmp_path):
    """Review 4's defect 11: a UTF-8 file with one byte that is not UTF-8 was read whole as
    Windows-1252 (every name mojibake); now only the stray byte is, and the run says so."""
    from click.testing import CliRunner

    from bridgerank.pipeline.cli import main

    named = GOOD_GAME.replace('[North "', '[North "Günter Żmudziński ')
    stray = named.replace('[South "', '[South "Ab\x00').encode("utf-8").replace(b"\x00", b"\xff")
    path = tmp_path / "mixed.pbn"
    path.write_bytes(stray)
    assert scan(path).encoding == "utf-8+cp1252"
    result = CliRunner().invoke(main, ["ingest", str(path), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "note: mixed.pbn is UTF-8 but for a few bytes, read as Windows-1252" in " ".join(
        result.output.split()
    )
    engine = open_engine(f"sqlite:///{tmp_path / 'bridgerank.db'}")
    with engine.connect() as conn:
        [(north, south)] = conn.execute(
            select(RawBoard.__table__.c.northname, RawBoard.__table__.c.southname)
        ).all()
    engine.dispose()
    assert north.startswith("Günter Żmudziński") and south.startswith("Abÿ")


def test_a_tree_a_thousand_folders_deep_is_walked_and_prose_is_no_sql_dump(tmp_path):
    """Review 4's defect 13: os.walk's recursion gave a 50-line RecursionError at depth
    1,100; a man page that mentions INSERT INTO was read as a vugraph SQL dump."""
    import os

    from bridgerank.cleaning.ingest.sources import discover, sniff

    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        for _ in range(1100):
            os.mkdir("d")
            os.chdir("d")
        Path("deep.pbn").write_text(GOOD_GAME)
    finally:
        os.chdir(here)
    try:
        [found] = discover([str(tmp_path)], [".pbn"])
        assert found.path.name == "deep.pbn"
    finally:  # removed here, bottom up: shutil.rmtree recurses, and pytest's clean-up with it
        os.chdir(tmp_path)
        depth = 0
        while os.path.isdir("d"):
            os.chdir("d")
            depth += 1
        os.remove("deep.pbn")
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("d")
        os.chdir(here)
    assert sniff(b".TH SQLITE3 1\nUse INSERT INTO to add rows; see VALUES.\n") is None
    assert sniff(b"-- dump\nINSERT INTO `bridgedeals` VALUES (1,'Bermuda Bowl')") == "sql"
