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
from typing import IO, Any, Callable, Iterator, NamedTuple, Sequence, cast

from bridgerank.cleaning.ingest.limits import Limits, OverLimit
from bridgerank.cleaning.ingest.lin import read_lin
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.recap import read_recap
from bridgerank.cleaning.ingest.records import RawRecord
from bridgerank.cleaning.ingest.sqldump import read_sqldump
from bridgerank.cleaning.ingest.valet import LINE as VALET_LINE
from bridgerank.cleaning.ingest.valet import SKIPPED_FOLDERS, is_valet_folder, read_valet
from bridgerank.core.errors import SourceError
from bridgerank.core.settings import default_settings

# An INSERT statement at the start of a line, with its VALUES: a man page or release notes
# that mention INSERT INTO in prose are not a dump.
_SQL = re.compile(rb"(?m)^\s*INSERT\s+INTO\s+\S+\s*(?:\([^)]*\))?\s*VALUES[\s;,]*\(", re.IGNORECASE)
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
    """A file to ingest; ``named`` when the user named it rather than its folder.

    ``shown`` is how pages name it: relative to the folder the user gave, that folder's own
    name first (``pbn/1996/olymp96.pbn``), or the file's name when the user named the file -
    never the machine's absolute path.
    """

    path: Path
    named: bool
    shown: str


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
# A UTF-8 file with a few bytes that are not (one name typed in another editor): its UTF-8
# read as UTF-8, each stray byte as Windows-1252 (Latin-1 where that has no character).
MIXED = "utf-8+cp1252"
_STRAY = "bridgerank-stray-bytes"


def _stray_bytes(problem: UnicodeError) -> tuple[str, int]:
    if not isinstance(problem, UnicodeDecodeError):
        raise problem
    bad = problem.object[problem.start : problem.end]
    text = "".join(_byte_text(byte) for byte in bad)
    return text, problem.end


def _byte_text(byte: int) -> str:
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:  # 0x81, 0x8d, 0x8f, 0x90, 0x9d: no cp1252 character
        return chr(byte)


codecs.register_error(_STRAY, _stray_bytes)
# A character beyond ASCII that is not a stray byte escaped (U+DC80 to U+DCFF).
_UTF8_BEYOND_ASCII = re.compile("[\x80-\udc7f\udd00-\U0010ffff]")

# Each stored encoding: the codec and its error handling.
_CODECS = {
    "utf-8": ("utf-8-sig", "strict"),
    MIXED: ("utf-8-sig", _STRAY),
    "cp1252": ("cp1252", "strict"),
    "latin-1": ("latin-1", "strict"),
}


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


def _default_limits() -> Limits:
    return Limits.of(default_settings().ingest)


def _line_ends(data: bytes, after_cr: bool) -> int:
    """Lines ended in ``data``: ``\\n``, ``\\r`` or ``\\r\\n`` (split or not), as the readers
    count them; ``after_cr`` when the bytes before ``data`` ended with ``\\r``."""
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    return ends - 1 if after_cr and data.startswith(b"\n") else ends


