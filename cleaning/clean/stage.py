"""The ``clean`` stage: ``raw_boards`` in; ``boards``, ``exclusions``, ``token_counts`` out.

The stage recomputes its outputs from all raw records and replaces them in one transaction,
together with its ledger row: an interrupted run leaves the previous outputs untouched. Board
ids are the raw records' ids, so a board keeps its id across reruns.

It runs in bounded memory. Inside that one transaction the raw records are read, cleaned and
written :data:`BATCH` at a time, in id order: each batch's boards are compared with the
stored boards of the same id range, read just before they are written, so only the boards
that changed are written. What grows with the number of records is the map of the content
keys seen (:class:`~bridgerank.cleaning.clean.seen.FirstSeen`, 21 to 43 bytes a record)
and the token counts (one per distinct raw token, as the table they fill).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping, Sequence

from sqlalchemy import Connection, bindparam, delete, func, select, update

from bridgerank.bridge.cards import deal_hash, parse_deal
from bridgerank.cleaning.clean.rules import NAME_FIELDS, clean_record
from bridgerank.cleaning.clean.seen import FirstSeen
from bridgerank.cleaning.clean.summary import BoardChanges, CleanSummary
from bridgerank.cleaning.clean.tables import (
    Board,
    Exclusion,
    MatchBoardRow,
    TeamMatchRow,
    TokenCount,
)
from bridgerank.cleaning.ingest.records import RAW_FIELDS
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.core.batches import batches
from bridgerank.core.errors import BadRecord
from bridgerank.core.sections import CleanSettings
from bridgerank.core.stage import Stage, StageContext

# Raw records read, cleaned and written at a time: about 10 KB each in flight (the raw row,
# the board, the stored board it is compared with), so some 20 MB a batch.
BATCH = 2000

_KEY_FIELDS = ("deal",) + NAME_FIELDS + ("auction", "play", "contract", "declarer", "result")
# what is not a digit of a result's tricks (``NS 11``)
_TRICKS = re.compile(r"\D")

# A row of ``raw_boards`` with the ``sha256`` and ``path`` of its file (a RowMapping, whose
# keys may also be columns, or a dict).
RawRow = Mapping[Any, Any]

# ``places(ids) -> {id: (path, line)}``: where earlier raw records came from.
Places = Callable[[Collection[int]], Mapping[int, tuple[str, int]]]


@lru_cache(maxsize=4096)
def _deal_identity(text: str) -> str:
    """A deal whatever seat its notation starts from (``W:...`` and ``E:...`` alike); the
    text itself when it cannot be read (the record then fails on its own)."""
    try:
        return deal_hash(parse_deal(text))
    except BadRecord:
        return " ".join(text.upper().split())


def _content_key(values: dict[str, Any]) -> str:
    """Identity of a table result whatever file it came from: deal, players, calls, cards.

    A deal is compared as the hands it deals and a result as its number of tricks, so that a
    bulletin writing a round's table again in other notation (``W:`` for ``E:``, ``NS 11`` for
    ``11``) is a copy of it.
    """
    parts = []
    for name in _KEY_FIELDS:
        value = values.get(name) or ""
        if name in NAME_FIELDS:
            value = " ".join(value.lower().split())
        elif name == "deal":
            value = _deal_identity(value)
        elif name == "result":
            value = _TRICKS.sub("", value) or " ".join(value.upper().split())
        else:
            value = " ".join(value.upper().split())
        parts.append(value)
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def _board_key(source_sha: str, record_no: int, content_key: str) -> str:
    return hashlib.sha1(f"{source_sha}:{record_no}:{content_key}".encode()).hexdigest()[:16]


@dataclass(slots=True)
class Cleaned:
    """What cleaning made of one raw record.

    ``board`` is its row of ``boards`` (None when the record is excluded); ``exclusions``
    its rows of ``exclusions`` (the record's exclusion, or its blankings and notes).
    """

    raw_id: int
    board: dict[str, Any] | None
    exclusions: list[dict[str, Any]]


def _exclusion(raw_id: int, level: str, reason: str, detail: str) -> dict[str, Any]:
    return {"raw_id": raw_id, "level": level, "reason": reason, "detail": detail}


def _clean_one(
    row: RawRow, values: dict[str, Any], key: str, settings: CleanSettings, tokens: Counter
) -> Cleaned:
    """Apply the rules to one readable record that is no copy of an earlier one."""
    raw_id = row["id"]
    outcome = clean_record(values, row["play_layout"], tokens, settings=settings)
    exclusions = [_exclusion(raw_id, *issue) for issue in outcome.issues]
    board = outcome.board
    if board is not None:
        board["id"] = raw_id
        board["board_key"] = _board_key(row["sha256"], row["record_no"], key)
    return Cleaned(raw_id, board, exclusions)


def _number(values: dict[str, Any] | None, key: str) -> int | None:
    """The content key as a number, for a record that can be a copy; else None."""
    # Only a record with a deal and a name can be a copy; empty ones fail on their own.
    if values and values.get("deal") and any(values.get(name) for name in NAME_FIELDS):
        return int(key, 16)
    return None


# Extra fields a reader keeps beside the raw columns that cleaning carries on: a traveller's
# opening lead card (the only card of the play it gives) and a recap's pairs' entries.
_CARRIED_EXTRA = ("lead_card", "ns_entry", "ew_entry")


def _fields(row: RawRow) -> dict[str, Any]:
    """A readable record's fields, with the extra fields cleaning uses
    (:data:`_CARRIED_EXTRA`)."""
    fields = {name: row[name] for name in RAW_FIELDS if row[name] is not None}
    extra = row.get("extra")
    if extra and any(f'"{name}"' in extra for name in _CARRIED_EXTRA):
        stored = json.loads(extra)
        fields.update({name: stored[name] for name in _CARRIED_EXTRA if stored.get(name)})
    return fields


def _clean_chunk(
    rows: Sequence[RawRow],
    settings: CleanSettings,
    tokens: Counter,
    places: Places,
    seen: FirstSeen,
) -> Iterator[Cleaned]:
    """:func:`clean_rows` on one chunk: its content keys are looked up in ``seen`` at once
    (and the places of the earlier records they copy), and added to it at the end."""
    values = [None if row["parse_error"] else _fields(row) for row in rows]
    keys = [_content_key(fields) if fields is not None else "" for fields in values]
    numbers = [_number(fields, key) for fields, key in zip(values, keys)]
    earlier = seen.find(number for number in numbers if number is not None)
    there = places(set(earlier.values())) if earlier else {}
    firsts: dict[int, int] = {}  # this chunk's own: content key -> raw id
    here: dict[int, tuple[str, int]] = {}  # and where they are
    for row, fields, key, number in zip(rows, values, keys, numbers):
        raw_id = row["id"]
        other = earlier.get(number, firsts.get(number)) if number is not None else None
        if fields is None:
            reason = _exclusion(raw_id, "board", "unparseable_record", row["parse_error"])
            yield Cleaned(raw_id, None, [reason])
        elif other is not None:
            path, line = here[other] if other in here else there[other]
            detail = f"same as record {other} ({path}:{line})"
            yield Cleaned(raw_id, None, [_exclusion(raw_id, "board", "duplicate_record", detail)])
        else:
            if number is not None:
                firsts[number] = raw_id
                here[raw_id] = (row["path"], row["line"])
            yield _clean_one(row, fields, key, settings, tokens)
    seen.add(firsts)


def clean_rows(
    rows: Iterable[RawRow],
    settings: CleanSettings,
    tokens: Counter,
    places: Places,
    chunk: int = BATCH,
) -> Iterator[Cleaned]:
    """Clean raw rows, one by one as they come (the rules, without the database).

    A record whose deal, players, calls and cards are those of an earlier record (its
    content key) is excluded as a copy of the first such record.

    Parameters
    ----------
    rows : iterable of mapping
        Rows with the ``raw_boards`` columns and the ``sha256`` and ``path`` of their file,
        in id order.
    settings : CleanSettings
        The ``[clean]`` section.
    tokens : Counter
        Updated with ``(kind, token, status) -> count`` for every call and card token.
    places : callable
        ``places(ids) -> {id: (path, line)}`` of records of earlier chunks, for the detail
        of an exclusion as a copy (:func:`raw_places` reads them from the database).
    chunk : int
        Rows whose content keys are looked up together.

    Yields
    ------
    Cleaned
        One per row, in the order of ``rows``.
    """
    seen = FirstSeen()
    for group in batches(rows, chunk):
        yield from _clean_chunk(group, settings, tokens, places, seen)


def raw_places(conn: Connection, ids: Collection[int]) -> dict[int, tuple[str, int]]:
    """The file path and line of each raw record of ``ids``.

    Parameters
    ----------
    conn : Connection
    ids : collection of int
        Ids of ``raw_boards``.

    Returns
    -------
    dict
        ``id -> (path, line)``.
    """
    raw = RawBoard.__table__
    query = select(raw.c.id, SourceFile.path, raw.c.line).join(
        SourceFile, SourceFile.id == raw.c.source_id
    )
    found: dict[int, tuple[str, int]] = {}
    for group in batches(sorted(ids), 500):
        for raw_id, path, line in conn.execute(query.where(raw.c.id.in_(group))):
            found[raw_id] = (path, line)
    return found


def _raw_rows(conn: Connection, page: int) -> Iterator[RawRow]:
    """Every raw record with its file's ``sha256`` and ``path``, in id order, read a page at
    a time by id (each page read whole: the connection also writes between pages)."""
    raw = RawBoard.__table__
    query = (
        select(raw, SourceFile.sha256, SourceFile.path)
        .join(SourceFile, SourceFile.id == raw.c.source_id)
        .order_by(raw.c.id)
        .limit(page)
    )
    after = None
    while True:
        rows = conn.execute(query if after is None else query.where(raw.c.id > after))
        found = rows.mappings().all()
        yield from found
        if len(found) < page:
            return
        after = found[-1]["id"]


def _token_rows(tokens: Counter) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for (kind, token, status), count in tokens.items():
        row = merged.setdefault(
            (kind, token), {"kind": kind, "token": token, "status": status, "count": 0}
        )
        row["count"] += count
    return list(merged.values())


class _Tally:
    """The summary's counts, kept as the records go by."""

    def __init__(self) -> None:
        self.records = self.kept = self.auctions = self.plays = 0
        self.by_level: dict[str, Counter] = {}

    def add(self, item: Cleaned) -> None:
        self.records += 1
        if item.board is not None:
            self.kept += 1
            self.auctions += bool(item.board["auction"])
            self.plays += bool(item.board["play"])
        for exclusion in item.exclusions:
            self.by_level.setdefault(exclusion["level"], Counter())[exclusion["reason"]] += 1

    def summary(self, changes: dict[str, int]) -> CleanSummary:
        return CleanSummary(
            records=self.records,
            kept=self.kept,
            excluded=self.records - self.kept,
            auctions_kept=self.auctions,
            plays_kept=self.plays,
            reasons={level: dict(counts.most_common()) for level, counts in self.by_level.items()},
            boards_changed=BoardChanges(**changes),
        )


def _insert(conn, table, rows: list[dict[str, Any]], chunk: int = 20000) -> None:
    for start in range(0, len(rows), chunk):
        conn.execute(table.insert(), rows[start : start + chunk])


def _stored_boards(
    conn: Connection, after: int | None, upto: int | None, page: int
) -> Iterator[list[dict[str, Any]]]:
    """The stored boards of ids in ``(after, upto]`` (either end open when None), a page at
    a time in id order."""
    table = Board.__table__
    query = select(table).order_by(table.c.id).limit(page)
    if upto is not None:
        query = query.where(table.c.id <= upto)
    while True:
        found = conn.execute(query if after is None else query.where(table.c.id > after))
        rows = [dict(row) for row in found.mappings()]
        if rows:
            yield rows
        if len(rows) < page:
            return
        after = rows[-1]["id"]


def _write_boards(
    conn: Connection,
    boards: list[dict[str, Any]],
    after: int | None,
    upto: int | None,
    page: int = BATCH,
) -> dict[str, int]:
    """Bring the stored boards of ids in ``(after, upto]`` to ``boards``, touching only what
    changed.

    Later stages keep per-board results keyed (and cascaded) by board id, so a board whose
    row is unchanged keeps them; a removed board takes them with it. The stored boards are
    read a page at a time, so a range holds few whatever the ids.
    """
    table = Board.__table__
    new = {board["id"]: board for board in boards}
    counts = {"added": 0, "changed": 0, "removed": 0}
    for old in _stored_boards(conn, after, upto, page):
        gone = [row["id"] for row in old if row["id"] not in new]
        changed = [new[row["id"]] for row in old if row["id"] in new and new[row["id"]] != row]
        for row in old:
            new.pop(row["id"], None)  # what is left is added
        for group in batches(gone, 500):
            conn.execute(delete(table).where(table.c.id.in_(group)))
        if changed:
            statement = update(table).where(table.c.id == bindparam("board_id"))
            conn.execute(statement, [_update_parameters(board) for board in changed])
        counts["changed"] += len(changed)
        counts["removed"] += len(gone)
    added = [new[board_id] for board_id in sorted(new)]
    _insert(conn, table, added)
    counts["added"] = len(added)
    return counts


def _update_parameters(board: dict[str, Any]) -> dict[str, Any]:
    """A changed board as the parameters of the batched update: every column but the id,
    which the statement's ``board_id`` names (a parameter may not be named after a column
    the statement sets)."""
    parameters = {name: value for name, value in board.items() if name != "id"}
    parameters["board_id"] = board["id"]
    return parameters


def _add_changes(total: dict[str, int], changes: dict[str, int]) -> None:
    for name, count in changes.items():
        total[name] += count


def run(context: StageContext) -> CleanSummary:
    """Clean every raw record and replace the stage's outputs (see the module docstring)."""
    tally = _Tally()
    tokens: Counter = Counter()
    changes = {"added": 0, "changed": 0, "removed": 0}
    # One connection reads and writes: each read is of rows this run has not written yet
    # (raw records; stored boards of ids past those written), so it sees them as they were.
    with context.engine.begin() as conn:
        total = conn.execute(select(func.count()).select_from(RawBoard)).scalar_one()
        for table in (Exclusion, TokenCount):
            conn.execute(delete(table))
        rows = context.progress(_raw_rows(conn, BATCH), "clean records", total)
        cleaned = clean_rows(
            rows, context.settings.clean, tokens, lambda ids: raw_places(conn, ids), BATCH
        )
        last = None
        for batch in batches(cleaned, BATCH):
            boards = [item.board for item in batch if item.board is not None]
            _add_changes(changes, _write_boards(conn, boards, last, batch[-1].raw_id, BATCH))
            _insert(conn, Exclusion.__table__, [row for item in batch for row in item.exclusions])
            for item in batch:
                tally.add(item)
            last = batch[-1].raw_id
        # boards whose record is gone, past the last record
        _add_changes(changes, _write_boards(conn, [], last, None, BATCH))
        _insert(conn, TokenCount.__table__, _token_rows(tokens))
        summary = tally.summary(changes)
        replace = record_team_matches(conn, context.settings.clean, summary, context.progress)
        context.finish(conn, summary, replace=replace)
    return summary


def record_team_matches(
    conn: Connection,
    settings: CleanSettings,
    summary: CleanSummary,
    progress: Callable[..., Iterable[Any]] | None = None,
) -> dict[type, list[dict[str, Any]]]:
    """Rebuild the team matches of the traveller files: each table in none gets its
    ``exclusions`` row, the summary its counts; returns the rows of ``team_matches`` and
    ``match_boards`` for the run's :meth:`~bridgerank.core.stage.StageContext.finish`.
    ``progress(items, label, total)`` wraps the files as they are paired (the CLI's bar)."""
    from bridgerank.cleaning.clean.team_matches import teams_against_themselves

    matches, match_boards, unpaired = _team_matches(conn, settings, progress)
    _insert(conn, Exclusion.__table__, unpaired)
    summary.team_matches, summary.match_boards = len(matches), len(match_boards)
    summary.teams_against_themselves = teams_against_themselves(matches, match_boards)
    if unpaired:
        counted = Counter(row["reason"] for row in unpaired)
        summary.reasons["match"] = dict(counted.most_common())
    return {TeamMatchRow: matches, MatchBoardRow: match_boards}


def _team_matches(
    conn: Connection,
    settings: CleanSettings,
    progress: Callable[..., Iterable[Any]] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The team matches of the traveller files (Valet's), their boards, and why each other
    table of those files is in none (:mod:`~bridgerank.cleaning.clean.team_matches`).

    They are read from the raw records, not the boards: a traveller record without a deal
    is no board (no double dummy verdict can be had) but is a table of a match all the same.
    """
    from bridgerank.cleaning.clean.team_matches import build_matches, match_rows, traveller_row

    raw = RawBoard.__table__
    query = (
        select(raw, SourceFile.path)
        .join(SourceFile, SourceFile.id == raw.c.source_id)
        .where(SourceFile.format == "valet", raw.c.parse_error.is_(None))
        .order_by(raw.c.id)
    )
    rows = []
    for row in conn.execute(query).mappings():
        values = {name: row[name] for name in RAW_FIELDS}
        if row["extra"]:
            values.update(json.loads(row["extra"]))
        rows.append(
            traveller_row(row["id"], values, row["path"], settings.first_year, settings.latest_year)
        )
    if not rows:
        return [], [], []
    return match_rows(build_matches(rows, progress))


CLEAN_STAGE = Stage(
    name="clean",
    run=run,
    reads=(RawBoard,),
    optional_reads=(SourceFile,),  # written with raw_boards, whose version covers both
    writes=(Board, Exclusion, TokenCount, TeamMatchRow, MatchBoardRow),
    settings_sections=("clean",),
    summary_type=CleanSummary,
)
