"""Ingest streams: a file's size does not raise peak memory, and windowed reading of a
dump, a LIN file or a PBN file yields exactly what reading the whole text yields."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
import textwrap

import pytest
from sqlalchemy import func, select

from bridgerank.cleaning.ingest import sqldump
from bridgerank.cleaning.ingest.lin import read_lin
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.stage import ingest_file
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile

_PEAK = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from bridgerank.core.store import open_engine
    from bridgerank.cleaning.ingest.stage import ingest_file
    engine = open_engine("sqlite:///" + sys.argv[2])
    status, count = ingest_file(engine, Path(sys.argv[1]))
    status = Path("/proc/self/status").read_text()
    print(count, next(line.split()[1] for line in status.splitlines() if "VmHWM" in line))
    """
)


def _record_tuples(records):
    return [(r.record_no, r.line, r.values, r.play_layout, r.parse_error) for r in records]


def _repeated_pbn(games: list[str], count: int) -> str:
    return "".join(games[index % len(games)] + "\n\n" for index in range(count))


def _peak_kib(tmp_path, text: str, name: str) -> tuple[int, int]:
    path = tmp_path / f"{name}.pbn"
    path.write_text(text, encoding="latin-1")
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(path), str(tmp_path / f"{name}.db")],
        capture_output=True,
        text=True,
        check=True,
    )
    count, peak = done.stdout.split()
    return int(count), int(peak)


def test_peak_memory_of_ingest_does_not_grow_with_the_file(test_data, tmp_path):
    text = (test_data / "capgemini1998_round01.pbn").read_text(encoding="latin-1")
    games = [game for game in text.split("\n\n") if "[Deal " in game]
    small, large = _repeated_pbn(games, 4_000), _repeated_pbn(games, 40_000)
    assert len(large) > 17_000_000  # 18 MB of PBN: held whole, it would cost ~200 MB
    small_count, small_peak = _peak_kib(tmp_path, small, "small")
    large_count, large_peak = _peak_kib(tmp_path, large, "large")
    assert (small_count, large_count) == (4_000, 40_000)
    # ten times the file, the same peak (within allocator noise)
    assert large_peak - small_peak < 20_000, (small_peak, large_peak)


@pytest.fixture
def tiny_window(monkeypatch):
    """A dump window of one character and two lines of lookahead: every row crosses a refill."""
    monkeypatch.setattr(sqldump, "_WINDOW_CHARS", 1)
    monkeypatch.setattr(sqldump, "LOOKAHEAD_LINES", 2)


def test_dump_read_through_a_tiny_window_equals_the_whole_text(test_data, tiny_window):
    text = (test_data / "defects_dump.sql").read_text() * 20
    whole = _record_tuples(sqldump.read_sqldump(text))
    streamed = _record_tuples(sqldump.read_sqldump(io.StringIO(text, newline="")))
    assert len(whole) == 160 and streamed == whole
    # the broken row (value split over two lines) is still recovered in every copy
    notes = [values["description"] for _, _, values, _, _ in whole if "description" in values]
    assert notes.count("first halfsecond half") == 20
    assert whole[-1][1] == 200  # line numbers run on across refills


def test_extended_insert_rows_on_one_line_are_read_once_each(test_data, tiny_window):
    rows = [
        line
        for line in (test_data / "defects_dump.sql").read_text().splitlines()
        if line.startswith("(1;")
    ]
    assert len(rows) == 1
    one_line = "INSERT INTO bridgedeals VALUES " + ",".join([rows[0].rstrip(";")] * 30) + ";\n"
    records = list(sqldump.read_sqldump(io.StringIO(one_line * 3, newline="")))
    assert len(records) == 90
    assert all(record.parse_error is None for record in records)
    assert {record.line for record in records} == {1, 2, 3}


def test_lin_and_pbn_streams_equal_their_whole_text(shared_data, test_data):
    lin = shared_data("lin", "usbf_sf_14502.lin").read_text(encoding="latin-1")
    assert _record_tuples(read_lin(io.StringIO(lin, newline=""))) == _record_tuples(read_lin(lin))
    pbn = (test_data / "bb1997_sf04_head.pbn").read_text(encoding="latin-1")
    assert _record_tuples(read_pbn(io.StringIO(pbn, newline=""))) == _record_tuples(read_pbn(pbn))


def test_a_gzip_file_streams_to_the_same_rows_as_its_plain_copy(engine, test_data, tmp_path):
    plain = (test_data / "defects_dump.sql").read_bytes()
    packed = tmp_path / "dump.sql.gz"
    packed.write_bytes(gzip.compress(plain))
    assert ingest_file(engine, packed) == ("ingested", 8)
    copy = tmp_path / "dump.sql"
    copy.write_bytes(plain)
    assert ingest_file(engine, copy) == ("already stored", 0)
    with engine.connect() as conn:
        size, records = conn.execute(select(SourceFile.size, SourceFile.records)).one()
        stored = conn.execute(select(func.count()).select_from(RawBoard)).scalar_one()
    assert (size, records, stored) == (len(plain), 8, 8)
