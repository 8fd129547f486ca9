"""Workers killed, and a run killed: the dds stage on a real Dask cluster whose worker is
killed in the middle of the run, and a run killed with its loky workers in full flight.

A scheduler and two workers with three threads each run on 127.0.0.1 (threads share a
process: DDS must never solve twice at once in one process, or it crashes). One worker is
killed with SIGKILL once the first chunks are committed; the run still finishes, and every
table equals a run on loky's local processes. A run killed with SIGKILL leaves no worker
computing for nobody.

The runs are watched for progress, not timed: a busy machine is slow, not stuck, so a run
fails only when it analyses no board and writes no line for ``STALL_SECONDS``. Every process
a test starts is stopped in its teardown (and conftest.py checks that none is left).
"""

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bridgerank.core.settings import resolve_path
from bridgerank.dds.analysis import BOARD_FIELDS, play_request

pytest.importorskip("distributed")
pytestmark = [pytest.mark.dask, pytest.mark.dds]

SOURCE = resolve_path("embedded:sample/1955-Bermuda_Bowl.pbn")
# Its first 48 records: 48 boards, 24 deals (the whole file, 447 boards, took 8 minutes to
# solve twice). In chunks of 2 deals that is 12 chunks, so a worker killed after the first
# commit dies with chunks in flight and the run goes on without it.
RECORDS = 48
STALL_SECONDS = 900
TABLES = (
    "dd_tables",
    "board_analysis",
    "card_analysis",
    "auction_analysis",
    "seat_stats",
    "player_stats",
    "player_rates",
)


@pytest.fixture(autouse=True)
def solve_live(request, monkeypatch):
    """The killed-worker tests are about solving on the cluster: no DD store answers there
    (the test of several writers at once brings its own store)."""
    if "store" not in request.fixturenames:
        monkeypatch.setenv("BRIDGERANK_DD_STORE", "off")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Run:
    """A ``bridgerank`` command in a process of its own, its output in a file (a pipe nobody
    reads while it runs could fill and stop it)."""

    process: subprocess.Popen
    log: Path
    database: Path

    def output(self) -> str:
        return self.log.read_text()

    def progress(self) -> tuple[int, int]:
        return _analysed(self.database), self.log.stat().st_size

    def wait(self, until_analysed: int | None = None) -> str:
        """Wait for the run to end (or to have analysed ``until_analysed`` boards); fail when
        it makes no progress for STALL_SECONDS, or ends first."""
        last, moved = self.progress(), time.monotonic()
        while until_analysed is None or _analysed(self.database) < until_analysed:
            if self.process.poll() is not None:
                assert until_analysed is None, f"the run ended first:\n{self.output()}"
                return self.output()
            if (now := self.progress()) != last:
                last, moved = now, time.monotonic()
            elif time.monotonic() - moved > STALL_SECONDS:
                self.process.kill()
                pytest.fail(f"no progress for {STALL_SECONDS} s:\n{self.output()}")
            time.sleep(0.2)
        return self.output()


@pytest.fixture
def bridgerank(tmp_path):
    """``bridgerank(*arguments, out=folder)`` starts a Run; each one still running at the end
    of the test is killed."""
    runs: list[Run] = []

    def start(*arguments: str, out: Path) -> Run:
        log = tmp_path / f"run{len(runs)}.log"
        with open(log, "w") as handle:
            process = subprocess.Popen(
                [sys.executable, "-m", "bridgerank", *arguments, "--out", str(out)],
                cwd=tmp_path,
                stdout=handle,
                stderr=subprocess.STDOUT,
            )
        runs.append(Run(process, log, out / "bridgerank.db"))
        return runs[-1]

    yield start
    for run in runs:
        if run.process.poll() is None:
            run.process.kill()
        run.process.wait()


@pytest.fixture(scope="module")
def matched(tmp_path_factory) -> Path:
    """The slice run up to the dds stage once; each test works on a copy."""
    folder = tmp_path_factory.mktemp("matched")
    records = SOURCE.read_text().split("\n\n")[:RECORDS]
    (folder / "slice.pbn").write_text("\n\n".join(records) + "\n")
    setup = subprocess.run(
        [sys.executable, "-m", "bridgerank", "run", str(folder / "slice.pbn")]
        + ["--to", "match", "--out", str(folder / "out")],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    return folder / "out"


def _copy(matched: Path, to: Path) -> Path:
    shutil.copytree(matched, to)
    return to


def _analysed(database: Path) -> int:
    try:
        with sqlite3.connect(database, timeout=1) as db:
            return db.execute("select count(*) from board_analysis").fetchone()[0]
    except sqlite3.Error:
        return 0


def _dump(database: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(database) as db:
        return {
            table: db.execute(f"select * from {table} order by 1, 2").fetchall() for table in TABLES
        }


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two workers of three threads, without nannies (a killed worker stays
    dead); yields (address, [worker processes])."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    common = {"cwd": tmp_path, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
        ],
        **common,
    )
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                address,
                "--nthreads",
                "3",
                "--no-nanny",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
            ],
            **common,
        )
        for _ in range(2)
    ]
    try:
        from distributed import Client

        # no fixed limit on a busy machine: the workers are there when they are
        with Client(address, timeout=STALL_SECONDS) as client:
            client.wait_for_workers(2, timeout=STALL_SECONDS)
        yield address, workers
    finally:
        for process in [*workers, scheduler]:
            process.kill()
            process.wait()


