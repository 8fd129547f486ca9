"""A database brought to the schema of this version of bridgerank, before anything writes.

On every command that writes, under the writer lock:

1. A new database gets every declared table and is stamped with the head revision.
2. A database of an earlier version is migrated in place by its Alembic revisions
   (:mod:`bridgerank.pipeline.migrations`), after a copy is taken (SQLite). Revisions change
   only what no stage can rebuild - the records, the forecasts, the ledger - and name the
   stages to run again when they change records (their ``rerun``); a database stamped with a
   revision since retired (:data:`RETIRED`) starts from the kept one before it. A database
   made before revisions existed (no version) is checked as in step 3 and stamped.
3. The tables are checked against the declarations
   (:func:`~bridgerank.pipeline.schema_check.schema_problems`): a table that is missing or
   not as declared is never left to make a thinner report. Every table is brought to its
   declared columns (a missing table created, a missing column added, one the code cannot
   fill dropped). A stage's results are rebuilt by running it again, so its tables are
   emptied and it runs again with every stage after it (whose results may have cascaded
   away with its rows); the ingest stage's tables (and the forecasts ``bridgerank
   predict`` keeps) hold the user's records, so their rows are kept and the stages after
   ingest run again.

A database that holds tables but none of a bridgerank database's (someone else's file, a DD
store) is refused in one line, untouched. A database stamped with a revision this version
does not know was made by a newer
bridgerank: it is refused in one line, untouched and with no copy taken. A copy is written
under a temporary name and renamed when complete, so a file named as a copy is a whole one;
the oldest copies beyond ``[store] backups`` are removed.

Each step says what it did in one line, which the CLI prints.
"""

from __future__ import annotations

import datetime as _dt
import sqlite3
from collections import defaultdict
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from sqlalchemy import Column, Connection, delete, inspect, text

from bridgerank.cleaning.ingest.tables import PendingIngest, RawBoard, SourceFile
from bridgerank.core import ledger
from bridgerank.core.errors import StoreError
from bridgerank.core.lock import run_lock
from bridgerank.core.store import OWN_MARKS, Base, StageRun, TableVersion, foreign_database
from bridgerank.pipeline.schema_check import (
    COMMANDS,
    KERNEL,
    RECORDS_STAGE,
    SchemaProblem,
    describe,
    schema_problems,
    stale_stages,
)

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine import Engine

    from bridgerank.core.stage import Stage

RECORDS_TABLE = RawBoard.__tablename__

# Revisions of earlier versions that changed only tables a stage rebuilds, retired when such
# tables stopped being migrated (revision 0017): a database stamped with one is at the kept
# revision given here, and the repair path (step 3) brings its stages' tables to their shape.
# A new revision never takes one of these numbers.
RETIRED = {
    "0002": "0001",
    "0003": "0001",
    **{f"{number:04d}": "0005" for number in range(6, 15)},
    "0016": "0015",
}


def _config(connection: Connection | None = None) -> Config:
    """Alembic's configuration: the shipped revisions, run on ``connection``."""
    from alembic.config import Config

    config = Config()
    folder = resources.files("bridgerank.pipeline.migrations")
    config.set_main_option("script_location", str(folder))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision: the schema this version of bridgerank declares."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None, "no revision in bridgerank.pipeline.migrations.versions"
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision a database is stamped with (None: new, or made before revisions)."""
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def known_revision(revision: str) -> bool:
    """Whether ``revision`` is one of this version's (a database stamped otherwise was made
    by a newer bridgerank)."""
    from alembic.script import ScriptDirectory

    if revision in RETIRED:
        return True
    script = ScriptDirectory.from_config(_config())
    try:
        return script.get_revision(revision) is not None
    except Exception:  # alembic's ResolutionError or CommandError: not ours
        return False


def newer_database(revision: str) -> StoreError:
    """The refusal of a database stamped with ``revision``, which this version does not know."""
    refusal = StoreError(
        f"the database was made by a newer bridgerank (schema revision {revision}; this "
        f"version knows up to {head_revision()})",
        hint="upgrade bridgerank (pip install -U bridgerank), or give --db another database",
    )
    refusal.resumable = False  # no rerun of this version can help
    return refusal


def _carry_forward(conn: Connection) -> None:
    """Run every revision's ``carry_forward(connection)`` (the step that brings the user's
    stored records forward, e.g. revision 0015's entries read again), oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_config())
    for revision in reversed(list(script.walk_revisions())):
        step = getattr(revision.module, "carry_forward", None)
        if step is not None:
            step(conn)


