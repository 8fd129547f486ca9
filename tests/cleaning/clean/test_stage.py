"""The clean stage runs in bounded memory and writes what its first version wrote.

The first version (``reference_stage.py``) read every record into a list and compared the
boards in one dict; the stage of today reads, cleans and writes a batch at a time. Both run
here on the same real records, and again after the records and settings change, and must
leave the same tables and return the same summary; a run interrupted before its commit
leaves the previous outputs; and the stage's Python heap does not grow with the boards.
"""

import dataclasses
import importlib.util
import random
import tracemalloc
from pathlib import Path

import pytest
from sqlalchemy import select, update

from bridgerank.cleaning.clean import stage as clean_stage
from bridgerank.cleaning.clean.seen import FirstSeen
from bridgerank.cleaning.clean.summary import BoardChanges, CleanSummary
from bridgerank.cleaning.clean.tables import Board, Exclusion, TokenCount
from bridgerank.cleaning.ingest.records import RAW_FIELDS
from bridgerank.cleaning.ingest.stage import INGEST_STAGE
from bridgerank.cleaning.ingest.tables import RawBoard
from bridgerank.core.settings import load_settings
from bridgerank.core.stage import StageContext
from bridgerank.core.store import StageRun, open_engine
from bridgerank.pipeline.stages import run_stages
from tests import postgres
from tests.cleaning.clean import reference_stage
from tests.tables import rows

OUTPUTS = (Board, Exclusion, TokenCount)
BENCHMARK = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_clean.py"


def test_first_seen_finds_the_first_id_of_each_key_added():
    rng = random.Random(7)
    seen, expected = FirstSeen(capacity=8), {}  # grows a dozen times
    for batch in range(200):
        keys = [0, 2**64 - 1] if batch == 100 else []
        keys += [
            rng.choice(list(expected)) if expected and rng.random() < 0.3 else rng.getrandbits(64)
            for _ in range(rng.randint(0, 120))
        ]
        assert seen.find(keys) == {key: expected[key] for key in keys if key in expected}
        firsts: dict[int, int] = {}
        for offset, key in enumerate(keys):
            if key not in expected:
                firsts.setdefault(key, batch * 1000 + offset)
        seen.add(firsts)
        expected.update(firsts)
    assert len(seen) == len(expected)
    key = next(iter(expected))
    seen.add({key: 10**9})  # a key added again keeps its first id
    assert seen.find([key]) == {key: expected[key]}


def _clean(url: str, module, settings=None) -> CleanSummary:
    """Run a version of the clean stage on ``url``; its summary without the clock."""
    engine = open_engine(url)
    try:
        context = StageContext(
            engine=engine, settings=settings or load_settings(), stage=clean_stage.CLEAN_STAGE
        )
        summary = module.run(context)
    finally:
        engine.dispose()
    return dataclasses.replace(summary, seconds=0.0)


def _ingest(url: str, sources: list[Path]) -> None:
    engine = open_engine(url)
    run_stages(engine, load_settings(), [INGEST_STAGE], sources=[str(path) for path in sources])
    engine.dispose()


def _outputs(url: str) -> dict[str, list[tuple]]:
    return {model.__tablename__: rows(url, model.__table__) for model in OUTPUTS}


def _game(text: str) -> str:
    """The first game of a PBN file."""
    start = text.index("[Event")
    return text[start : text.index("\n*", start) + 2] + "\n"


@pytest.fixture
def sources(tmp_path, test_data) -> list[Path]:
    """Every readable file of tests/data (598 records, many defects), then copies: of a PBN
    file in other bytes (each of its records a copy of an earlier file's), and a new game
    twice in a row (the second a copy of the first, in the same batch)."""
    folder = tmp_path / "copies"
    folder.mkdir()
    text = (test_data / "bb1997_sf04_head.pbn").read_text()
    (folder / "copy.pbn").write_text("% another export\n" + text)
    twin = _game(text).replace('[West "Stansby"]', '[West "Stansby Twin"]')
    (folder / "twice.pbn").write_text("% PBN 2.1\n" + twin + "\n" + twin)
    return [test_data, folder / "copy.pbn", folder / "twice.pbn"]


def _change_records(url: str, test_data: Path, folder: Path) -> None:
    """New records, and records mended in place: a board unreadable, one without its auction,
    one a copy of an earlier one."""
    new = folder / "new.pbn"
    new.write_text((test_data / "bb1997_sf04_head.pbn").read_text().replace("Hamman", "Hammam"))
    _ingest(url, [new])
    raw = RawBoard.__table__
    engine = open_engine(url)
    with engine.begin() as conn:
        kept = conn.execute(select(Board.id).order_by(Board.id)).scalars().all()
        conn.execute(update(raw).where(raw.c.id == kept[5]).values(parse_error="mended: lost"))
        conn.execute(update(raw).where(raw.c.id == kept[10]).values(auction=None))
        first = conn.execute(select(raw).where(raw.c.id == kept[3])).mappings().one()
        copied = {name: first[name] for name in RAW_FIELDS}
        conn.execute(update(raw).where(raw.c.id == kept[15]).values(**copied))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def new_url(request, tmp_path):
    """``new_url(name)``: the URL of a new, empty database of the parametrised kind."""

    def make(name: str) -> str:
        if request.param == "sqlite":
            return f"sqlite:///{tmp_path / name}.db"
        return postgres.new_database(request.getfixturevalue("postgres_server"))

    return make


