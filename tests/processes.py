"""No test leaves a process behind (read from /proc: Linux only; elsewhere nothing is checked).

A process of the test session is one descended from it, or one carrying the session's token
in its environment (``BRIDGERANK_TEST_SESSION``, set when the session starts and inherited by
every process it starts): the token finds the orphans too, a killed run's workers or a server
that daemonised. conftest.py checks after every test that the test left none running, and at
the end of the session that none is left at all; what it finds is killed, so one test's
leftovers cannot fail the next, and the test (or the session) fails and names them.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TOKEN_VARIABLE = "BRIDGERANK_TEST_SESSION"
# How long a process told to stop may take to be gone. Only waited for when a process is
# still there after its test; generous, as a busy machine can be slow to end a process.
GRACE_SECONDS = 30.0

# What outlives a test on purpose, when the test session itself started it: loky's reusable
# pool (the dds stage keeps its workers for the next run; the session shuts it down at the end)
# and the resource trackers of loky and multiprocessing (they end with the interpreter).
_POOL = "joblib.externals.loky.backend.popen_loky_posix"
_TRACKER = "resource_tracker import main"
# Servers that a fixture broader than a test holds (the private PostgreSQL server), and so
# their own children: a test may start one without asking for it beforehand (getfixturevalue).
_SERVING: set[int] = set()


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    started: int  # clock ticks after boot: a reused pid is another process
    command: str

    @property
    def key(self) -> tuple[int, int]:
        return self.pid, self.started

    def __str__(self) -> str:
        return f"pid {self.pid}: {self.command[:200]}"


def available() -> bool:
    return (PROC / "self" / "stat").exists()


def start_session() -> None:
    """Tag this session: every process it starts from now on inherits the token."""
    os.environ[TOKEN_VARIABLE] = uuid.uuid4().hex


def _bytes(pid: int, name: str, whole: bool = True) -> bytes | None:
    """A file of /proc/<pid>, or None once the process is gone. (os.read: a pathlib read
    costs five times as much, and the whole table is read twice per test.)"""
    try:
        handle = os.open(f"/proc/{pid}/{name}", os.O_RDONLY)
    except OSError:
        return None
    try:
        chunks = []
        while chunk := os.read(handle, 65536):
            chunks.append(chunk)
            if not whole:
                break
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(handle)


def _read(pid: int) -> tuple[int, str, int] | None:
    """(parent, state, start time) of a process, or None once it is gone."""
    data = _bytes(pid, "stat", whole=False)
    if not data:
        return None
    fields = data[data.rindex(b")") + 2 :].split()
    return int(fields[1]), fields[0].decode(), int(fields[19])


def _command(pid: int) -> str:
    data = _bytes(pid, "cmdline")
    return data.replace(b"\0", b" ").decode(errors="replace").strip() if data else "?"


_TAGGED: dict[tuple[int, int], bool] = {}  # a process's environment is fixed at its start


def _tagged(pid: int, started: int, tag: bytes) -> bool:
    if (pid, started) not in _TAGGED:
        _TAGGED[pid, started] = tag in (_bytes(pid, "environ") or b"")
    return _TAGGED[pid, started]


def ours() -> list[Process]:
    """The running processes of this session (zombies are not running), itself excepted."""
    me = os.getpid()
    token = os.environ.get(TOKEN_VARIABLE)
    tag = f"\0{TOKEN_VARIABLE}={token}\0".encode() if token else None
    table: dict[int, tuple[int, str, int]] = {}
    for entry in os.scandir(PROC):
        if entry.name.isdigit() and (stat := _read(int(entry.name))) and stat[1] not in "ZX":
            table[int(entry.name)] = stat
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [me]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    if tag:
        found |= {
            pid
            for pid in table
            if pid != me and pid not in found and _tagged(pid, table[pid][2], tag)
        }
    return [Process(pid, table[pid][0], table[pid][2], _command(pid)) for pid in sorted(found)]


def serving(pid: int, serves: bool = True) -> None:
    """Say that a server outlives the tests (``serves``), or no longer does: once stopped, it
    must be gone by the session's end like any other process."""
    if serves:
        _SERVING.add(pid)
    else:
        _SERVING.discard(pid)


def kept(process: Process, between_tests: bool = True) -> bool:
    """A process meant to outlive a test (``between_tests``: a server of the session and its
    children, the session's own pool of workers) or the session (its resource trackers)."""
    if between_tests and (process.pid in _SERVING or process.parent in _SERVING):
        return True
    if process.parent != os.getpid():
        return False
    return _TRACKER in process.command or (between_tests and _POOL in process.command)


def left_running(processes: list[Process], grace: float = GRACE_SECONDS) -> list[Process]:
    """Those of ``processes`` still running after up to ``grace`` seconds."""
    deadline = time.monotonic() + grace
    while True:
        alive = [p for p in processes if _running(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


def _running(process: Process) -> bool:
    stat = _read(process.pid)
    return stat is not None and stat[2] == process.started and stat[1] not in "ZX"


def kill(processes: list[Process]) -> None:
    for process in processes:
        try:
            os.kill(process.pid, signal.SIGKILL)
        except OSError:
            pass
