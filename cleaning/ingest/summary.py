"""What one run of the ``ingest`` stage did: :class:`IngestSummary`."""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgerank.core.summary import StageSummary, plural
from bridgerank.core.untrusted import visible

__all__ = ["IngestSummary"]


@dataclass
class IngestSummary(StageSummary):
    """The files an ingest run looked at and the records it stored.

    Attributes
    ----------
    files : dict of str to int
        Files by what became of them: ``ingested``, ``empty``, ``already stored``, ``not
        bridge data``, ``unreadable``.
    records : int
        Raw records stored by this run (a file already stored adds none).
    errors : list of str
        Why each unreadable file could not be read, naming the file (untrusted text: shown
        with :func:`~bridgerank.core.untrusted.visible`).
    stray_bytes : list of str
        Files stored this run that are UTF-8 but for a few bytes (read as Windows-1252).
    """

    files: dict[str, int] = field(default_factory=dict)
    records: int = 0
    errors: list[str] = field(default_factory=list)
    stray_bytes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """``ingest: 886 records from 4 files (4 ingested) in 0.9 s``."""
        parts = ", ".join(f"{count} {status}" for status, count in sorted(self.files.items()))
        return [
            f"ingest: {plural(self.records, 'record')} from "
            f"{plural(sum(self.files.values()), 'file')} ({parts or 'none'}) in "
            f"{self.seconds:.1f} s"
        ]

    def warnings(self) -> list[str]:
        """One line per file that could not be read, and per file read as UTF-8 but for a
        few bytes."""
        return [f"  error: {visible(str(error))}" for error in self.errors] + [
            f"  note: {visible(name)} is UTF-8 but for a few bytes, read as Windows-1252 "
            "(the rest of it as UTF-8)"
            for name in self.stray_bytes
        ]

    def brief(self) -> str:
        """``886 records from 4 files``."""
        return f"{self.records:,} records from {sum(self.files.values()):,} files"
