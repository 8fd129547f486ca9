"""Finding input files, recognising their format and decoding their text."""

from __future__ import annotations

import codecs
import gzip
import hashlib
import io
import os
import re
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Iterator, NamedTuple, Sequence, cast

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

# Every reader takes the file's lines and, for formats that read files beside it, the path.
READERS: dict[str, Callable[..., Iterator[RawRecord]]] = {
    "sql": lambda lines, source=None: read_sqldump(lines),
    "pbn": lambda lines, source=None: read_pbn(lines),
    "lin": lambda lines, source=None: read_lin(lines),
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


_CHUNK = 1 << 20
_HEAD = 65536
# The codec that reads a file whose recorded encoding is this (a UTF-8 BOM is dropped).
_CODECS = {"utf-8": "utf-8-sig", "cp1252": "cp1252", "latin-1": "latin-1"}


class Content(NamedTuple):
    """What one streaming pass over a file tells: identity, size, encoding and first bytes.

    ``sha256`` and ``size`` are of the content (decompressed, for a gzip file).
    """

    sha256: str
    size: int
    encoding: str
    head: bytes


@contextmanager
def _reading(path: Path) -> Iterator[IO[bytes]]:
    """A file's content as a byte stream; any read failure is a :class:`SourceError`."""
    try:
        with open(path, "rb") as raw:
            stream: IO[bytes] = raw
            if raw.read(2) == b"\x1f\x8b":
                stream = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
            raw.seek(0)
            yield stream
    except gzip.BadGzipFile as problem:
        raise SourceError(path, f"a damaged gzip file ({problem})") from None
    except (EOFError, zlib.error) as problem:
        raise SourceError(path, f"a damaged gzip file ({problem or 'it ends too soon'})") from None
    except OSError as problem:
        raise SourceError(path, f"cannot read ({problem.strerror or problem})") from None


def _chunks(stream: IO[bytes]) -> Iterator[bytes]:
    while chunk := stream.read(_CHUNK):
        yield chunk


def _decodes(path: Path, codec: str) -> bool:
    decoder = codecs.getincrementaldecoder(codec)()
    try:
        with _reading(path) as stream:
            for chunk in _chunks(stream):
                decoder.decode(chunk)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def scan(path: Path) -> Content:
    """Read a file once, in chunks, for its :class:`Content` (memory does not grow with it).

    The encoding is UTF-8 when the whole content is valid UTF-8, else Windows-1252, else
    Latin-1 (which reads any bytes), as :func:`decode` chooses.

    Raises
    ------
    SourceError
        When the file cannot be read or is a damaged gzip file.
    """
    digest, size, head = hashlib.sha256(), 0, b""
    utf8 = codecs.getincrementaldecoder("utf-8-sig")()
    valid = True
    with _reading(path) as stream:
        for chunk in _chunks(stream):
            digest.update(chunk)
            size += len(chunk)
            if len(head) < _HEAD:
                head += chunk[: _HEAD - len(head)]
            if valid:
                try:
                    utf8.decode(chunk)
                except UnicodeDecodeError:
                    valid = False
    if valid:
        try:
            utf8.decode(b"", final=True)
        except UnicodeDecodeError:
            valid = False
    if valid:
        encoding = "utf-8"
    else:
        encoding = "cp1252" if _decodes(path, "cp1252") else "latin-1"
    return Content(digest.hexdigest(), size, encoding, head)


@contextmanager
def text_lines(path: Path, encoding: str) -> Iterator[Iterator[str]]:
    """A file's decoded lines, streamed, line ends kept as written.

    Raises
    ------
    SourceError
        When reading fails part way (the caller's transaction then stores nothing).
    """
    with _reading(path) as stream:
        yield io.TextIOWrapper(stream, encoding=_CODECS[encoding], newline="")


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
