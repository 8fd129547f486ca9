"""The ``bridgerank`` command: parses options, calls the library, prints, sets exit codes.

Exit codes: 0 success (also when some files were skipped or unreadable: they are listed),
1 a bridgerank error, 2 a usage or settings error, 3 a database error; each is one line on
standard error with a hint (:mod:`bridgerank.core.errors`).
"""

from __future__ import annotations

import functools
import shlex
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

import click

from bridgerank.core.errors import BridgerankError, SettingsError, StoreError
from bridgerank.core.settings import load_settings
from bridgerank.core.stage import StageOutcome
from bridgerank.core.summary import WIDTH
from bridgerank.core.untrusted import visible
from bridgerank.pipeline.progress import progress
from bridgerank.pipeline.stages import run_stages, select_stages, stage_help, stage_names


def _common(command: Callable) -> Callable:
    """Options every subcommand takes."""
    options = [
        click.option(
            "--db",
            help="SQLAlchemy URL or SQLite file (default: $BRIDGERANK_DB, else OUT/bridgerank.db).",
        ),
        click.option(
            "--out",
            type=click.Path(file_okay=False),
            help="Folder for the database and reports (default: $BRIDGERANK_OUT, else out).",
        ),
        click.option(
            "--config",
            "config_file",
            type=click.Path(dir_okay=False),
            help="TOML settings file over the defaults (see config/defaults.toml).",
        ),
        click.option(
            "--jobs", type=click.IntRange(min=1), help="Worker processes for parallel stages."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _fail_cleanly(command: Callable) -> Callable:
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BridgerankError as problem:
            # errors name files, and file names are untrusted text: shown, never obeyed
            click.echo(f"error: {visible(str(problem))}", err=True)
            if problem.hint:
                click.echo(visible(problem.hint), err=True)
            sys.exit(problem.exit_code)

    return wrapper


class _Session:
    """Settings and engine from the common options."""

    def __init__(
        self,
        db: str | None,
        out: str | None,
        config_file: str | None,
        jobs: int | None,
        read_only: bool = False,
    ) -> None:
        # The flags are the top layer, over the environment (BRIDGERANK_DB, BRIDGERANK_OUT),
        # the --config file and the defaults; a flag not given leaves the layers below it.
        flags: dict[str, dict[str, object]] = {
            "store": {"out": out, "db": db},
            "run": {"jobs": jobs},
        }
        self.settings = load_settings(
            config_file,
            {
                section: {key: value for key, value in values.items() if value}
                for section, values in flags.items()
            },
        )
        # SQLAlchemy loads here, not at start-up: `bridgerank --help` needs no database.
        from bridgerank.core.store import database_url
        from bridgerank.pipeline.stages import open_store

        store = self.settings.store
        self.url = database_url(store.db or None, store.out)
        notes: list[str] = []
        what = shlex.join(["bridgerank", *sys.argv[1:]])
        self.engine = open_store(
            self.url, create=not read_only, notes=notes, what=what, backups=store.backups
        )
        click.get_current_context().call_on_close(self.engine.dispose)  # no connection left
        for note in notes:
            _echo_wrapped(note)
        self.jobs = self.settings.run.jobs


def _wrapped(text: str, indent: str) -> str:
    """``text`` on lines of at most ``WIDTH`` characters, continued under ``indent`` and two
    spaces; never broken inside a word or at its hyphens, so a wrapped path stays copyable."""
    import textwrap

    return textwrap.fill(
        text,
        WIDTH,
        subsequent_indent=indent + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def _echo_wrapped(text: str, indent: str = "  ") -> None:
    """``text`` on lines of at most ``WIDTH`` characters, continued under ``indent``."""
    click.echo(_wrapped(text, indent))


def _sas_p(value: float) -> str:
    """A p-value as SAS prints it."""
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def _print_study(result) -> None:
    """The regression study on files, in the shape of the thesis's Table 12."""
    click.echo(f"{'dataset':<16} {'method':<9} {'adj R2':>7} {'CV R2':>7}  domain  variables (p)")
    for study in result.datasets:
        if study.note:
            click.echo(f"{study.key:<16} {study.note}")
        for method, outcome in study.methods.items():
            model = outcome.model
            cv = f"{outcome.cv_r2:.4f}" if outcome.cv_r2 is not None else "-"
            listed = ", ".join(f"{v} ({_sas_p(model.p_values[v])})" for v in model.variables)
            click.echo(
                f"{study.key:<16} {method:<9} {model.adj_r2:>7.4f} {cv:>7}  "
                f"{'ok' if model.respects_domain else 'FLAG':<6}  {listed or 'none'}"
            )
    if result.chosen is None:
        click.echo("no model respects the domain rule (mistake rates with negative signs)")
        return
    chosen = result.chosen
    terms = " ".join(
        f"{value:+.5f} x {name}"
        for name, value in chosen.coefficients.items()
        if name != "Intercept"
    )
    click.echo(
        f"chosen: {result.chosen_from}\n  {chosen.response} = "
        f"{chosen.coefficients['Intercept']:.5f} {terms}\n  adjusted R2 "
        f"{chosen.adj_r2:.4f}, cross-validated R2 {result.chosen_cv_r2:.4f}"
    )
    for test in result.diagnostics:
        click.echo(
            f"  {test.name}: statistic {test.statistic:.4f}, p {test.p_value:.4g}: {test.verdict}"
        )


def _echo_line(line: str, err: bool = False) -> None:
    """One of a summary's lines, wrapped at ``WIDTH`` under its own indent."""
    indent = line[: len(line) - len(line.lstrip())]
    click.echo(_wrapped(line, indent) if len(line) > WIDTH else line, err=err)


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
    session: _Session,
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

        with store_errors(session.url):
            run_stages(
                session.engine,
                session.settings,
                selected,
                sources=sources,
                jobs=session.jobs,
                force=force,
                progress=progress,
                on_outcome=report,
                what=shlex.join(["bridgerank", *sys.argv[1:]]),
            )
    except BridgerankError as problem:
        if not problem.hint and problem.resumable:
            problem.hint = f"Resume with: {_resume_command(current['stage'], selected, sources)}"
        raise
    except KeyboardInterrupt:
        stage = next(stage for stage in selected if stage.name == current["stage"])
        if stage.kept is None:
            kept = "nothing of it was committed (the stages before it are kept)"
        else:
            with session.engine.connect() as conn:
                kept = f"kept: {stage.kept(conn)}"
        click.echo(f"\ninterrupted during {stage.name}; {kept}.", err=True)
        _echo_line(f"Resume with: {_resume_command(stage.name, selected, sources)}", err=True)
        sys.exit(130)
    from bridgerank.core.store import shown_url, sqlite_file
    from bridgerank.pipeline.report.stage import report_path

    database = sqlite_file(session.url) or shown_url(session.url)
    click.echo(f"done in {time.perf_counter() - began:.1f} s; database: {database}")
    report_page = report_path(session.settings)
    if report_page.exists() and any(stage.name == "report" for stage in selected):
        _echo_line(f"open the report in a browser: {report_page}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bridgerank", prog_name="bridgerank")
def main() -> None:
    """Judge bridge players from their hand records.

    Stages, in order: ingest, clean, match, dds, rate, regress, report. `bridgerank run` runs
    them all, skipping those whose inputs, settings and code have not changed since their last
    run.
    """


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
@_common
@_fail_cleanly
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
        _dry_run(_Session(**common, read_only=True), sources, start, stop, only, force)
        return
    if common.get("db") and not sources:
        _refuse_a_missing_database(common["db"])
    session = _Session(**common)
    from bridgerank.cleaning.ingest.stage import default_sources

    chosen, note = default_sources(session.engine, session.settings, list(sources))
    if note:
        click.echo(visible(note))
    _run(session, only, chosen, start=start, stop=stop, force=force, verbose=verbose)


@main.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("--force", is_flag=True, help="Look at every file again even if listed before.")
@_common
@_fail_cleanly
def ingest(sources: tuple[str, ...], force: bool, **common: Any) -> None:
    """Read SOURCES (files or folders) into raw_boards; files already stored add nothing."""
    _run(_Session(**common), ["ingest"], sources, force=force)


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
@_common
@_fail_cleanly
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
    session = _Session(**common)
    if not rate_files:
        _run(session, ["regress"], (), force=force)
        return
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
    _print_study(result)
    folder = Path(session.settings.store.out) / "regression"
    write_csv(result_frames(result), folder)
    click.echo(f"tables written to {folder}/")


def _refuse_a_missing_database(db: str) -> None:
    """``--db`` naming a SQLite file that does not exist, with no sources: most likely a typo,
    so nothing is built (SOURCES ask for a new database; the embedded sample fills one only
    in the default place)."""
    from bridgerank.core.store import database_url, sqlite_file

    file = sqlite_file(database_url(db, "."))
    if file is not None and not file.exists():
        raise SettingsError(
            f"no database at {file} (to build one there, name what to read: "
            f"bridgerank run SOURCES --db {db})"
        )


def _dry_run(
    session: _Session,
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
@_common
@_fail_cleanly
def status(**common: Any) -> None:
    """Show each stage's last run and whether it is up to date; exit 1 when a stage is not
    (as ``make -q`` does), so scripts can test it."""
    session = _Session(**common, read_only=True)
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
@_common
@_fail_cleanly
def names(limit: int, **common: Any) -> None:
    """List the name resolutions worth checking first: those resting on weak evidence (a
    surname given to its one listed namesake, a partnership, a spelling, a tie, a short name
    left to its event), most played first, with their evidence. Correct one with an overrides
    file ([match] overrides)."""
    from bridgerank.cleaning.match.doubts import doubtful_resolutions
    from bridgerank.core.store import store_errors

    session = _Session(**common, read_only=True)
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
@_common
@_fail_cleanly
def show(player: str, **common: Any) -> None:
    """Print PLAYER's page (rating, game by role, boards, partners) in the terminal; a part
    of a name is enough when it fits one player."""
    from bridgerank.pipeline.report.player_text import find_players, player_text
    from bridgerank.pipeline.report.site_data import site_data_from

    session = _Session(**common, read_only=True)
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


def _print_forecasts(outcome, rows: Sequence[dict[str, Any]] = ()) -> None:
    """The forecasts made now, then the stored ones against their results (``rows``:
    :func:`~bridgerank.pipeline.report.forecasts.forecast_rows` of the outcome)."""
    if outcome.forecast:
        click.echo(
            f"{'event':<28} {'session':<13} {'pair':<41} {'boards':>6} {'forecast':>8}"
            "  80% interval"
        )
        for row in outcome.forecast:
            pair = visible(f"{row['player_a']} - {row['player_b']}")
            unrated = "" if row["rated"] == 2 else f"  ({2 - row['rated']} unrated)"
            click.echo(
                f"{visible(row['event'])[:28]:<28} {visible(row['session'])[:13]:<13} "
                f"{pair[:41]:<41} "
                f"{row['boards']:>6} {row['predicted']:>7.1f}%  "
                f"{row['low_80']:.1f} to {row['high_80']:.1f}{unrated}"
            )
        click.echo(f"{len(outcome.forecast):,} pair-sessions forecast and stored")
    _print_imp_forecasts(outcome)
    for event, session in outcome.already_rated:
        click.echo(
            f"not forecast: {visible(event)} {visible(session)} is already rated "
            "(its results are stored)"
        )
    score = outcome.score
    waiting = len(outcome.stored) - score["scored"]
    _print_session_results(rows)
    if score["scored"]:
        pearson = f"{score['pearson']:.3f}" if score["pearson"] is not None else "-"
        click.echo(
            f"stored forecasts with results since: {score['scored']:,} pair-sessions, Pearson "
            f"{pearson}, RMSE {score['rmse']:.2f} points, "
            f"80% intervals held {100 * score['coverage_80']:.0f}%"
        )
    _print_imp_results(rows, outcome)
    waiting += sum(row["actual"] is None for row in outcome.imp_stored)
    if waiting:
        click.echo(f"stored forecasts still waiting for their results: {waiting:,}")
    if outcome.not_forecast_matches:
        click.echo(f"no match forecast: {outcome.not_forecast_matches}")
    if outcome.not_forecast:
        click.echo(f"no forecast: {outcome.not_forecast}")
    elif not (
        outcome.stored
        or outcome.imp_stored
        or outcome.already_rated
        or outcome.not_forecast_matches
    ):
        click.echo("no forecast stored yet: bridgerank predict FILES forecasts an event")


# What an IMP forecast is of, in words: a match's margin, a pair's IMPs against par.
_IMP_KINDS = {
    "match": ("team matches", "margin"),
    "pair": ("pairs", "IMPs vs par"),
    "event": ("team-event matches", "margin"),
}


def _surnames(side: str, shown: int = 3) -> str:
    """A side's players by surname (as :func:`~bridgerank.pipeline.report.event_pages.
    surname` reads a name), the first ``shown`` of them and how many more."""
    from bridgerank.pipeline.report.event_pages import surname

    names = [surname(name) for name in side.split(" - ")]
    more = f"+{len(names) - shown}" if len(names) > shown else ""
    return "/".join(names[:shown]) + more


def _side_text(row) -> str:
    """A pair as named; a match as its two teams' surnames."""
    if row["kind"] == "pair":
        return visible(row["side"])
    return visible(f"{_surnames(row['side'])} v {_surnames(row['opponents'])}")


_IMP_HEAD = f"{'event':<20} {'session':<13} {'side':<40}"


def _imp_cells(row) -> str:
    """The event, session and side of an IMP forecast, in the columns of :data:`_IMP_HEAD`."""
    return (
        f"{visible(row['event'])[:20]:<20} {visible(row['session'])[:13]:<13} "
        f"{_side_text(row)[:40]:<40}"
    )


def _print_imp_forecasts(outcome) -> None:
    """The IMP forecasts made now: one line each."""
    if not outcome.imp_forecast:
        return
    from bridgerank.ratings.event_forecast import win_probability

    click.echo(f"{_IMP_HEAD} {'boards':>6} {'IMPs':>6} {'wins':>5}  80% interval")
    for row in outcome.imp_forecast:
        unrated = row["players"] - row["rated"] if row["kind"] != "pair" else 2 - row["rated"]
        note = f"  ({unrated} unrated)" if unrated else ""
        # a match's chance of team A winning; a pair's IMPs against par win nothing
        wins = (
            f"{100 * win_probability(row['predicted'], row['sd']):>4.0f}%"
            if row["kind"] != "pair"
            else f"{'':>5}"
        )
        click.echo(
            f"{_imp_cells(row)} {row['boards']:>6} {row['predicted']:>+6.1f} {wins}  "
            f"{row['low_80']:+.0f} to {row['high_80']:+.0f}{note}"
        )
    counts = Counter(row["kind"] for row in outcome.imp_forecast)
    made = ", ".join(f"{counts[kind]:,} {_IMP_KINDS[kind][0]}" for kind in sorted(counts))
    click.echo(f"{made} forecast in IMPs and stored")


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
    click.echo(
        f"{visible(' - '.join(team_a))} v {visible(' - '.join(team_b))}, {boards} boards: "
        f"{found.predicted:+.1f} IMPs, 80% interval {found.low_80:+.0f} to "
        f"{found.high_80:+.0f}; wins {100 * found.win_probability:.0f}% of such matches"
    )
    if found.unrated:
        click.echo(
            f"unrated (a newcomer's strength): {visible(', '.join(found.unrated))} - no match "
            "of a team event stored under that name"
        )


def _print_session_results(rows: Sequence[dict[str, Any]]) -> None:
    """Each stored pair-session forecast whose result is in, against that result."""
    scored = [row for row in rows if row["kind"] == "session" and row["result"] is not None]
    if not scored:
        return
    click.echo(f"{'event':<22} {'session':<10} {'pair':<30} {'forecast':>8} {'result':>6}  held")
    for row in scored:
        click.echo(
            f"{visible(row['event'])[:22]:<22} {visible(row['session'])[:10]:<10} "
            f"{visible(row['side'])[:30]:<30} {row['forecast']:>7.1f}% {row['result']:>5.1f}%  "
            f"{'yes' if row['held'] else 'no'}"
        )


def _print_imp_results(rows: Sequence[dict[str, Any]], outcome) -> None:
    """Each stored IMP forecast whose result is in, against that result; then the score."""
    scored = [row for row in rows if row["kind"] != "session" and row["result"] is not None]
    if not scored:
        return
    click.echo(f"{_IMP_HEAD} {'forecast':>8} {'result':>6}  held")
    for row in scored:
        held = "yes" if row["held"] else "no"
        click.echo(f"{_imp_cells(row)} {row['forecast']:>+8.1f} {row['result']:>+6.0f}  {held}")
    for kind, score in outcome.imp_score.items():
        if not score["scored"]:
            continue
        pearson = f"{score['pearson']:.3f}" if score["pearson"] is not None else "-"
        click.echo(
            f"stored forecasts with results since: {score['scored']:,} {_IMP_KINDS[kind][0]} "
            f"({_IMP_KINDS[kind][1]}), Pearson {pearson}, RMSE {score['rmse']:.1f} IMPs, "
            f"80% intervals held {100 * score['coverage_80']:.0f}%"
        )


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
@_common
@_fail_cleanly
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
    session = _Session(**common)
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
    _print_forecasts(outcome, rows)
    if rows:
        path = Path(session.settings.store.out) / "forecasts.csv"
        write_forecasts_csv(rows, path)
        click.echo(f"every stored forecast, with its result where it is in: {path}")


@main.group()
def dd() -> None:
    """The double dummy store every database on this machine shares.

    Export its solved tables and play traces to a CSV file (gzip when the name ends in .gz)
    and import a colleague's, checked against the solver first (docs/dds.md).

    \b
    Where it is: $BRIDGERANK_DD_STORE, else [dds] store in a --config file,
    else dd-store.sqlite in the user's cache folder.
    """


def _config_option(command: Callable) -> Callable:
    """The one option the dd commands take: they read settings, never the database."""
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False),
        help="TOML settings file over the defaults (its [dds] store names the store).",
    )(command)


def _dd_store_setting(config_file: str | None) -> str:
    return load_settings(config_file, {}).dds.store


@dd.command("info")
@_config_option
@_fail_cleanly
def dd_info(config_file: str | None) -> None:
    """Where the store is and what it holds.

    Its location, then its tables, par scores and play traces of this solver version.
    """
    from bridgerank.dds.exchange import store_info

    click.echo(visible(store_info(_dd_store_setting(config_file)).line()))


@dd.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--no-traces", is_flag=True, help="Write the tables only, not the play traces.")
@_config_option
@_fail_cleanly
def dd_export(file: str, no_traces: bool, config_file: str | None) -> None:
    """Write the store's solved deals to FILE.

    The tables and play traces of this solver version, as CSV (gzip when FILE ends in .gz).
    """
    from bridgerank.dds.exchange import export_store, open_store

    store = open_store(_dd_store_setting(config_file), write=False)
    try:
        counts = export_store(store, file, traces=not no_traces)
    finally:
        store.close()
    click.echo(visible(counts.line()))


@dd.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--check",
    type=click.IntRange(min=0),
    default=300,
    show_default=True,
    help="New tables, and new play traces, to solve again before importing (drawn at "
    "random; 300 refuse a file with 1% of either wrong with probability 95%); one "
    "difference refuses the file.",
)
@_config_option
@_fail_cleanly
def dd_import(file: str, check: int, config_file: str | None) -> None:
    """Read a colleague's FILE into the store.

    FILE is a CSV file `bridgerank dd export` wrote. Bad rows are skipped and counted, rows
    of another solver version too; a table or trace that differs from the store's or, among
    --check new tables and --check new traces drawn at random, from the solver's refuses the
    whole file.
    """
    from bridgerank.cleaning.ingest.limits import Limits
    from bridgerank.dds.exchange import import_file, open_store

    settings = load_settings(config_file, {})
    store = open_store(settings.dds.store, write=True)
    try:
        counts = import_file(
            store,
            file,
            check=check,
            limits=Limits.of(settings.ingest),
            say=lambda text: click.echo(text, err=True),
        )
    finally:
        store.close()
    click.echo(visible(counts.line()))
    for reason in counts.reasons:  # the rows' own text: shown, never obeyed
        click.echo(f"  rejected: {visible(reason)}", err=True)


def _stage_command(name: str, summary: str) -> None:
    """Register ``bridgerank NAME``: run that one stage (stages with no options of their own)."""

    @click.option("--force", is_flag=True, help="Run the stage even if nothing changed.")
    @_common
    @_fail_cleanly
    def command(force: bool, **common: Any) -> None:
        _run(_Session(**common), [name], (), force=force)

    command.__doc__ = summary
    main.command(name=name)(command)


for _name in ("clean", "match", "dds", "rate", "report"):
    _stage_command(_name, stage_help(_name))


if __name__ == "__main__":  # pragma: no cover
    main()
