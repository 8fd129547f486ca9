"""Stages, their registry, and the runner that skips what is up to date.

A stage is a function ``run(context) -> summary`` plus what it declares: the tables it reads
and writes, the settings sections it uses and the modules whose code it runs. The runner
computes each selected stage's fingerprint (:mod:`pipeline.ledger`), runs it only when the
fingerprint changed (or ``force``), and stops at the first error, which it re-raises with the
command that resumes the pipeline.
"""

from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from sqlalchemy.engine import Engine

from pipeline import ledger
from pipeline.errors import SettingsError, StageNotReady

T = TypeVar("T")
Progress = Callable[[Iterable[T], str, int | None], Iterator[T]]


def no_progress(items: Iterable[T], _label: str = "", _total: int | None = None) -> Iterator[T]:
    """The default progress reporter: none."""
    return iter(items)


@dataclass
class StageContext:
    """What a running stage gets: the database, settings, options, and its ledger entry."""

    engine: Engine
    settings: dict[str, Any]
    stage: "Stage"
    fingerprint: str = ""
    sources: Sequence[str] = ()
    jobs: int = 1
    progress: Progress = no_progress
    started_at: _dt.datetime = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc))
    _clock: float = field(default_factory=time.perf_counter)

    def finish(self, conn, summary: dict[str, Any], outputs: Iterable[str] | None = None) -> None:
        """Record the run and bump the versions of the tables it wrote.

        Call it inside the stage's last transaction, so that the ledger row and the outputs
        are committed together or not at all.
        """
        for table in outputs if outputs is not None else self.stage.writes:
            ledger.bump_table(conn, table, self.fingerprint)
        summary["seconds"] = round(time.perf_counter() - self._clock, 3)
        ledger.record_run(conn, self.stage.name, self.fingerprint,
                          self.started_at.replace(tzinfo=None), summary["seconds"], summary)


@dataclass(frozen=True)
class Stage:
    """A pipeline stage and what its fingerprint depends on."""

    name: str
    run: Callable[[StageContext], dict[str, Any]]
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    settings_sections: tuple[str, ...]
    modules: tuple[str, ...]
    description: str
    # Tables read when present (their version joins the fingerprint; absent is no error).
    optional_reads: tuple[str, ...] = ()
    # Extra fingerprint input (ingest: the source files' names, sizes and times).
    extra_input: Callable[[StageContext], Any] | None = None
    # A stage with nothing to do says why here (ingest without sources).
    idle_reason: Callable[[StageContext], str | None] | None = None
    # A stage whose output lives outside the database says whether it is still there.
    outputs_present: Callable[[StageContext], bool] | None = None


@dataclass
class StageOutcome:
    """What happened to one stage in a run: ``ran``, ``up to date`` or ``idle``."""

    stage: str
    status: str
    summary: dict[str, Any] = field(default_factory=dict)
    note: str = ""


def _registry() -> dict[str, Stage]:
    # Imported here: stage modules import this one for StageContext.
    from cleaning.clean import CLEAN_STAGE
    from cleaning.ingest import INGEST_STAGE
    from cleaning.match import MATCH_STAGE
    from dds.stage import DDS_STAGE
    from pipeline.report import REPORT_STAGE
    from ratings.stage import RATE_STAGE
    from regression.stage import REGRESS_STAGE

    stages = (INGEST_STAGE, CLEAN_STAGE, MATCH_STAGE, DDS_STAGE, RATE_STAGE, REGRESS_STAGE,
              REPORT_STAGE)
    return {stage.name: stage for stage in stages}


def stage_names() -> list[str]:
    """Names of all stages in pipeline order."""
    return list(_registry())


def get_stage(name: str) -> Stage:
    """The stage called ``name``."""
    try:
        return _registry()[name]
    except KeyError:
        raise SettingsError(
            f"no stage {name!r}; stages are: {', '.join(stage_names())}"
        ) from None


def select_stages(start: str | None = None, stop: str | None = None,
                  only: Sequence[str] = ()) -> list[Stage]:
    """The stages a run covers: ``only`` these, or from ``start`` to ``stop`` inclusive."""
    names = stage_names()
    if only:
        if start or stop:
            raise SettingsError("--only cannot be combined with --from or --to")
        for name in only:
            get_stage(name)
        return [get_stage(name) for name in names if name in only]
    first = names.index(get_stage(start).name) if start else 0
    last = names.index(get_stage(stop).name) if stop else len(names) - 1
    if first > last:
        raise SettingsError(f"--from {start} comes after --to {stop}")
    return [get_stage(name) for name in names[first:last + 1]]


def stage_fingerprint(context: StageContext) -> str:
    """Fingerprint of a stage in its current state; raises if an input was never written."""
    stage = context.stage
    with context.engine.connect() as conn:
        inputs = ledger.table_versions(conn, stage.reads)
        optional = ledger.table_versions(conn, stage.optional_reads)
    missing = [table for table, version in inputs.items() if version is None]
    if missing:
        raise StageNotReady(stage.name, missing[0])
    inputs.update(optional)
    settings = {section: context.settings.get(section) for section in stage.settings_sections}
    extra = stage.extra_input(context) if stage.extra_input else None
    return ledger.fingerprint(inputs, settings, ledger.code_version(stage.modules), extra)


def is_up_to_date(context: StageContext) -> bool:
    """Whether the stage's last completed run had the fingerprint it would have now."""
    with context.engine.connect() as conn:
        previous = ledger.last_run(conn, context.stage.name)
    return previous is not None and previous["fingerprint"] == context.fingerprint


def run_stages(engine: Engine, settings: dict[str, Any], stages: Sequence[Stage], *,
               sources: Sequence[str] = (), jobs: int = 1, force: bool = False,
               progress: Progress = no_progress,
               on_outcome: Callable[[StageOutcome], None] | None = None) -> list[StageOutcome]:
    """Run stages in order, skipping those whose fingerprint is unchanged.

    Parameters
    ----------
    engine : Engine
    settings : dict
        Full settings (:func:`config.load_settings`).
    stages : sequence of Stage
        From :func:`select_stages`.
    sources : sequence of str
        Files and folders for the ingest stage.
    jobs : int
        Worker processes for stages that run in parallel.
    force : bool
        Run every selected stage even when up to date.
    progress : callable
        ``progress(iterable, label, total)`` wrapper for long loops.
    on_outcome : callable, optional
        Called after each stage, so a CLI can print as it goes.

    Returns
    -------
    list of StageOutcome
    """
    outcomes = []
    for stage in stages:
        context = StageContext(engine=engine, settings=settings, stage=stage, sources=sources,
                               jobs=jobs, progress=progress)
        idle = stage.idle_reason(context) if stage.idle_reason else None
        if idle:
            outcome = StageOutcome(stage.name, "idle", note=idle)
        else:
            context.fingerprint = stage_fingerprint(context)
            present = stage.outputs_present(context) if stage.outputs_present else True
            if not force and present and is_up_to_date(context):
                outcome = StageOutcome(stage.name, "up to date")
            else:
                outcome = StageOutcome(stage.name, "ran", stage.run(context))
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)
    return outcomes
