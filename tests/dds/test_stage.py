"""The dds stage end to end on small real slices: reruns, resume, crashes, Dask, bad plays."""

import os
import sqlite3

import pytest
from click.testing import CliRunner
from joblib.externals.loky import get_reusable_executor
from sqlalchemy import select, update

from bridgerank.cleaning.clean.tables import Board
from bridgerank.core.store import open_engine
from bridgerank.dds import stage as dds_stage
from bridgerank.dds.workers import CRASH_ENV
from bridgerank.pipeline.cli import main
from tests.paths import TEST_DATA

pytestmark = pytest.mark.dds

SLICE = TEST_DATA / "bermuda1955_head.pbn"  # 12 records, 6 deals


def _run(out, *args):
    """``bridgerank run`` up to the dds stage (or ``--to`` where ``args`` say): what these
    tests check is written by dds; the stages after it would only cost time."""
    stop = [] if "--to" in args else ["--to", "dds"]
    result = CliRunner().invoke(
        main, ["run", *map(str, args), *stop, "--out", str(out), "--verbose"]
    )
    assert result.exit_code == 0, result.output
    return result.output


def _db(out):
    return sqlite3.connect(out / "bridgerank.db")


def _stats(out):
    with _db(out) as db:
        return db.execute("select * from player_stats order by player").fetchall()


@pytest.fixture(autouse=True)
def solve_live(monkeypatch):
    """These tests are about solving (chunks, crashes, resuming): no DD store answers for the
    solver here (tests/dds/test_stage_store.py tests the store in the stage)."""
    monkeypatch.setenv("BRIDGERANK_DD_STORE", "off")


@pytest.fixture(autouse=True)
def fresh_workers():
    """Worker processes are spawned per test, with the environment the test sets."""
    get_reusable_executor().shutdown(wait=True)
    yield
    get_reusable_executor().shutdown(wait=True)


def test_slice_then_rerun_then_new_boards(tmp_path):
    output = _run(tmp_path, SLICE)
    assert "dds: 12 boards analysed in" in output
    assert "(0 skipped, 0 failed), 0 done before; " in output
    assert "tables: 0 from the DD store, 6 solved; play traces: 0 from it, 8 solved" in output
    with _db(tmp_path) as db:
        cards = db.execute("select count(*) from card_analysis").fetchone()[0]
        played = db.execute("select sum(length(play_order)) from boards").fetchone()[0]
        seats = db.execute("select count(*) from seat_stats").fetchone()[0]
        schapiro = db.execute(
            "select auctions_analyzed, leads, cards_played_as_declarer + "
            "cards_played_as_defender from player_stats "
            "where player = 'Boris Schapiro'"
        ).fetchone()
    assert cards == played and seats == 48
    assert schapiro[0] == 6  # he sat in the open room of all 6 boards
    assert "dds: up to date" in _run(tmp_path)
    more = _run(tmp_path, TEST_DATA / "vugraph-00070.lin")
    assert "32 boards analysed in" in more and "12 done before" in more


def test_interrupted_run_resumes_from_the_last_chunk(tmp_path, monkeypatch):
    settings = tmp_path / "small_chunks.toml"
    settings.write_text("[dds]\nchunk_deals = 2\n")
    _run(tmp_path, SLICE, "--to", "match")
    real = dds_stage._commit_chunk
    committed = []

    def commit_then_stop(engine, result, digests):
        if committed:
            raise KeyboardInterrupt
        real(engine, result, digests)
        committed.append(result.number)

    monkeypatch.setattr(dds_stage, "_commit_chunk", commit_then_stop)
    stopped = CliRunner().invoke(main, ["run", "--out", str(tmp_path), "--config", str(settings)])
    assert stopped.exit_code == 130
    with _db(tmp_path) as db:
        done = db.execute("select count(*) from board_analysis").fetchone()[0]
    assert 0 < done < 12
    # what was kept, counted, and a resume command with every option the run had
    assert f"interrupted during dds; kept: {done} boards analysed" in stopped.output
    resume = f"Resume with: bridgerank run --from dds --out {tmp_path} --config {settings}"
    assert resume in " ".join(stopped.output.split())
    monkeypatch.setattr(dds_stage, "_commit_chunk", real)
    resumed = _run(tmp_path, "--config", settings)
    assert f"{12 - done} boards analysed in" in resumed and f"{done} done before" in resumed
    other = tmp_path / "uninterrupted"
    _run(other, SLICE, "--config", settings)
    assert _stats(tmp_path) == _stats(other)


