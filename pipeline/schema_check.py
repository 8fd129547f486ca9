"""The database's schema against the declared tables, and its pages' integrity; reads only.

A table that is missing, lacks a declared column, or has a column the code does not know and
cannot fill (NOT NULL, no default) would make a stage fail, or worse, a report silently
thinner. :func:`schema_problems` names each such table and the stage that writes it (its
owner), so that :mod:`bridgerank.pipeline.schema` can make that stage run again and
``bridgerank status`` can say why it will. Types are not compared: SQLite keeps any value in
any column, and our migrations change names and shapes, not affinities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from sqlalchemy import inspect, text

from bridgerank.core.store import Base, StageRun, TableVersion

if TYPE_CHECKING:
    from sqlalchemy import Connection
    from sqlalchemy.engine import Engine
    from sqlalchemy.engine.interfaces import ReflectedColumn

    from bridgerank.core.stage import Stage

# The kernel's tables (the ledger): owned by no stage; damaged, every stage runs again.
KERNEL = "kernel"
# Tables a command writes outside the stages (``bridgerank predict``'s forecasts).
COMMANDS = "commands"
# The stage whose tables hold the user's records: kept and mended in place, never emptied.
RECORDS_STAGE = "ingest"
MISSING = "is missing"


@dataclass(frozen=True)
class SchemaProblem:
    """A declared table the database does not hold as declared."""

    table: str
    owner: str  # the stage that writes it, KERNEL or COMMANDS
    what: str  # "is missing", "lacks columns a, b", "has column c that the code cannot fill"

    def __str__(self) -> str:
        return f"table {self.table} {self.what}"

    @property
    def missing(self) -> bool:
        """Whether the whole table is missing (else it lacks or has columns)."""
        return self.what == MISSING


def describe(problems: Sequence[SchemaProblem]) -> str:
    """Problems in a few words: one in full, several as the tables missing and those not as
    declared (three names each at most)."""
    if len(problems) == 1:
        return str(problems[0])

    def group(tables: list[str], verb: str) -> list[str]:
        if not tables:
            return []
        more = f" and {len(tables) - 3} more" if len(tables) > 3 else ""
        noun = "table" if len(tables) == 1 else "tables"
        return [f"{noun} {', '.join(tables[:3])}{more} {verb}"]

    missing = [problem.table for problem in problems if problem.missing]
    reshaped = [problem.table for problem in problems if not problem.missing]
    return "; ".join(group(missing, "missing") + group(reshaped, "not as declared"))


def stale_stages(problems: Sequence[SchemaProblem], order: Sequence[str]) -> dict[str, list]:
    """Stage -> the problems that make it run again once the tables are mended: a stage's
    table reruns it and every stage after it (their rows may cascade from its rows); a
    column of the ingested records reruns every stage after ingest; a missing table of
    records or of a command is created empty and reruns nothing; the ledger's tables are
    under :data:`KERNEL` (a new ledger: every stage runs).

    Parameters
    ----------
    problems : sequence of SchemaProblem
    order : sequence of str
        The stages' names in pipeline order.
    """
    stale: dict[str, list] = {}
    for problem in problems:
        if problem.owner == KERNEL:
            stale.setdefault(KERNEL, []).append(problem)
            continue
        if problem.owner == COMMANDS or problem.owner == RECORDS_STAGE and problem.missing:
            continue
        first = order.index(problem.owner) + (problem.owner == RECORDS_STAGE)
        for stage in order[first:]:
            stale.setdefault(stage, []).append(problem)
    return stale


def owners(stages: Sequence[Stage]) -> dict[str, str]:
    """Each declared table's owner: the stage that writes it, the kernel for the ledger, or
    the commands for the rest."""
    owned = {model.__tablename__: stage.name for stage in stages for model in stage.writes}
    owned.update({model.__tablename__: KERNEL for model in (StageRun, TableVersion)})
    return {name: owned.get(name, COMMANDS) for name in Base.metadata.tables}


def _column_problems(declared: set[str], found: Sequence[ReflectedColumn]) -> str | None:
    """What is wrong with a table's columns, in words, or None."""
    present = {column["name"] for column in found}
    missing = sorted(declared - present)
    if missing:
        return f"lacks column{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
    unfillable = sorted(
        column["name"]
        for column in found
        if column["name"] not in declared
        and not column.get("nullable", True)
        and column.get("default") is None
        and column.get("autoincrement") is not True
    )
    if unfillable:
        return f"has column {', '.join(unfillable)} that the code cannot fill"
    return None


def schema_problems(engine: Engine | Connection, stages: Sequence[Stage]) -> list[SchemaProblem]:
    """Every declared table that is missing or not as declared, with its owner.

    Parameters
    ----------
    engine : Engine or Connection
    stages : sequence of Stage
        Every stage, for the owners of the tables.

    Returns
    -------
    list of SchemaProblem
        Empty for a database with no table at all (a new one) and for a sound one.
    """
    inspector = inspect(engine)
    present = set(inspector.get_table_names())
    if not present & set(Base.metadata.tables):
        return []  # a new database: nothing is damaged, everything is to be created
    owner_of = owners(stages)
    problems = []
    for name, table in sorted(Base.metadata.tables.items()):
        if name not in present:
            problems.append(SchemaProblem(name, owner_of[name], MISSING))
            continue
        # PostgreSQL cuts a longer name to 63 characters, and reports it so
        longest = inspector.dialect.max_identifier_length or 10_000
        what = _column_problems(
            {column.name[:longest] for column in table.columns}, inspector.get_columns(name)
        )
        if what:
            problems.append(SchemaProblem(name, owner_of[name], what))
    return problems


def integrity_problem(engine: Engine) -> str | None:
    """The first problem SQLite's ``quick_check`` finds in the database's pages, or None (also
    for other databases, which check their pages themselves)."""
    if engine.dialect.name != "sqlite":
        return None
    with engine.connect() as conn:
        findings = [row[0] for row in conn.execute(text("PRAGMA quick_check(5)"))]
    return None if findings == ["ok"] else "; ".join(findings)