class _LineMeter:
    """The length of the line being read, over a stream of chunks, without holding it.

    Line ends are those of the readers (``\\n``, ``\\r``, ``\\r\\n``); a length leaves the line
    end out. :meth:`feed` returns the number of the first line longer than ``limit`` bytes
    once a chunk shows one.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0  # bytes of the line still open after the chunks fed so far
        self.line = 1  # its number
        self.after_cr = False

    def feed(self, chunk: bytes) -> int | None:
        ends = [at for at in (chunk.find(b"\n"), chunk.find(b"\r")) if at >= 0]
        if not ends:
            self.open += len(chunk)
            self.after_cr = False
            return self.line if self.open > self.limit else None
        if self.open + min(ends) > self.limit:
            return self.line
        if len(chunk) > self.limit:
            # only a limit below the chunk size lets a line inside one chunk be too long
            over = self._inner_overlong(chunk)
            if over is not None:
                return self.line + _line_ends(chunk[:over], self.after_cr)
        self.line += _line_ends(chunk, self.after_cr)
        last = max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))
        self.open = len(chunk) - last - 1
        self.after_cr = chunk.endswith(b"\r")
        return None

    def _inner_overlong(self, chunk: bytes) -> int | None:
        """Offset of the first line wholly inside ``chunk`` longer than the limit, if any."""
        offset = 0
        for piece in chunk.replace(b"\r", b"\n").split(b"\n"):
            if len(piece) > self.limit and 0 < offset and offset + len(piece) < len(chunk):
                return offset
            offset += len(piece) + 1
        return None


def scan(path: Path, limits: Limits | None = None) -> Content:
    """Read a file once, in chunks, for its :class:`Content` (memory does not grow with it).

    The encoding is UTF-8 when the whole content is valid UTF-8, else Windows-1252, else
    Latin-1 (which reads any bytes), as :func:`decode` chooses.

    Parameters
    ----------
    path : Path
    limits : Limits, optional
        The file's bounds; the shipped defaults when not given.

    Raises
    ------
    SourceError
        When the file cannot be read, is a damaged gzip file, or its content is larger than
        ``limits`` allow or holds a line longer (checked as the bytes stream by, so a gzip
        bomb is refused after reading no more than the limit).
    """
    limits = limits or _default_limits()
    digest, size, head = hashlib.sha256(), 0, b""
    meter = _LineMeter(limits.line_bytes)
    utf8 = codecs.getincrementaldecoder("utf-8-sig")()
    valid = True
    with _reading(path) as stream:
        for chunk in _chunks(stream):
            size += len(chunk)
            if size > limits.file_bytes:
                raise SourceError(path, limits.too_large(isinstance(stream, gzip.GzipFile)))
            over = meter.feed(chunk)
            if over is not None:
                raise SourceError(path, limits.too_long(over))
            digest.update(chunk)
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
    elif _mostly_utf8(path):
        encoding = MIXED
    else:
        encoding = "cp1252" if _decodes(path, "cp1252") else "latin-1"
    return Content(digest.hexdigest(), size, encoding, head)


def _mostly_utf8(path: Path) -> bool:
    """Whether a file that is not valid UTF-8 still holds UTF-8 characters beyond ASCII (so
    its invalid bytes are strays in a UTF-8 file, not the bytes of another encoding)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
    with _reading(path) as stream:
        for chunk in _chunks(stream):
            text = decoder.decode(chunk)
            if _UTF8_BEYOND_ASCII.search(text):
                return True
    return False


def bounded_lines(path: Path, text: IO[str], limits: Limits, gzipped: bool) -> Iterator[str]:
    """The lines of ``text`` as iterating it gives them, none read past the limits.

    :func:`scan` has refused a file past its limits already; this keeps the bound when the
    file grew since, and costs one bounded ``readline`` a line. Any other reader of untrusted
    text (``bridgerank dd import``) bounds its lines with it too.

    Raises
    ------
    SourceError
        A line longer than ``limits.line_bytes`` (named by its number), or more content in
        all than ``limits.file_bytes``.
    """
    # A line of ``line_bytes`` bytes has at most that many characters; its end adds two.
    cap, read, number = limits.line_bytes, 0, 0
    while line := text.readline(cap + 3):
        number += 1
        if len(line) > cap and len(line.rstrip("\r\n")) > cap:
            raise SourceError(path, limits.too_long(number))
        read += len(line)
        if read > limits.file_bytes:
            raise SourceError(path, limits.too_large(gzipped))
        yield line


