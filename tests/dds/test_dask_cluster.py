"""Workers killed, and a run killed: the dds stage on a real Dask cluster whose worker is
killed in the middle of the run, and a run killed with its loky workers in full flight.

A scheduler and two workers with three threads each run on 127.0.0.1 (threads share a
process: DDS must never solve twice at once in one process, or it crashes). One worker is
killed with SIGKILL once the first chunks are committed; the run still finishes, and every
table equals a run on loky's local processes. A run killed with SIGKILL leaves no worker
computing for nobody.
"""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bridgerank.core.settings import resolve_path

pytest.importorskip("distributed")

SOURCE = resolve_path("embedded:sample/1955-Bermuda_Bowl.pbn")  # 447 boards, 224 deals
TABLES = (
    "dd_tables",
    "board_analysis",
    "card_analysis",
    "auction_analysis",
    "seat_stats",
    "player_stats",
    "player_rates",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _bridgerank(*arguments: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "bridgerank", *arguments],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


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

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for process in [*workers, scheduler]:
            process.kill()
            process.wait()


def test_a_killed_worker_costs_nothing_and_results_equal_loky(tmp_path, cluster):
    address, workers = cluster
    loky, dask = tmp_path / "loky", tmp_path / "dask"
    for out in (loky, dask):
        setup = _bridgerank("run", str(SOURCE), "--to", "match", "--out", str(out), cwd=tmp_path)
        assert setup.communicate()[0] and setup.returncode == 0
    reference = _bridgerank("dds", "--jobs", "2", "--out", str(loky), cwd=tmp_path)

    settings = tmp_path / "dask.toml"
    settings.write_text(f'[dds]\nbackend = "dask"\nscheduler = "{address}"\nchunk_deals = 4\n')
    run = _bridgerank(
        "dds", "--jobs", "4", "--config", str(settings), "--out", str(dask), cwd=tmp_path
    )
    deadline = time.monotonic() + 300
    while _analysed(dask / "bridgerank.db") == 0:
        assert run.poll() is None and time.monotonic() < deadline, "no chunk was committed"
        time.sleep(0.1)
    killed_at = _analysed(dask / "bridgerank.db")
    os.kill(workers[0].pid, signal.SIGKILL)
    output = run.communicate(timeout=600)[0]
    assert run.returncode == 0, output
    assert killed_at < 447  # the worker died mid-run
    assert "dds: 447 boards analysed in" in output
    assert workers[0].wait(timeout=10) == -signal.SIGKILL

    reference_output = reference.communicate(timeout=600)[0]
    assert reference.returncode == 0, reference_output
    assert _dump(dask / "bridgerank.db") == _dump(loky / "bridgerank.db")


def test_workers_die_with_a_killed_run(tmp_path):
    psutil = pytest.importorskip("psutil")
    setup = _bridgerank("run", str(SOURCE), "--to", "match", "--out", str(tmp_path), cwd=tmp_path)
    assert setup.communicate()[0] and setup.returncode == 0
    run = _bridgerank("dds", "--jobs", "2", "--out", str(tmp_path), cwd=tmp_path)
    deadline = time.monotonic() + 300
    while _analysed(tmp_path / "bridgerank.db") == 0:
        assert run.poll() is None and time.monotonic() < deadline, "no chunk was committed"
        time.sleep(0.1)
    workers = psutil.Process(run.pid).children(recursive=True)
    assert workers, "the run has no worker processes"
    run.kill()  # kill -9: the run gets no chance to stop its workers
    run.communicate()
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"orphaned workers still computing: {alive}"
