"""The ``report`` stage: a static site (:mod:`site`) and CSV exports of every result table.

Templates are Jinja2 with autoescaping on: player and event names are untrusted text and
always appear escaped. Plots are inline SVG or embedded PNG data; no page needs the network.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from bridgerank.cleaning.clean.tables import Board
from bridgerank.core.sections import Settings
from bridgerank.core.stage import Stage, StageContext
from bridgerank.core.store import Base
from bridgerank.pipeline.report.csv_export import csv_reads, export_all
from bridgerank.pipeline.report.forecasts import FORECAST_READS
from bridgerank.pipeline.report.methods_page import SECTIONS
from bridgerank.pipeline.report.reads import Read, ReportTables, model_of
from bridgerank.pipeline.report.shown_settings import shown_setting
from bridgerank.pipeline.report.site_data import SITE_READS
from bridgerank.pipeline.report.staging import make_staging, remove_dead_staging
from bridgerank.pipeline.report.summary import ReportSummary
from bridgerank.pipeline.report.templating import environment


def report_reads() -> tuple[Read, ...]:
    """Everything the report reads: each methods-page section's, the site's, the CSVs' and
    the stored forecasts' declarations."""
    sections = tuple(read for found in SECTIONS for read in found.reads)
    return (*sections, *SITE_READS, *csv_reads(), *FORECAST_READS)


def _tables_read() -> tuple[type[Base], ...]:
    """The tables of :func:`report_reads`, each once, by name (the stage's optional reads:
    a new version of any of them makes the report stale)."""
    models: dict[str, type[Base]] = {}
    for read in report_reads():
        model = model_of(read)
        models[model.__tablename__] = model
    return tuple(models[name] for name in sorted(models) if models[name] is not Board)


def render(tables: ReportTables, settings: Settings, database: str = "") -> str:
    """The methods page's HTML from the run's tables."""
    sections = []
    for section in SECTIONS:
        data = section.build(tables)
        if data is not None:
            sections.append(
                {
                    "key": section.key,
                    "title": section.title,
                    "template": section.template,
                    "data": data,
                }
            )
    return (
        environment()
        .get_template("report.html.j2")
        .render(
            root="",
            sections=sections,
            database=database,
            generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            settings=json.dumps(_shown_settings(settings, database), indent=2, default=str),
        )
    )


def _shown_settings(settings: Settings, database: str) -> dict[str, Any]:
    """The run's settings as the methods page prints them: the output folder and the
    database as the pages name them, every other file or URL as :func:`shown_setting` does -
    never where they sit on the machine that built them."""
    found = shown_setting(dataclasses.asdict(settings))
    found["store"] = {"out": ".", "db": database}
    return found


def shown_database(url: str, out: Path) -> str:
    """The database as the pages name it: a SQLite file relative to the output folder (else
    its name alone), never the machine's absolute path; another database by its URL, its
    password hidden (SQLAlchemy's rendering)."""
    from bridgerank.core.store import sqlite_file

    file = sqlite_file(url)
    if file is None:
        return url
    try:
        return str(file.resolve().relative_to(out.resolve()))
    except ValueError:
        return file.name


def report_path(settings: Settings) -> Path:
    """The report's front page: ``<out>/report/index.html``.

    Parameters
    ----------
    settings : Settings
        Its ``[store]`` section's ``out`` is the output folder.

    Returns
    -------
    Path
        Where the stage writes the site's front page (the CSV files go beside the site, in
        ``<out>/csv``).
    """
    return Path(settings.store.out) / "report" / "index.html"


def run(context: StageContext) -> ReportSummary:
    """Write the report and the CSV exports.

    Both are written beside their final places first (a staging folder, :mod:`staging`) and
    moved there only once the ledger row is committed: a run that fails (a read-only
    database, a full disk) leaves the previous report and CSVs as they were, and a reader
    never sees half a report. Staging folders that killed runs left are removed first.
    """
    from bridgerank.pipeline.report.forecasts import stored_forecast_rows, write_forecasts_csv
    from bridgerank.pipeline.report.site import write_site
    from bridgerank.pipeline.report.site_data import read_site_data

    path = report_path(context.settings)
    out = path.parent.parent
    out.mkdir(parents=True, exist_ok=True)
    remove_dead_staging(out)  # what killed runs left: a half-written site each
    staging = make_staging(out)
    try:
        with context.engine.connect() as conn:
            tables = ReportTables(conn, report_reads())
            database = shown_database(str(context.engine.url), out)
            methods = render(tables, context.settings, database)
            data = read_site_data(tables)
            forecasts = stored_forecast_rows(tables)
            csv_files = export_all(tables, staging / "csv")
        site = write_site(staging / "report", data, methods, context.settings.run.jobs, forecasts)
        if forecasts:
            write_forecasts_csv(forecasts, staging / "csv" / "forecasts.csv")
            csv_files.append(staging / "csv" / "forecasts.csv")
        summary = ReportSummary(
            report=str(path),
            pages=site.pages,
            bytes=site.bytes,
            site_seconds=round(site.seconds, 1),
            csv_tables=len(csv_files),
        )
        with context.engine.begin() as conn:
            context.finish(conn, summary, outputs=())
        _publish(staging, path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return summary


def _publish(staging: Path, path: Path) -> None:
    """Move the staged site and CSVs into place: the site folder by renames (the old one
    moved aside first, then removed), each CSV by an atomic rename; CSVs of tables no longer
    exported, and the single-file report of earlier versions, are removed."""
    out = path.parent.parent
    folder = out / "csv"
    folder.mkdir(exist_ok=True)
    fresh = {staged.name for staged in (staging / "csv").iterdir()}
    for stale in folder.glob("*.csv"):
        if stale.name not in fresh:
            stale.unlink()
    for name in fresh:
        (staging / "csv" / name).replace(folder / name)
    site = path.parent
    old = staging / "previous"
    if site.exists():
        site.replace(old)
    (staging / "report").replace(site)
    (out / "report.html").unlink(missing_ok=True)


def _extra_input(context: StageContext) -> list[Any]:
    """Edited templates, or another report path, make the report run again."""
    templates = Path(__file__).with_name("templates")
    digest = hashlib.sha256()
    for template in sorted(path for path in templates.rglob("*") if path.is_file()):
        digest.update(template.relative_to(templates).as_posix().encode())
        digest.update(template.read_bytes())
    return [str(report_path(context.settings).resolve()), digest.hexdigest()]


def _report_missing(context: StageContext) -> str | None:
    path = report_path(context.settings)
    return None if path.exists() else f"{path} is missing"


REPORT_STAGE = Stage(
    name="report",
    run=run,
    reads=(Board,),
    optional_reads=_tables_read(),
    writes=(),
    # the output folder counts as its resolved path (_extra_input), not as written in
    # [store]: "--out out/corpus" from one folder and its absolute path are one report
    settings_sections=(),
    extra_input=_extra_input,
    incomplete=_report_missing,
    summary_type=ReportSummary,
)