def test_a_worker_crash_costs_only_its_chunk(tmp_path, monkeypatch):
    settings = tmp_path / "small_chunks.toml"
    settings.write_text("[dds]\nchunk_deals = 2\n")
    _run(tmp_path, SLICE, "--to", "match")
    monkeypatch.setenv(CRASH_ENV, "1")  # the worker that gets board 1 dies, every time
    output = _run(tmp_path, "--config", settings)
    with _db(tmp_path) as db:
        rows = dict(db.execute("select board_id, status from board_analysis"))
        reason = db.execute("select reason from board_analysis where board_id = 1").fetchone()[0]
        chunk_mates = db.execute(
            "select count(*) from boards where deal_hash = "
            "(select deal_hash from boards where id = 1)"
        ).fetchone()[0]
    failed = [board for board, status in rows.items() if status == "failed"]
    assert len(rows) == 12 and 1 in failed
    assert chunk_mates <= len(failed) <= 4  # the chunk of 2 deals, nothing else
    assert reason.startswith("worker died 2 times")
    assert "failed" in output


def test_boards_whose_worker_died_are_analysed_by_the_next_run(tmp_path, monkeypatch):
    settings = tmp_path / "small_chunks.toml"
    settings.write_text("[dds]\nchunk_deals = 2\n")
    _run(tmp_path, SLICE, "--to", "match")
    monkeypatch.setenv(CRASH_ENV, "1")
    _run(tmp_path, "--config", settings)
    with _db(tmp_path) as db:
        lost = db.execute("select count(*) from board_analysis where status = 'failed'")
        lost = lost.fetchone()[0]
    assert lost >= 1
    status = CliRunner().invoke(main, ["status", "--out", str(tmp_path), "--config", settings])
    dds_line = next(line for line in status.output.splitlines() if line.startswith("dds"))
    assert "incomplete" in dds_line and f"{lost} boards whose worker died" in dds_line
    assert f"failed: {lost} worker died" in dds_line

    monkeypatch.delenv(CRASH_ENV)  # the node is healthy again: a plain rerun heals
    get_reusable_executor().shutdown(wait=True)
    output = _run(tmp_path, "--config", settings)
    assert f"dds: {lost} board{'s' if lost != 1 else ''} analysed in" in output
    with _db(tmp_path) as db:
        statuses = dict(db.execute("select status, count(*) from board_analysis group by status"))
    assert statuses == {"ok": 12}
    assert "dds: up to date" in _run(tmp_path, "--config", settings)


# slow: tests/dds/test_dask_cluster.py compares a whole database made on a real cluster (with a
# worker killed mid-run) with loky's, a superset of this check; run with -m slow
@pytest.mark.slow
@pytest.mark.dask
def test_dask_cluster_gives_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    loky_run = tmp_path / "loky"
    _run(loky_run, SLICE, "--jobs", "2")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        settings = tmp_path / "dask.toml"
        settings.write_text(
            f'[dds]\nbackend = "dask"\nscheduler = "{cluster.scheduler_address}"\nchunk_deals = 2\n'
        )
        dask_run = tmp_path / "dask"
        output = _run(dask_run, SLICE, "--config", settings, "--jobs", "2")
    assert "12 boards analysed in" in output and "(0 skipped, 0 failed)" in output
    assert _stats(dask_run) == _stats(loky_run)


def test_a_play_dds_cannot_follow_is_recorded_not_fatal(tmp_path):
    _run(tmp_path, SLICE, "--to", "match")
    engine = open_engine(f"sqlite:///{tmp_path / 'bridgerank.db'}")
    with engine.begin() as conn:  # corrupt a stored play behind the cleaner's back
        board_id, play = conn.execute(
            select(Board.id, Board.play).where(Board.play != "").limit(1)
        ).one()
        conn.execute(
            update(Board).where(Board.id == board_id).values(play=" ".join(reversed(play.split())))
        )
    engine.dispose()
    output = _run(tmp_path)
    assert "12 boards analysed in" in output and "(0 skipped, 0 failed)" in output
    with _db(tmp_path) as db:
        status, reason, has_play, has_auction = db.execute(
            "select status, reason, has_play, has_auction from board_analysis where board_id = ?",
            (board_id,),
        ).fetchone()
    assert status == "ok" and not has_play and has_auction and reason.startswith("DDS play")


def test_two_jobs_equal_one(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    _run(one, SLICE, "--jobs", "1")
    _run(two, SLICE, "--jobs", "2")
    assert _stats(one) == _stats(two)
    assert os.path.exists(two / "bridgerank.db")
