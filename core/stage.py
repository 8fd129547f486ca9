"""The stage type: what a stage declares, what it gets when it runs, and its fingerprint.

A stage is a function ``run(context) -> summary`` (a typed
:class:`~bridgerank.core.summary.StageSummary`) plus what it declares: the tables it reads
and writes (ORM classes) and the settings sections it uses. The code it runs is not
declared but derived (:mod:`bridgerank.core.codehash`): its own module and every project
module that one imports, plus the versions of the libraries they use. The fingerprint of a
stage (:mod:`bridgerank.core.ledger`) hashes those with the versions of the tables it reads.
The registry and the runner live above every stage, in :mod:`bridgerank.pipeline.stages`.
"""

from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Protocol,
    Sequence,
    TypeVar,
)

from bridgerank.core.codehash import code_fingerprint, imported_libraries
from bridgerank.core.errors import StageNotReady
from bridgerank.core.sections import Settings, result_settings
from bridgerank.core.summary import StageSummary

if TYPE_CHECKING:  # SQLAlchemy loads with the store, not with the stage type: a fast --help
    from sqlalchemy import Connection
    from sqlalchemy.engine import Engine

    from bridgerank.core.store import Base

T = TypeVar("T")


class Progress(Protocol):
    """``progress(items, label, total)``: the items, reported on as they are consumed."""

    def __call__(self, items: Iterable[T], label: str, total: int | None, /) -> Iterator[T]: ...


def no_progress(items: Iterable[T], _label: str = "", _total: int | None = None) -> Iterator[T]:
    """The default progress reporter: none."""
    return iter(items)


class StudyPiece(Protocol):
    """What a stage knows of one of its studies (:class:`bridgerank.core.studies.Study`)."""

    @property
    def name(self) -> str: ...

    @property
    def reads(self) -> tuple[type[Base], ...]: ...

    @property
    def optional_reads(self) -> tuple[type[Base], ...]: ...

    @property
    def writes(self) -> tuple[type[Base], ...]: ...

    @property
    def owns(self) -> Mapping[type[Base], Callable[[Mapping[str, Any]], bool]]: ...

    def parts(self, context: StageContext) -> dict[str, Any]:
        """The study's fingerprint (key ``fingerprint``) and its parts."""
        ...


@dataclass
class StageContext:
    """What a running stage gets: the database, settings, options, and its ledger entry."""

    engine: Engine
    settings: Settings
    stage: "Stage"
    fingerprint: str = ""
    parts: dict[str, Any] = field(default_factory=dict)
    sources: Sequence[str] = ()
    jobs: int = 1
    # run with --force: a stage that keeps work between runs (dds) redoes it all
    force: bool = False
    progress: Progress = no_progress
    # a line for the user while the stage runs (a study starting, with its estimate)
    say: Callable[[str], None] = field(default=lambda line: None)
    # facts kept with the ledger row beside the summary (the studies' seconds)
    notes: dict[str, Any] = field(default_factory=dict)
    started_at: _dt.datetime = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc))
    _clock: float = field(default_factory=time.perf_counter)

    def finish(
        self,
        conn: Connection,
        summary: StageSummary,
        outputs: Iterable[type[Base]] | None = None,
        replace: Mapping[type[Base], Iterable[Mapping[str, Any]]] | None = None,
    ) -> None:
        """Write the stage's result and record the run: the only way a stage writes the ledger
        (with :meth:`commit_unit` for results committed piece by piece).

        Call it inside the stage's last transaction, so that the ledger row and the outputs
        are committed together or not at all.

        Parameters
        ----------
        conn : Connection
            The stage's open transaction.
        summary : StageSummary
            What the run produced; its ``seconds`` is set here. Kept as JSON in the ledger,
            for history only.
        outputs : iterable of ORM classes, optional
            The tables whose version is bumped (default: every table the stage writes; ``()``
            for a stage whose tables were committed piece by piece).
        replace : mapping of ORM class to rows, optional
            Tables whose whole content is the result: emptied, then filled with these rows, in
            the mapping's order (a table holding keys of another comes after it).
        """
        from bridgerank.core import ledger

        # emptied last-first and filled first-last, so a table may hold keys of one before it
        replaced = list((replace or {}).items())
        for model, _rows in reversed(replaced):
            conn.execute(model.__table__.delete())
        for model, rows in replaced:
            batch = list(rows)
            if batch:
                conn.execute(model.__table__.insert(), batch)
        for table in outputs if outputs is not None else self.stage.writes:
            ledger.bump_table(conn, table.__tablename__, self.fingerprint)
        seconds = round(time.perf_counter() - self._clock, 3)
        summary.seconds = seconds
        record = summary.to_json()
        record["fingerprint_parts"] = self.parts
        record.update(self.notes)
        ledger.record_run(
            conn,
            self.stage.name,
            self.fingerprint,
            self.started_at.replace(tzinfo=None),
            seconds,
            record,
        )

    def commit_unit(self, conn: Connection, table: type[Base], token: str) -> None:
        """Record one piece of the result committed on its own (a file ingested, a chunk of
        boards analysed): ``table``'s version becomes ``token`` chained onto its previous
        version, in the piece's own transaction, so a later stage sees new data even if this
        run is interrupted before :meth:`finish`."""
        from bridgerank.core import ledger

        name = table.__tablename__
        previous = ledger.table_versions(conn, [name])[name]
        ledger.bump_table(conn, name, ledger.chain(previous, token))


