"""The bounds that keep one hostile input file from exhausting memory or time.

A file streams in, so what memory holds at once is one line and what a reader gathers across
lines for one record, never the file. The settings bound the file and the line
(``[ingest] max_file_mb`` and ``max_line_kb``: :class:`Limits`); each reader bounds what it
gathers across lines with constants of its own, set far above any real file. A file past any
bound is refused whole, with one line that names the bound: a reader raises
:class:`OverLimit`, which :func:`~bridgerank.cleaning.ingest.sources.text_lines` turns into a
:class:`~bridgerank.core.errors.SourceError` naming the file.
"""

from __future__ import annotations

from typing import NamedTuple

from bridgerank.core.sections import IngestSettings

__all__ = ["Limits", "OverLimit"]


class Limits(NamedTuple):
    """What one file may hold, decompressed.

    Attributes
    ----------
    file_bytes : int
        Bytes of content (a gzip file's, decompressed): a gzip bomb stops here.
    line_bytes : int
        Bytes of one line, its line end left out; read as characters, a line that fits
        holds at most this many.
    """

    file_bytes: int
    line_bytes: int

    @classmethod
    def of(cls, section: IngestSettings) -> Limits:
        """The limits the ``[ingest]`` settings set (megabytes and kilobytes of 1024)."""
        return cls(section.max_file_mb << 20, section.max_line_kb << 10)

    def too_large(self, gzipped: bool) -> str:
        """Why a file past ``file_bytes`` is refused, naming the setting."""
        decompressed = " once decompressed" if gzipped else ""
        return f"larger than {self.file_bytes >> 20} MB{decompressed} ([ingest] max_file_mb)"

    def too_long(self, line: int | None) -> str:
        """Why a file with a line past ``line_bytes`` is refused, naming the setting."""
        which = f"line {line}" if line is not None else "a line"
        return f"{which} is longer than {self.line_bytes >> 10} KB ([ingest] max_line_kb)"


class OverLimit(Exception):
    """A reader met more than one of its bounds allows; the message says what, in words.

    The file is then refused whole: what a reader gathers across lines is one record's
    worth, and a file that overflows it is not a hand record but a broken or hostile file.
    """
