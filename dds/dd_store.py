"""The double dummy store: every deal solved once, ever, on this machine.

A table, a par score or a play trace depends on the deal (and the play) and on the solver,
nothing else: not on the database, the run or the source file it came from. The store keeps
them across databases and runs - by default a small SQLite file in the user's cache folder,
or any SQLAlchemy URL (a team's PostgreSQL) - keyed by the deal's canonical PBN text and the
solver's version (:func:`bridgerank.dds.solver.solver_version`): a value solved by another
version is never handed out.

Who writes: the process that runs the dds stage, after each committed chunk; workers (loky's
or a Dask cluster's) receive what is known and return what they solved, and never open the
store. Several runs at once are safe: every write inserts only keys not yet present (the
primary key refuses a duplicate, a value solved twice is the same value), SQLite serialises
the writers (WAL, a generous busy timeout) and PostgreSQL needs nothing more.

A store that cannot be read (a corrupt file, a server down) or written (a read-only folder)
never stops a run: the first failure becomes one warning (:attr:`DDStore.warning`) and the
run goes on solving, keeping what it solves in its own database.

The store's pieces live beside it: its layout (:mod:`bridgerank.dds.store_schema`), its values
as rows keep them and their checks (:mod:`bridgerank.dds.store_values`) and where it is
(:mod:`bridgerank.dds.store_location`); the names other modules import from here stay
importable here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from sqlalchemy import Engine, Table, create_engine, event, func, select
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from bridgerank.bridge.ddtable import DDTable
from bridgerank.core.errors import BridgerankError
from bridgerank.core.store import immutable_url, insert_missing, sqlite_pragmas
from bridgerank.dds.solver import LeadRequest, LeadValues, PlayRequest
from bridgerank.dds.store_location import OFF, default_location, shown_location, store_url
from bridgerank.dds.store_schema import (
    SCHEMA,
    create_schema,
    dd_leads,
    dd_pars,
    dd_tables,
    dd_traces,
    store_info,
)
from bridgerank.dds.store_values import (
    SEATS,
    ParKey,
    lead_key,
    lead_text,
    leads_from_text,
    leads_of,
    par_of,
    parse_table,
    trace_from_text,
    trace_key,
    trace_of,
    trace_text,
)

__all__ = [
    "OFF",
    "DDStore",
    "ParKey",
    "StoreCounts",
    "default_location",
    "lead_text",
    "leads_from_text",
    "open_dd_store",
    "shown_location",
    "trace_from_text",
    "trace_text",
]

# Times a store is opened while another run holds it locked, before it is given up.
_OPEN_ATTEMPTS = 8
# Deals looked up in one statement (SQLite allows 32,766 parameters).
_LOOKUP_BATCH = 400

# Readers never wait for the writer; writers of several runs queue for up to two minutes.
_sqlite_pragmas = sqlite_pragmas("busy_timeout=120000", "journal_mode=WAL", "synchronous=NORMAL")


def _chunks(items: Sequence[Any], size: int = _LOOKUP_BATCH) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass
class StoreCounts:
    """What a store holds for one solver version."""

    tables: int = 0
    pars: int = 0
    traces: int = 0
    leads: int = 0


class DDStore:
    """Tables, pars and traces of one solver version, read and written in batches.

    Every method is safe to call after a failure: the store is then off for the rest of the
    run, the failure is in :attr:`warning`, lookups find nothing and writes keep nothing.

    Parameters
    ----------
    location : str
        A SQLite file's path or a SQLAlchemy URL.
    solver : str
        The solver version the values are for (:func:`~bridgerank.dds.solver.solver_version`).
    """

    def __init__(self, location: str, solver: str) -> None:
        self.location = location
        self.solver = solver
        self.warning: str | None = None
        self.malformed = 0  # rows that did not read as values, removed
        self._writable = True
        self._engine: Engine | None = None
        for attempt in range(_OPEN_ATTEMPTS):
            try:
                self._engine = self._open()
                return
            except OperationalError as problem:
                if "unable to open" in str(problem) and self._open_frozen():
                    return
                # SQLite answers "locked" at once, without waiting, to a connection that
                # switches a new file to WAL while another run does: try again shortly
                if "locked" not in str(problem) or attempt == _OPEN_ATTEMPTS - 1:
                    self._fail("cannot be opened", problem)
                    return
                time.sleep(0.2 * (attempt + 1))
            except (SQLAlchemyError, OSError) as problem:
                self._fail("cannot be opened", problem)
                return

    def _open_frozen(self) -> bool:
        """Open a store file in a folder this run cannot write (a read-only mount) to read
        only: a store in write-ahead-log mode needs its ``-shm`` file beside it even to be
        read, so it is opened as immutable - no writer can be at work on a read-only mount.
        True when that worked (writes are off, with a warning)."""
        url = store_url(self.location)
        path = Path(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else None
        if path is None or str(path).startswith("file:") or not path.is_file():
            return False
        frozen = create_engine(immutable_url(path))
        try:
            with frozen.connect() as conn:
                conn.execute(select(func.count()).select_from(dd_tables)).scalar()
        except SQLAlchemyError:
            frozen.dispose()
            return False
        self._engine, self._writable = frozen, False
        self.warning = (
            f"the DD store at {shown_location(self.location)} cannot be written (its folder is "
            "read-only); reading it, solving the rest without keeping it"
        )
        return True

    def _open(self) -> Engine:
        url = store_url(self.location)
        path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ""
        if path and not path.startswith("file:"):  # a plain path (not a URI with options)
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, future=True)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        try:
            create_schema(engine)
        except SQLAlchemyError as problem:
            # A read-only store is still worth reading: writes are off, lookups go on.
            if not _is_read_only(problem):
                raise
            self._writable = False
            self.warning = self._message("cannot be written", problem)
        with engine.connect() as conn:
            schema = conn.execute(
                select(store_info.c.value).where(store_info.c.key == "schema")
            ).scalar()
        if schema is not None and not str(schema).isdigit():
            raise OSError(f"its layout is {str(schema)[:20]!r}, not a number")
        if schema is not None and int(schema) > SCHEMA:
            raise OSError(f"it was written by a newer bridgerank (layout {schema})")
        return engine

    @property
    def usable(self) -> bool:
        """Whether lookups can still find anything."""
        return self._engine is not None

    def _message(self, what: str, problem: BaseException) -> str:
        reason = str(getattr(problem, "orig", None) or problem).splitlines()[0][:160]
        return (
            f"the DD store at {shown_location(self.location)} {what} ({reason}); solving without it"
        )

    def _fail(self, what: str, problem: BaseException) -> None:
        if self.warning is None:  # the first failure is the one worth reading
            self.warning = self._message(what, problem)
        if self._engine is not None:
            self._engine.dispose()
        self._engine = None

    def close(self) -> None:
        """Release the store's connections."""
        if self._engine is not None:
            self._engine.dispose()

    # -- lookups -------------------------------------------------------------------------

    def tables(self, deals: Iterable[str]) -> dict[str, DDTable]:
        """Known tables of ``deals`` (canonical PBN): deal -> table."""
        rows = self._by_deal(dd_tables, (dd_tables.c.tricks,), {(deal,): None for deal in deals})
        return dict(self._parsed(dd_tables, rows, 1, lambda row: parse_table(row[1])))

    def pars(self, keys: Iterable[ParKey]) -> dict[ParKey, int]:
        """Known par scores (North-South's) of ``keys``."""
        by_row = {(key.deal, SEATS[key.dealer], key.vulnerable): key for key in set(keys)}
        rows = self._by_deal(
            dd_pars, (dd_pars.c.dealer, dd_pars.c.vulnerable, dd_pars.c.par), by_row
        )
        rows = [row for row in rows if row[:3] in by_row]
        return {by_row[key]: par for key, par in self._parsed(dd_pars, rows, 3, par_of)}

    def traces(self, requests: Iterable[PlayRequest]) -> dict[PlayRequest, list[int]]:
        """Known play traces of ``requests``."""
        by_row = {trace_key(request): request for request in set(requests)}
        columns = (dd_traces.c.trump, dd_traces.c.leader, dd_traces.c.cards, dd_traces.c.trace)
        rows = [row for row in self._by_deal(dd_traces, columns, by_row) if row[:4] in by_row]
        return {by_row[key]: trace for key, trace in self._parsed(dd_traces, rows, 4, trace_of)}

    def leads(self, requests: Iterable[LeadRequest]) -> dict[LeadRequest, LeadValues]:
        """Known opening-lead values of ``requests``."""
        by_row = {lead_key(request): request for request in set(requests)}
        columns = (dd_leads.c.trump, dd_leads.c.leader, dd_leads.c.leads)
        rows = [row for row in self._by_deal(dd_leads, columns, by_row) if row[:3] in by_row]
        return {by_row[key]: values for key, values in self._parsed(dd_leads, rows, 3, leads_of)}

    def _parsed(
        self, table: Table, rows: list[tuple[Any, ...]], key_size: int, parse: Any
    ) -> Iterator[tuple[Any, Any]]:
        """(key, value) of each row whose value reads as one; a row that does not (damaged,
        or written by hand) is counted in :attr:`malformed` and removed from the store, so
        the value solved live in its place can be kept."""
        bad = []
        for row in rows:
            try:
                value = parse(row)
            except (ValueError, TypeError, BridgerankError):
                bad.append(row[:key_size])
                continue
            yield (row[0] if key_size == 1 else row[:key_size]), value
        if bad:
            self.malformed += len(bad)
            self._remove(table, bad)

    def _remove(self, table: Table, keys: Sequence[tuple[Any, ...]]) -> int:
        """Delete the rows of ``keys`` (each the key's columns after ``solver``, in order)."""
        if self._engine is None or not self._writable or not keys:
            return 0
        columns = [column for column in table.primary_key.columns if column.name != "solver"]
        try:
            with self._engine.begin() as conn:
                for key in keys:
                    match = table.c.solver == self.solver
                    for column, value in zip(columns, key):
                        match = match & (column == value)
                    conn.execute(table.delete().where(match))
        except SQLAlchemyError as problem:
            self._fail("cannot be written", problem)
            return 0
        return len(keys)

    def remove_tables(self, deals: Iterable[str]) -> int:
        """Remove the tables of ``deals`` (found wrong); how many were asked to go."""
        return self._remove(dd_tables, [(deal,) for deal in deals])

    def remove_pars(self, keys: Iterable[ParKey]) -> int:
        """Remove the par scores of ``keys``."""
        return self._remove(
            dd_pars, [(key.deal, SEATS[key.dealer], key.vulnerable) for key in keys]
        )

    def remove_traces(self, requests: Iterable[PlayRequest]) -> int:
        """Remove the play traces of ``requests``."""
        return self._remove(dd_traces, [trace_key(request) for request in requests])

    def remove_leads(self, requests: Iterable[LeadRequest]) -> int:
        """Remove the opening-lead values of ``requests``."""
        return self._remove(dd_leads, [lead_key(request) for request in requests])

    def _by_deal(
        self, table: Table, columns: Sequence[Any], keys: Iterable[tuple[str, ...]]
    ) -> list[tuple[Any, ...]]:
        """Rows (deal, *columns) of ``table`` for the deals of ``keys`` (the first item of
        each key): the deal leads the primary key, so each batch is an index lookup, and the
        caller keeps the rows whose whole key it asked for."""
        deals = sorted({key[0] for key in keys})
        if self._engine is None or not deals:
            return []
        found: list[tuple[Any, ...]] = []
        try:
            with self._engine.connect() as conn:
                for batch in _chunks(deals):
                    rows = conn.execute(
                        select(table.c.deal, *columns).where(
                            (table.c.solver == self.solver) & table.c.deal.in_(batch)
                        )
                    )
                    found.extend(tuple(row) for row in rows)
        except SQLAlchemyError as problem:
            self._fail("cannot be read", problem)
            return []
        return found

    # -- writes --------------------------------------------------------------------------

    def _insert(self, table: Table, rows: list[dict[str, Any]]) -> int:
        """Insert the rows whose key is new; the number of rows sent (0 when off)."""
        if self._engine is None or not self._writable or not rows:
            return 0
        try:
            with self._engine.begin() as conn:
                for batch in _chunks(rows, 2000):
                    insert_missing(conn, table, batch)
        except SQLAlchemyError as problem:
            if _is_read_only(problem):
                self._writable = False
                self.warning = self._message("cannot be written", problem)
            else:
                self._fail("cannot be written", problem)
            return 0
        return len(rows)

    def add_tables(self, tables: Mapping[str, DDTable]) -> int:
        """Keep ``tables`` (deal -> table); returns how many were offered to the store."""
        return self._insert(
            dd_tables,
            [
                {"solver": self.solver, "deal": deal, "tricks": table.hex}
                for deal, table in tables.items()
            ],
        )

    def add_pars(self, pars: Mapping[ParKey, int]) -> int:
        """Keep par scores (North-South's)."""
        return self._insert(
            dd_pars,
            [
                {
                    "solver": self.solver,
                    "deal": key.deal,
                    "dealer": SEATS[key.dealer],
                    "vulnerable": key.vulnerable,
                    "par": int(par),
                }
                for key, par in pars.items()
            ],
        )

    def add_traces(self, traces: Mapping[PlayRequest, Sequence[int]]) -> int:
        """Keep play traces."""
        rows = []
        for request, trace in traces.items():
            deal, trump, leader, cards = trace_key(request)
            rows.append(
                {
                    "solver": self.solver,
                    "deal": deal,
                    "trump": trump,
                    "leader": leader,
                    "cards": cards,
                    "trace": trace_text(trace),
                }
            )
        return self._insert(dd_traces, rows)

    def add_leads(self, leads: Mapping[LeadRequest, LeadValues]) -> int:
        """Keep opening-lead values."""
        rows = []
        for request, values in leads.items():
            deal, trump, leader = lead_key(request)
            rows.append(
                {
                    "solver": self.solver,
                    "deal": deal,
                    "trump": trump,
                    "leader": leader,
                    "leads": lead_text(values),
                }
            )
        return self._insert(dd_leads, rows)

    # -- the whole store -----------------------------------------------------------------

    def counts(self, solver: str | None = None) -> StoreCounts:
        """How many tables, pars, traces and leads the store holds for ``solver`` (default:
        ours)."""
        counts = StoreCounts()
        if self._engine is None:
            return counts
        wanted = solver or self.solver
        try:
            with self._engine.connect() as conn:
                counts.tables, counts.pars, counts.traces, counts.leads = (
                    conn.execute(
                        select(func.count()).select_from(table).where(table.c.solver == wanted)
                    ).scalar_one()
                    for table in (dd_tables, dd_pars, dd_traces, dd_leads)
                )
        except SQLAlchemyError as problem:
            self._fail("cannot be read", problem)
        return counts

    def info(self, key: str) -> str | None:
        """A value of the store's own ``store_info`` (e.g. which shipped sets it has read)."""
        if self._engine is None:
            return None
        try:
            with self._engine.connect() as conn:
                return conn.execute(
                    select(store_info.c.value).where(store_info.c.key == key)
                ).scalar()
        except SQLAlchemyError as problem:
            self._fail("cannot be read", problem)
            return None

    def set_info(self, key: str, value: str) -> None:
        """Record ``key`` in ``store_info`` (kept if another run recorded it first)."""
        self._insert(store_info, [{"key": key, "value": value}])

    def all_tables(self, solver: str | None = None) -> Iterator[tuple[str, str]]:
        """Every (deal, 20 hex digits) of ``solver`` (default: ours), in deal order."""
        yield from self._all(dd_tables, (dd_tables.c.deal, dd_tables.c.tricks), solver)

    def all_traces(self, solver: str | None = None) -> Iterator[tuple[str, str, str, str, str]]:
        """Every (deal, trump, leader, cards, trace text) of ``solver`` (default: ours)."""
        columns = (dd_traces.c.deal, dd_traces.c.trump, dd_traces.c.leader, dd_traces.c.cards)
        yield from self._all(dd_traces, (*columns, dd_traces.c.trace), solver)

    def _all(self, table: Table, columns: Sequence[Any], solver: str | None) -> Iterator[Any]:
        if self._engine is None:
            return
        with self._engine.connect() as conn:
            result = conn.execution_options(stream_results=True).execute(
                select(*columns)
                .where(table.c.solver == (solver or self.solver))
                .order_by(*columns[:-1])
            )
            yield from (tuple(row) for row in result)


def _is_read_only(problem: SQLAlchemyError) -> bool:
    text = str(getattr(problem, "orig", None) or problem).lower()
    return "readonly" in text or "read-only" in text or "read only" in text


def open_dd_store(setting: str, solver: str) -> DDStore | None:
    """The store the settings name, or None when it is off.

    Parameters
    ----------
    setting : str
        ``[dds] store`` (the environment variable ``BRIDGERANK_DD_STORE`` sets it too):
        empty for the default file (:func:`default_location`), ``"off"``, a SQLite file's
        path or a SQLAlchemy URL.
    solver : str
        The solver version whose values are read and written.
    """
    chosen = setting.strip()
    if chosen.lower() == OFF:
        return None
    return DDStore(chosen or str(default_location()), solver)
