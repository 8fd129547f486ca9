"""A private PostgreSQL server for the tests marked ``postgres``.

``BRIDGERANK_TEST_POSTGRES`` may name a server's URL (a database the tests may create other
databases from). Otherwise the binaries of Debian's ``postgresql`` package, when installed,
start a throw-away server in a temporary folder on 127.0.0.1 and a free port (as the
``postgres`` user when the tests run as root: PostgreSQL refuses root). With neither, the
tests skip and say why; ``BRIDGERANK_REQUIRE_POSTGRES=1`` (set by CI) turns that into a
failure, so CI never passes by skipping them.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import processes

URL_VARIABLE = "BRIDGERANK_TEST_POSTGRES"
REQUIRE_VARIABLE = "BRIDGERANK_REQUIRE_POSTGRES"


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda path: int(path.split("/")[4])
    )
    return versions[-1] if versions else None


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when CI requires PostgreSQL."""
    message = f"no PostgreSQL server: {reason}"
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail(message)
    pytest.skip(message + f" (set {URL_VARIABLE} or install Debian's postgresql)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def private_server() -> Iterator[str]:
    """Start a server with its data in a new temporary folder; yields its URL; stops it and
    removes the folder after. (Not pytest's temporary folders: the ``postgres`` user cannot
    enter those when the tests run as root.)"""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        unavailable("initdb and pg_ctl not found")
    folder = Path(tempfile.mkdtemp(prefix="bridgerank-postgres-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data, port = folder / "data", _free_port()
    subprocess.run(
        [
            *as_user,
            initdb,
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "bridgerank",
            "--no-sync",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_user,
            pg_ctl,
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-w",
            "-o",
            f"-p {port} -h 127.0.0.1 -k {folder} -F",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    postmaster = 0
    try:
        # pg_ctl leaves the server running on its own: its pid, to see it gone after the stop
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
        processes.serving(postmaster)
        yield f"postgresql+psycopg://bridgerank@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)
        if postmaster:
            processes.serving(postmaster, False)
            _gone_or_killed(postmaster)


def _gone_or_killed(pid: int, grace: float = 30.0) -> None:
    """Wait for a stopped server to end; one still running after ``grace`` seconds is killed
    and is an error: a test session leaves no server behind."""
    deadline = time.monotonic() + grace
    while _running(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            raise RuntimeError(f"the PostgreSQL server (pid {pid}) outlived its stop: killed")
        time.sleep(0.1)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is not running
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:  # gone meanwhile; or no /proc here, and the signal said it runs
        return not Path("/proc/self").exists()


def new_database(server: str) -> str:
    """A new, empty database on the server; returns its URL."""
    import psycopg

    name = f"test_{uuid.uuid4().hex[:12]}"
    plain = server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return server.rsplit("/", 1)[0] + f"/{name}"
