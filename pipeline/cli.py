"""The ``bridgerank`` command: parses options, calls the library, prints, sets exit codes.

Exit codes: 0 success (also when some files were skipped or unreadable: they are listed),
1 a bridgerank error, 2 a usage or settings error, 3 a database error; each is one line on
standard error with a hint (:mod:`bridgerank.core.errors`).
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import click

from bridgerank.core.errors import BridgerankError, StoreError
from bridgerank.core.stage import StageOutcome
from bridgerank.core.summary import WIDTH
from bridgerank.core.untrusted import visible
from bridgerank.pipeline.cli_session import (
    Session,
    common,
    group_options,
    refuse_a_missing_database,
    wrapped,
)
from bridgerank.pipeline.dd_commands import dd
from bridgerank.pipeline.exit_codes import fail_cleanly
from bridgerank.pipeline.predict_view import print_forecasts, print_line_up_forecast
from bridgerank.pipeline.progress import progress
from bridgerank.pipeline.regress_view import print_study
from bridgerank.pipeline.signals import Terminated, terminate_as_interrupt
from bridgerank.pipeline.stages import run_stages, select_stages, stage_help, stage_names


def _echo_line(line: str, err: bool = False) -> None:
    """One of a summary's lines, wrapped at ``WIDTH`` under its own indent."""
    indent = line[: len(line) - len(line.lstrip())]
    click.echo(wrapped(line, indent) if len(line) > WIDTH else line, err=err)


def _print_outcome(outcome: StageOutcome, verbose: bool = True) -> None:
    """A stage's outcome: its summary's lines (only the first unless ``verbose``), then its
    warnings on standard error."""
    if outcome.status == "ran" and outcome.summary is not None:
        lines = outcome.summary.lines()
        for line in lines if verbose else lines[:1]:
            _echo_line(line)
        for line in outcome.summary.warnings():
            _echo_line(line, err=True)
    elif outcome.status == "idle":
        click.echo(f"{outcome.stage}: {outcome.note}")
    else:
        click.echo(f"{outcome.stage}: up to date, nothing to do")


def _resume_command(stage: str, selected: Sequence[Any], sources: Sequence[str]) -> str:
    """The command that carries an interrupted or failed run on from ``stage``: the same
    database, folder, settings and workers; the same last stage; the sources again only
    when it stopped in ingest (later stages read them from the database)."""
    context = click.get_current_context()
    options = context.params
    if context.info_name != "run":  # ingest, regress ...: the same command again
        return shlex.join(["bridgerank", *sys.argv[1:]])
    words = ["bridgerank", "run", *(sources if stage == "ingest" else ())]
    if options.get("only"):
        names = [each.name for each in selected]
        for name in names[names.index(stage) :]:
            words += ["--only", name]
    else:
        words += ["--from", stage]
        if options.get("stop"):
            words += ["--to", options["stop"]]
    for option, key in (("--db", "db"), ("--out", "out"), ("--config", "config_file")):
        if options.get(key):
            words += [option, str(options[key])]
    if options.get("jobs"):
        words += ["--jobs", str(options["jobs"])]
    return shlex.join(words)


def _run(
    session: Session,
    stages: Sequence[str] | None,
    sources: Sequence[str],
    *,
    start: str | None = None,
    stop: str | None = None,
    force: bool = False,
    verbose: bool = True,
) -> None:
    selected = select_stages(start, stop, stages or ())
    began = time.perf_counter()
    current = {"stage": selected[0].name if selected else ""}

    def report(outcome: StageOutcome) -> None:
        _print_outcome(outcome, verbose)
        names = [stage.name for stage in selected]
        following = names.index(outcome.stage) + 1
        current["stage"] = names[following] if following < len(names) else ""

    try:
        from bridgerank.core.store import store_errors

        with store_errors(session.url), terminate_as_interrupt():
            run_stages(
                session.engine,
                session.settings,
                selected,
                sources=sources,
                jobs=session.jobs,
                force=force,
                progress=progress,
                say=lambda line: click.echo(line, err=True),
                on_outcome=report,
                what=shlex.join(["bridgerank", *sys.argv[1:]]),
            )
    except BridgerankError as problem:
        if not problem.hint and problem.resumable:
            problem.hint = f"Resume with: {_resume_command(current['stage'], selected, sources)}"
        raise
    except KeyboardInterrupt as stop:
        stage = next(stage for stage in selected if stage.name == current["stage"])
        if stage.kept is None:
            kept = "nothing of it was committed (the stages before it are kept)"
        else:
            with session.engine.connect() as conn:
                kept = f"kept: {stage.kept(conn)}"
        how = " (terminated)" if isinstance(stop, Terminated) else ""
        click.echo(f"\ninterrupted{how} during {stage.name}; {kept}.", err=True)
        _echo_line(f"Resume with: {_resume_command(stage.name, selected, sources)}", err=True)
        # the shell's codes: 128 + the signal's number
        sys.exit(128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT))
    from bridgerank.core.store import shown_url, sqlite_file
    from bridgerank.pipeline.report.stage import report_path

    database = sqlite_file(session.url) or shown_url(session.url)
    click.echo(f"done in {time.perf_counter() - began:.1f} s; database: {database}")
    report_page = report_path(session.settings)
    if report_page.exists() and any(stage.name == "report" for stage in selected):
        _echo_line(f"open the report in a browser: {report_page}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bridgerank", prog_name="bridgerank")
