"""The ingest stage's tables: the files read and their records verbatim."""

from __future__ import annotations

import datetime as _dt

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.cleaning.ingest.records import RAW_FIELDS
from bridgerank.core.store import Base, utc_now


class SourceFile(Base):
    """One input file, identified by the SHA-256 of its bytes (so a copy is the same file).

    ``path`` is the absolute path it was first read from (what later stages open);
    ``name`` is how pages show it, relative to the folder the user gave.
    """

    __tablename__ = "source_files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text)
    name: Mapped[str | None] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    format: Mapped[str] = mapped_column(String(8))
    size: Mapped[int] = mapped_column(Integer)
    encoding: Mapped[str | None] = mapped_column(String(16))
    records: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16))  # ingested | empty (no records in it)
    ingested_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utc_now)


class RawBoard(Base):
    """A record exactly as its file had it: one column per raw field, plus where it was."""

    __tablename__ = "raw_boards"
    __table_args__ = (UniqueConstraint("source_id", "record_no"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("source_files.id"), index=True)
    record_no: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    play_layout: Mapped[str] = mapped_column(String(8))
    parse_error: Mapped[str | None] = mapped_column(Text)
    extra: Mapped[str | None] = mapped_column(Text)  # JSON of source fields with no column


for _field in RAW_FIELDS:
    setattr(RawBoard, _field, mapped_column(_field, Text, nullable=True))


class SkippedFile(Base):
    """A file found in a folder and not ingested, with why (a named file that cannot be read
    fails the run instead)."""

    __tablename__ = "skipped_files"
    path: Mapped[str] = mapped_column(Text, primary_key=True)
    reason: Mapped[str] = mapped_column(Text)
    seen_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utc_now)


class PendingIngest(Base):
    """Sources of an ingest that started and has not finished: a plain rerun resumes them."""

    __tablename__ = "pending_ingest"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sources: Mapped[str] = mapped_column(Text)  # JSON list of paths
    started_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utc_now)
