"""The rows of a file being imported into the DD store, held on disk while they are checked.

``bridgerank dd import`` reads another person's file, which may hold millions of rows: kept
in dictionaries, each table row cost about a kilobyte of memory and a million-row file a
gigabyte. The valid rows go instead to a scratch SQLite file in a private temporary folder,
keyed as the store keys them, and every later pass (against the store, against the solver,
into the store) reads them back a chunk at a time, so memory holds one chunk whatever the
file's size. The scratch file goes when the import ends, refused or not.

A key given twice with one value is one row; with two values, neither value can be trusted:
the key is marked and, once the file is read, dropped with the line of its first row.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Iterator

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.solver import PlayRequest

__all__ = ["CHUNK", "StagedTable", "StagedTrace", "Staging"]

# Rows read back at once: the memory of a pass is this many rows, whatever the file's size.
CHUNK = 5_000

# A table row: the deal, the table's 20 hex digits, the line it came from, and whether the
# file gave the deal another table too (``conflict``) or the store holds it (``present``).
# A trace row: its play (deal, leader, trump, cards) and its values as hex digits.
_SCHEMA = """
CREATE TABLE tables (
    deal TEXT PRIMARY KEY, tricks TEXT NOT NULL, line INTEGER NOT NULL,
    conflict INTEGER NOT NULL DEFAULT 0, present INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE traces (
    deal TEXT NOT NULL, leader INTEGER NOT NULL, trump TEXT NOT NULL, cards TEXT NOT NULL,
    trace TEXT NOT NULL, line INTEGER NOT NULL,
    conflict INTEGER NOT NULL DEFAULT 0, present INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (deal, leader, trump, cards)
);
"""

StagedTable = tuple[str, str, int]  # deal, the table's 20 hex digits, line
StagedTrace = tuple[PlayRequest, list[int], int]  # play, trace, line


def _staged_trace(row: tuple) -> StagedTrace:
    """A trace row (deal, leader, trump, cards, trace, line) read back."""
    deal, leader, trump, cards, trace, line = row
    play = PlayRequest(deal, int(leader), trump, tuple(cards.split()))
    return play, [int(digit, 16) for digit in trace], int(line)


class Staging:
    """A file's valid rows, on disk, for one import; use as a context manager.

    Each ``add_*`` returns ``None`` for a new key or a repeat of its value, and the line of
    the key's first row when the value differs (the caller rejects this line with it).
    """

    def __init__(self) -> None:
        self._folder = Path(tempfile.mkdtemp(prefix="bridgerank-import-"))
        self._db = sqlite3.connect(self._folder / "rows.sqlite")
        # scratch data: a crash loses nothing worth a journal's cost
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.executescript(_SCHEMA)

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Drop the scratch file."""
        self._db.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    # -- while reading -------------------------------------------------------------------

    def add_table(self, deal: str, tricks: str, line: int) -> int | None:
        """Keep ``deal``'s table (its 20 hex digits, checked, in lower case) from ``line``;
        the first line of another table of it."""
        added = self._db.execute(
            "INSERT OR IGNORE INTO tables (deal, tricks, line) VALUES (?, ?, ?)",
            (deal, tricks, line),
        )
        if added.rowcount:
            return None
        known, first = self._db.execute(
            "SELECT tricks, line FROM tables WHERE deal = ?", (deal,)
        ).fetchone()
        if known == tricks:
            return None
        self._db.execute("UPDATE tables SET conflict = 1 WHERE deal = ?", (deal,))
        return int(first)

    def add_trace(self, request: PlayRequest, trace: list[int], line: int) -> int | None:
        """Keep ``request``'s trace from ``line``; the first line of another trace of it."""
        key = (request.deal, request.leader, request.trump, " ".join(request.cards))
        text = "".join(format(value, "x") for value in trace)
        added = self._db.execute(
            "INSERT OR IGNORE INTO traces (deal, leader, trump, cards, trace, line) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (*key, text, line),
        )
        if added.rowcount:
            return None
        known, first = self._db.execute(
            "SELECT trace, line FROM traces "
            "WHERE deal = ? AND leader = ? AND trump = ? AND cards = ?",
            key,
        ).fetchone()
        if known == text:
            return None
        self._db.execute(
            "UPDATE traces SET conflict = 1 "
            "WHERE deal = ? AND leader = ? AND trump = ? AND cards = ?",
            key,
        )
        return int(first)

    def drop_conflicts(self) -> tuple[list[tuple[str, int]], list[int]]:
        """Remove the keys given two values; the deals and first lines of the tables, in deal
        order, and the first lines of the traces, in play order."""
        tables = self._db.execute(
            "SELECT deal, line FROM tables WHERE conflict = 1 ORDER BY deal"
        ).fetchall()
        traces = self._db.execute(
            "SELECT line FROM traces WHERE conflict = 1 ORDER BY deal, leader, trump, cards"
        ).fetchall()
        self._db.execute("DELETE FROM tables WHERE conflict = 1")
        self._db.execute("DELETE FROM traces WHERE conflict = 1")
        return [(deal, int(line)) for deal, line in tables], [int(line) for (line,) in traces]

    # -- reading back --------------------------------------------------------------------

    def table_count(self) -> int:
        """Tables kept."""
        return int(self._db.execute("SELECT count(*) FROM tables").fetchone()[0])

    def trace_count(self) -> int:
        """Traces kept."""
        return int(self._db.execute("SELECT count(*) FROM traces").fetchone()[0])

    def tables(self, new_only: bool = False) -> Iterator[list[StagedTable]]:
        """The tables kept, in the file's order, a chunk at a time."""
        for rows in self._chunks("tables", "deal, tricks, line", new_only):
            yield [(deal, tricks, int(line)) for deal, tricks, line in rows]

    def traces(self, new_only: bool = False) -> Iterator[list[StagedTrace]]:
        """The traces kept, in the file's order, a chunk at a time."""
        for rows in self._chunks("traces", "deal, leader, trump, cards, trace, line", new_only):
            yield [_staged_trace(row) for row in rows]

    def _chunks(self, table: str, columns: str, new_only: bool) -> Iterator[list[tuple]]:
        # Each chunk its own query from the last rowid seen, so that the caller may mark or
        # drop rows between two chunks without disturbing an open cursor.
        present = " AND present = 0" if new_only else ""
        last = 0
        while True:
            rows = self._db.execute(
                f"SELECT rowid, {columns} FROM {table} WHERE rowid > ?{present} "
                "ORDER BY rowid LIMIT ?",
                (last, CHUNK),
            ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            yield [row[1:] for row in rows]

    def sample_tables(self, rng: random.Random, count: int) -> list[StagedTable]:
        """``count`` of the new tables (those the store lacks), drawn at random."""
        rows = self._drawn("tables", "deal, tricks, line", rng, count)
        return [(deal, tricks, int(line)) for deal, tricks, line in rows]

    def sample_traces(self, rng: random.Random, count: int) -> list[StagedTrace]:
        """``count`` of the new traces (those the store lacks), drawn at random."""
        rows = self._drawn("traces", "deal, leader, trump, cards, trace, line", rng, count)
        return [_staged_trace(row) for row in rows]

    def _drawn(self, table: str, columns: str, rng: random.Random, count: int) -> list[tuple]:
        # Positions drawn first, then the rowids at them read from the index alone: the rows
        # themselves are read only for the few drawn.
        total = self._db.execute(f"SELECT count(*) FROM {table} WHERE present = 0").fetchone()[0]
        picks = sorted(rng.sample(range(total), min(max(count, 0), total)))
        cursor = self._db.execute(f"SELECT rowid FROM {table} WHERE present = 0 ORDER BY rowid")
        wanted, position = [], 0
        while picks and (chunk := cursor.fetchmany(CHUNK)):
            for (rowid,) in chunk:
                if picks and picks[0] == position:
                    wanted.append(rowid)
                    picks.pop(0)
                position += 1
        cursor.close()
        found = []
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            found.extend(
                self._db.execute(
                    f"SELECT {columns} FROM {table} WHERE rowid IN ({marks}) ORDER BY rowid",
                    batch,
                ).fetchall()
            )
        return found

    def table_of(self, deals: list[str]) -> dict[str, DDTable]:
        """The file's tables of ``deals`` (those it gives)."""
        found: dict[str, DDTable] = {}
        for start in range(0, len(deals), 500):
            batch = deals[start : start + 500]
            marks = ",".join("?" * len(batch))
            rows = self._db.execute(
                f"SELECT deal, tricks FROM tables WHERE deal IN ({marks})", batch
            )
            found.update((deal, DDTable.from_hex(tricks)) for deal, tricks in rows)
        return found

    # -- marking -------------------------------------------------------------------------

    def mark_present_tables(self, deals: list[str]) -> None:
        """Note that the store holds ``deals``' tables (with the same values)."""
        self._db.executemany("UPDATE tables SET present = 1 WHERE deal = ?", [(d,) for d in deals])

    def mark_present_traces(self, requests: list[PlayRequest]) -> None:
        """Note that the store holds ``requests``' traces (with the same values)."""
        self._db.executemany(
            "UPDATE traces SET present = 1 "
            "WHERE deal = ? AND leader = ? AND trump = ? AND cards = ?",
            [(r.deal, r.leader, r.trump, " ".join(r.cards)) for r in requests],
        )

    def drop_traces(self, requests: list[PlayRequest]) -> None:
        """Remove the traces of ``requests`` (rejected after reading)."""
        self._db.executemany(
            "DELETE FROM traces WHERE deal = ? AND leader = ? AND trump = ? AND cards = ?",
            [(r.deal, r.leader, r.trump, " ".join(r.cards)) for r in requests],
        )
