"""The registry of stages, in pipeline order, and the runner that skips what is up to date.

The runner computes each selected stage's fingerprint (:mod:`bridgerank.core.stage`), runs
it only when the fingerprint changed (or ``force``), and stops at the first error, which the
CLI reports with the command that resumes the pipeline. This module sits above every stage
package and imports them; no stage imports it.
"""

from __future__ import annotations

from typing import Callable, Sequence

from sqlalchemy.engine import Engine

from bridgerank.cleaning.clean.stage import CLEAN_STAGE
from bridgerank.cleaning.ingest.stage import INGEST_STAGE
from bridgerank.cleaning.match.stage import MATCH_STAGE
from bridgerank.core.errors import SettingsError
from bridgerank.core.sections import Settings
from bridgerank.core.stage import (
    Progress,
    Stage,
    StageContext,
    StageOutcome,
    is_up_to_date,
    no_progress,
    stage_fingerprint,
)
from bridgerank.dds.stage import DDS_STAGE
from bridgerank.pipeline.report.stage import REPORT_STAGE
from bridgerank.ratings.stage import RATE_STAGE
from bridgerank.regression.stage import REGRESS_STAGE

STAGES: tuple[Stage, ...] = (INGEST_STAGE, CLEAN_STAGE, MATCH_STAGE, DDS_STAGE, RATE_STAGE,
                             REGRESS_STAGE, REPORT_STAGE)
_BY_NAME = {stage.name: stage for stage in STAGES}


def stage_names() -> list[str]:
    """Names of all stages in pipeline order."""
    return list(_BY_NAME)


def get_stage(name: str) -> Stage:
    """The stage called ``name``."""
    try:
        return _BY_NAME[name]
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


def run_stages(engine: Engine, settings: Settings, stages: Sequence[Stage], *,
               sources: Sequence[str] = (), jobs: int = 1, force: bool = False,
               progress: Progress = no_progress,
               on_outcome: Callable[[StageOutcome], None] | None = None) -> list[StageOutcome]:
    """Run stages in order, skipping those whose fingerprint is unchanged.

    Parameters
    ----------
    engine : Engine
    settings : Settings
        Full settings (:func:`bridgerank.core.settings.load_settings`).
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
