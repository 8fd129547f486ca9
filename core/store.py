"""The kernel of the store: the declarative base, the ledger's tables, and the engine.

Each stage package declares its own tables (its ``tables`` module) on :class:`Base`; the
kernel knows none of them. SQLite is the default (``out/bridgerank.db``). On SQLite, foreign
keys are switched on and the write-ahead log is used, so a killed process leaves the
database as it was after the last committed transaction.
"""

from __future__ import annotations

import datetime as _dt
import errno
import re
import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Mapping, Sequence, TypeVar
from urllib.parse import quote

from sqlalchemy import (
    Connection,
    DateTime,
    Float,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    event,
    exc,
    inspect,
)
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import ConnectionPoolEntry

from bridgerank.core.errors import StoreError


class Base(DeclarativeBase):
    """Declarative base of all bridgerank tables."""

    if TYPE_CHECKING:
        # Every model maps one Table (DeclarativeBase only promises a FromClause, which has
        # no insert() or update()); for the type checker alone.
        __table__: ClassVar[Table]


_Model = TypeVar("_Model", bound=type[Base])


def exported(model: _Model) -> _Model:
    """Mark a table as one the report writes as CSV (its class decorated; the report's
    exports are the tables so marked, :func:`exported_tables`)."""
    model.__table__.info["export"] = True
    return model


def exported_tables() -> tuple[type[Base], ...]:
    """The tables marked :func:`exported`, by name, among the models imported so far."""
    models = [mapper.class_ for mapper in Base.registry.mappers]
    marked = [model for model in models if model.__table__.info.get("export")]
    return tuple(sorted(marked, key=lambda model: model.__table__.name))


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


def sqlite_pragmas(*pragmas: str) -> Callable[[DBAPIConnection, ConnectionPoolEntry], None]:
    """A ``connect`` listener that sets ``pragmas`` (``"journal_mode=WAL"``, ...) on every new
    SQLite connection, for ``event.listen(engine, "connect", ...)``."""

    def on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in pragmas:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return on_connect


# A reader changes nothing, not even the journal mode of a file it opens.
_sqlite_read_only = sqlite_pragmas("query_only=ON")


def database_url(db: str | None, out: str | Path) -> str:
    """A SQLAlchemy URL from ``--db`` (a URL or a file path) or the default under ``out``."""
    if db and "://" in db:
        return db
    path = Path(db) if db else Path(out) / "bridgerank.db"
    return f"sqlite:///{path}"


def shown_url(url: str) -> str:
    """A database URL as printed: its password replaced by ``***`` (terminals and CI logs keep
    what is printed)."""
    return re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", url)


def immutable_url(file: Path) -> str:
    """The URL that reads a SQLite file as it lies, in a folder no one can write (a
    write-ahead-log file needs its ``-shm`` beside it otherwise, even to be read)."""
    return f"sqlite:///file:{quote(str(file.resolve()))}?immutable=1&uri=true"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL on disk (None: another database, or one in memory)."""
    file = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ""
    if not file or file == ":memory:" or file.startswith("file:"):
        return None
    return Path(file)


# Tables only a bridgerank database holds (its ledger, its version, its records): a database
# with tables but none of these is someone else's.
OWN_MARKS = frozenset({"stage_runs", "alembic_version", "table_versions", "raw_boards"})


def foreign_database(tables: set[str]) -> StoreError:
    """The refusal of a database that holds tables, none of them a bridgerank database's."""
    shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
    refusal = StoreError(
        f"the database is not a bridgerank database (it holds other tables: {shown}); "
        "nothing was written to it",
        hint="give --db a new file or an empty database",
    )
    refusal.resumable = False
    return refusal


def _foreign_sqlite(file: Path) -> None:
    """Refuse an existing SQLite file with tables, none of them a bridgerank database's,
    before anything (even the journal mode) is changed in it."""
    if not file.is_file() or file.stat().st_size == 0:
        return
    try:
        with closing(
            sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro", uri=True)
        ) as peek:
            rows = peek.execute("select name from sqlite_master where type = 'table'").fetchall()
    except sqlite3.Error:
        return  # no database, or not readable: open_engine says so in one line
    present = {name for (name,) in rows}
    if present and not present & OWN_MARKS:
        raise foreign_database(present)