class _Hashing(io.RawIOBase):
    """A byte stream that hashes what is read through it (the parse pass's own digest)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream, self.digest, self.size = stream, hashlib.sha256(), 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self.stream.read(len(buffer))
        buffer[: len(chunk)] = chunk
        self.digest.update(chunk)
        self.size += len(chunk)
        return len(chunk)


@contextmanager
def text_lines(
    path: Path, encoding: str, limits: Limits | None = None, expected: Content | None = None
) -> Iterator[Iterator[str]]:
    """A file's decoded lines, streamed, line ends kept as written, none past ``limits``.

    With ``expected`` (the file's :func:`scan`), the bytes read are hashed as they are parsed
    and, once the caller is done, set against it: a file that changed between the two passes
    (a download in progress, an editor saving) is refused, so what is stored under a digest
    is what has it.

    Raises
    ------
    SourceError
        When reading fails part way (the caller's transaction then stores nothing), a line
        or the content outgrows ``limits`` (the shipped defaults when not given), a reader of
        these lines finds more than it bounds (:class:`OverLimit`), or the file is not the
        one ``expected`` describes.
    """
    limits = limits or _default_limits()
    with _reading(path) as stream:
        hashing = _Hashing(stream)
        buffered = io.BufferedReader(hashing, _CHUNK)
        codec, errors = _CODECS[encoding]
        text = io.TextIOWrapper(buffered, encoding=codec, errors=errors, newline="")
        try:
            yield bounded_lines(path, text, limits, isinstance(stream, gzip.GzipFile))
        except OverLimit as problem:
            raise SourceError(path, str(problem)) from None
        if expected is not None:
            while buffered.read(_CHUNK):  # what the readers left unread counts too
                if hashing.size > limits.file_bytes:
                    raise SourceError(path, limits.too_large(isinstance(stream, gzip.GzipFile)))
            if (hashing.digest.hexdigest(), hashing.size) != (expected.sha256, expected.size):
                raise SourceError(
                    path,
                    "the file changed while it was read (its content is not what was "
                    "hashed a moment before); nothing of it was stored, run again once it "
                    "is complete",
                )


def decode(data: bytes) -> tuple[str, str]:
    """Text of a file and the encoding that read it: UTF-8 if valid, else Windows-1252/Latin-1."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), "utf-8" if encoding == "utf-8-sig" else encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def _in_folder(given: Path, path: Path) -> Candidate:
    """A file found in the folder the user gave, shown under that folder's name."""
    top = given.resolve().name  # "." or "data/" name their folder too
    return Candidate(path, False, str(Path(top) / path.relative_to(given)))


def _nothing_there(path: Path, problem: str) -> SourceError:
    """A named path with nothing to read: the same command cannot succeed, so no resume."""
    error = SourceError(path, problem)
    error.resumable = False
    return error


def _walk(top: Path) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top, followlinks=True)`` top-down, without recursion (a tree a thousand
    folders deep is walked, not a RecursionError); the caller may prune ``subfolders``."""
    stack = [str(top)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # unreadable: as os.walk, skipped
            continue
        subfolders: list[str] = []
        files: list[str] = []
        for entry in entries:
            try:
                (subfolders if entry.is_dir() else files).append(entry.name)
            except OSError:
                continue
        yield folder, subfolders, files
        # the caller sorts and prunes; the first sorted is walked first
        stack.extend(os.path.join(folder, name) for name in reversed(subfolders))


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
            visited: set[Path] = set()
            # folders reached through a symbolic link are read too, each real folder once
            for folder, subfolders, files in _walk(path):
                real = Path(folder).resolve()
                if real in visited:  # a link back up the tree, or a second way in
                    subfolders[:] = []
                    continue
                visited.add(real)
                if is_valet_folder(Path(folder)):
                    # deals are read through scores.txt; altnames/ and postproc/ repeat it
                    subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS]
                subfolders.sort()
                for name in sorted(files):
                    if name.lower().endswith(endings):
                        found.append(_in_folder(path, Path(folder) / name))
            if len(found) == before:
                raise _nothing_there(
                    path, f"no file to read in this folder (looked for {', '.join(endings)})"
                )
        elif path.exists():
            found.append(Candidate(path, True, path.resolve().name))
        else:
            raise _nothing_there(path, "no such file or folder")
    return found


# What a named file that is no bridge data is told.
NOT_BRIDGE_DATA = (
    "not a bridge hand-record file (PBN, LIN, SQL dump, Valet scores or a BridgeComposer recap)"
)


def identify(path: Path, named: bool, limits: Limits | None = None) -> tuple[Content, str | None]:
    """A file's scan and its format (None: no bridge data), as ingest and ``bridgerank
    predict`` both read files.

    Raises
    ------
    SourceError
        When the file cannot be read, is larger than ``limits`` allow, or was named
        (``named``) and is no bridge data; found in a folder, such a file is passed over.
    """
    content = scan(path, limits)
    fmt = sniff(content.head)
    if fmt is None and named:
        raise SourceError(path, NOT_BRIDGE_DATA)
    return content, fmt


@contextmanager
def file_records(
    path: Path, content: Content, fmt: str, limits: Limits | None = None
) -> Iterator[Iterator[RawRecord]]:
    """The records of a file of format ``fmt``, streamed from its lines; the file is refused
    if it changed since ``content`` was taken (:func:`text_lines`)."""
    with text_lines(path, content.encoding, limits, content) as lines:
        yield READERS[fmt](lines, path)
