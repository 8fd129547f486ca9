"""The database: SQLAlchemy 2 models of every table, and the engine.

SQLite is the default (``out/bridgerank.db``); any SQLAlchemy URL works. On SQLite, foreign
keys are switched on and the write-ahead log is used, so a killed process leaves the
database as it was after the last committed transaction.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from cleaning.records import RAW_FIELDS


class Base(DeclarativeBase):
    """Declarative base of all bridgerank tables."""


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)


class SourceFile(Base):
    """One input file, identified by the SHA-256 of its bytes (so a copy is the same file).

    ``path`` is where it was first read from.
    """

    __tablename__ = "source_files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    format: Mapped[str] = mapped_column(String(8))
    size: Mapped[int] = mapped_column(Integer)
    encoding: Mapped[str | None] = mapped_column(String(16))
    records: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16))  # ingested | empty (no records in it)
    ingested_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)


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


class Board(Base):
    """A clean board (thesis Table 2 and more). ``id`` is the raw record's id."""

    __tablename__ = "boards"
    id: Mapped[int] = mapped_column(ForeignKey("raw_boards.id"), primary_key=True)
    board_key: Mapped[str] = mapped_column(String(16), unique=True)
    deal_hash: Mapped[str] = mapped_column(String(16), index=True)
    event: Mapped[str] = mapped_column(Text)
    site: Mapped[str] = mapped_column(Text)
    date: Mapped[str] = mapped_column(Text)
    year: Mapped[int | None] = mapped_column(Integer)
    board_no: Mapped[int | None] = mapped_column(Integer)
    room: Mapped[str] = mapped_column(Text)
    home_team: Mapped[str] = mapped_column(Text)
    visit_team: Mapped[str] = mapped_column(Text)
    scoring: Mapped[str] = mapped_column(Text)
    north: Mapped[str] = mapped_column(Text)
    east: Mapped[str] = mapped_column(Text)
    south: Mapped[str] = mapped_column(Text)
    west: Mapped[str] = mapped_column(Text)
    deal: Mapped[str] = mapped_column(Text)
    ns_vulnerable: Mapped[bool | None] = mapped_column(Boolean)
    ew_vulnerable: Mapped[bool | None] = mapped_column(Boolean)
    bidstart: Mapped[str] = mapped_column(String(1))
    auction: Mapped[str] = mapped_column(Text)  # canonical calls, "" when blanked
    contract: Mapped[str] = mapped_column(String(4))  # LS[X|R], P, or ""
    declarer: Mapped[str] = mapped_column(String(1))  # N E S W, P, or ""
    lead: Mapped[str] = mapped_column(String(1))
    play: Mapped[str] = mapped_column(Text)  # cards in playing order, "" when blanked
    play_order: Mapped[str] = mapped_column(Text)  # seat letter of each card
    claim: Mapped[int | None] = mapped_column(Integer)  # declarer side's tricks after a claim
    result: Mapped[int | None] = mapped_column(Integer)


class Exclusion(Base):
    """Why a record, or its auction or play, was dropped; also notes on inferred values."""

    __tablename__ = "exclusions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    raw_id: Mapped[int] = mapped_column(ForeignKey("raw_boards.id"), index=True)
    level: Mapped[str] = mapped_column(String(8))  # board | auction | play | note
    reason: Mapped[str] = mapped_column(String(40), index=True)
    detail: Mapped[str] = mapped_column(Text)


class WbfPlayer(Base):
    """One player of the WBF ranking lists the match stage read."""

    __tablename__ = "wbf_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    country: Mapped[str] = mapped_column(Text)
    mp: Mapped[float | None] = mapped_column(Float)  # open masterpoints
    pp: Mapped[float | None] = mapped_column(Float)  # open placing points
    source: Mapped[str] = mapped_column(Text)  # file and line
    code: Mapped[str | None] = mapped_column(String(16))  # WBF player code, where known


