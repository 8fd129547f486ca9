"""The report's one loader: each table the report reads, loaded once per run, as a frame.

A section of the methods page, the site's pages and the CSV export each declare what they read
(a table's class for every column, or single columns such as ``RawBoard.extra``); the report
stage builds one :class:`ReportTables` from the union of the declarations, and every reader
asks it for frames. A table is read with one SELECT the first time it is asked for, with the
columns declared for it across every reader, and never again in the run. A reader that asks
for a table it did not declare gets an error, so the declarations stay true.

Values come as the database stores them (no type processing: a boolean column of SQLite reads
0 and 1), the rows in the order of an integer primary key (else the database's own order). A
table the database lacks (its stage has not run, or an older database) reads as an empty frame
with the declared columns; a column an older database lacks is left out of the frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Union, cast

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.orm import InstrumentedAttribute

from bridgerank.core.store import Base

__all__ = ["Read", "ReportTables", "declared_tables", "model_of", "table_name"]

# What a reader declares: a table's class (every column) or one column of it.
Read = Union[type[Base], InstrumentedAttribute[Any]]


def model_of(read: Read) -> type[Base]:
    """The table's class a declaration reads."""
    if isinstance(read, InstrumentedAttribute):
        return cast(type[Base], read.class_)
    return read


def table_name(read: Read) -> str:
    """The table a declaration reads."""
    return str(model_of(read).__tablename__)


def declared_tables(reads: Iterable[Read]) -> dict[str, tuple[str, ...] | None]:
    """Table name -> the columns declared for it (None: every column), over ``reads``."""
    wanted: dict[str, set[str] | None] = {}
    for read in reads:
        name = table_name(read)
        if isinstance(read, InstrumentedAttribute):
            columns = wanted.setdefault(name, set())
            if columns is not None:
                columns.add(read.key)
        else:
            wanted[name] = None
    return {
        name: None if columns is None else tuple(sorted(columns))
        for name, columns in wanted.items()
    }


class ReportTables:
    """The frames of a run of the report, each table read once (see the module docstring).

    Parameters
    ----------
    conn : Connection
        The database, open for the whole report.
    reads : iterable of Read
        Every declaration of every reader of this run.
    """

    def __init__(self, conn: Connection, reads: Iterable[Read]) -> None:
        self._conn = conn
        self._wanted = declared_tables(reads)
        self._present = set(sa.inspect(conn).get_table_names())
        self._frames: dict[str, pd.DataFrame] = {}

    def frame(self, read: type[Base]) -> pd.DataFrame:
        """The table of ``read`` with its declared columns (a copy: readers may change it).

        Raises
        ------
        KeyError
            When no reader declared the table.
        """
        return self._loaded(read).copy()

    def present(self, read: type[Base]) -> bool:
        """Whether the database holds the table at all (an older one may lack it)."""
        return table_name(read) in self._present

    def has(self, read: type[Base]) -> bool:
        """Whether the table holds at least one row (a stage that has not run left none)."""
        return not self._loaded(read).empty

    def _loaded(self, read: type[Base]) -> pd.DataFrame:
        """The table's frame as loaded (read once, on first use); readers get copies."""
        name = table_name(read)
        if name not in self._wanted:
            raise KeyError(f"the report reads {name!r} without declaring it")
        if name not in self._frames:
            self._frames[name] = self._load(read, name)
        return self._frames[name]

    def _load(self, model: type[Base], name: str) -> pd.DataFrame:
        declared = self._wanted[name]
        if name not in self._present:
            columns = [column.name for column in model.__table__.columns]
            return pd.DataFrame(columns=[c for c in columns if declared is None or c in declared])
        # the columns in the order the database keeps them, as ``select *`` gives them
        stored = [column["name"] for column in sa.inspect(self._conn).get_columns(name)]
        columns = [column for column in stored if declared is None or column in declared]
        # a lightweight table: the columns untyped, so values come as the database keeps them
        table = sa.table(name, *(sa.column(column) for column in columns))
        query = sa.select(*table.columns)
        keys = list(model.__table__.primary_key)
        if len(keys) == 1 and isinstance(keys[0].type, sa.Integer) and keys[0].name in stored:
            # an integer key is the order rows were written in (SQLite's rowid); a table keyed
            # otherwise keeps the database's own order, as its writers left it
            query = query.order_by(sa.column(keys[0].name))
        return pd.read_sql(query, self._conn)