def _reruns_between(current: str, head: str) -> dict[str, str]:
    """Stage -> why it runs again, from the ``rerun`` of each revision after ``current``."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_config())
    reruns: dict[str, str] = {}
    for revision in script.iterate_revisions(head, current):
        for stage in getattr(revision.module, "rerun", ()):
            reruns.setdefault(stage, f"schema revision {revision.revision} changed its tables")
    return reruns


def _backup(engine: Engine, label: str, keep: int) -> Path | None:
    """A copy of a SQLite database file beside it (SQLite's online backup: consistent with
    the write-ahead log), or None for other databases, which have their own tools. Written
    under a temporary name and renamed when whole; the oldest copies beyond ``keep`` go."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    path = Path(database)
    copy = path.with_name(f"{path.name}.backup-{label}-{stamp}")
    partial = path.with_name(f".partial-{copy.name}")
    for leftover in path.parent.glob(f".partial-{path.name}.backup-*"):
        leftover.unlink(missing_ok=True)  # a copy killed before it was whole
    source, target = sqlite3.connect(path), sqlite3.connect(partial)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    partial.replace(copy)
    _prune_backups(path, keep)
    return copy


def _prune_backups(path: Path, keep: int) -> None:
    """Remove all but the newest ``keep`` copies of the database at ``path``."""
    copies = sorted(
        path.parent.glob(f"{path.name}.backup-*"), key=lambda copy: copy.stat().st_mtime
    )
    for old in copies[: max(len(copies) - keep, 0)]:
        old.unlink(missing_ok=True)


def _add_column(conn: Connection, table: str, column: Column[Any]) -> None:
    kind = column.type.compile(dialect=conn.dialect)
    conn.execute(text(f'ALTER TABLE "{table}" ADD COLUMN "{column.name}" {kind}'))


def _reshape(conn: Connection, problem: SchemaProblem) -> None:
    """A table present but not as declared brought to the declared columns: a missing one
    added (empty, NULL allowed: its stage fills it), one the code cannot fill dropped."""
    if problem.missing:
        return  # created with the others
    found = inspect(conn).get_columns(problem.table)
    present = {column["name"] for column in found}
    longest = conn.dialect.max_identifier_length or 10_000  # PostgreSQL cuts names at 63
    declared = Base.metadata.tables[problem.table].columns
    for column in declared:
        if column.name[:longest] not in present:
            _add_column(conn, problem.table, column)
    names = {column.name[:longest] for column in declared}
    for reflected in found:
        if reflected["name"] not in names and not reflected.get("nullable", True):
            conn.execute(text(f'ALTER TABLE "{problem.table}" DROP COLUMN "{reflected["name"]}"'))


def _rebuild_table(conn: Connection, problem: SchemaProblem) -> None:
    """A stage's table not as declared: dropped, to be created as declared (its stage fills
    it again), unless another table refers to it (``boards``, which the dds stage's rows
    refer to): that one is reshaped in place, since dropping it would take theirs along
    (SQLite) or be refused (PostgreSQL)."""
    referred = {
        key.column.table.name
        for table in Base.metadata.tables.values()
        for key in table.foreign_keys
    }
    if problem.table in referred:
        _reshape(conn, problem)
    elif not problem.missing:
        conn.execute(text(f'DROP TABLE "{problem.table}"'))


def _clear_results(conn: Connection, tables: Sequence[str]) -> None:
    """Empty a stage's tables (those present; the rows of a table that refers to another
    first) and forget their versions, so the stage recomputes everything and a stage after
    it waits for that rather than reading an empty table as current. A table of a later
    stage that refers to these loses its rows with them (the dds stage's per-board results
    cascade from ``boards``): the stages after run again too."""
    present = set(inspect(conn).get_table_names())
    for table in reversed(Base.metadata.sorted_tables):
        if table.name in tables and table.name in present:
            conn.execute(table.delete())
    conn.execute(delete(TableVersion).where(TableVersion.name.in_(list(tables))))


def _rebuild_ledger(conn: Connection, records: Sequence[str]) -> None:
    """A new, empty ledger; the stored records get a version, so the stages after ingest
    run on them (ingest itself reruns only on files named again)."""
    present = set(inspect(conn).get_table_names())
    for model in (StageRun, TableVersion):
        if model.__tablename__ in present:
            conn.execute(text(f'DROP TABLE "{model.__tablename__}"'))
        model.__table__.create(conn)
    token = ledger.digest(["ledger rebuilt", _dt.datetime.now(_dt.timezone.utc).isoformat()])
    for name in records:
        ledger.bump_table(conn, name, token)


def _keep_records(conn: Connection, problem: SchemaProblem) -> str:
    """Mend a table of the user's own rows in place (the ingested records, the forecasts of
    ``bridgerank predict``); a note of what was done."""
    if problem.missing:
        if problem.table != RECORDS_TABLE:
            return f"schema: {problem}: created empty"
        # the records are gone: forget the files they came from, so naming them reads them
        conn.execute(delete(SourceFile))
        conn.execute(delete(PendingIngest))
        return (
            f"schema: {problem}: the records read before are lost; "
            "bridgerank ingest SOURCES reads them again"
        )
    _reshape(conn, problem)
    if problem.owner != RECORDS_STAGE:
        return f"schema: {problem}: mended in place"
    return (
        f"schema: {problem}: mended in place; the values of a column added are unknown for "
        "the records stored before (bridgerank ingest --force SOURCES reads them again); "
        "the stages after ingest run again"
    )


