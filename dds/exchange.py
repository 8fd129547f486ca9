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
from typing import IO, Callable, Iterator, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from bridgerank.bridge.cards import FULL_DECK, SEAT_INDEX, deal_to_pbn, parse_deal
from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable
from bridgerank.cleaning.clean.play import replay
from bridgerank.cleaning.ingest.limits import Limits
from bridgerank.cleaning.ingest.sources import bounded_lines
from bridgerank.core.errors import BridgerankError, SettingsError, SourceError, StoreError
from bridgerank.core.settings import default_settings
from bridgerank.dds.dd_store import (
    OFF,
    DDStore,
    StoreCounts,
    default_location,
    open_dd_store,
    shown_location,
    trace_text,
)
from bridgerank.dds.import_staging import Staging
from bridgerank.dds.solver import (
    PLAY_BATCH,
    TABLE_BATCH,
    PlayRequest,
    solve_plays,
    solve_tables,
    solver_version,
)

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
# Other solver versions named one by one in the summary; a file naming more (a hostile one
# names a new one each line) counts the rest together, so the counts stay small.
MAX_OTHER_SOLVERS = 20
OTHERS = "others"
T = TypeVar("T")


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


def _lines(
    handle: IO[str], path: Path, limits: Limits, gzipped: bool
) -> Iterator[tuple[int, list[str] | str]]:
    """The rows after the header, with the line each ends on, or the reason a row cannot be
    read as CSV; a file that is no such CSV, or that outgrows ``limits``, is a SourceError
    naming it. Memory holds one line (of at most ``limits.line_bytes``) at a time."""
    reader = csv.reader(bounded_lines(path, handle, limits, gzipped))
    try:
        header = next(reader, None)
        if header is None or tuple(column.strip() for column in header) != HEADER:
            raise SourceError(path, f"not a DD store export (the header is not {','.join(HEADER)})")
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as problem:  # one row's quoting or size: that row only
                yield reader.line_num, f"not a CSV row ({problem})"
                continue
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


def _table(row: list[str]) -> str:
    """A table row's values, checked as a table's (20 digits, each 0-13), in lower case."""
    if any(row[3:6]):
        raise ValueError("a table row has no trump, leader or cards")
    _values(row[6], 20)
    return row[6].lower()


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


def _read(
    handle: IO[str], path: Path, limits: Limits, gzipped: bool, counts: ImportCounts, into: Staging
) -> None:
    """Validate every row of ``handle`` and stage the valid rows of the store's solver."""
    for line, row in _lines(handle, path, limits, gzipped):
        counts.rows += 1
        if isinstance(row, str):
            counts.reject(line, row)
            continue
        if len(row) != len(HEADER):
            counts.reject(line, f"{len(HEADER)} columns expected, {len(row):,} found")
            continue
        kind, row_solver = row[0].strip(), row[1].strip()
        if kind not in ("table", "trace"):
            counts.reject(line, f"unknown kind {kind[:20]!r} (table or trace)")
            continue
        if not row_solver:
            counts.reject(line, "no solver")
            continue
        if row_solver != counts.solver:
            named = row_solver[:60]  # a name, not a line of text
            if len(counts.other_solvers) >= MAX_OTHER_SOLVERS and named not in counts.other_solvers:
                named = OTHERS  # a hostile file naming a new solver on each line
            counts.other_solvers[named] = counts.other_solvers.get(named, 0) + 1
            continue
        try:
            deal = deal_to_pbn(parse_deal(row[2]))
            if kind == "table":
                first = into.add_table(deal, _table(row), line)
                if first is not None:
                    counts.reject(line, f"deal {deal} has another table on line {first}")
            else:
                request, trace = _trace(deal, row)
                first = into.add_trace(request, trace, line)
                if first is not None:
                    counts.reject(line, f"this play has another trace on line {first}")
        except (BridgerankError, ValueError) as problem:  # BadRecord is a BridgerankError
            counts.reject(line, str(problem)[:200])
    # A key given two values: neither can be trusted, so the first of the lines goes too.
    tables, traces = into.drop_conflicts()
    for deal, line in tables:
        counts.reject(line, f"deal {deal} has another table later")
    for line in traces:
        counts.reject(line, "this play has another trace later")


