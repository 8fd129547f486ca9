"""Import: a CSV export read into the DD store - every row validated, the file checked
(:mod:`bridgerank.dds.import_checks`), only the keys the store lacks written."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterator

from bridgerank.bridge.cards import FULL_DECK, SEAT_INDEX, deal_to_pbn, parse_deal
from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable
from bridgerank.cleaning.clean.play import replay
from bridgerank.cleaning.ingest.limits import Limits
from bridgerank.cleaning.ingest.sources import bounded_lines
from bridgerank.core.errors import BridgerankError, SourceError, StoreError
from bridgerank.core.settings import default_settings
from bridgerank.dds.dd_store import DDStore
from bridgerank.dds.exchange_file import HEADER, open_text
from bridgerank.dds.import_checks import DEFAULT_CHECK, against_solver, against_store
from bridgerank.dds.import_staging import Staging
from bridgerank.dds.solver import PlayRequest
from bridgerank.dds.store_opening import stop_message

__all__ = ["MAX_OTHER_SOLVERS", "OTHERS", "ImportCounts", "import_file"]

# Reasons of rejected rows kept for the report: the first few say what is wrong with a file.
REASONS_KEPT = 5
_HEX = frozenset("0123456789abcdefABCDEF")
# Other solver versions named one by one in the summary; a file naming more (a hostile one
# names a new one each line) counts the rest together, so the counts stay small.
MAX_OTHER_SOLVERS = 20
OTHERS = "others"


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
            raise StoreError(stop_message(store))
    for traces in staged.traces(new_only=True):
        store.add_traces({request: trace for request, trace, _line in traces})
        if store.warning:
            raise StoreError(stop_message(store))


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
            with open_text(path, "r") as handle:
                _read(handle, path, limits, path.name.endswith(".gz"), counts, staged)
        except OSError as problem:  # cannot be opened at all
            raise SourceError(path, f"cannot be read ({problem.strerror or problem})") from None
        against_store(store, staged, path)
        counts.checked = against_solver(staged, path, check, seed, say or (lambda _text: None))
        _drop_inconsistent_traces(store, staged, counts)
        if store.warning:  # a lookup failed: nothing was compared, so nothing is written
            raise StoreError(stop_message(store))
        kept_tables, kept_traces = staged.table_count(), staged.trace_count()
        before = store.counts()
        _write(store, staged)
        after = store.counts()
    if store.warning:
        raise StoreError(stop_message(store))
    counts.tables = after.tables - before.tables
    counts.traces = after.traces - before.traces
    # Another run may write at the same time: what it added is not "already stored" here.
    counts.tables_present = max(kept_tables - counts.tables, 0)
    counts.traces_present = max(kept_traces - counts.traces, 0)
    return counts
