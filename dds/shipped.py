"""The double dummy tables bridgerank ships: every distinct deal of the public archives.

The file (``bridgerank/data/dd_tables.bin``, made by ``data/make_dd_tables.py``) is a header
line and a JSON line, then one 23-byte record a deal, sorted by deal:

* 13 bytes: the deal, two bits a card - the holder's seat (0 = North) - for the cards in
  the order spades, hearts, diamonds, clubs, each from the ace down, first card in the
  highest bits;
* 10 bytes: its table, the 20 numbers of 0-13 DDS returns (strains S H D C N, declarers
  N E S W), a nibble each, the first in the high nibble.

The JSON line names the solver that made the tables and their count. The first run that
opens a store reads the file into it (:func:`load_shipped`), once per store and file, so a
fresh install solves no table of a deal from those archives.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable, Iterator

from bridgerank.bridge.cards import RANKS, SUITS, deal_to_pbn, parse_deal
from bridgerank.bridge.ddtable import DDTable
from bridgerank.core.errors import BridgerankError
from bridgerank.dds.dd_store import DDStore

__all__ = [
    "MAGIC",
    "RECORD",
    "ShippedTables",
    "decode_deal",
    "encode_deal",
    "load_shipped",
    "read_packed",
    "read_shipped",
    "shipped_path",
    "solve_into_store",
    "write_packed",
    "write_shipped",
]

MAGIC = b"bridgerank dd tables 1\n"
# What each kind of shipped file holds, for its errors.
_WHAT = {"deals": "double dummy tables", "leads": "opening-lead values"}
RECORD = 23
_CARDS = [suit + rank for suit in SUITS for rank in RANKS]


def encode_deal(deal: str) -> bytes:
    """A deal's 13 bytes: two bits a card, its holder's seat."""
    hands = parse_deal(deal)
    holder = {card: seat for seat, hand in enumerate(hands) for card in hand}
    number = 0
    for card in _CARDS:
        number = (number << 2) | holder[card]
    return number.to_bytes(13, "big")


def decode_deal(code: bytes) -> str:
    """The canonical PBN text of a deal's 13 bytes."""
    number = int.from_bytes(code, "big")
    hands: list[set[str]] = [set(), set(), set(), set()]
    for card in reversed(_CARDS):
        hands[number & 3].add(card)
        number >>= 2
    if any(len(hand) != 13 for hand in hands):
        raise BridgerankError("a shipped deal does not give 13 cards to each hand")
    north, east, south, west = (frozenset(hand) for hand in hands)
    return deal_to_pbn((north, east, south, west))


def _encode_table(table: DDTable) -> bytes:
    values = [tricks for row in table.rows for tricks in row]
    return bytes((values[i] << 4) | values[i + 1] for i in range(0, 20, 2))


def _decode_table(code: bytes) -> DDTable:
    values = [nibble for byte in code for nibble in (byte >> 4, byte & 15)]
    return DDTable(tuple(tuple(values[i : i + 4]) for i in range(0, 20, 4)))  # type: ignore[misc]


@dataclass(frozen=True)
class ShippedTables:
    """A shipped file read: its solver, its digest (the store's record of having read it)
    and its records, decoded only when :attr:`tables` is asked for (every run checks the
    digest; only a store's first run needs the deals)."""

    solver: str
    digest: str
    body: bytes = field(repr=False)

    @functools.cached_property
    def tables(self) -> dict[str, DDTable]:
        """Deal (canonical PBN) -> table."""
        return dict(_records(self.body))


def shipped_path() -> Path:
    """The file bridgerank ships (package data of ``bridgerank.data``)."""
    return Path(str(resources.files("bridgerank.data").joinpath("dd_tables.bin")))


def write_shipped(path: Path, solver: str, tables: Iterable[tuple[str, DDTable]]) -> int:
    """Write ``tables`` (deal -> table) to ``path`` in the shipped form; returns the count."""
    records = sorted(encode_deal(deal) + _encode_table(table) for deal, table in tables)
    write_packed(path, MAGIC, {"solver": solver, "deals": len(records)}, records)
    return len(records)


