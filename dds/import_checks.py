"""The checks that refuse an import's file as a whole: its values against the store's, and a
random sample of its new values against the solver's, before anything is written.

A file with one wrong table may hold many, so one disagreement refuses it all
(:class:`FileRefused`); a bad row alone is only rejected (:mod:`bridgerank.dds.store_import`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from bridgerank.core.errors import BridgerankError
from bridgerank.dds.dd_store import DDStore, trace_text
from bridgerank.dds.import_staging import Staging
from bridgerank.dds.solver import PLAY_BATCH, TABLE_BATCH, solve_plays, solve_tables

__all__ = ["DEFAULT_CHECK", "FileRefused", "against_solver", "against_store"]

# New tables, and new play traces, solved again live by default before a file is imported
# (all of them in a file with fewer): a file of which 1% of the tables (or of the traces) are
# wrong is refused with probability 1 - 0.99^300 = 95%. A trace costs about a fortieth of a
# table; 300 tables are a minute or two of DDS, once, for a file that may hold thousands.
DEFAULT_CHECK = 300
T = TypeVar("T")


class FileRefused(BridgerankError):
    """A file with a table (or trace) that disagrees with the store's or the solver's:
    nothing of it is imported."""


def _refused(path: Path, line: int, what: str, value: str, other: str, whose: str) -> FileRefused:
    return FileRefused(
        f"{path}: refused, nothing imported: line {line}: the {what} is {value}, "
        f"the {whose}'s is {other}"
    )


def against_store(store: DDStore, staged: Staging, path: Path) -> None:
    """Refuse the file when a table or trace differs from the store's; mark those the store
    holds already, which need no other check.

    Parameters
    ----------
    store : DDStore
        The store the file goes into.
    staged : Staging
        The file's valid rows of the store's solver.
    path : Path
        The file, named in the refusal.

    Raises
    ------
    FileRefused
        A staged table or trace differs from the store's.
    """
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


def against_solver(
    staged: Staging, path: Path, check: int, seed: int | None, say: Callable[[str], None]
) -> int:
    """Solve ``check`` of the new tables, and of the new traces, again live; one difference
    refuses the file. Returns how many were solved.

    Parameters
    ----------
    staged : Staging
        The file's valid rows, those the store holds already marked (:func:`against_store`).
    path : Path
        The file, named in the refusal.
    check : int
        New tables, and new traces, to draw and solve (all of them when fewer).
    seed : int or None
        Seed of the random draw.
    say : callable
        Told, in one line, of the solving before it starts.

    Raises
    ------
    FileRefused
        A drawn table or trace differs from the solver's.
    """
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