def _declarer_tricks(table: DDTable, request: PlayRequest) -> int:
    """The tricks a trace of ``request`` starts from: declarer is the leader's right."""
    return table.tricks(request.trump, (request.leader + 3) % 4)


def _refused(path: Path, line: int, what: str, value: str, other: str, whose: str) -> FileRefused:
    return FileRefused(
        f"{path}: refused, nothing imported: line {line}: the {what} is {value}, "
        f"the {whose}'s is {other}"
    )


def _against_store(store: DDStore, staged: Staging, path: Path) -> None:
    """Refuse the file when a table or trace differs from the store's; mark those the store
    holds already, which need no other check."""
    for chunk in staged.tables():
        stored = store.tables(deal for deal, _table, _line in chunk)
        for deal, tricks, line in chunk:
            if deal in stored and stored[deal].hex != tricks:
                raise _refused(path, line, f"table of {deal}", tricks, stored[deal].hex, "store")
        staged.mark_present_tables(list(stored))
    for traces in staged.traces():
        known = store.traces(request for request, _trace, _line in traces)
        for request, trace, line in traces:
            if request in known and known[request] != trace:
                raise _refused(
                    path,
                    line,
                    "trace of this play",
                    trace_text(trace),
                    trace_text(known[request]),
                    "store",
                )
        staged.mark_present_traces(list(known))


def _against_solver(
    staged: Staging, path: Path, check: int, seed: int | None, say: Callable[[str], None]
) -> int:
    """Solve ``check`` of the new tables, and of the new traces, again live; one difference
    refuses the file. Returns how many were solved."""
    rng = random.Random(seed)
    tables = staged.sample_tables(rng, check)
    traces = staged.sample_traces(rng, check)
    if tables or traces:
        say(
            f"dd import: solving {len(tables)} of the file's new tables and {len(traces)} of "
            "its new play traces again to check them"
        )
    # In batches that grow from one, the cheap traces first: a poisoned file is refused at
    # its first wrong value, before the solver has spent minutes (and, with its threads'
    # tables, a few hundred megabytes) on the rest.
    # Traces as tables: a file's altered traces would change every card verdict they judge.
    for plays in _batches(traces, PLAY_BATCH):
        solved_traces = solve_plays([request for request, _trace, _line in plays])
        for (_request, trace, line), (solved_trace, error) in zip(plays, solved_traces):
            if solved_trace != trace:
                found = trace_text(solved_trace) if solved_trace is not None else f"none ({error})"
                raise _refused(path, line, "trace of this play", trace_text(trace), found, "solver")
    for deals in _batches(tables, TABLE_BATCH):
        solved_tables = solve_tables([deal for deal, _tricks, _line in deals])
        for (deal, tricks, line), (solved, error) in zip(deals, solved_tables):
            if solved is None or solved.hex != tricks:
                found = solved.hex if solved is not None else f"no table ({error})"
                raise _refused(path, line, f"table of {deal}", tricks, found, "solver")
    return len(tables) + len(traces)


def _batches(items: list[T], largest: int) -> Iterator[list[T]]:
    """``items`` in batches of 1, 2, 4, ... up to ``largest``."""
    start, size = 0, 1
    while start < len(items):
        yield items[start : start + size]
        start, size = start + size, min(2 * size, largest)


def _drop_inconsistent_traces(store: DDStore, staged: Staging, counts: ImportCounts) -> None:
    """Drop the traces whose first value is not their deal's table's (the file's or the
    store's): declarer's double dummy tricks before the lead are the table's, exactly."""
    for traces in staged.traces():
        deals = sorted({request.deal for request, _trace, _line in traces})
        known = staged.table_of(deals)
        known.update(store.tables(deal for deal in deals if deal not in known))
        wrong = []
        for request, trace, line in traces:
            table = known.get(request.deal)
            if table is not None and trace[0] != _declarer_tricks(table, request):
                counts.reject(
                    line,
                    f"the trace starts at {trace[0]} tricks, the deal's table gives "
                    f"{_declarer_tricks(table, request)}",
                )
                wrong.append(request)
        staged.drop_traces(wrong)