def test_a_killed_worker_costs_nothing_and_results_equal_loky(
    tmp_path, cluster, matched, bridgerank
):
    address, workers = cluster
    loky, dask = _copy(matched, tmp_path / "loky"), _copy(matched, tmp_path / "dask")
    reference = bridgerank("dds", "--jobs", "2", out=loky)

    settings = tmp_path / "dask.toml"
    settings.write_text(f'[dds]\nbackend = "dask"\nscheduler = "{address}"\nchunk_deals = 2\n')
    run = bridgerank("dds", "--jobs", "4", "--config", str(settings), out=dask)
    run.wait(until_analysed=1)  # the first chunk is committed
    killed_at = _analysed(run.database)
    os.kill(workers[0].pid, signal.SIGKILL)
    output = run.wait()
    assert run.process.returncode == 0, output
    assert killed_at < RECORDS  # the worker died mid-run
    assert f"dds: {RECORDS} boards analysed in" in output
    assert workers[0].wait() == -signal.SIGKILL

    reference_output = reference.wait()
    assert reference.process.returncode == 0, reference_output
    assert _dump(dask / "bridgerank.db") == _dump(loky / "bridgerank.db")


def test_workers_die_with_a_killed_run(tmp_path, matched, bridgerank):
    psutil = pytest.importorskip("psutil")
    out = _copy(matched, tmp_path / "out")
    settings = tmp_path / "small_chunks.toml"
    settings.write_text("[dds]\nchunk_deals = 2\n")  # 12 chunks: work left after the first
    run = bridgerank("dds", "--jobs", "2", "--config", str(settings), out=out)
    run.wait(until_analysed=1)
    workers = psutil.Process(run.process.pid).children(recursive=True)
    assert workers, "the run has no worker processes"
    run.process.kill()  # kill -9: the run gets no chance to stop its workers
    run.process.wait()
    # a grace to notice, not a time limit on the work: an orphan computes for nobody
    gone, alive = psutil.wait_procs(workers, timeout=60)
    for worker in alive:
        worker.kill()
    assert not alive, f"orphaned workers still computing: {alive}"


@pytest.fixture
def store(tmp_path, monkeypatch) -> Path:
    """An empty DD store every run of the test uses: marked as having read the shipped
    tables, so each table the runs need is solved and written by them."""
    from bridgerank.dds.dd_store import DDStore
    from bridgerank.dds.shipped import read_shipped
    from bridgerank.dds.solver import solver_version

    path = tmp_path / "dd-store.sqlite"
    DDStore(str(path), solver_version()).set_info(f"shipped {read_shipped().digest}", "skipped")
    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(path))
    return path


def test_two_runs_and_a_cluster_writing_at_once_lose_nothing_and_repeat_nothing(
    tmp_path, matched, bridgerank, cluster, store
):
    """Three databases of the same boards, their dds stages run at once - two on loky, one
    on a scheduler with two workers - all writing the same store."""
    address, _ = cluster
    settings = tmp_path / "dask.toml"
    settings.write_text(f'[dds]\nbackend = "dask"\nscheduler = "{address}"\nchunk_deals = 2\n')
    small = tmp_path / "small.toml"
    small.write_text("[dds]\nchunk_deals = 2\n")
    outs = [_copy(matched, tmp_path / name) for name in ("one", "two", "dask")]
    runs = [
        bridgerank("dds", "--config", str(small), out=outs[0]),
        bridgerank("dds", "--config", str(small), out=outs[1]),
        bridgerank("dds", "--jobs", "2", "--config", str(settings), out=outs[2]),
    ]
    for run in runs:
        output = run.wait()
        assert run.process.returncode == 0, output
        assert "warning" not in output, output
    with sqlite3.connect(store) as db:
        tables = db.execute("select deal, tricks from dd_tables").fetchall()
        traces = db.execute("select deal, trump, leader, cards, trace from dd_traces").fetchall()
        pars = db.execute("select deal, dealer, vulnerable from dd_pars").fetchall()
    # no duplicate: one row a key (the keys are the deals, the plays, the par's questions)
    assert len({deal for deal, _ in tables}) == len(tables) == 24
    assert len({row[:4] for row in traces}) == len(traces) > 0
    assert len(set(pars)) == len(pars) > 0
    # no loss: every table and play every database holds is in the store, with its value
    stored = dict(tables)
    for out in outs:
        with sqlite3.connect(out / "bridgerank.db") as db:
            held = db.execute(
                "select distinct b.deal, t.tricks from boards b "
                "join dd_tables t on t.deal_hash = b.deal_hash"
            ).fetchall()
            db.row_factory = sqlite3.Row
            boards = db.execute(f"select {', '.join(BOARD_FIELDS)} from boards").fetchall()
        plays = {request for board in boards if (request := play_request(dict(board)))}
        assert dict(held) == {deal: stored[deal] for deal, _ in held} and len(held) == 24
        assert {(p.deal, p.trump, "NESW"[p.leader], " ".join(p.cards)) for p in plays} == {
            row[:4] for row in traces
        }
    assert _dump(outs[0] / "bridgerank.db") == _dump(outs[1] / "bridgerank.db")
    assert _dump(outs[0] / "bridgerank.db") == _dump(outs[2] / "bridgerank.db")