def _repair(
    conn: Connection, problems: Sequence[SchemaProblem], stages: Sequence[Stage]
) -> tuple[dict[str, str], list[str]]:
    """Mend or rebuild what :func:`schema_problems` found; the stages to run again (as
    :func:`~bridgerank.pipeline.schema_check.stale_stages` names them) and notes."""
    writes = {stage.name: [model.__tablename__ for model in stage.writes] for stage in stages}
    by_owner: dict[str, list[SchemaProblem]] = defaultdict(list)
    for problem in problems:
        by_owner[problem.owner].append(problem)
    notes = []
    for owner, found in by_owner.items():
        what = describe(found)
        if owner == KERNEL:  # the ledger itself: nothing is known to be current
            _rebuild_ledger(conn, writes[RECORDS_STAGE])
            notes.append(f"schema: {what}: the ledger is rebuilt, every stage runs again")
        elif owner in (RECORDS_STAGE, COMMANDS):
            notes.extend(_keep_records(conn, problem) for problem in found)
        else:
            for problem in found:
                _rebuild_table(conn, problem)
            _clear_results(conn, writes[owner])
            notes.append(
                f"schema: {what}: {owner}'s tables rebuilt, {owner} and what follows run again"
            )
    stale = stale_stages(problems, [stage.name for stage in stages])
    stale.pop(KERNEL, None)  # a new ledger has no run to invalidate
    reruns = {
        stage: f"its tables or its inputs were rebuilt ({describe(found)})"
        for stage, found in stale.items()
    }
    return reruns, notes


@contextmanager
def _transaction(engine: Engine) -> Iterator[Connection]:
    """One transaction for every change of the schema, so that a killed run leaves the
    database as it was. Python's sqlite3 opens no transaction before DDL by itself (it would
    commit each statement): the BEGIN is said here."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN")
        yield conn
        conn.commit()


def _stamp(conn: Connection, revision: str) -> None:
    from alembic import command

    command.stamp(_config(conn), revision)


def _upgrade(conn: Connection, current: str | None = None) -> None:
    """Run the revisions after ``current`` (a retired one: after the kept one before it)."""
    from alembic import command

    if current in RETIRED:
        command.stamp(_config(conn), RETIRED[current], purge=True)
    command.upgrade(_config(conn), "head")


def prepare_database(
    engine: Engine, stages: Sequence[Stage], what: str = "", backups: int = 3
) -> list[str]:
    """Bring a database to this version's schema (see the module docstring).

    Parameters
    ----------
    engine : Engine
    stages : sequence of Stage
        Every stage, in pipeline order: the owners of the tables.
    what : str
        The command running, named to a run refused while this one holds the lock.
    backups : int
        Copies of a SQLite database taken before changing its schema to keep (the newest).

    Returns
    -------
    list of str
        One line for each thing done to an existing database (none for a new or current one).

    Raises
    ------
    DatabaseInUse
        When another run holds the database's writer lock.
    StoreError
        When a newer bridgerank made the database.
    """
    head = head_revision()
    with run_lock(engine, what or "bridgerank (schema check)"):
        present = set(inspect(engine).get_table_names())
        if present and not present & OWN_MARKS:
            raise foreign_database(present)
        if not present & set(Base.metadata.tables):  # a new database
            with _transaction(engine) as conn:
                Base.metadata.create_all(conn)
                _stamp(conn, head)
            return []
        current = current_revision(engine)
        if current is not None and current != head and not known_revision(current):
            raise newer_database(current)
        problems = schema_problems(engine, stages)
        if current == head and not problems:
            return []
        notes: list[str] = []
        copy = _backup(engine, current or "unversioned", backups)
        kept = f" (a copy of it before: {copy})" if copy else ""
        if current != head:
            notes.append(
                f"database schema {current or 'unversioned'} brought to revision {head}{kept}"
            )
        elif copy:
            notes.append(f"the database's tables differ from the declared ones{kept}")
        with _transaction(engine) as conn:
            reruns: dict[str, str] = {}
            if current is not None and current != head:
                reruns.update(_reruns_between(RETIRED.get(current, current), head))
                _upgrade(conn, current)
                problems = schema_problems(conn, stages)
            repaired, repair_notes = _repair(conn, problems, stages)
            reruns.update(repaired)
            notes.extend(repair_notes)
            Base.metadata.create_all(conn)
            if current is None:
                # a database from before the revisions: their steps that carry the user's
                # records forward (not the tables' shapes, which the repair made) apply too
                _carry_forward(conn)
                _stamp(conn, head)
            for stage, reason in reruns.items():
                ledger.invalidate(conn, stage, reason)
    return notes
