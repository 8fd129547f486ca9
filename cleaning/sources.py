"""Finding input files, recognising their format and decoding their text."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

from cleaning.ingest_lin import read_lin
from cleaning.ingest_pbn import read_pbn
from cleaning.ingest_sqldump import read_sqldump
from cleaning.records import RawRecord
from pipeline.errors import SourceError

_SQL = re.compile(rb"INSERT\s+INTO\s", re.IGNORECASE)
_PBN = re.compile(rb'(?m)^\s*\[(Event|Deal|Board|Dealer|Site|North|South|West|East)\s+"')
_LIN = re.compile(rb"(?:^|\|)\s*(?:md|qx|pn|vg|mb|pc|ah|sv)\|", re.IGNORECASE | re.MULTILINE)

READERS: dict[str, Callable[[str], Iterator[RawRecord]]] = {
    "sql": read_sqldump, "pbn": read_pbn, "lin": read_lin,
}


class Candidate(NamedTuple):
    """A file to ingest; ``named`` when the user named it rather than its folder."""

    path: Path
    named: bool


def sniff(head: bytes) -> str | None:
    """Format of a file from its first bytes: ``sql``, ``pbn``, ``lin``, or None."""
    if b"\x00" in head[:8192]:
        return None
    if _SQL.search(head[:4096]):
        return "sql"
    if _PBN.search(head):
        return "pbn"
    if _LIN.search(head):
        return "lin"
    return None


def decode(data: bytes) -> tuple[str, str]:
    """Text of a file and the encoding that read it: UTF-8 if valid, else Windows-1252/Latin-1."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), "utf-8" if encoding == "utf-8-sig" else encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def discover(sources: list[str], extensions: list[str]) -> list[Candidate]:
    """Files to look at: named files as given, folders walked for the listed endings.

    Raises
    ------
    SourceError
        For a named path that does not exist.
    """
    found: list[Candidate] = []
    endings = tuple(ext.lower() for ext in extensions)
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for folder, subfolders, files in os.walk(path):
                subfolders.sort()
                for name in sorted(files):
                    if name.lower().endswith(endings):
                        found.append(Candidate(Path(folder) / name, False))
        elif path.exists():
            found.append(Candidate(path, True))
        else:
            raise SourceError(path, "no such file or folder")
    return found