def _write(store: DDStore, staged: Staging) -> None:
    """Offer the staged rows to the store a chunk at a time (it keeps the keys it lacks)."""
    for tables in staged.tables(new_only=True):
        store.add_tables({deal: DDTable.from_hex(tricks) for deal, tricks, _line in tables})
        if store.warning:
            raise StoreError(_stop_message(store))
    for traces in staged.traces(new_only=True):
        store.add_traces({request: trace for request, trace, _line in traces})
        if store.warning:
            raise StoreError(_stop_message(store))


def import_file(
    store: DDStore,
    path: Path | str,
    check: int = DEFAULT_CHECK,
    seed: int | None = None,
    limits: Limits | None = None,
    say: Callable[[str], None] | None = None,
) -> ImportCounts:
    """Read a CSV export into the store, after checking it.

    Every row is validated; a bad row is rejected (counted, its reason kept with its line
    number) and the others go on. Rows of another solver version than the store's are
    skipped and counted: the store would never hand them out. Before anything is written,
    the file's tables and traces the store knows must equal the store's, and ``check`` of its
    new tables and ``check`` of its new traces, drawn at random, are solved again live: one
    difference refuses the whole file. Only keys the store lacks are written.

    The file streams in: memory holds one line (bounded by ``limits``) and a chunk of rows,
    the valid rows waiting on disk (:class:`~bridgerank.dds.import_staging.Staging`).

    Parameters
    ----------
    store : DDStore
        The store to write into (its solver version decides which rows are read).
    path : Path or str
        A file :func:`export_store` wrote (or any file of that format); gzip when its name
        ends in ``.gz``.
    check : int
        New tables, and new traces, to solve again live before writing (0: none, trust the
        file).
    seed : int, optional
        Seed of the random sample (default: a fresh one each time).
    limits : Limits, optional
        The longest line and the most content read (default: the shipped ``[ingest]``
        bounds, which a hand record meets too).
    say : callable, optional
        Told, in one line, of the live solving before it starts (it takes a minute or two).

    Returns
    -------
    ImportCounts

    Raises
    ------
    SourceError
        The file is not such a CSV file (wrong header, not gzip though ``.gz``, unreadable,
        a line or the whole past ``limits``); nothing was written.
    FileRefused
        A table or trace differs from the store's or the solver's; nothing was written.
    StoreError
        The store cannot be read or written (what was written before stays: every row of
        it was checked).
    """
    path = Path(path)
    limits = limits or Limits.of(default_settings().ingest)
    counts = ImportCounts(path, store.solver)
    with Staging() as staged:
        try:
            with _open_text(path, "r") as handle:
                _read(handle, path, limits, path.name.endswith(".gz"), counts, staged)
        except OSError as problem:  # cannot be opened at all
            raise SourceError(path, f"cannot be read ({problem.strerror or problem})") from None
        _against_store(store, staged, path)
        counts.checked = _against_solver(staged, path, check, seed, say or (lambda _text: None))
        _drop_inconsistent_traces(store, staged, counts)
        if store.warning:  # a lookup failed: nothing was compared, so nothing is written
            raise StoreError(_stop_message(store))
        kept_tables, kept_traces = staged.table_count(), staged.trace_count()
        before = store.counts()
        _write(store, staged)
        after = store.counts()
    if store.warning:
        raise StoreError(_stop_message(store))
    counts.tables = after.tables - before.tables
    counts.traces = after.traces - before.traces
    # Another run may write at the same time: what it added is not "already stored" here.
    counts.tables_present = max(kept_tables - counts.tables, 0)
    counts.traces_present = max(kept_traces - counts.traces, 0)
    return counts