_sqlite_pragmas = sqlite_pragmas("foreign_keys=ON", "journal_mode=WAL", "synchronous=NORMAL")


def open_engine(url: str, create: bool = True, tables: bool = True) -> Engine:
    """Create the engine; with ``create``, also the SQLite file's folder and missing tables.

    Parameters
    ----------
    url : str
        A SQLAlchemy URL.
    create : bool
        False for commands that only read (``status``): they never create a database, a
        folder or a table, and a SQLite file that does not exist is an error.
    tables : bool
        False to leave the tables to the caller (the app migrates and checks them first:
        :mod:`bridgerank.pipeline.schema`).

    Raises
    ------
    StoreError
        For a URL that is not one, an unknown scheme, a driver that is not installed, a file
        that cannot be opened as a database, or (``create=False``) no database.
    """
    with store_errors(url):
        file = sqlite_file(url)
        if file is not None and not create and not file.is_file():
            raise StoreError(
                f"no database at {file}",
                "Run `bridgerank run` to create it, or pass --db to an existing one",
            )
        if file is not None and create:
            _foreign_sqlite(file)
            file.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas if create else _sqlite_read_only)
        if create and tables:
            Base.metadata.create_all(engine)
        elif file is not None and not create:
            engine = _readable(engine, file)
        else:  # fails here, in one line, on a file that is no database
            inspect(engine).get_table_names()
    return engine


def _readable(engine: Engine, file: Path) -> Engine:
    """A reader's engine on a SQLite file, also in a folder it cannot write.

    A database in write-ahead-log mode needs its ``-shm`` file beside it even to be read;
    where the folder is read-only that cannot be made, so the file is opened as immutable,
    which reads the file as it lies (no writer can be at work in a read-only folder).
    A file that is no database fails here, in one line.
    """
    try:
        inspect(engine).get_table_names()
        return engine
    except exc.OperationalError as problem:
        if "unable to open" not in str(problem.orig) and "readonly" not in str(problem.orig):
            raise
    engine.dispose()
    frozen = create_engine(immutable_url(file))
    event.listen(frozen, "connect", _sqlite_read_only)
    inspect(frozen).get_table_names()
    return frozen


_DRIVERS = {"postgresql": "pip install 'psycopg[binary]'", "mysql": "pip install pymysql"}
# The modules SQLAlchemy's dialects import for a URL: a missing one is the user's to install;
# any other import failing inside a stage is a bug of ours, and keeps its traceback.
_DRIVER_MODULES = frozenset(
    {"psycopg", "psycopg2", "pg8000", "asyncpg", "pymysql", "MySQLdb", "mysql", "sqlite3"}
)


def _is_missing_driver(problem: ImportError) -> bool:
    """Whether an import failure is a database driver's (not bridgerank's own code)."""
    name = (problem.name or "").split(".")[0]
    return name in _DRIVER_MODULES or name == "_sqlite3"


def _hint_for(problem: BaseException, url: str) -> tuple[str, str]:
    """What went wrong with the database or the disk, in a line, and what to do about it."""
    url = shown_url(url)
    text = shown_url(str(getattr(problem, "orig", None) or problem).strip().splitlines()[0])
    lowered = text.lower()
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    if isinstance(problem, exc.NoSuchModuleError):
        return (
            f"unknown database URL scheme {url.split('://', 1)[0]!r}",
            "Use a file path, sqlite:///FILE or postgresql+psycopg://USER@HOST/NAME",
        )
    if isinstance(problem, ImportError):
        return (
            f"the database driver for {scheme} is not installed ({text})",
            f"Install it: {_DRIVERS.get(scheme, 'pip install the driver the URL names')}",
        )
    if isinstance(problem, exc.ArgumentError):
        return f"not a database URL: {url} ({text})", "Give a file path or a SQLAlchemy URL"
    if "disk" in lowered and "full" in lowered or getattr(problem, "errno", None) == errno.ENOSPC:
        return ("the disk is full", "Free some space and run again: nothing committed is lost")
    if (
        isinstance(problem, OSError)
        and problem.filename
        and not isinstance(problem, (IsADirectoryError, NotADirectoryError))
    ):  # a report or export file
        return (
            f"cannot write {problem.filename}: {problem.strerror}",
            "Check the folder's permissions and free space, or pass --out elsewhere",
        )
    if "readonly" in lowered or "read-only" in lowered or "permission" in lowered:
        return (
            f"the database cannot be written: {text}",
            "Check the file's and folder's permissions, or pass --db to another file",
        )
    if "not a database" in lowered or "malformed" in lowered:
        return (
            f"{url} is not a usable bridgerank database ({text})",
            "Pass --db to a new file, or restore the database from a copy",
        )
    if "unable to open" in lowered or isinstance(problem, (IsADirectoryError, NotADirectoryError)):
        return (
            f"cannot open the database {url} ({text})",
            "Check that the path is a file in a folder you can write",
        )
    return f"database error: {text}", f"Database: {url}"


