"""What ``bridgerank status`` shows: each stage's last run and whether it is up to date."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, inspect, select
from sqlalchemy.engine import Engine

from bridgerank.cleaning.ingest.tables import SkippedFile
from bridgerank.core import ledger
from bridgerank.core.errors import StageNotReady
from bridgerank.core.sections import Settings
from bridgerank.core.stage import (
    Stage,
    StageContext,
    changed_studies,
    stage_fingerprint,
    what_changed,
)
from bridgerank.pipeline.schema import current_revision, head_revision, known_revision
from bridgerank.pipeline.schema_check import (
    KERNEL,
    SchemaProblem,
    describe,
    integrity_problem,
    schema_problems,
    stale_stages,
)
from bridgerank.pipeline.stages import all_stages, get_stage, stage_names


def stage_status(engine: Engine, settings: Settings) -> list[dict[str, Any]]:
    """One dict per stage: ``stage``, ``state``, ``finished``, ``seconds``, ``brief``, ``why``
    (what changed, for a stage out of date).

    ``state`` is ``never run``, ``up to date``, ``out of date`` (inputs, settings or code
    changed since the last run), ``incomplete`` (results lost since: a report file deleted,
    boards whose worker died; the brief says which) or ``not ready`` (an input table was never
    written). Ingest, whose input is the files named on the command line, is ``done`` once it
    has run. Nothing is written: the database is only read.
    """
    rows = []
    damaged = damaged_stages(schema_problems(engine, all_stages()))
    # status only reads: a database no run has written to has no ledger, and gets none here
    ledger_kept = "stage_runs" in inspect(engine).get_table_names() and KERNEL not in damaged
    for name in stage_names():
        stage = get_stage(name)
        last = None
        if ledger_kept:
            with engine.connect() as conn:
                last = ledger.last_run(conn, name)
        summary = json.loads(last["summary"]) if last else {}
        missing = None
        why = ""
        studies: list[str] | None = None  # of a stage made of studies: those out of date
        if name == "ingest":
            state = "done" if last else "never run"
        elif not ledger_kept:
            state = "never run"
            why = damaged.get(KERNEL, "")
        elif last is not None and (name in damaged or last["fingerprint"] == ledger.INVALIDATED):
            # a table not as declared, or results a schema change or repair made stale: the
            # next run rebuilds them (bridgerank.pipeline.schema); nothing else is asked of
            # tables that may not be there
            state = "out of date"
            why = damaged.get(name) or summary.get("invalidated", "")
        else:
            context = StageContext(engine=engine, settings=settings, stage=stage)
            try:
                context.fingerprint = stage_fingerprint(context)
                missing = stage.incomplete(context) if stage.incomplete and last else None
                if last is None:
                    state = "never run"
                elif last["fingerprint"] != context.fingerprint:
                    state = "out of date"
                    why = what_changed(summary.get("fingerprint_parts"), context.parts)
                    if stage.studies:
                        studies = changed_studies(summary.get("fingerprint_parts"), context.parts)
                elif missing:
                    state = "incomplete"
                else:
                    state = "up to date"
                    studies = [] if stage.studies else None
            except StageNotReady:
                state = "not ready"
        brief = stage.summary_type.from_json(summary).brief() if last else ""
        if last and stage.status_detail is not None:
            here = StageContext(engine=engine, settings=settings, stage=stage)
            detail = stage.status_detail(here)
            if detail:
                brief = f"{brief}; {detail}" if brief else detail
        if state == "incomplete" and missing:
            brief = f"{missing}; {brief}"
        rows.append(
            {
                "stage": name,
                "state": state,
                "finished": last["finished_at"].strftime("%Y-%m-%d %H:%M:%S") if last else None,
                "seconds": last["seconds"] if last else None,
                "brief": brief,
                "why": why,
                "studies": studies,
            }
        )
    return rows


@dataclass(frozen=True)
class DatabaseState:
    """The database as a whole: its schema revision and the state of its pages."""

    schema: str  # "schema revision 0001", or what the next run will upgrade
    pages: str  # what was checked, in words
    damage: str | None  # what SQLite's quick_check found, or None


def database_state(engine: Engine) -> DatabaseState:
    """The schema revision against this version's, and SQLite's ``quick_check`` of the
    pages (other databases check their own); reads only."""
    current, head = current_revision(engine), head_revision()
    if current == head:
        schema = f"schema revision {head}"
    elif "stage_runs" not in inspect(engine).get_table_names():
        schema = "no table yet"
    elif current is not None and not known_revision(current):
        schema = (
            f"schema {current}: made by a newer bridgerank (this version knows up to {head}); "
            "no command of this version changes it - upgrade bridgerank"
        )
    else:
        schema = f"schema {current or 'unversioned'}: the next run upgrades it to {head}"
    if engine.dialect.name != "sqlite":
        return DatabaseState(schema, f"pages checked by {engine.dialect.name}", None)
    damage = integrity_problem(engine)
    return DatabaseState(schema, "quick_check " + ("found damage" if damage else "ok"), damage)


def damaged_stages(problems: list[SchemaProblem]) -> dict[str, str]:
    """Stage -> why its results are stale, from the tables not as declared, for the stages
    :func:`~bridgerank.pipeline.schema_check.stale_stages` names (the ledger's under
    :data:`KERNEL`)."""
    damaged = {}
    for stage, found in stale_stages(problems, stage_names()).items():
        owners = dict.fromkeys(problem.owner for problem in found)  # in the order found
        damaged[stage] = "; ".join(
            f"schema: {describe([p for p in found if p.owner == owner])} (the next run rebuilds it)"
            for owner in owners
        )
    return damaged


def skipped_files(engine: Engine, limit: int = 20) -> tuple[list[tuple[str, str]], int]:
    """Files of folders that ingest did not read: up to ``limit`` (path, reason), and how many
    there are in all."""
    if "skipped_files" not in inspect(engine).get_table_names():
        return [], 0
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(SkippedFile)).scalar_one()
        rows = conn.execute(
            select(SkippedFile.path, SkippedFile.reason).order_by(SkippedFile.path).limit(limit)
        ).all()
    return [(path, reason) for path, reason in rows], total


def run_plan(
    engine: Engine, settings: Settings, selected: list[str], sources: bool, force: bool
) -> list[tuple[str, bool, str]]:
    """What ``bridgerank run`` would do, stage by stage, without doing it: ``(stage, runs,
    why)``. A stage runs when it is out of date, never ran, lost results, is forced, or reads
    a table an earlier stage of this run will rewrite; of a stage made of studies, only the
    studies concerned run, and only their tables count as rewritten."""
    states = {row["stage"]: row for row in stage_status(engine, settings)}
    rewritten: dict[str, str] = {}  # table -> the stage of this run that writes it
    plan = []
    for name in selected:
        stage, row = get_stage(name), states[name]
        reads = [model.__tablename__ for model in (*stage.reads, *stage.optional_reads)]
        after = next((table for table in reads if table in rewritten), None)
        due = _due_studies(stage, row, rewritten, force)
        if name == "ingest":
            runs = sources or row["state"] == "never run"
            why = (
                "reads the files named (files already stored add nothing)"
                if sources
                else "never run: reads the embedded sample"
                if runs
                else "no files named"
            )
        elif force:
            runs, why = True, "--force"
        elif after is not None:
            runs, why = True, f"after {rewritten[after]}, which rewrites {after}"
            if due is not None and row["state"] == "out of date" and row["why"]:
                why += f"; {row['why']}"
        elif row["state"] == "up to date":
            runs, why = False, "up to date"
        elif row["state"] == "not ready":
            runs, why = False, "not ready: an input table was never written"
        else:
            runs = True
            why = row["state"] + (f": {row['why']}" if row["why"] else "")
        if runs and due is not None and len(due) < len(stage.studies):
            why += f" (only the {'study' if len(due) == 1 else 'studies'} {', '.join(due)})"
        if runs:
            writes = stage.writes
            if due is not None:  # a stage made of studies: the tables of those that run
                writes = tuple(table for s in stage.studies if s.name in due for table in s.writes)
            rewritten.update({model.__tablename__: name for model in writes})
        plan.append((name, runs, why))
    return plan


def _due_studies(
    stage: Stage, row: dict[str, Any], rewritten: dict[str, str], force: bool
) -> list[str] | None:
    """Of a stage made of studies, those a run would run: out of date, or reading a table an
    earlier stage rewrites (all of them when forced, never run or invalidated); None for a
    stage without studies."""
    if not stage.studies:
        return None
    if force or row["studies"] is None:
        return [study.name for study in stage.studies]
    return [
        study.name
        for study in stage.studies
        if study.name in row["studies"]
        or any(model.__tablename__ in rewritten for model in (*study.reads, *study.optional_reads))
    ]