def _records(body: bytes) -> Iterator[tuple[str, DDTable]]:
    for start in range(0, len(body), RECORD):
        record = body[start : start + RECORD]
        yield decode_deal(record[:13]), _decode_table(record[13:])


def read_packed(path: Path, magic: bytes, record: int, noun: str) -> tuple[dict, bytes, str]:
    """A shipped file of fixed-size records: its JSON header, its records' bytes and its
    digest (the store's record of having read it). The header counts the records under
    ``noun`` (``deals``, ``leads``).

    Raises
    ------
    BridgerankError
        When the file cannot be read, is not one, or is cut short.
    """
    try:
        data = path.read_bytes()
    except OSError as problem:
        raise BridgerankError(
            f"{path}: cannot read the shipped {noun} ({problem.strerror})"
        ) from None
    header_end = data.find(b"\n", len(magic))
    if not data.startswith(magic) or header_end < 0:
        raise BridgerankError(f"{path}: not a file of shipped {_WHAT[noun]}")
    header = json.loads(data[len(magic) : header_end])
    body = data[header_end + 1 :]
    if len(body) != record * header[noun]:
        raise BridgerankError(
            f"{path}: {header[noun]:,} {noun} announced, {len(body) / record:,.1f} present"
        )
    return header, body, hashlib.sha256(data).hexdigest()[:16]


def write_packed(path: Path, magic: bytes, header: dict, records: Iterable[bytes]) -> None:
    """Write a shipped file: ``magic``, the JSON ``header`` on one line, then the records."""
    with open(path, "wb") as handle:
        handle.write(magic + json.dumps(header, sort_keys=True).encode() + b"\n")
        for record in records:
            handle.write(record)


def read_shipped(path: Path | None = None) -> ShippedTables:
    """Read a shipped file (default: bridgerank's own).

    Raises
    ------
    BridgerankError
        When the file is not one, or is cut short.
    """
    header, body, digest = read_packed(path or shipped_path(), MAGIC, RECORD, "deals")
    return ShippedTables(header["solver"], digest, body)


def load_shipped(store: DDStore, path: Path | None = None) -> int:
    """Read the shipped tables into ``store`` unless it has read this file before.

    Only tables of the store's own solver version are read: another version's are not
    trusted. Returns the number of tables offered to the store (0 when it had them).
    """
    path = path or shipped_path()
    if not store.usable or not path.exists():
        return 0
    shipped = read_shipped(path)
    key = f"shipped {shipped.digest}"
    if shipped.solver != store.solver or store.info(key) is not None:
        return 0
    offered = store.add_tables(shipped.tables)
    if offered:
        store.set_info(key, f"{offered} tables of {path.name}")
    return offered


def solve_into_store(
    store: DDStore,
    deals: list[str],
    jobs: int = 1,
    on_batch: Callable[[int], None] | None = None,
) -> dict[str, str]:
    """Solve the tables of ``deals`` the store lacks, on ``jobs`` processes, keeping each
    batch in the store as it comes (an interrupted build resumes where it stopped).

    Returns
    -------
    dict of str to str
        The deals DDS rejected: deal -> the solver's message.
    """
    from joblib import Parallel, delayed

    from bridgerank.dds.solver import TABLE_BATCH

    missing = sorted(set(deals) - set(store.tables(deals)))
    batches = [missing[i : i + TABLE_BATCH] for i in range(0, len(missing), TABLE_BATCH)]
    threads = max(1, (os.cpu_count() or 1) // max(jobs, 1))
    rejected: dict[str, str] = {}
    results = Parallel(n_jobs=jobs, return_as="generator")(
        delayed(_solve_batch)(batch, threads) for batch in batches
    )
    for batch, solved in zip(batches, results):
        store.add_tables({deal: table for deal, (table, _) in zip(batch, solved) if table})
        rejected.update(
            (deal, error or "") for deal, (table, error) in zip(batch, solved) if not table
        )
        if store.warning:
            raise BridgerankError(store.warning)
        if on_batch is not None:
            on_batch(len(batch))
    return rejected


def _solve_batch(batch: list[str], threads: int) -> list[tuple[DDTable | None, str | None]]:
    from bridgerank.dds.solver import set_threads, solve_tables

    set_threads(threads)
    return solve_tables(batch)
