"""Solved deals shared between machines: the DD store to a CSV file and back.

A team that has solved a championship archive should not make every member solve it again,
so ``bridgerank dd export`` writes the store's tables and play traces of one solver version
to a CSV file (gzip-compressed when its name ends in ``.gz``) and ``bridgerank dd import``
reads such a file into another machine's store. The format (docs/dds.md) is plain CSV with
one header line, so any tool can read the data set::

    kind,solver,deal,trump,leader,cards,values
    table,endplay 0.5.12,N:AK75.54.987653.A Q.AT983.42.JT753 ...,,,,75756666b2b249497575
    trace,endplay 0.5.12,N:AK75.54.987653.A Q.AT983.42.JT753 ...,D,E,CQ CA C2 C6,99999

* ``table``: ``values`` is the 20 hex digits of the table, strains S H D C N, each for
  declarer North, East, South, West; ``trump``, ``leader`` and ``cards`` are empty;
* ``trace``: the play of ``cards`` (space-separated, in playing order) with ``trump``
  (S H D C or N) and the opening lead by ``leader`` (N E S W); ``values`` is one hex digit
  a value, the declaring side's double dummy tricks before each card and after the last
  (``len(cards) + 1`` of them).

Par scores are not exported: they cost nothing next to a table.

A file is another person's text, so it is never trusted. Every row is validated (the deal
re-parsed and re-written canonical, every number 0-13, every play legal); a bad row is
counted with its line number and skipped, never fatal. Tables of a deal the store already
holds must agree with the store's, and a random sample of the new tables is solved again
live before anything is written: one disagreement refuses the whole file, since a file with
one wrong table may hold many. Rows of another solver version are skipped and counted: the
store keys every value by the solver that made it and hands out only its own version's, so
another version's rows would never be read. The CSV module reads the file and the store's
own parameterised statements write it: no text of the file ever reaches SQL.
"""

from __future__ import annotations

import csv
import gzip
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterator

from sqlalchemy.exc import SQLAlchemyError

from bridgerank.bridge.cards import FULL_DECK, SEAT_INDEX, deal_to_pbn, parse_deal
from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable
from bridgerank.cleaning.clean.play import replay
from bridgerank.core.errors import BridgerankError, SettingsError, SourceError, StoreError
from bridgerank.dds.dd_store import (
    OFF,
    DDStore,
    StoreCounts,
    default_location,
    open_dd_store,
    shown_location,
    trace_text,
)
from bridgerank.dds.solver import PlayRequest, solve_plays, solve_tables, solver_version

__all__ = [
    "HEADER",
    "ExportCounts",
    "FileRefused",
    "ImportCounts",
    "StoreInfo",
    "export_store",
    "import_file",
    "open_store",
    "store_info",
]

HEADER = ("kind", "solver", "deal", "trump", "leader", "cards", "values")
# New tables, and new play traces, solved again live by default before a file is imported
# (all of them in a file with fewer): a file of which 1% of the tables (or of the traces) are
# wrong is refused with probability 1 - 0.99^300 = 95%. A trace costs about a fortieth of a
# table; 300 tables are a minute or two of DDS, once, for a file that may hold thousands.
DEFAULT_CHECK = 300
# Reasons of rejected rows kept for the report: the first few say what is wrong with a file.
REASONS_KEPT = 5
# The tail of the store's warnings, written for a run that goes on solving; a command that
# needs the store stops instead, so the tail would mislead.
_RUN_TAIL = "; solving without it"
_HEX = frozenset("0123456789abcdefABCDEF")


# -- opening the store -------------------------------------------------------------------


def _stop_message(store: DDStore) -> str:
    return (store.warning or "").removesuffix(_RUN_TAIL)


def _missing_file(setting: str) -> Path | None:
    """The SQLite file the setting names when it does not exist yet (None for a URL)."""
    chosen = setting.strip()
    if "://" in chosen:
        return None
    path = Path(chosen).expanduser() if chosen else default_location()
    return None if path.exists() else path


