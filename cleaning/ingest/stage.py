"""The ``ingest`` stage: files in, ``source_files`` and ``raw_boards`` rows out.

One transaction per file: a file is either wholly stored or not at all, and a file whose
bytes are already stored (a rerun, or a copy under another name) adds nothing. A file that
cannot be read, or is not bridge data, is reported by name and the stage goes on.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy import Connection, delete, func, insert, select

from bridgerank.cleaning.ingest.limits import Limits
from bridgerank.cleaning.ingest.records import RAW_FIELDS, RawRecord
from bridgerank.cleaning.ingest.sources import MIXED, discover, file_records, identify
from bridgerank.cleaning.ingest.summary import IngestSummary
from bridgerank.cleaning.ingest.tables import PendingIngest, RawBoard, SkippedFile, SourceFile
from bridgerank.core.errors import SourceError
from bridgerank.core.sections import IngestSettings, Settings
from bridgerank.core.settings import resolve_path
from bridgerank.core.stage import Stage, StageContext

log = logging.getLogger(__name__)
# Raw records written per INSERT: large enough to amortise the round trip, small enough
# that a file's rows never pile up in memory; and at most about this many characters of
# values (real records hold about a thousand; a hostile file's may each hold megabytes).
INSERT_BATCH = 2000
INSERT_BATCH_CHARS = 1 << 22
_RAW_COLUMNS = frozenset(RAW_FIELDS)


def sample_sources(section: IngestSettings) -> list[str]:
    """The sample's paths (``embedded:`` names the data shipped with bridgerank)."""
    return [str(resolve_path(path)) for path in section.sample]


def record_batches(records: Iterable[RawRecord]) -> Iterator[list[RawRecord]]:
    """Consecutive lists of at most :data:`INSERT_BATCH` records, each closed once its
    values reach :data:`INSERT_BATCH_CHARS` characters."""
    batch: list[RawRecord] = []
    chars = 0
    for record in records:
        batch.append(record)
        chars += sum(map(len, record.values.values()))
        if len(batch) >= INSERT_BATCH or chars >= INSERT_BATCH_CHARS:
            yield batch
            batch, chars = [], 0
    if batch:
        yield batch


def _row(source_id: int, record: RawRecord) -> dict[str, Any]:
    row: dict[str, Any] = {field: None for field in RAW_FIELDS}
    extra = {}
    for key, value in record.values.items():
        if key in _RAW_COLUMNS:
            row[key] = value
        else:
            extra[key] = value
    row.update(
        source_id=source_id,
        record_no=record.record_no,
        line=record.line,
        play_layout=record.play_layout,
        parse_error=record.parse_error,
        extra=json.dumps(extra, ensure_ascii=False) if extra else None,
    )
    return row


def ingest_file(
    engine,
    path: Path,
    *,
    named: bool = True,
    shown: str | None = None,
    limits: Limits | None = None,
    commit: Callable[[Connection, str], None] | None = None,
) -> tuple[str, int]:
    """Store one file's records.

    Parameters
    ----------
    engine : Engine
    path : Path
    named : bool
        True when the user named the file: then a file that is not bridge data is an error;
        found in a folder, it is skipped.
    shown : str, optional
        How pages name the file (:class:`~bridgerank.cleaning.ingest.sources.Candidate`);
        its own name when not given.
    limits : Limits, optional
        The file's size bounds (the shipped defaults when not given): a file past them is
        refused whole, as one that cannot be read.
    commit : callable, optional
        ``commit(conn, sha256)``, called inside the file's transaction once its records are
        written: the stage passes one that records the new version of ``raw_boards`` in the
        ledger (:meth:`~bridgerank.core.stage.StageContext.commit_unit`), so that the file
        and its ledger row are committed together. Without it the ledger is not told, and
        later stages do not see the new records as new.

    Returns
    -------
    status : str
        ``ingested``, ``empty`` (bridge data with no record), ``already stored`` or
        ``not bridge data``.
    records : int
        Records stored.

    Raises
    ------
    SourceError
        When the file cannot be read, is larger than ``limits`` allow, or was named and is
        not bridge data.
    """
    # Identity is the content: a gzip copy of a stored file (or a re-compressed copy, whose
    # header differs) adds nothing.
    content, fmt = identify(path, named, limits)
    with engine.connect() as conn:
        stored = conn.execute(
            select(SourceFile.path).where(SourceFile.sha256 == content.sha256)
        ).scalar_one_or_none()
    if stored is not None:
        return "already stored", 0
    if fmt is None:
        return "not bridge data", 0
    files = SourceFile.__table__
    # One transaction, written in batches as the file streams in: all of the file or none
    # of it is stored, and memory does not grow with its size.
    with engine.begin() as conn:
        source_id = conn.execute(
            files.insert().values(
                # resolved: later stages read the files beside it (standings, rosters) from
                # whatever folder they run in
                path=str(path.resolve()),
                name=shown or path.name,
                sha256=content.sha256,
                format=fmt,
                size=content.size,
                encoding=content.encoding,
                records=0,
                status="empty",
            )
        ).inserted_primary_key[0]
        stored_records = 0
        with file_records(path, content, fmt, limits) as records:
            for batch in record_batches(records):
                conn.execute(RawBoard.__table__.insert(), [_row(source_id, r) for r in batch])
                stored_records += len(batch)
        status = "ingested" if stored_records else "empty"
        conn.execute(
            files.update()
            .where(files.c.id == source_id)
            .values(records=stored_records, status=status)
        )
        if commit is not None:
            commit(conn, content.sha256)
    return status, stored_records


