"""The dds stage with the DD store: a deal solved once for every database, a fresh install
solving no table of the public archives, and a store in trouble costing only a warning."""

import re
import sqlite3

import pytest
from click.testing import CliRunner

from bridgerank.dds.dd_store import DDStore
from bridgerank.dds.shipped import read_shipped
from bridgerank.dds.solver import solver_version
from bridgerank.pipeline.cli import main
from tests.paths import TEST_DATA

pytestmark = pytest.mark.dds

SOURCES = (TEST_DATA / "bermuda1955_head.pbn", TEST_DATA / "vugraph-00070.lin")
VERDICTS = ("board_analysis", "card_analysis", "auction_analysis", "table_evidence", "seat_stats")


def _run(out, *args, env=None):
    result = CliRunner().invoke(
        main, ["run", *map(str, args), "--to", "dds", "--out", str(out), "--verbose"], env=env
    )
    assert result.exit_code == 0, result.output
    return result


def _dump(out, tables=VERDICTS):
    with sqlite3.connect(out / "bridgerank.db") as db:
        return {
            table: db.execute(f"select * from {table} order by 1, 2").fetchall() for table in tables
        }


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A fresh install's store: empty, the shipped tables not read yet."""
    path = tmp_path / "store" / "dd-store.sqlite"
    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(path))
    return path


def test_a_second_database_of_the_same_sources_solves_nothing(tmp_path, store):
    first = _run(tmp_path / "a", *SOURCES).output
    # a fresh install: every table is shipped; the plays are solved, once (the one play that
    # stops after the lead is valued with every other lead of its deal, strain and leader)
    first = " ".join(first.split())  # the summary's lines, unwrapped
    assert (
        "tables: 22 from the DD store, 0 solved; play traces: 0 from it, 39 solved; "
        "opening leads: 0 from it, 1 solved"
    ) in first
    second = " ".join(_run(tmp_path / "b", *SOURCES).output.split())
    assert (
        "tables: 22 from the DD store, 0 solved; play traces: 39 from it, 0 solved; "
        "opening leads: 1 from it, 0 solved"
    ) in second
    assert _dump(tmp_path / "a") == _dump(tmp_path / "b")
    status = CliRunner().invoke(main, ["status", "--out", str(tmp_path / "b")]).output
    assert "play traces: 39 from it, 0 solved; opening leads: 1 from it" in " ".join(status.split())


def test_values_from_the_store_equal_values_solved_live(tmp_path, store):
    _run(tmp_path / "stored", *SOURCES)
    _run(tmp_path / "stored", *SOURCES)
    live = _run(tmp_path / "live", *SOURCES, env={"BRIDGERANK_DD_STORE": "off"}).output
    live = " ".join(live.split())  # the summary's lines, unwrapped
    assert (
        "tables: 0 from the DD store, 22 solved; play traces: 0 from it, 39 solved; "
        "opening leads: 0 from it, 1 solved"
    ) in live
    assert "solved (store: off)" in live
    assert _dump(tmp_path / "stored") == _dump(tmp_path / "live")


def test_off_leaves_the_store_untouched(tmp_path, store):
    _run(tmp_path / "live", *SOURCES, env={"BRIDGERANK_DD_STORE": "off"})
    assert not store.exists()


def test_a_corrupt_store_is_one_warning_and_the_run_solves(tmp_path, store):
    store.parent.mkdir()
    store.write_bytes(b"\x00garbage" * 1000)
    result = _run(tmp_path / "out", *SOURCES)
    # one warning (wrapped to the terminal's width like every line the run prints), beside
    # the solver's progress lines where a loaded machine makes it slow enough to print them
    shown = " ".join(result.stderr.split())
    progress = (
        r"dds: [\d,]+ of [\d,]+ boards \(\d+%\), [\d.,]+ boards/(s|min), "
        r"(time left not known yet|about [\d.]+ (s|min|h) left) ?"
    )
    assert re.sub(progress, "", shown).strip() == (
        f"warning: the DD store at {store} cannot be opened (file is not a database); "
        "solving without it"
    )
    assert "tables: 0 from the DD store, 22 solved" in result.stdout
    assert store.read_bytes() == b"\x00garbage" * 1000


def test_moving_the_store_reruns_nothing(tmp_path, store):
    _run(tmp_path / "out", *SOURCES)
    dry = CliRunner().invoke(
        main,
        ["run", "--to", "dds", "--dry-run", "--out", str(tmp_path / "out")],
        env={"BRIDGERANK_DD_STORE": str(tmp_path / "elsewhere.sqlite")},
    )
    assert dry.exit_code == 0, dry.output
    assert "0 of 4 stages would run" in dry.output


def test_the_quick_start_on_a_fresh_install_solves_no_table(tmp_path, store):
    """The README's `bridgerank run` on the embedded sample, with an empty store."""
    result = CliRunner().invoke(main, ["run", "--out", str(tmp_path / "out"), "--verbose"])
    assert result.exit_code == 0, result.output
    assert "tables: 289 from the DD store, 0 solved" in " ".join(result.output.split())
    solver = solver_version()
    assert DDStore(str(store), solver).counts().tables == len(read_shipped().tables)


def test_the_public_archives_solve_no_table_on_a_fresh_install(tmp_path, store, shared_data):
    """The shipped tables cover every deal of the vugraph files, the club recaps and a
    championship of Valet (the corpus's are covered by `benchmarks/bench_dds.py --fresh`)."""
    sources = (
        shared_data("lin"),
        shared_data("acbl", "results"),
        shared_data("travellers", "valet", "2009-World", "Men"),
    )
    result = _run(tmp_path / "out", *sources, "--jobs", "2")
    words = " ".join(result.output.split())  # the summary's lines, unwrapped
    assert re.search(r"tables: [1-9][\d,]* from the DD store, 0 solved; play traces", words), words
