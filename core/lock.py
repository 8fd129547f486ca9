"""One writer at a time: a run holds its database's lock from its first stage to its end.

A second run on the same database (a second terminal, a cron job) is refused at once with
one line that names the run holding it. The lock is one the operating system or the server
drops when its holder dies, so a killed run leaves none behind:

- SQLite: ``flock`` on ``<database>.lock`` beside the file, which holds the holder's line;
- PostgreSQL: a session-level advisory lock on a connection of its own, whose
  ``application_name`` is the holder's line (a second run reads it in ``pg_stat_activity``);
- other databases (untested): no lock.
"""

from __future__ import annotations

import datetime as _dt
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

from bridgerank.core.errors import DatabaseInUse

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: SQLite runs are then not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["run_lock"]

# The advisory lock's key: any fixed 64-bit number, the same for every bridgerank run.
_ADVISORY_KEY = 0x6272696467650001


def _holder(what: str) -> str:
    started = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"pid {os.getpid()} on {socket.gethostname()}, started {started}: {what}"


def _refuse(holder: str) -> DatabaseInUse:
    return DatabaseInUse(
        f"another bridgerank run is writing to this database ({holder.strip() or 'unknown'})",
        "Wait for it to end, or stop it; a run that was killed holds no lock",
    )


@contextmanager
def _sqlite_lock(database: Path, what: str) -> Iterator[None]:
    path = database.with_name(database.name + ".lock")
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _refuse(os.pread(descriptor, 1000, 0).decode("utf-8", "replace")) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, _holder(what).encode("utf-8"), 0)
        yield
    finally:
        os.close(descriptor)  # closing drops the lock


@contextmanager
def _postgres_lock(engine: Engine, what: str) -> Iterator[None]:
    holder = _holder(what)[:63]  # application_name's limit
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("select set_config('application_name', :name, false)"), {"name": holder})
        taken = conn.execute(text("select pg_try_advisory_lock(:key)"), {"key": _ADVISORY_KEY})
        if not taken.scalar():
            other = conn.execute(
                text(
                    "select a.application_name from pg_locks l join pg_stat_activity a "
                    "on a.pid = l.pid where l.locktype = 'advisory' and l.granted "
                    "and a.datname = current_database() and a.pid <> pg_backend_pid() limit 1"
                )
            ).scalar()
            raise _refuse(other or "")
        try:
            yield
        finally:
            conn.execute(text("select pg_advisory_unlock(:key)"), {"key": _ADVISORY_KEY})


@contextmanager
def run_lock(engine: Engine, what: str) -> Iterator[None]:
    """Hold the database's writer lock for the ``with`` block.

    Parameters
    ----------
    engine : Engine
    what : str
        What the run is (its command line), for the message another run gets.

    Raises
    ------
    DatabaseInUse
        When another run holds the lock.
    """
    database = engine.url.database
    on_file = bool(database) and database != ":memory:" and not str(database).startswith("file:")
    if engine.dialect.name == "sqlite" and fcntl is not None and on_file:
        # keyed by the file itself: a run through a symbolic link takes the same lock
        with _sqlite_lock(Path(str(database)).resolve(), what):
            yield
    elif engine.dialect.name == "postgresql":
        with _postgres_lock(engine, what):
            yield
    else:
        yield
