"""The registry of stages, in pipeline order, and the runner that skips what is up to date.

The runner computes each selected stage's fingerprint (:mod:`bridgerank.core.stage`), runs
it only when the fingerprint changed (or ``force``), and stops at the first error, which the
CLI reports with the command that resumes the pipeline. This module sits above every stage
package and imports them (on first use); no stage imports it.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from bridgerank.core.errors import SettingsError
from bridgerank.core.stage import (
    Progress,
    Stage,
    StageContext,
    StageOutcome,
    is_up_to_date,
    no_progress,
    stage_fingerprint,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from bridgerank.core.sections import Settings

# The stages in pipeline order: name, where the stage is declared, and the command's help.
# Stage modules are imported on first use (SQLAlchemy's ORM alone costs a fifth of a second),
# so that `bridgerank --help` starts at once; the import-linter contracts still see the
# floors, since no stage module imports this one.
REGISTRY: tuple[tuple[str, str, str], ...] = (
    (
        "ingest",
        "bridgerank.cleaning.ingest.stage:INGEST_STAGE",
        "Read SOURCES (files or folders) into raw_boards; files already stored add nothing.",
    ),
    (
        "clean",
        "bridgerank.cleaning.clean.stage:CLEAN_STAGE",
        "Validate raw records into boards, recording every exclusion and its reason.",
    ),
    (
        "match",
        "bridgerank.cleaning.match.stage:MATCH_STAGE",
        "Match raw player names to the WBF ranking lists, with an audit trail.",
    ),
    (
        "dds",
        "bridgerank.dds.stage:DDS_STAGE",
        "Judge every card and auction double dummy; 33 counters and 28 rates per player.",
    ),
    (
        "rate",
        "bridgerank.ratings.stage:RATE_STAGE",
        "Rate players from results (BT family, multiplayer Elo) with held-out validation.",
    ),
    (
        "regress",
        "bridgerank.regression.stage:REGRESS_STAGE",
        "Regress ranking points on mistake rates (VIF, SAS-style selection, diagnostics).",
    ),
    (
        "report",
        "bridgerank.pipeline.report.stage:REPORT_STAGE",
        "Write the report site OUT/report/ (open index.html) and every table as CSV in OUT/csv/.",
    ),
)
_WHERE = {name: where for name, where, _ in REGISTRY}


def stage_names() -> list[str]:
    """Names of all stages in pipeline order."""
    return [name for name, _, _ in REGISTRY]


def stage_help(name: str) -> str:
    """The one-line help of a stage's command."""
    return next(text for stage, _, text in REGISTRY if stage == name)


@lru_cache(maxsize=None)
def get_stage(name: str) -> Stage:
    """The stage called ``name`` (its module is imported now)."""
    if name not in _WHERE:
        raise SettingsError(f"no stage {name!r}; stages are: {', '.join(stage_names())}")
    module, _, attribute = _WHERE[name].partition(":")
    stage = getattr(importlib.import_module(module), attribute)
    if not isinstance(stage, Stage) or stage.name != name:
        raise TypeError(f"{_WHERE[name]} is not the stage {name!r}")  # a registry typo: a bug
    return stage


def all_stages() -> list[Stage]:
    """Every stage, in pipeline order."""
    return [get_stage(name) for name in stage_names()]


def open_store(
    url: str,
    create: bool = True,
    notes: list[str] | None = None,
    what: str = "",
    backups: int = 3,
) -> Engine:
    """The engine of the database at ``url``, brought to this version's schema (``create``)
    or, for commands that only read, nothing created or changed.

    Parameters
    ----------
    url : str
    create : bool
        True for commands that write: the database is created, migrated and checked
        (:func:`bridgerank.pipeline.schema.prepare_database`).
    notes : list of str, optional
        Receives one line for each thing done to an existing database's schema.
    what : str
        The command, named to a run refused while the schema is being checked.
    backups : int
        Copies of a SQLite database to keep from schema changes (``[store] backups``).
    """
    from bridgerank.core.store import open_engine, store_errors
    from bridgerank.pipeline.schema import prepare_database

    stages = all_stages()  # every stage declares its tables on import
    engine = open_engine(url, create=create, tables=False)
    if create:
        try:
            with store_errors(url):
                found = prepare_database(engine, stages, what, backups)
        except BaseException:
            engine.dispose()  # the caller never gets it: no connection left open
            raise
        if notes is not None:
            notes.extend(found)
    return engine


def select_stages(
    start: str | None = None, stop: str | None = None, only: Sequence[str] = ()
) -> list[Stage]:
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
    return [get_stage(name) for name in names[first : last + 1]]


def run_stages(
    engine: Engine,
    settings: Settings,
    stages: Sequence[Stage],
    *,
    sources: Sequence[str] = (),
    jobs: int = 1,
    force: bool = False,
    progress: Progress = no_progress,
    say: Callable[[str], None] = lambda line: None,
    on_outcome: Callable[[StageOutcome], None] | None = None,
    what: str = "bridgerank",
) -> list[StageOutcome]:
    """Run stages in order, skipping those whose fingerprint is unchanged.

    The run holds the database's writer lock throughout (:mod:`bridgerank.core.lock`).

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
    say : callable
        Shows a line while a stage runs (a study of the rate stage starting, with the time
        left).
    on_outcome : callable, optional
        Called after each stage, so a CLI can print as it goes.
    what : str
        What this run is (its command line), named to a run refused while this one holds
        the lock.

    Raises
    ------
    DatabaseInUse
        When another run is writing to the database.

    Returns
    -------
    list of StageOutcome
    """
    from bridgerank.core.lock import run_lock
    from bridgerank.core.store import Base
    from bridgerank.pipeline.report.staging import remove_dead_staging

    outcomes = []
    with run_lock(engine, what):
        # a report killed mid-way left its half-written site: gone, even if the report is
        # up to date this time
        remove_dead_staging(Path(settings.store.out))
        for stage in stages:
            # the stage's tables exist even on an engine opened before its module was imported
            tables = stage.reads + stage.optional_reads + stage.writes
            Base.metadata.create_all(engine, tables=[model.__table__ for model in tables])
            context = StageContext(
                engine=engine,
                settings=settings,
                stage=stage,
                sources=sources,
                jobs=jobs,
                force=force,
                progress=progress,
                say=say,
            )
            idle = stage.idle_reason(context) if stage.idle_reason else None
            if idle:
                outcome = StageOutcome(stage.name, "idle", note=idle)
            else:
                context.fingerprint = stage_fingerprint(context)
                missing = stage.incomplete(context) if stage.incomplete else None
                if not force and not missing and is_up_to_date(context):
                    outcome = StageOutcome(stage.name, "up to date")
                else:
                    outcome = StageOutcome(stage.name, "ran", stage.run(context))
            outcomes.append(outcome)
            if on_outcome:
                on_outcome(outcome)
    return outcomes
