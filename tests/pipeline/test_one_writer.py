"""One writer at a time: a second run on a database another run is writing to is refused
with one line that names the other run; a killed run leaves no lock behind."""

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from bridgerank.core.lock import run_lock
from bridgerank.core.store import open_engine
from bridgerank.pipeline.cli import main

_HOLD = (
    "import sys, time\n"
    "from bridgerank.core.lock import run_lock\n"
    "from bridgerank.core.store import open_engine\n"
    "with run_lock(open_engine(sys.argv[1]), 'the cron job'):\n"
    "    print('locked', flush=True)\n"
    "    time.sleep(600)\n"
)


def _second_run(url: str, out) -> list[str]:
    result = CliRunner().invoke(main, ["clean", "--db", url, "--out", str(out)])
    assert result.exit_code == 4, result.output
    return result.output.strip().splitlines()


def _check_refusal_and_release(url: str, out) -> None:
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, url], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        error, hint = _second_run(url, out)
        assert error.startswith("error: another bridgerank run is writing to this database (")
        assert f"pid {holder.pid} on " in error and "the cron job" in error
        assert hint.startswith("Wait for it to end, or stop it")
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # killed: the lock must go with it
        holder.wait()
        holder.stdout.close()
    deadline = time.monotonic() + 10
    while True:  # a killed process's lock is released by the OS (or the server) at once
        result = CliRunner().invoke(main, ["status", "--db", url, "--out", str(out)])
        engine = open_engine(url)
        try:
            with run_lock(engine, "the test"):
                break
        except Exception:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        finally:
            engine.dispose()
    # status answers (1: the killed run left stages behind), it is not refused by a lock
    assert result.exit_code in (0, 1) and "stage    state" in result.output, result.output


def test_a_second_run_on_sqlite_is_refused_and_a_killed_one_holds_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'bridgerank.db'}"
    open_engine(url).dispose()
    _check_refusal_and_release(url, tmp_path)


def test_a_run_through_a_symbolic_link_takes_the_same_lock(tmp_path):
    """Review 4's defect 7: the lock is the file's, not the path's as typed."""
    database = tmp_path / "real" / "bridgerank.db"
    database.parent.mkdir()
    open_engine(f"sqlite:///{database}").dispose()
    link = tmp_path / "elsewhere" / "link.db"
    link.parent.mkdir()
    link.symlink_to(database)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, f"sqlite:///{database}"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        error, _ = _second_run(f"sqlite:///{link}", link.parent)
        assert f"pid {holder.pid} on " in error
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
        holder.stdout.close()
    assert not (link.parent / "link.db.lock").exists()


@pytest.mark.postgres
def test_a_second_run_on_postgresql_is_refused_and_a_killed_one_holds_nothing(
    postgres_url, tmp_path
):
    open_engine(postgres_url).dispose()
    _check_refusal_and_release(postgres_url, tmp_path)
