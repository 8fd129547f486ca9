"""A stored recap read again for what an earlier reader left out: its pairs' entries.

Readers before revision 0015 kept no entry (:mod:`~bridgerank.cleaning.ingest.recap_entry`),
and ingest never reads a stored file twice (its identity is its content). The entries are
known before play and a rating uses them, so the upgrade to 0015 reads each stored recap
again, where the file is still at its stored path with the same content, and adds each
record's entries to its stored extra fields; nothing else of a record changes.
"""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa

from bridgerank.cleaning.ingest.recap import read_recap
from bridgerank.cleaning.ingest.sources import scan, text_lines
from bridgerank.core.errors import SourceError

__all__ = ["ENTRY_FIELDS", "add_recap_entries"]

ENTRY_FIELDS = ("ns_entry", "ew_entry")


def _entries(path: Path, sha256: str) -> dict[int, dict[str, str]] | None:
    """Each record's entries of the recap at ``path`` (by record number), or None when the
    file is gone, unreadable, or no longer the stored content."""
    try:
        content = scan(path)
        if content.sha256 != sha256:
            return None
        with text_lines(path, content.encoding, expected=content) as lines:
            return {
                record.record_no: {name: record.values[name] for name in ENTRY_FIELDS}
                for record in read_recap(lines, path)
                if any(record.values.get(name) for name in ENTRY_FIELDS)
            }
    except (OSError, SourceError):
        return None


def add_recap_entries(connection: sa.Connection) -> tuple[int, list[str]]:
    """Add the entries to every stored recap's records (see the module).

    Returns
    -------
    files : int
        Recaps read again.
    missing : list of str
        The stored recaps that could not be (gone, or changed): their pairs' entries stay
        unknown.
    """
    files = sa.table(
        "source_files", sa.column("id"), sa.column("path"), sa.column("sha256"), sa.column("format")
    )
    raw = sa.table(
        "raw_boards",
        sa.column("id"),
        sa.column("source_id"),
        sa.column("record_no"),
        sa.column("extra"),
    )
    recaps = connection.execute(
        sa.select(files.c.id, files.c.path, files.c.sha256).where(files.c.format == "recap")
    ).all()
    read, missing = 0, []
    for source_id, path, sha256 in recaps:
        entries = _entries(Path(path), sha256)
        if entries is None:
            missing.append(str(path))
            continue
        read += 1
        rows = connection.execute(
            sa.select(raw.c.id, raw.c.record_no, raw.c.extra).where(raw.c.source_id == source_id)
        ).all()
        for row_id, record_no, extra in rows:
            if record_no not in entries:
                continue
            values = json.loads(extra) if extra else {}
            values.update(entries[record_no])
            connection.execute(
                raw.update()
                .where(raw.c.id == row_id)
                .values(extra=json.dumps(values, ensure_ascii=False))
            )
    return read, missing