@dataclass(frozen=True)
class Stage:
    """A pipeline stage and what its fingerprint depends on."""

    name: str
    run: Callable[[StageContext], StageSummary]
    reads: tuple[type[Base], ...]
    writes: tuple[type[Base], ...]
    settings_sections: tuple[str, ...]
    # Tables read when present (their version joins the fingerprint; absent is no error).
    optional_reads: tuple[type[Base], ...] = ()
    # Extra fingerprint input (ingest: the source files' names, sizes and times).
    extra_input: Callable[[StageContext], Any] | None = None
    # A stage with nothing to do says why here (ingest without sources).
    idle_reason: Callable[[StageContext], str | None] | None = None
    # Why the stage's results are incomplete though its inputs did not change (a report file
    # deleted, boards whose worker died), or None: such a stage runs again.
    incomplete: Callable[[StageContext], str | None] | None = None
    # The summary type the stage returns: status rebuilds the last run's from the ledger.
    summary_type: type[StageSummary] = StageSummary
    # What status adds to the last run's brief from the tables now (dds: boards that failed).
    status_detail: Callable[[StageContext], str | None] | None = None
    # What an interrupted run keeps, in words from the tables ("377 boards analysed"); None:
    # the stage commits once at its end, so an interrupted run keeps nothing of it.
    kept: Callable[[Connection], str] | None = None
    # The independently fingerprinted pieces of the stage (:mod:`bridgerank.core.studies`):
    # its fingerprint is theirs, and a run reruns only those that changed.
    studies: tuple[StudyPiece, ...] = ()

    def __post_init__(self) -> None:
        for table in {table for study in self.studies for table in study.writes}:
            writers = [study for study in self.studies if table in study.writes]
            if len(writers) > 1 and any(table not in study.owns for study in writers):
                # a declaration error: a study run alone would not know which rows to keep
                raise TypeError(f"{table.__tablename__}: every study writing it must own rows")

    @property
    def module(self) -> str:
        """The module that defines the stage's ``run``: the root of its code fingerprint."""
        return self.run.__module__

    @property
    def tables(self) -> frozenset[str]:
        """Names of every table the stage declares it reads or writes."""
        return frozenset(
            model.__tablename__ for model in self.reads + self.optional_reads + self.writes
        )


@dataclass
class StageOutcome:
    """What happened to one stage in a run: ``ran``, ``up to date`` or ``idle``."""

    stage: str
    status: str
    summary: StageSummary | None = None
    note: str = ""


def input_versions(
    context: StageContext,
    reads: Sequence[type[Base]],
    optional_reads: Sequence[type[Base]] = (),
) -> dict[str, str | None]:
    """The versions of the tables a stage (or one of its studies) reads; raises
    :class:`StageNotReady` when a table it needs was never written."""
    from bridgerank.core import ledger

    with context.engine.connect() as conn:
        inputs = ledger.table_versions(conn, [model.__tablename__ for model in reads])
        optional = ledger.table_versions(conn, [model.__tablename__ for model in optional_reads])
    missing = [table for table, version in inputs.items() if version is None]
    if missing:
        raise StageNotReady(context.stage.name, missing[0])
    return inputs | optional


def _fingerprint_inputs(
    context: StageContext,
) -> tuple[dict[str, str | None], dict[str, Any], str, Any]:
    """What a stage's fingerprint hashes: input table versions, settings, code, extra."""
    stage = context.stage
    inputs = input_versions(context, stage.reads, stage.optional_reads)
    settings = {
        section: result_settings(getattr(context.settings, section))
        for section in stage.settings_sections
    }
    extra = stage.extra_input(context) if stage.extra_input else None
    return inputs, settings, code_fingerprint(stage.module), extra


