"""Finding input files, recognising their format and decoding their text."""

from __future__ import annotations

import gzip
import os
import re
import zlib
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Sequence

from bridgerank.cleaning.ingest.lin import read_lin
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.recap import read_recap
from bridgerank.cleaning.ingest.records import RawRecord
from bridgerank.cleaning.ingest.sqldump import read_sqldump
from bridgerank.cleaning.ingest.valet import LINE as VALET_LINE
from bridgerank.cleaning.ingest.valet import SKIPPED_FOLDERS, is_valet_folder, read_valet
from bridgerank.core.errors import SourceError

_SQL = re.compile(rb"INSERT\s+INTO\s", re.IGNORECASE)
_PBN = re.compile(rb'(?m)^\s*\[(Event|Deal|Board|Dealer|Site|North|South|West|East)\s+"')
_RECAP = re.compile(rb"BridgeComposer", re.IGNORECASE)
_HTML = re.compile(rb"(?:\xef\xbb\xbf)?\s*(?:<!DOCTYPE\s+html|<html)", re.IGNORECASE)
_LIN = re.compile(rb"(?:^|\|)\s*(?:md|qx|pn|vg|mb|pc|ah|sv)\|", re.IGNORECASE | re.MULTILINE)

# Every reader takes the text and, for formats that read files beside it, the path.
READERS: dict[str, Callable[..., Iterator[RawRecord]]] = {
    "sql": lambda text, source=None: read_sqldump(text),
    "pbn": lambda text, source=None: read_pbn(text),
    "lin": lambda text, source=None: read_lin(text),
    "valet": read_valet,
    "recap": read_recap,
}


class Candidate(NamedTuple):
    """A file to ingest; ``named`` when the user named it rather than its folder."""

    path: Path
    named: bool


def sniff(head: bytes) -> str | None:
    """Format of a file from its first bytes: ``sql``, ``pbn``, ``lin``, ``valet``, ``recap``
    (a BridgeComposer club recap page), or None."""
    if b"\x00" in head[:8192]:
        return None
    first = head.split(b"\n", 1)[0].decode("latin-1").strip()
    if VALET_LINE.match(first):
        return "valet"
    if _HTML.match(head):
        # Only BridgeComposer's recap pages are read; other HTML is not bridge data to us.
        return "recap" if _RECAP.search(head) else None
    if _SQL.search(head[:4096]):
        return "sql"
    if _PBN.search(head):
        return "pbn"
    if _LIN.search(head):
        return "lin"
    return None


def unpack(data: bytes, path: Path) -> bytes:
    """A file's content: gzip-compressed files (``.pbn.gz``, ``.html.gz``) are decompressed.

    Raises
    ------
    SourceError
        When the file starts like a gzip file but does not decompress.
    """
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as problem:
        raise SourceError(path, f"a damaged gzip file ({problem})") from None


def decode(data: bytes) -> tuple[str, str]:
    """Text of a file and the encoding that read it: UTF-8 if valid, else Windows-1252/Latin-1."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), "utf-8" if encoding == "utf-8-sig" else encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def discover(sources: list[str], extensions: Sequence[str]) -> list[Candidate]:
    """Files to look at: named files as given, folders walked for the listed endings.

    Raises
    ------
    SourceError
        For a named path that does not exist, or a named folder with no file to look at.
    """
    found: list[Candidate] = []
    endings = tuple(ext.lower() for ext in extensions)
    for source in sources:
        path = Path(source)
        if path.is_dir():
            before = len(found)
            for folder, subfolders, files in os.walk(path):
                if is_valet_folder(Path(folder)):
                    # deals are read through scores.txt; altnames/ and postproc/ repeat it
                    subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS]
                subfolders.sort()
                for name in sorted(files):
                    if name.lower().endswith(endings):
                        found.append(Candidate(Path(folder) / name, False))
            if len(found) == before:
                raise SourceError(
                    path, f"no file to read in this folder (looked for {', '.join(endings)})"
                )
        elif path.exists():
            found.append(Candidate(path, True))
        else:
            raise SourceError(path, "no such file or folder")
    return found