@group_options
@click.pass_context
def main(context: click.Context, **common: Any) -> None:
    """Judge bridge players from their hand records.

    Stages, in order: ingest, clean, match, dds, rate, regress, report. `bridgerank run` runs
    them all, skipping those whose inputs, settings and code have not changed since their last
    run.
    """
    # One BLAS thread per process, set before any stage loads numpy: the stages' matrices are
    # small (a rating fit's normal equations have hundreds of columns), where a second thread
    # costs several times the CPU for no time saved (a Cholesky factor of 460 columns: 1 ms of
    # CPU on one thread, 9 ms on two); the parallel work is the stages' own (--jobs). A
    # user's own setting of the variable wins.
    for variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    # the common options given before the command's name, for the command to read
    context.obj = {name: value for name, value in common.items() if value is not None}


@main.command()
@click.argument("sources", nargs=-1, type=click.Path())
@click.option("--from", "start", type=click.Choice(stage_names()), help="First stage to run.")
@click.option("--to", "stop", type=click.Choice(stage_names()), help="Last stage to run.")
@click.option(
    "--only",
    multiple=True,
    type=click.Choice(stage_names()),
    help="Run only this stage (repeatable).",
)
@click.option("--force", is_flag=True, help="Rerun the selected stages even if up to date.")
@click.option("--dry-run", is_flag=True, help="Say which stages would run and why; change nothing.")
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="Every stage's whole summary (exclusions by reason, matching, validation), not only "
    "its first line.",
)
@common
@fail_cleanly
def run(
    sources: tuple[str, ...],
    start: str | None,
    stop: str | None,
    only: tuple[str, ...],
    force: bool,
    dry_run: bool,
    verbose: bool,
    **common: Any,
) -> None:
    """Run the pipeline on SOURCES: files or folders of PBN, LIN, SQL dumps, Valet travellers
    or BridgeComposer recap pages (gzipped or not).

    With no SOURCES and an empty database, runs on the embedded sample in data/.
    """
    if dry_run:
        _dry_run(Session(**common, read_only=True), sources, start, stop, only, force)
        return
    if common.get("db") and not sources:
        refuse_a_missing_database(common["db"])
    session = Session(**common, sources=sources)
    from bridgerank.cleaning.ingest.stage import default_sources

    chosen, note = default_sources(session.engine, session.settings, list(sources))
    if note:
        click.echo(visible(note))
    _run(session, only, chosen, start=start, stop=stop, force=force, verbose=verbose)


@main.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("--force", is_flag=True, help="Look at every file again even if listed before.")
@common
@fail_cleanly
def ingest(sources: tuple[str, ...], force: bool, **common: Any) -> None:
    """Read SOURCES (files or folders) into raw_boards; files already stored add nothing."""
    _run(Session(**common, sources=sources), ["ingest"], sources, force=force)