def open_store(setting: str, *, write: bool) -> DDStore:
    """The DD store the settings name, for this solver version, ready to read or write.

    Parameters
    ----------
    setting : str
        ``[dds] store`` (or ``BRIDGERANK_DD_STORE``): empty for the default file, a SQLite
        file's path or a SQLAlchemy URL.
    write : bool
        Whether rows will be written: a read-only store is then an error too.

    Returns
    -------
    DDStore

    Raises
    ------
    SettingsError
        The store is ``off`` (exit code 2).
    StoreError
        It cannot be opened (or written, with ``write``).
    """
    store = open_dd_store(setting, solver_version())
    if store is None:
        error = SettingsError("the DD store is off: there is nothing to read or write")
        error.hint = "Set [dds] store in a --config file, or BRIDGERANK_DD_STORE, to a store"
        raise error
    if not store.usable or (write and store.warning):
        message = _stop_message(store)
        store.close()
        raise StoreError(message, "Check [dds] store (or BRIDGERANK_DD_STORE)")
    return store


# -- info --------------------------------------------------------------------------------


@dataclass
class StoreInfo:
    """Where the DD store is and what it holds for this solver version."""

    location: str
    solver: str
    counts: StoreCounts
    exists: bool = True

    def line(self) -> str:
        """One line for ``bridgerank dd info``."""
        where = shown_location(self.location)
        if not self.exists:
            return f"DD store {where}: not created yet (no deal solved); solver {self.solver}"
        counts = self.counts
        return (
            f"DD store {where}: {counts.tables:,} tables, {counts.pars:,} par scores and "
            f"{counts.traces:,} play traces of {self.solver}"
        )


def store_info(setting: str) -> StoreInfo:
    """What ``bridgerank dd info`` shows: the store's location and its counts.

    A SQLite file that does not exist yet is reported, not created: looking is no reason to
    make one.

    Parameters
    ----------
    setting : str
        ``[dds] store`` (see :func:`open_store`).

    Raises
    ------
    SettingsError
        The store is off.
    StoreError
        It cannot be read.
    """
    if setting.strip().lower() != OFF:
        missing = _missing_file(setting)
        if missing is not None:
            return StoreInfo(str(missing), solver_version(), StoreCounts(), exists=False)
    store = open_store(setting, write=False)
    try:
        counts = store.counts()
        if not store.usable:
            raise StoreError(_stop_message(store), "Check [dds] store (or BRIDGERANK_DD_STORE)")
        return StoreInfo(store.location, store.solver, counts)
    finally:
        store.close()


# -- export ------------------------------------------------------------------------------


@dataclass
class ExportCounts:
    """What an export wrote."""

    path: Path
    solver: str
    tables: int = 0
    traces: int = 0

    def line(self) -> str:
        """One line for ``bridgerank dd export``."""
        return (
            f"exported {self.tables:,} tables and {self.traces:,} play traces "
            f"({self.solver}) to {self.path}"
        )


def _open_text(path: Path, mode: str) -> IO[str]:
    """``path`` as text, through gzip when its name ends in ``.gz``. Read as UTF-8 with an
    optional byte order mark: a file saved again by a spreadsheet starts with one."""
    gzipped = path.name.endswith(".gz")
    if mode == "r":
        if gzipped:
            return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
        return open(path, encoding="utf-8-sig", newline="")
    if gzipped:
        return gzip.open(path, "wt", encoding="utf-8", newline="")
    return open(path, "w", encoding="utf-8", newline="")