class Player(Base):
    """One distinct person: a WBF player when matched, else the normalised raw name."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(8))  # wbf | raw | robot | handle
    wbf_id: Mapped[int | None] = mapped_column(ForeignKey("wbf_players.id"), unique=True)
    seats: Mapped[int] = mapped_column(Integer)  # board-seats played under any matched name


class NameMatch(Base):
    """The audit trail of name matching: one row per distinct raw name in ``boards``."""

    __tablename__ = "name_matches"
    raw_name: Mapped[str] = mapped_column(Text, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    wbf_id: Mapped[int | None] = mapped_column(ForeignKey("wbf_players.id"))
    # exact | alternative | tuple | surname only | fuzzy-token | fuzzy-tiebreak | ambiguous |
    # no candidate | robot | handle
    reason: Mapped[str] = mapped_column(String(16), index=True)
    score: Mapped[str | None] = mapped_column(Text)  # the score tuple, as text
    runner_up: Mapped[str | None] = mapped_column(Text)  # best other WBF name
    runner_up_score: Mapped[str | None] = mapped_column(Text)
    seats: Mapped[int] = mapped_column(Integer)  # board-seats with this raw name


class DDTable(Base):
    """One double dummy table per distinct deal, reused by every board and every run."""

    __tablename__ = "dd_tables"
    deal_hash: Mapped[str] = mapped_column(String(16), primary_key=True)
    # 20 hex digits: strains S H D C N, each for North East South West; NULL if unsolved.
    tricks: Mapped[str | None] = mapped_column(String(20))
    error: Mapped[str | None] = mapped_column(Text)


_CASCADE = {"ondelete": "CASCADE"}


class BoardAnalysis(Base):
    """Which boards the dds stage has done, with what input, and how it went."""

    __tablename__ = "board_analysis"
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", **_CASCADE), primary_key=True)
    digest: Mapped[str] = mapped_column(String(16))  # of the board fields and analysis code
    status: Mapped[str] = mapped_column(String(8))  # ok | skipped | failed
    reason: Mapped[str] = mapped_column(Text)
    has_play: Mapped[bool] = mapped_column(Boolean)
    has_auction: Mapped[bool] = mapped_column(Boolean)


class CardAnalysis(Base):
    """One row per card played: the double dummy verdict on it."""

    __tablename__ = "card_analysis"
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", **_CASCADE), primary_key=True)
    card_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1))
    role: Mapped[str] = mapped_column(String(8))  # lead | declarer | dummy | defender
    card: Mapped[str] = mapped_column(String(2))
    dd_before: Mapped[int] = mapped_column(Integer)  # declarer side's tricks before the card
    dd_after: Mapped[int] = mapped_column(Integer)
    cost_tricks: Mapped[int] = mapped_column(Integer)  # tricks the card gave away (>= 0)
    cost_points: Mapped[int] = mapped_column(Integer)  # points it gave away, contract as bid


class AuctionAnalysis(Base):
    """Per board and side: the best alternatives the auction left open, and the verdict."""

    __tablename__ = "auction_analysis"
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", **_CASCADE), primary_key=True)
    side: Mapped[str] = mapped_column(String(2), primary_key=True)  # NS | EW
    role: Mapped[str] = mapped_column(String(10))  # passed | declaring | defending
    actual_score: Mapped[int] = mapped_column(Integer)  # side's score, double dummy tricks
    alternatives: Mapped[str] = mapped_column(Text)  # JSON: mistake type -> best score
    mistake_types: Mapped[str] = mapped_column(Text)  # the type(s) of the mistake, tie = several
    mistake: Mapped[int] = mapped_column(Integer)
    weight: Mapped[int] = mapped_column(Integer)  # score given away


class Rating(Base):
    """A player's rating by one method (log-strength for the BT family, share for win rate)."""

    __tablename__ = "ratings"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    low: Mapped[float | None] = mapped_column(Float)  # bootstrap interval, where computed
    high: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class TokenCount(Base):
    """Every raw call and card token seen, with what cleaning made of it."""

    __tablename__ = "token_counts"
    kind: Mapped[str] = mapped_column(String(4), primary_key=True)  # call | card
    token: Mapped[str] = mapped_column(Text, primary_key=True)
    status: Mapped[str] = mapped_column(String(10))  # valid | normalised | ignored
    count: Mapped[int] = mapped_column(Integer)


class StageRun(Base):
    """The ledger: one row per completed stage run, written in the stage's last transaction."""

    __tablename__ = "stage_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage: Mapped[str] = mapped_column(String(16), index=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[_dt.datetime] = mapped_column(DateTime)
    finished_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)
    seconds: Mapped[float] = mapped_column(Float)
    summary: Mapped[str] = mapped_column(Text)  # JSON


class PendingIngest(Base):
    """Sources of an ingest that started and has not finished: a plain rerun resumes them."""

    __tablename__ = "pending_ingest"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sources: Mapped[str] = mapped_column(Text)  # JSON list of paths
    started_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)


class TableVersion(Base):
    """A token that changes whenever a table's content does; downstream fingerprints use it."""

    __tablename__ = "table_versions"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[str] = mapped_column(String(64))


class SeatStats(Base):
    """The 33 counters each seat earned on one board (summed into ``player_stats``)."""

    __tablename__ = "seat_stats"
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", **_CASCADE), primary_key=True)
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)


class PlayerStats(Base):
    """The thesis's 33 counters per player (Table 3)."""

    __tablename__ = "player_stats"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    # players.id when the match stage ran; no foreign key: a snapshot the dds stage rewrites
    player_id: Mapped[int | None] = mapped_column(Integer)
    boards: Mapped[int] = mapped_column(Integer)


class PlayerRates(Base):
    """The thesis's 28 rates per player (Table 4): each mistake counter per opportunity."""

    __tablename__ = "player_rates"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(Integer)


def _add_counter_tables() -> None:
    from dds.counters import COUNTERS, OPPORTUNITIES, RATES

    for cls in (SeatStats, PlayerStats):
        for name in COUNTERS:
            setattr(cls, name, mapped_column(name, Float, nullable=False, default=0))
    for name in OPPORTUNITIES:
        setattr(PlayerRates, name, mapped_column(name, Float, nullable=False, default=0))
    for name in RATES:
        setattr(PlayerRates, name, mapped_column(name, Float, nullable=True))


_add_counter_tables()
Index("ix_exclusions_level_reason", Exclusion.level, Exclusion.reason)


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