@main.command()
@click.option(
    "--rates",
    "rate_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="CSV of mistake rates per player (repeatable); runs on files, not the database.",
)
@click.option(
    "--responses",
    "response_file",
    type=click.Path(exists=True, dir_okay=False),
    help="CSV of responses per player name (e.g. mp, pp), joined to the rates.",
)
@click.option(
    "--response",
    "response_names",
    multiple=True,
    help="Response column to study (repeatable; default from settings: pp, mp).",
)
@click.option("--force", is_flag=True, help="Run the stage even if nothing changed.")
@common
@fail_cleanly
def regress(
    rate_files: tuple[str, ...],
    response_file: str | None,
    response_names: tuple[str, ...],
    force: bool,
    **common: Any,
) -> None:
    """Regress ranking points on mistake rates (VIF, SAS-style selection, diagnostics).

    With --rates, runs on CSV files a user already has and writes CSV tables to
    OUT/regression/; without, runs the pipeline stage on the database.
    """
    if not rate_files:
        _run(Session(**common, existing=True), ["regress"], (), force=force)
        return
    session = Session(**common, database=False)
    from bridgerank.regression.export import result_frames, write_csv
    from bridgerank.regression.study import regress_files

    section = session.settings.regress
    result = regress_files(
        rate_files,
        response_file,
        response_names or section.responses,
        section,
        only_present=not response_names,
    )
    print_study(result)
    folder = Path(session.settings.store.out) / "regression"
    write_csv(result_frames(result), folder)
    click.echo(f"tables written to {folder}/")


def _dry_run(
    session: Session,
    sources: tuple[str, ...],
    start: str | None,
    stop: str | None,
    only: tuple[str, ...],
    force: bool,
) -> None:
    from bridgerank.pipeline.status import run_plan

    selected = [stage.name for stage in select_stages(start, stop, only)]
    plan = run_plan(session.engine, session.settings, selected, bool(sources), force)
    for name, runs, why in plan:
        click.echo(f"{'would run' if runs else 'would skip':<10} {name:<8} {visible(why)}")
    count = sum(runs for _, runs, _ in plan)
    click.echo(f"{count} of {len(plan)} stage{'s' if len(plan) != 1 else ''} would run")


@main.command()
@common
@fail_cleanly
def status(**common: Any) -> None:
    """Show each stage's last run and whether it is up to date; exit 1 when a stage is not
    (as ``make -q`` does), so scripts can test it."""
    session = Session(**common, read_only=True)
    from bridgerank.core.store import shown_url, store_errors
    from bridgerank.pipeline.status import database_state, skipped_files, stage_status

    with store_errors(session.url):
        state = database_state(session.engine)
        click.echo(f"database: {shown_url(session.url)} ({state.schema}; {state.pages})")
        if state.damage:
            raise StoreError(
                f"the database is damaged: {state.damage}",
                "Restore it from a copy (the upgrades leave one beside it), or build a new "
                "one: bridgerank run --db NEW SOURCES",
            )
        rows = stage_status(session.engine, session.settings)
    click.echo(f"{'stage':<8} {'state':<14} {'last run (UTC)':<20} {'seconds':>8}  summary")
    for row in rows:
        click.echo(
            f"{row['stage']:<8} {row['state']:<14} {row['finished'] or '-':<20} "
            f"{row['seconds'] if row['seconds'] is not None else '-':>8}  {visible(row['brief'])}"
        )
        if row["why"]:
            click.echo(f"{'':<8} why: {visible(row['why'])}")
    shown, total = skipped_files(session.engine)
    for path, reason in shown:
        click.echo(f"skipped by ingest: {visible(path)} ({visible(reason)})")
    if total > len(shown):
        click.echo(f"... and {total - len(shown):,} more files skipped (table skipped_files)")
    behind = [row["stage"] for row in rows if row["state"] not in ("up to date", "done")]
    if behind:
        click.echo(f"not up to date: {', '.join(behind)} (bridgerank run brings them up to date)")
        sys.exit(1)


@main.command()
@click.option(
    "--limit", type=click.IntRange(min=1), default=50, show_default=True, help="How many to list."
)
@common
@fail_cleanly
def names(limit: int, **common: Any) -> None:
    """List the name resolutions worth checking first: those resting on weak evidence (a
    surname given to its one listed namesake, a partnership, a spelling, a tie, a short name
    left to its event), most played first, with their evidence. Correct one with an overrides
    file ([match] overrides)."""
    from bridgerank.cleaning.match.doubts import doubtful_resolutions
    from bridgerank.core.store import store_errors

    session = Session(**common, read_only=True)
    with store_errors(session.url), session.engine.connect() as conn:
        doubts = doubtful_resolutions(conn, limit)
    if not doubts:
        click.echo("no doubtful name resolution (or the match stage has not run)")
        return
    for doubt in doubts:
        went = (
            f"-> {doubt.wbf_name}"
            if doubt.wbf_name
            else f"-> {doubt.player}" + (f" (not {doubt.runner_up})" if doubt.runner_up else "")
        )
        partners = ", ".join(doubt.partners) or "-"
        _echo_line(
            f"{visible(doubt.raw_name)} in {visible(doubt.event)} ({doubt.seats:,} seats): "
            f"{visible(went)}; {doubt.reason}; partners {visible(partners)}"
        )


