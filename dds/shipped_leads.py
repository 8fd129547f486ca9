"""The opening-lead values bridgerank ships: every lead of the public archives' travellers.

Valet's travellers give the opening lead of some 240,000 tables; valuing every lead of their
deals (one solve a deal, strain and leader) costs a fresh install about twenty minutes, so the
values ship with the package like the tables (:mod:`bridgerank.dds.shipped`). The file
(``bridgerank/data/dd_leads.bin``, made by ``data/make_dd_leads.py``) is a header line and a
JSON line, then one 21-byte record a deal, strain and leader, sorted:

* 13 bytes: the deal, as :func:`~bridgerank.dds.shipped.encode_deal` writes it;
* 1 byte: the strain (0-4: S H D C N) times four plus the leader's seat (0 = North);
* 7 bytes: declarer side's tricks after each card of the leader's hand is led, a nibble a
  card, the cards in the order spades, hearts, diamonds, clubs, each from the ace down (the
  last nibble unused).

The JSON line names the solver and the count. The first run that opens a store reads the file
into it, once per store and file, beside the tables.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Iterable, Iterator

from bridgerank.bridge.cards import RANKS, SUITS, parse_deal
from bridgerank.bridge.ddtable import DDS_STRAINS
from bridgerank.dds.dd_store import DDStore
from bridgerank.dds.shipped import decode_deal, encode_deal, read_packed, write_packed
from bridgerank.dds.solver import LeadRequest, LeadValues

__all__ = [
    "LEADS_MAGIC",
    "LEAD_RECORD",
    "load_shipped_leads",
    "read_shipped_leads",
    "shipped_leads_path",
    "write_shipped_leads",
]

LEADS_MAGIC = b"bridgerank dd leads 1\n"
LEAD_RECORD = 21
_ORDER = {
    suit + rank: index for index, (suit, rank) in enumerate((s, r) for s in SUITS for r in RANKS)
}


def _hand(request: LeadRequest) -> list[str]:
    """The leader's cards in the file's order."""
    return sorted(parse_deal(request.deal)[request.leader], key=_ORDER.__getitem__)


def _encode(request: LeadRequest, values: LeadValues) -> bytes:
    nibbles = [values[card] for card in _hand(request)] + [0]
    packed = bytes((nibbles[i] << 4) | nibbles[i + 1] for i in range(0, 14, 2))
    key = DDS_STRAINS.index(request.trump) * 4 + request.leader
    return encode_deal(request.deal) + bytes([key]) + packed


def _decode(record: bytes) -> tuple[LeadRequest, LeadValues]:
    key = record[13]
    request = LeadRequest(decode_deal(record[:13]), key % 4, DDS_STRAINS[key // 4])
    nibbles = [nibble for byte in record[14:] for nibble in (byte >> 4, byte & 15)]
    return request, dict(zip(_hand(request), nibbles))


def shipped_leads_path() -> Path:
    """The file bridgerank ships (package data of ``bridgerank.data``)."""
    return Path(str(resources.files("bridgerank.data").joinpath("dd_leads.bin")))


def write_shipped_leads(
    path: Path, solver: str, leads: Iterable[tuple[LeadRequest, LeadValues]]
) -> int:
    """Write ``leads`` to ``path`` in the shipped form; returns the count."""
    records = sorted(_encode(request, values) for request, values in leads)
    write_packed(path, LEADS_MAGIC, {"solver": solver, "leads": len(records)}, records)
    return len(records)


def _records(body: bytes) -> Iterator[tuple[LeadRequest, LeadValues]]:
    for start in range(0, len(body), LEAD_RECORD):
        yield _decode(body[start : start + LEAD_RECORD])


def read_shipped_leads(path: Path | None = None) -> tuple[str, str, dict[LeadRequest, LeadValues]]:
    """Read a shipped leads file (default: bridgerank's own): its solver, its digest and its
    values.

    Raises
    ------
    BridgerankError
        When the file is not one, or is cut short.
    """
    header, body, digest = read_packed(
        path or shipped_leads_path(), LEADS_MAGIC, LEAD_RECORD, "leads"
    )
    return header["solver"], digest, dict(_records(body))


def load_shipped_leads(store: DDStore, path: Path | None = None) -> int:
    """Read the shipped lead values into ``store`` unless it has read this file before.

    Only values of the store's own solver version are read. Returns the number offered to
    the store (0 when it had them, or when no file ships).
    """
    path = path or shipped_leads_path()
    if not store.usable or not path.exists():
        return 0
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()[:16]
    key = f"shipped {digest}"
    if store.info(key) is not None:
        return 0
    solver, _, leads = read_shipped_leads(path)
    if solver != store.solver:
        return 0
    offered = store.add_leads(leads)
    if offered:
        store.set_info(key, f"{offered} leads of {path.name}")
    return offered