def stage_fingerprint(context: StageContext) -> str:
    """Fingerprint of a stage in its current state; raises if an input was never written.
    Its parts (:func:`fingerprint_parts`) are kept on the context, for the ledger to record
    and for a later ``status`` to say what changed."""
    from bridgerank.core import ledger

    if context.stage.studies:
        studies = {study.name: study.parts(context) for study in context.stage.studies}
        context.parts = {"studies": studies}
        return ledger.digest({name: parts["fingerprint"] for name, parts in studies.items()})
    inputs, settings, code, extra = _fingerprint_inputs(context)
    context.parts = fingerprint_parts(inputs, settings, code, extra)
    context.parts["libraries"] = imported_libraries(context.stage.module)
    return ledger.fingerprint(inputs, settings, code, extra)


def fingerprint_parts(
    inputs: dict[str, str | None], settings: dict[str, Any], code: str, extra: Any
) -> dict[str, Any]:
    """The fingerprint's parts, small enough to keep: table versions, then a digest of the
    settings of each section, of the code and of the extra input."""
    from bridgerank.core.ledger import digest

    return {
        "inputs": inputs,
        "settings": {section: digest(values) for section, values in settings.items()},
        "code": code,
        "extra": digest(extra),
    }


def what_changed(before: dict[str, Any] | None, now: dict[str, Any]) -> str:
    """In words, which parts of a fingerprint differ (``before`` from the last run's ledger
    row; runs of older versions kept none)."""
    if "studies" in now:
        return _studies_changed(before, now)
    if not before:
        return "its inputs, settings or code changed"
    reasons = []
    tables = sorted(
        table
        for table in set(before.get("inputs", {})) | set(now["inputs"])
        if before.get("inputs", {}).get(table) != now["inputs"].get(table)
    )
    if tables:
        reasons.append("new data in " + ", ".join(tables))
    sections = sorted(
        section
        for section in set(before.get("settings", {})) | set(now["settings"])
        if before.get("settings", {}).get(section) != now["settings"].get(section)
    )
    if sections:
        reasons.append("settings changed in [" + "], [".join(sections) + "]")
    if before.get("code") != now["code"]:
        libraries = library_changes(before.get("libraries"), now.get("libraries"))
        reasons.append(f"libraries changed: {libraries}" if libraries else "its code changed")
    if before.get("extra") != now["extra"]:
        reasons.append("its other inputs changed (files, templates or output path)")
    return "; ".join(reasons) or "its inputs, settings or code changed"


def library_changes(before: Mapping[str, str] | None, now: Mapping[str, str] | None) -> str:
    """The libraries whose versions differ, in words (``openskill 6.0.2 installed,
    numpy 1.26.4 -> 2.1.0``); empty when they are the same or the last run kept none (the
    code itself changed then, or nothing is known)."""
    if before is None or now is None:
        return ""
    words = []
    for name in sorted(set(before) | set(now)):
        old, new = before.get(name), now.get(name)
        if old == new:
            continue
        if old is None:
            words.append(f"{name} {new} installed")
        elif new is None:
            words.append(f"{name} {old} removed")
        else:
            words.append(f"{name} {old} -> {new}")
    return ", ".join(words)


def is_up_to_date(context: StageContext) -> bool:
    """Whether the stage's last completed run had the fingerprint it would have now."""
    from bridgerank.core import ledger

    with context.engine.connect() as conn:
        previous = ledger.last_run(conn, context.stage.name)
    return previous is not None and previous["fingerprint"] == context.fingerprint


def changed_studies(before: Mapping[str, Any] | None, now: Mapping[str, Any]) -> list[str]:
    """Of a stage made of studies, those whose fingerprint in ``now`` differs from ``before``
    (the last run's fingerprint parts): every study when the last run kept none."""
    old = (before or {}).get("studies") or {}
    return [
        name
        for name, parts in now["studies"].items()
        if old.get(name, {}).get("fingerprint") != parts["fingerprint"]
    ]


def _studies_changed(before: dict[str, Any] | None, now: dict[str, Any]) -> str:
    """:func:`what_changed` of a stage made of studies: which studies changed, and how."""
    old = (before or {}).get("studies")
    if not old:
        return "its inputs, settings or code changed (every study)"
    reasons = [
        f"study {name}: "
        + (what_changed(old[name], now["studies"][name]) if name in old else "never run")
        for name in changed_studies(before, now)
    ]
    return "; ".join(reasons) or "its inputs, settings or code changed"