def export_store(
    store: DDStore, path: Path | str, solver: str | None = None, traces: bool = True
) -> ExportCounts:
    """Write the store's tables (and play traces) of one solver version to a CSV file.

    Rows are streamed from the store to the file, so an export of any size needs little
    memory; they go to a temporary file beside ``path``, renamed over it at the end, so a
    failed export leaves no half file behind. A symbolic link is written through (its target
    replaced, the link kept); a pipe or a device (``/dev/stdout``) is written directly.

    Parameters
    ----------
    store : DDStore
        The store to read.
    path : Path or str
        The file to write; gzip-compressed when its name ends in ``.gz``.
    solver : str, optional
        The solver version whose rows to write (default: the store's own).
    traces : bool
        Whether to write the play traces too (tables always).

    Returns
    -------
    ExportCounts

    Raises
    ------
    StoreError
        The store cannot be read.
    BridgerankError
        The file cannot be written.
    """
    path = Path(path)
    chosen = solver or store.solver
    counts = ExportCounts(path, chosen)
    if not store.usable:
        raise StoreError(_stop_message(store))
    # A link is written through to its target (the link stays); a pipe or a device
    # (/dev/stdout) is written directly, as nothing can be renamed over it.
    target = path.resolve() if path.is_symlink() else path
    direct = target.exists() and not target.is_file()
    written = target if direct else target.with_name(f".partial-{target.name}")
    try:
        with _open_text(written, "w") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(HEADER)
            for deal, tricks in store.all_tables(chosen):
                writer.writerow(("table", chosen, deal, "", "", "", tricks))
                counts.tables += 1
            if traces:
                for deal, trump, leader, cards, trace in store.all_traces(chosen):
                    writer.writerow(("trace", chosen, deal, trump, leader, cards, trace))
                    counts.traces += 1
        if not direct:
            os.replace(written, target)
    except SQLAlchemyError as problem:
        if not direct:
            written.unlink(missing_ok=True)
        reason = str(getattr(problem, "orig", None) or problem).splitlines()[0][:160]
        raise StoreError(f"the DD store at {shown_location(store.location)}: {reason}") from None
    except OSError as problem:
        if not direct:
            written.unlink(missing_ok=True)
        raise BridgerankError(f"{path}: cannot write ({problem.strerror or problem})") from None
    return counts


# -- import ------------------------------------------------------------------------------


@dataclass
class ImportCounts:
    """What an import read, kept, skipped and rejected."""

    path: Path
    solver: str
    rows: int = 0
    tables: int = 0  # new in the store
    traces: int = 0
    tables_present: int = 0  # valid, and in the store already
    traces_present: int = 0
    other_solvers: dict[str, int] = field(default_factory=dict)  # solver -> rows skipped
    rejected: int = 0
    reasons: list[str] = field(default_factory=list)  # the first few, with line numbers
    checked: int = 0  # tables and traces solved again live

    @property
    def other_solver(self) -> int:
        """Rows of other solver versions, skipped."""
        return sum(self.other_solvers.values())

    def reject(self, line: int, reason: str) -> None:
        """Count a bad row, keeping the first few reasons."""
        self.rejected += 1
        if len(self.reasons) < REASONS_KEPT:
            self.reasons.append(f"line {line}: {reason}")

    def line(self) -> str:
        """One line for ``bridgerank dd import``."""
        text = (
            f"imported {self.tables:,} tables and {self.traces:,} play traces ({self.solver}) "
            f"from {self.path}; {self.tables_present:,} tables and {self.traces_present:,} "
            f"traces already stored, {self.checked} tables and traces solved again to check"
        )
        if self.other_solver:
            versions = ", ".join(sorted(self.other_solvers))
            text += f"; {self.other_solver:,} rows of other solvers skipped ({versions})"
        if self.rejected:
            text += f"; {self.rejected:,} rows rejected"
        return text


class FileRefused(BridgerankError):
    """A file with a table (or trace) that disagrees with the store's or the solver's:
    nothing of it is imported."""


def _lines(handle: IO[str], path: Path) -> Iterator[tuple[int, list[str]]]:
    """The rows after the header, with the line each ends on; a file that is no such CSV
    is a SourceError naming it."""
    reader = csv.reader(handle)
    try:
        header = next(reader, None)
        if header is None or tuple(column.strip() for column in header) != HEADER:
            raise SourceError(path, f"not a DD store export (the header is not {','.join(HEADER)})")
        for row in reader:
            if row:  # a blank line is no row
                yield reader.line_num, row
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as problem:
        # gzip's BadGzipFile is an OSError; a truncated .gz raises EOFError
        raise SourceError(path, f"cannot be read as a DD store export ({problem})") from None


def _values(text: str, count: int) -> list[int]:
    if len(text) != count or not set(text) <= _HEX:
        raise ValueError(f"{count} hex digits expected in values, not {text[:40]!r}")
    values = [int(digit, 16) for digit in text]
    if any(value > 13 for value in values):
        raise ValueError(f"a value above 13 in {text!r}")
    return values


def _table(row: list[str]) -> DDTable:
    if any(row[3:6]):
        raise ValueError("a table row has no trump, leader or cards")
    _values(row[6], 20)  # says which digit is wrong, where DDTable would not
    return DDTable.from_hex(row[6].lower())