@pytest.mark.parametrize("batch", [3, 64, clean_stage.BATCH])
def test_the_same_tables_and_summary_as_the_first_version(
    new_url, sources, test_data, tmp_path, monkeypatch, batch
):
    # small batches: many chunks, copies of records of earlier chunks, paged stored boards
    monkeypatch.setattr(clean_stage, "BATCH", batch)
    before, mixed, after = new_url("before"), new_url("mixed"), new_url("after")
    for url in (before, mixed, after):
        _ingest(url, sources)
    first = _clean(before, reference_stage)
    assert _clean(mixed, reference_stage) == first
    assert _clean(after, clean_stage) == first
    # copies: 2 in tests/data (defects_dump.sql), 6 in copy.pbn, 1 in twice.pbn
    assert first.reasons["board"]["duplicate_record"] == 9
    assert first.boards_changed == BoardChanges(added=first.kept, changed=0, removed=0)
    assert _outputs(after) == _outputs(before)
    # records added and mended, a setting changed: boards added, changed and removed
    for url in (before, mixed, after):
        _change_records(url, test_data, tmp_path / "copies")
    other = load_settings(None, {"clean": {"infer_vulnerability_from_board": False}})
    second = _clean(before, reference_stage, other)
    assert _clean(mixed, clean_stage, other) == second
    assert _clean(after, clean_stage, other) == second
    assert all(dataclasses.astuple(second.boards_changed)), second.boards_changed
    assert _outputs(mixed) == _outputs(before)
    assert _outputs(after) == _outputs(before)
    # nothing changed: nothing written
    assert _clean(after, clean_stage, other).boards_changed == BoardChanges(0, 0, 0)


def test_the_same_on_a_real_championship(shared_data, tmp_path):
    championship = shared_data("pbn", "1997-European_Team_Championship")
    before, after = f"sqlite:///{tmp_path / 'before.db'}", f"sqlite:///{tmp_path / 'after.db'}"
    for url in (before, after):
        _ingest(url, [championship])
    summary = _clean(after, clean_stage)
    assert summary == _clean(before, reference_stage)
    assert summary.kept > 1000
    assert _outputs(after) == _outputs(before)


def test_an_interrupted_run_leaves_the_previous_outputs(sources, test_data, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    _ingest(url, sources)
    _clean(url, clean_stage)
    previous = _outputs(url)
    _change_records(url, test_data, tmp_path / "copies")
    monkeypatch.setattr(clean_stage, "BATCH", 50)
    real_insert = clean_stage._insert

    def die_before_the_token_counts(conn, table, rows, chunk=20000):
        if table.name == "token_counts":  # every board and exclusion written, not committed
            raise KeyboardInterrupt
        real_insert(conn, table, rows, chunk)

    monkeypatch.setattr(clean_stage, "_insert", die_before_the_token_counts)
    other = load_settings(None, {"clean": {"infer_vulnerability_from_board": False}})
    with pytest.raises(KeyboardInterrupt):
        _clean(url, clean_stage, other)
    assert _outputs(url) == previous
    assert [run[0] for run in rows(url, StageRun.__table__)].count("clean") == 1


def _benchmark():
    """benchmarks/bench_clean.py, whose synthetic records these tests share."""
    spec = importlib.util.spec_from_file_location("bench_clean", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _heap_peaks(url: str, count: int, bench) -> tuple[float, float]:
    """The Python heap's peak (MB) of a first clean run on ``count`` tiny records (every
    board new) and of a second (every board compared, none written)."""
    engine = open_engine(url)
    bench.insert_tiny_records(engine, count, per_file=500)
    engine.dispose()
    peaks = []
    tracemalloc.start()
    try:
        for _ in range(2):
            tracemalloc.reset_peak()
            _clean(url, clean_stage)
            peaks.append(tracemalloc.get_traced_memory()[1] / 1e6)
    finally:
        tracemalloc.stop()
    return peaks[0], peaks[1]


def test_memory_does_not_grow_with_the_boards(tmp_path, monkeypatch):
    # batches of 250 records, so that a few thousand records are many batches (and the test
    # fast: tracemalloc slows the rules threefold)
    monkeypatch.setattr(clean_stage, "BATCH", 250)
    bench = _benchmark()
    _heap_peaks(f"sqlite:///{tmp_path / 'warm.db'}", 300, bench)  # imports, compiled SQL
    small = _heap_peaks(f"sqlite:///{tmp_path / 'small.db'}", 1000, bench)
    large = _heap_peaks(f"sqlite:///{tmp_path / 'large.db'}", 4000, bench)
    # The first version held about 4 KB a board (12 MB more here); what grows now is the map
    # of content keys, 21 to 43 bytes a record (0.1 MB more here).
    for before, now in zip(small, large):
        assert now < before + 0.5, (small, large)


def test_a_table_written_again_in_other_notation_is_a_copy():
    """The 1997 Venice Cup final is in two folders of the corpus: the second writes each deal
    from another seat (``W:`` for ``N:``) under another board number and date, and the 1998
    Cap Gemini bulletins write a round's tricks as ``NS 11``: the same table all the same."""
    first = {
        "deal": "N:AJ98632..AQ6.T83 Q.JT954.K8.AKJ94 KT5.AKQ732.743.7 74.86.JT952.Q652",
        "northname": "Zhang Ya", "eastname": "Letizia", "southname": "Sun", "westname": "Rosen",
        "auction": "1S 2S 3S Pass 4S Pass Pass Pass", "contract": "4S", "declarer": "N",
        "result": "11", "board": "1", "date": "1997.10.30",
    }  # fmt: skip
    again = dict(
        first,
        deal="W:74.86.JT952.Q652 AJ98632..AQ6.T83 Q.JT954.K8.AKJ94 KT5.AKQ732.743.7",
        result="NS 11",
        board="17",
        date="1997.11.01",
    )
    assert clean_stage._content_key(again) == clean_stage._content_key(first)
    # another table of the same deal is not a copy
    other = dict(first, result="10")
    assert clean_stage._content_key(other) != clean_stage._content_key(first)