@main.command()
@click.argument("player")
@common
@fail_cleanly
def show(player: str, **common: Any) -> None:
    """Print PLAYER's page (rating, game by role, boards, partners) in the terminal; a part
    of a name is enough when it fits one player."""
    from bridgerank.pipeline.report.player_text import find_players, player_text
    from bridgerank.pipeline.report.site_data import site_data_from

    session = Session(**common, read_only=True)
    with session.engine.connect() as conn:
        data = site_data_from(conn)
    found = find_players(data, player)
    if len(found) != 1:
        listed = ", ".join(map(visible, found[:10])) + (
            f" and {len(found) - 10:,} more" if len(found) > 10 else ""
        )
        click.echo(
            f"error: {len(found)} players match {player!r}" + (f": {listed}" if found else ""),
            err=True,
        )
        sys.exit(1)
    for line in player_text(data, found[0]):
        click.echo(line)


def _print_line_ups(session, team_a: list[str], team_b: list[str], boards: int) -> None:
    """The forecast of a match between two line-ups named, in a few lines."""
    from bridgerank.core.store import store_errors
    from bridgerank.pipeline.predict import predict_line_ups

    if not team_a or not team_b:
        raise click.UsageError("--line-up and --against name the two teams' four players each")
    with store_errors(session.url):
        try:
            found = predict_line_ups(session.engine, team_a, team_b, boards)
        except ValueError as error:
            raise click.UsageError(str(error)) from None
    print_line_up_forecast(found, team_a, team_b, boards)


def _line_up(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]


@main.command()
@click.argument("sources", nargs=-1, type=click.Path())
@click.option(
    "--line-up",
    "line_up",
    metavar="NAMES",
    help="Team A's four players, comma-separated: forecast a match against --against.",
)
@click.option("--against", metavar="NAMES", help="Team B's four players, comma-separated.")
@click.option(
    "--boards",
    type=click.IntRange(min=1),
    default=16,
    show_default=True,
    help="The match's boards.",
)
@common
@fail_cleanly
def predict(
    sources: tuple[str, ...],
    line_up: str | None,
    against: str | None,
    boards: int,
    **common: Any,
) -> None:
    """Forecast each pair's session percentage in SOURCES (an event not yet ingested) from
    the stored headline ratings, each team match's margin and each pair's IMPs against par
    in an event played at one table a deal from the team ratings, and each match of a team
    event's round file (Valet's) from the team events' ratings, with 80% intervals, and keep
    the forecasts.

    With --line-up and --against, forecast a match between two line-ups named (team A's
    margin, its chance to win, an 80% interval; nothing stored).

    Once the event has been run through the pipeline, `bridgerank predict` shows how the
    stored forecasts fared against the results.
    """
    session = Session(**common, existing=True)
    from bridgerank.core.store import store_errors
    from bridgerank.pipeline.predict import predict as forecast_event

    if line_up or against:
        _print_line_ups(session, _line_up(line_up), _line_up(against), boards)
        return

    with store_errors(session.url):
        outcome = forecast_event(
            session.engine,
            session.settings,
            sources,
            shlex.join(["bridgerank", *sys.argv[1:]]),
        )
    from bridgerank.pipeline.report.forecasts import forecast_rows, write_forecasts_csv

    rows = forecast_rows(outcome.stored, outcome.imp_stored)
    print_forecasts(outcome, rows)
    if rows:
        path = Path(session.settings.store.out) / "forecasts.csv"
        write_forecasts_csv(rows, path)
        click.echo(f"every stored forecast, with its result where it is in: {path}")


# The DD store's commands read settings, never the database: a group of their own.
main.add_command(dd)


def _stage_command(name: str, summary: str) -> None:
    """Register ``bridgerank NAME``: run that one stage (stages with no options of their own)."""

    @click.option("--force", is_flag=True, help="Run the stage even if nothing changed.")
    @common
    @fail_cleanly
    def command(force: bool, **common: Any) -> None:
        _run(Session(**common, existing=True), [name], (), force=force)

    command.__doc__ = summary
    main.command(name=name)(command)


for _name in ("clean", "match", "dds", "rate", "report"):
    _stage_command(_name, stage_help(_name))


if __name__ == "__main__":  # pragma: no cover
    main()