def _trace(deal: str, row: list[str]) -> tuple[PlayRequest, list[int]]:
    trump, leader, cards_text, values_text = row[3].upper(), row[4].upper(), row[5], row[6]
    if trump not in DDS_STRAINS:
        raise ValueError(f"trump {trump[:10]!r} is none of S H D C N")
    if leader not in SEAT_INDEX:
        raise ValueError(f"leader {leader[:10]!r} is none of N E S W")
    cards = tuple(card.upper() for card in cards_text.split())
    bad = [card for card in cards if card not in FULL_DECK]
    if bad:
        raise ValueError(f"{bad[0][:10]!r} is not a card")
    # The laws too: each card held by the seat whose turn it is, suit followed.
    replay(list(cards), "played", SEAT_INDEX[leader], parse_deal(deal), trump)
    values = _values(values_text, len(cards) + 1)
    return PlayRequest(deal, SEAT_INDEX[leader], trump, cards), values


@dataclass
class _Read:
    """A file's valid rows of the store's solver, with the line each came from."""

    tables: dict[str, tuple[DDTable, int]] = field(default_factory=dict)
    traces: dict[PlayRequest, tuple[list[int], int]] = field(default_factory=dict)


def _read(handle: IO[str], path: Path, solver: str, counts: ImportCounts) -> _Read:
    read = _Read()
    # A key given twice with different values: neither value can be trusted.
    table_conflicts: set[str] = set()
    trace_conflicts: set[PlayRequest] = set()
    for line, row in _lines(handle, path):
        counts.rows += 1
        if len(row) != len(HEADER):
            counts.reject(line, f"{len(HEADER)} columns expected, {len(row)} found")
            continue
        kind, row_solver = row[0].strip(), row[1].strip()
        if kind not in ("table", "trace"):
            counts.reject(line, f"unknown kind {kind[:20]!r} (table or trace)")
            continue
        if not row_solver:
            counts.reject(line, "no solver")
            continue
        if row_solver != solver:
            counts.other_solvers[row_solver] = counts.other_solvers.get(row_solver, 0) + 1
            continue
        try:
            deal = deal_to_pbn(parse_deal(row[2]))
            if kind == "table":
                table = _table(row)
                known = read.tables.setdefault(deal, (table, line))
                if known[0] != table:
                    table_conflicts.add(deal)
                    counts.reject(line, f"deal {deal} has another table on line {known[1]}")
            else:
                request, trace = _trace(deal, row)
                earlier = read.traces.setdefault(request, (trace, line))
                if earlier[0] != trace:
                    trace_conflicts.add(request)
                    counts.reject(line, f"this play has another trace on line {earlier[1]}")
        except (BridgerankError, ValueError) as problem:  # BadRecord is a BridgerankError
            counts.reject(line, str(problem)[:200])
    # The first of the two lines goes too.
    for deal in sorted(table_conflicts):
        counts.reject(read.tables.pop(deal)[1], f"deal {deal} has another table later")
    for request in sorted(trace_conflicts):
        counts.reject(read.traces.pop(request)[1], "this play has another trace later")
    return read


def _declarer_tricks(table: DDTable, request: PlayRequest) -> int:
    """The tricks a trace of ``request`` starts from: declarer is the leader's right."""
    return table.tricks(request.trump, (request.leader + 3) % 4)