@contextmanager
def store_errors(url: str) -> Iterator[None]:
    """Turn the database's, the driver's and the disk's failures into :class:`StoreError`
    (also those of the files a stage writes beside the database: the report, the CSVs).

    Any other database error (a broken constraint, a statement the database refuses) is a
    bug of bridgerank's, and also one line: the stage's transaction is rolled back, so nothing
    of it is stored and everything committed before is kept.
    """
    try:
        yield
    except (
        exc.OperationalError,
        exc.NoSuchModuleError,
        exc.ArgumentError,
        exc.InterfaceError,
        ImportError,
        OSError,
    ) as problem:
        if isinstance(problem, ImportError) and not _is_missing_driver(problem):
            raise
        message, hint = _hint_for(problem, url)
        raise StoreError(message, hint) from problem
    except (exc.IntegrityError, exc.ProgrammingError) as problem:
        text = str(problem.orig or problem).strip().splitlines()[0]
        raise StoreError(
            f"database error (a bug in bridgerank; please report it): {text}",
            "Nothing of the failed stage was stored; the stages before it are kept",
        ) from problem
    except exc.DatabaseError as problem:  # e.g. "file is not a database"
        message, hint = _hint_for(problem, url)
        raise StoreError(message, hint) from problem


def insert_missing(conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert the ``rows`` whose primary key ``table`` does not hold yet; leave the others.

    For values that never change once computed (a double dummy table): whoever wrote a key
    first wrote the same value, so several writers at once need no coordination beyond the
    database's own. SQLite and PostgreSQL skip a clash in the statement (``ON CONFLICT DO
    NOTHING``); another dialect inserts row by row and ignores the integrity errors.
    """
    if not rows:
        return
    dialect = conn.dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects import sqlite

        conn.execute(sqlite.insert(table).on_conflict_do_nothing(), list(rows))
        return
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        conn.execute(postgresql.insert(table).on_conflict_do_nothing(), list(rows))
        return
    for row in rows:
        try:
            with conn.begin_nested():
                conn.execute(table.insert(), [dict(row)])
        except exc.IntegrityError:
            continue


def upsert(conn: Connection, model: type[Base], rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` into ``model``'s table, replacing the rows whose primary key exists.

    SQLite and PostgreSQL do it in one statement (``INSERT ... ON CONFLICT DO UPDATE``);
    another dialect deletes the clashing rows first, in the same transaction.
    """
    if not rows:
        return
    table = model.__table__
    keys = [column.name for column in table.primary_key.columns]
    others = [column.name for column in table.columns if column.name not in keys]
    dialect = conn.dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects import sqlite

        lite = sqlite.insert(table)
        update = {name: lite.excluded[name] for name in others}
        conn.execute(lite.on_conflict_do_update(index_elements=keys, set_=update), list(rows))
        return
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        pg = postgresql.insert(table)
        update = {name: pg.excluded[name] for name in others}
        conn.execute(pg.on_conflict_do_update(index_elements=keys, set_=update), list(rows))
        return
    for row in rows:
        conn.execute(table.delete().where(*(table.c[key] == row[key] for key in keys)))
    conn.execute(table.insert(), list(rows))
