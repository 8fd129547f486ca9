"""The kernel of the store: the declarative base, the ledger's tables, and the engine.

Each stage package declares its own tables (its ``tables`` module) on :class:`Base`; the
kernel knows none of them. SQLite is the default (``out/bridgerank.db``). On SQLite, foreign
keys are switched on and the write-ahead log is used, so a killed process leaves the
database as it was after the last committed transaction.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from sqlalchemy import DateTime, Float, Integer, String, Text, create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of all bridgerank tables."""


def utc_now() -> _dt.datetime:
    """Now, in UTC, without a time zone (as the database stores it)."""
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)


class StageRun(Base):
    """The ledger: one row per completed stage run, written in the stage's last transaction."""

    __tablename__ = "stage_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage: Mapped[str] = mapped_column(String(16), index=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[_dt.datetime] = mapped_column(DateTime)
    finished_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utc_now)
    seconds: Mapped[float] = mapped_column(Float)
    summary: Mapped[str] = mapped_column(Text)  # JSON


class TableVersion(Base):
    """A token that changes whenever a table's content does; downstream fingerprints use it."""

    __tablename__ = "table_versions"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[str] = mapped_column(String(64))


def database_url(db: str | None, out: str | Path) -> str:
    """A SQLAlchemy URL from ``--db`` (a URL or a file path) or the default under ``out``."""
    if db and "://" in db:
        return db
    path = Path(db) if db else Path(out) / "bridgerank.db"
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def open_engine(url: str) -> Engine:
    """Create the engine, the SQLite file's folder and any missing table.

    Parameters
    ----------
    url : str
        A SQLAlchemy URL.
    """
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    Base.metadata.create_all(engine)
    return engine
