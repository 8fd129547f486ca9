"""The clean stage as it was before it ran in bounded memory (main 8dfcf11), kept verbatim
as the oracle of ``test_stage.py``: the stage of today must write the same tables and return
the same summary. It reads every record into a list and diffs the boards in one dict. (Two
changes since: its summary, built as a dict as it was, is returned as the typed
:class:`~bridgerank.cleaning.clean.summary.CleanSummary` stages return now; the content key
of a copy is the stage's.)
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any, Iterable

from sqlalchemy import delete, select, update

from bridgerank.cleaning.clean import stage as clean_stage
from bridgerank.cleaning.clean.rules import NAME_FIELDS, clean_record
from bridgerank.cleaning.clean.summary import CleanSummary
from bridgerank.cleaning.clean.tables import Board, Exclusion, TokenCount
from bridgerank.cleaning.ingest.records import RAW_FIELDS
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.core.sections import CleanSettings
from bridgerank.core.stage import StageContext

# The content key is the stage's own: what counts as a copy is a rule of cleaning (changed
# since 8dfcf11: deals compared as hands, results as tricks), not of how memory is bounded.
_content_key = clean_stage._content_key


def _board_key(source_sha: str, record_no: int, content_key: str) -> str:
    return hashlib.sha1(f"{source_sha}:{record_no}:{content_key}".encode()).hexdigest()[:16]


def clean_rows(rows: Iterable[Any], settings: CleanSettings, progress=None, total=None):
    """Clean raw rows (mappings with the ``raw_boards`` columns and ``sha256`` of the file).

    Returns
    -------
    boards, exclusions : list of dict
        Rows for the ``boards`` and ``exclusions`` tables.
    tokens : Counter
        ``(kind, token, status) -> count``.
    """
    boards: list[dict[str, Any]] = []
    exclusions: list[dict[str, Any]] = []
    tokens: Counter = Counter()
    first_seen: dict[str, tuple[int, int, str]] = {}
    iterable = progress(rows, "clean records", total) if progress else rows
    for row in iterable:
        raw_id = row["id"]
        if row["parse_error"]:
            exclusions.append(
                {
                    "raw_id": raw_id,
                    "level": "board",
                    "reason": "unparseable_record",
                    "detail": row["parse_error"],
                }
            )
            continue
        values = {name: row[name] for name in RAW_FIELDS if row[name] is not None}
        key = _content_key(values)
        # a traveller's lead card, among the record's extra fields, is its play's one card;
        # a recap's pairs' entries are there too
        extra = json.loads(row["extra"]) if row["extra"] else {}
        for name in ("lead_card", "ns_entry", "ew_entry"):
            if extra.get(name):
                values[name] = extra[name]
        # Only a record with a deal and a name can be a copy; empty ones fail on their own.
        comparable = bool(values.get("deal")) and any(values.get(n) for n in NAME_FIELDS)
        if comparable and key in first_seen:
            other_id, other_line, other_path = first_seen[key]
            exclusions.append(
                {
                    "raw_id": raw_id,
                    "level": "board",
                    "reason": "duplicate_record",
                    "detail": f"same as record {other_id} ({other_path}:{other_line})",
                }
            )
            continue
        if comparable:
            first_seen[key] = (raw_id, row["line"], row["path"])
        outcome = clean_record(values, row["play_layout"], tokens, settings=settings)
        for level, reason, detail in outcome.issues:
            exclusions.append(
                {"raw_id": raw_id, "level": level, "reason": reason, "detail": detail}
            )
        if outcome.board is not None:
            board = outcome.board
            board["id"] = raw_id
            board["board_key"] = _board_key(row["sha256"], row["record_no"], key)
            boards.append(board)
    return boards, exclusions, tokens


def _token_rows(tokens: Counter) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for (kind, token, status), count in tokens.items():
        row = merged.setdefault(
            (kind, token), {"kind": kind, "token": token, "status": status, "count": 0}
        )
        row["count"] += count
    return list(merged.values())


def _summary(rows_read: int, boards: list, exclusions: list) -> dict[str, Any]:
    by_level: dict[str, Counter] = {}
    for exclusion in exclusions:
        by_level.setdefault(exclusion["level"], Counter())[exclusion["reason"]] += 1
    return {
        "records": rows_read,
        "kept": len(boards),
        "excluded": rows_read - len(boards),
        "auctions_kept": sum(1 for board in boards if board["auction"]),
        "plays_kept": sum(1 for board in boards if board["play"]),
        "reasons": {level: dict(counts.most_common()) for level, counts in by_level.items()},
    }


def _insert(conn, table, rows: list[dict[str, Any]], chunk: int = 20000) -> None:
    for start in range(0, len(rows), chunk):
        conn.execute(table.insert(), rows[start : start + chunk])


def _write_boards(conn, boards: list[dict[str, Any]]) -> dict[str, int]:
    """Bring ``boards`` to the new rows, touching only what changed.

    Later stages keep per-board results keyed (and cascaded) by board id, so a board whose
    row is unchanged keeps them; a removed board takes them with it.
    """
    table = Board.__table__
    old = {row["id"]: dict(row) for row in conn.execute(select(table)).mappings()}
    new = {board["id"]: board for board in boards}
    gone = sorted(old.keys() - new.keys())
    added = [new[i] for i in sorted(new.keys() - old.keys())]
    changed = [new[i] for i in sorted(new.keys() & old.keys()) if new[i] != old[i]]
    for start in range(0, len(gone), 500):
        conn.execute(delete(table).where(table.c.id.in_(gone[start : start + 500])))
    for board in changed:
        conn.execute(update(table).where(table.c.id == board["id"]).values(**board))
    _insert(conn, table, added)
    return {"added": len(added), "changed": len(changed), "removed": len(gone)}


def run(context: StageContext) -> CleanSummary:
    """Clean every raw record and replace the stage's outputs (see the module docstring)."""
    raw = RawBoard.__table__
    query = (
        select(raw, SourceFile.sha256, SourceFile.path)
        .join(SourceFile, SourceFile.id == raw.c.source_id)
        .order_by(raw.c.id)
    )
    with context.engine.connect() as conn:
        rows = conn.execute(query).mappings().all()
    boards, exclusions, tokens = clean_rows(
        rows, context.settings.clean, context.progress, len(rows)
    )
    counts = _summary(len(rows), boards, exclusions)
    with context.engine.begin() as conn:
        for table in (Exclusion, TokenCount):
            conn.execute(delete(table))
        counts["boards_changed"] = _write_boards(conn, boards)
        _insert(conn, Exclusion.__table__, exclusions)
        _insert(conn, TokenCount.__table__, _token_rows(tokens))
        summary = CleanSummary.from_json(counts)
        # the team matches came later, from the raw records alone: the stage's own step
        replace = clean_stage.record_team_matches(conn, context.settings.clean, summary)
        context.finish(conn, summary, replace=replace)
    return summary