def _candidates(context: StageContext):
    return discover(list(context.sources), context.settings.ingest.extensions)


def _extra_input(context: StageContext) -> list[tuple[str, int, int]]:
    listing = []
    for candidate in _candidates(context):
        try:
            info = candidate.path.stat()
        except OSError:
            continue
        listing.append((str(candidate.path.resolve()), info.st_size, info.st_mtime_ns))
    return listing


def _idle_reason(context: StageContext) -> str | None:
    return None if context.sources else "no sources given; using what is stored"


def run(context: StageContext) -> IngestSummary:
    """Ingest every source of the context (see the module docstring)."""
    statuses: Counter[str] = Counter()
    errors: list[str] = []
    records = 0
    candidates = _candidates(context)
    pending = PendingIngest.__table__
    with context.engine.begin() as conn:
        conn.execute(pending.delete())
        conn.execute(pending.insert().values(sources=json.dumps(list(map(str, context.sources)))))
    failed_named: list[SourceError] = []
    skipped: dict[str, str] = {}
    limits = Limits.of(context.settings.ingest)

    stored: list[str] = []

    def commit(conn: Connection, sha256: str) -> None:
        # each file is a unit of its own: raw_boards gets a new version with it
        context.commit_unit(conn, RawBoard, sha256)
        stored.append(sha256)

    for candidate in context.progress(candidates, "ingest files", len(candidates)):
        try:
            status, count = ingest_file(
                context.engine,
                candidate.path,
                named=candidate.named,
                shown=candidate.shown,
                limits=limits,
                commit=commit,
            )
        except SourceError as problem:
            log.info("%s", problem)
            errors.append(str(problem))
            statuses["unreadable"] += 1
            if candidate.named:
                failed_named.append(problem)
            else:
                skipped[str(candidate.path)] = problem.problem
            continue
        if status == "not bridge data":
            skipped[str(candidate.path)] = status
        statuses[status] += 1
        records += count
    with context.engine.begin() as conn:
        # the folders' files not read, by name, for `bridgerank status` (the latest word on each)
        for path in skipped:
            conn.execute(delete(SkippedFile).where(SkippedFile.path == path))
        if skipped:
            conn.execute(
                insert(SkippedFile),
                [{"path": path, "reason": reason} for path, reason in skipped.items()],
            )
    if failed_named:  # what was named and readable is stored; the run stops here
        with context.engine.begin() as conn:
            conn.execute(pending.delete())  # not interrupted: a plain rerun must not retry it
        first = failed_named[0]
        more = f" (and {len(failed_named) - 1} more named files)" if len(failed_named) > 1 else ""
        error = SourceError(first.path, first.problem + more)
        error.hint = "The other files were stored; fix or leave out this one and run again"
        raise error
    with context.engine.connect() as conn:
        stray = [
            str(name)
            for name in conn.execute(
                select(SourceFile.name).where(
                    SourceFile.sha256.in_(stored) & (SourceFile.encoding == MIXED)
                )
            ).scalars()
        ]
        summary = IngestSummary(
            files=dict(statuses), records=records, errors=errors, stray_bytes=sorted(stray)
        )
    with context.engine.begin() as conn:
        conn.execute(pending.delete())
        context.finish(conn, summary, outputs=())
    return summary


def _kept(conn: Connection) -> str:
    """What an interrupted ingest keeps: every file it finished (each in its own commit)."""
    stored = conn.execute(select(func.count()).select_from(SourceFile)).scalar_one()
    return f"{stored:,} files read (a rerun does not read them again)"


INGEST_STAGE = Stage(
    name="ingest",
    run=run,
    reads=(),
    writes=(SourceFile, RawBoard, PendingIngest, SkippedFile),
    settings_sections=("ingest",),
    extra_input=_extra_input,
    idle_reason=_idle_reason,
    summary_type=IngestSummary,
    kept=_kept,
)


def default_sources(engine, settings: Settings, sources: list[str]) -> tuple[list[str], str]:
    """The sources ``bridgerank run`` uses.

    Those given; else those of an ingest that was interrupted; else, on an empty database,
    the embedded sample; else none (the stored records are used).

    Returns
    -------
    sources : list of str
    note : str
        What was chosen and why, for the user ("" when the sources were given).
    """
    if sources:
        return sources, ""
    with engine.connect() as conn:
        stored = conn.execute(select(SourceFile.id).limit(1)).first()
        pending = conn.execute(select(PendingIngest.sources)).scalars().first()
    if pending is not None:
        resumed = json.loads(pending)
        return resumed, f"resuming the interrupted ingest of {resumed}"
    if stored is None:
        sample = sample_sources(settings.ingest)
        return sample, "no sources given and the database is empty: using the embedded sample"
    return [], ""