def _check(store: DDStore, read: _Read, path: Path, check: int, seed: int | None) -> int:
    """Refuse the file when a table disagrees with the store's or the solver's; drop the
    traces that disagree with their deal's table. Returns the tables solved live."""
    stored = store.tables(read.tables)
    for deal, (table, line) in read.tables.items():
        if deal in stored and stored[deal] != table:
            raise FileRefused(
                f"{path}: refused, nothing imported: line {line}: the table of {deal} is "
                f"{table.hex}, the store's is {stored[deal].hex}"
            )
    stored_traces = store.traces(read.traces)
    for request, (trace, line) in read.traces.items():
        if request in stored_traces and stored_traces[request] != trace:
            raise FileRefused(
                f"{path}: refused, nothing imported: line {line}: the trace of this play is "
                f"{trace_text(trace)}, the store's is {trace_text(stored_traces[request])}"
            )
    rng = random.Random(seed)
    new = sorted(deal for deal in read.tables if deal not in stored)
    sample = rng.sample(new, min(max(check, 0), len(new)))
    for deal, (solved, error) in zip(sample, solve_tables(sample)):
        table, line = read.tables[deal]
        if solved != table:
            found = solved.hex if solved is not None else f"no table ({error})"
            raise FileRefused(
                f"{path}: refused, nothing imported: line {line}: the table of {deal} is "
                f"{table.hex}, the solver's is {found}"
            )
    # traces as tables: a file's altered traces would change every card verdict they judge
    plays = sorted(request for request in read.traces if request not in stored_traces)
    drawn = rng.sample(plays, min(max(check, 0), len(plays)))
    for request, (solved_trace, error) in zip(drawn, solve_plays(drawn)):
        trace, line = read.traces[request]
        if solved_trace != trace:
            found = trace_text(solved_trace) if solved_trace is not None else f"none ({error})"
            raise FileRefused(
                f"{path}: refused, nothing imported: line {line}: the trace of this play is "
                f"{trace_text(trace)}, the solver's is {found}"
            )
    return len(sample) + len(drawn)


def _consistent_traces(store: DDStore, read: _Read, counts: ImportCounts) -> None:
    """Drop the traces whose first value is not their deal's table's (the file's or the
    store's): declarer's double dummy tricks before the lead are the table's, exactly."""
    known = {deal: table for deal, (table, _line) in read.tables.items()}
    wanted = {request.deal for request in read.traces} - set(known)
    known.update(store.tables(wanted))
    for request, (trace, line) in list(read.traces.items()):
        table = known.get(request.deal)
        if table is not None and trace[0] != _declarer_tricks(table, request):
            counts.reject(
                line,
                f"the trace starts at {trace[0]} tricks, the deal's table gives "
                f"{_declarer_tricks(table, request)}",
            )
            del read.traces[request]


def import_file(
    store: DDStore, path: Path | str, check: int = DEFAULT_CHECK, seed: int | None = None
) -> ImportCounts:
    """Read a CSV export into the store, after checking it.

    Every row is validated; a bad row is rejected (counted, its reason kept with its line
    number) and the others go on. Rows of another solver version than the store's are
    skipped and counted: the store would never hand them out. Before anything is written,
    the file's tables of deals the store knows must equal the store's, and ``check`` of its
    new tables, drawn at random, are solved again live: one difference refuses the whole
    file. Only keys the store lacks are written.

    Parameters
    ----------
    store : DDStore
        The store to write into (its solver version decides which rows are read).
    path : Path or str
        A file :func:`export_store` wrote (or any file of that format); gzip when its name
        ends in ``.gz``.
    check : int
        New tables to solve again live before writing (0: none, trust the file).
    seed : int, optional
        Seed of the random sample (default: a fresh one each time).

    Returns
    -------
    ImportCounts

    Raises
    ------
    SourceError
        The file is not such a CSV file (wrong header, not gzip though ``.gz``, unreadable).
    BridgerankError
        A checked table differs from the store's or the solver's; nothing was written.
    StoreError
        The store cannot be read or written.
    """
    path = Path(path)
    counts = ImportCounts(path, store.solver)
    try:
        with _open_text(path, "r") as handle:
            read = _read(handle, path, store.solver, counts)
    except OSError as problem:  # cannot be opened at all
        raise SourceError(path, f"cannot be read ({problem.strerror or problem})") from None
    counts.checked = _check(store, read, path, check, seed)
    _consistent_traces(store, read, counts)
    if store.warning:  # a lookup failed: nothing was compared, so nothing is written
        raise StoreError(_stop_message(store))
    before = store.counts()
    store.add_tables({deal: table for deal, (table, _line) in read.tables.items()})
    store.add_traces({request: trace for request, (trace, _line) in read.traces.items()})
    after = store.counts()
    if store.warning:
        raise StoreError(_stop_message(store))
    counts.tables = after.tables - before.tables
    counts.traces = after.traces - before.traces
    # Another run may write at the same time: what it added is not "already stored" here.
    counts.tables_present = max(len(read.tables) - counts.tables, 0)
    counts.traces_present = max(len(read.traces) - counts.traces, 0)
    return counts
