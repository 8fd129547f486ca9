"""What ``bridgerank status`` shows: each stage's last run and whether it is up to date."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, inspect, select
from sqlalchemy.engine import Engine

from bridgerank.cleaning.ingest.tables import SkippedFile
from bridgerank.core import ledger
from bridgerank.core.errors import StageNotReady
from bridgerank.core.sections import Settings
from bridgerank.core.stage import StageContext, stage_fingerprint, what_changed
from bridgerank.dds.stage import failed_boards
from bridgerank.pipeline.stages import get_stage, stage_names


def _brief(stage: str, summary: dict[str, Any]) -> str:
    """One line on what a stage's last run produced."""
    if stage == "ingest":
        files = sum(summary.get("files", {}).values())
        return f"{summary.get('records', 0):,} records from {files:,} files"
    if stage == "clean":
        return (
            f"{summary.get('kept', 0):,} boards kept of {summary.get('records', 0):,}, "
            f"{summary.get('excluded', 0):,} excluded"
        )
    if stage == "match":
        return (
            f"{summary.get('matched', 0):,} of {summary.get('raw_names', 0):,} names matched, "
            f"{100 * summary.get('seat_share_matched', 0):.1f}% of board-seats"
        )
    if stage == "dds":
        return (
            f"{summary.get('boards', 0):,} boards, {summary.get('failed', 0):,} failed, "
            f"{summary.get('players', 0):,} players"
        )
    if stage == "rate":
        return (
            f"{summary.get('players', 0):,} players from {summary.get('team_games', 0):,} team "
            f"boards and {summary.get('pair_rankings', 0):,} pair rankings"
        )
    if stage == "regress":
        chosen = summary.get("chosen")
        return f"chosen: {chosen}" if chosen else "; ".join(summary.get("notes", [])[:1])
    if stage == "report":
        return str(summary.get("report", ""))
    return ""


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
    # status only reads: a database no run has written to has no ledger, and gets none here
    ledger_kept = "stage_runs" in inspect(engine).get_table_names()
    for name in stage_names():
        stage = get_stage(name)
        last = None
        if ledger_kept:
            with engine.connect() as conn:
                last = ledger.last_run(conn, name)
        summary = json.loads(last["summary"]) if last else {}
        missing = None
        why = ""
        if name == "ingest":
            state = "done" if last else "never run"
        elif not ledger_kept:
            state = "never run"
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
                elif missing:
                    state = "incomplete"
                else:
                    state = "up to date"
            except StageNotReady:
                state = "not ready"
        brief = _brief(name, summary)
        if name == "dds" and last:
            with engine.connect() as conn:
                failed = failed_boards(conn)
            if failed:  # how many boards could not be analysed, and why
                brief += "; failed: " + ", ".join(
                    f"{count:,} {reason[:60]}" for reason, count in sorted(failed.items())
                )
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
            }
        )
    return rows


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
    a table an earlier stage of this run will rewrite."""
    states = {row["stage"]: row for row in stage_status(engine, settings)}
    rewritten: dict[str, str] = {}  # table -> the stage of this run that writes it
    plan = []
    for name in selected:
        stage, row = get_stage(name), states[name]
        reads = [model.__tablename__ for model in (*stage.reads, *stage.optional_reads)]
        after = next((table for table in reads if table in rewritten), None)
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
        elif row["state"] == "up to date":
            runs, why = False, "up to date"
        elif row["state"] == "not ready":
            runs, why = False, "not ready: an input table was never written"
        else:
            runs = True
            why = row["state"] + (f": {row['why']}" if row["why"] else "")
        if runs:
            rewritten.update({model.__tablename__: name for model in stage.writes})
        plan.append((name, runs, why))
    return plan
