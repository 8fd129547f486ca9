"""Two databases compared table by table: what a user would call "the same results"."""

import math
from typing import Mapping

from sqlalchemy import create_engine, select

from bridgerank.core.store import Base

# Columns that say when, how long or where from, not what: they differ between any two runs
# (a source's path is where the file lay when it was read, its name how the user named it).
CLOCKS = {
    "source_files": {"ingested_at", "path", "name"},
    "skipped_files": {"path"},
    "stage_runs": {"started_at", "finished_at", "seconds", "summary", "id"},
}


def rows(url: str, table, ignore: frozenset[str] = frozenset()) -> list[tuple]:
    """A table's rows, ordered by its key, without the columns of :data:`CLOCKS` and
    ``ignore``."""
    left_out = CLOCKS.get(table.name, set()) | ignore
    columns = [column for column in table.columns if column.name not in left_out]
    order = list(table.primary_key.columns) or columns
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(select(*columns).order_by(*order))]
    finally:
        engine.dispose()


def same(a, b) -> bool:
    """Equal values; floats to 1e-9, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return a == b


def assert_same_tables(
    first: str,
    second: str,
    skip: frozenset[str] = frozenset(),
    ignore: Mapping[str, frozenset[str]] | None = None,
) -> int:
    """Every declared table holds the same rows in both databases (but the ledger of runs,
    the tables in ``skip`` and the columns ``ignore`` names by table); returns how many rows
    were compared."""
    compared = 0
    for table in Base.metadata.sorted_tables:
        if table.name == "stage_runs" or table.name in skip:
            continue
        left_out = (ignore or {}).get(table.name, frozenset())
        ours, theirs = rows(first, table, left_out), rows(second, table, left_out)
        assert len(ours) == len(theirs), (table.name, len(ours), len(theirs))
        for mine, other in zip(ours, theirs):
            assert all(same(a, b) for a, b in zip(mine, other)), (table.name, mine, other)
        compared += len(ours)
    return compared
