"""The ``report`` stage: one self-contained HTML file and CSV exports of every result table.

Templates are Jinja2 with autoescaping on: player and event names are untrusted text and
always appear escaped. Plots are embedded as PNG data; the page needs no network.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import math
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import inspect
from sqlalchemy.engine import Engine

from bridgerank.cleaning.clean.tables import Board, Exclusion, TokenCount
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.cleaning.match.tables import NameMatch, Player, WbfPlayer
from bridgerank.core.sections import Settings
from bridgerank.core.stage import Stage, StageContext
from bridgerank.dds.tables import AuctionAnalysis, PlayerRates, PlayerStats
from bridgerank.ratings.tables import (
    HeadlineRating,
    MatchValidation,
    Rating,
    RatingHistory,
    RatingValidation,
    SessionValidation,
    ValidationCeiling,
)
from bridgerank.regression.tables import REGRESSION_TABLES

if TYPE_CHECKING:  # Jinja2 and the sections' pandas load when a report is written
    from jinja2 import Environment

# Every table the report shows or exports (besides boards, which it needs).
REPORTED_TABLES = (
    SourceFile,
    RawBoard,
    Exclusion,
    TokenCount,
    NameMatch,
    Player,
    WbfPlayer,
    PlayerStats,
    PlayerRates,
    AuctionAnalysis,
    Rating,
    RatingValidation,
    RatingHistory,
    HeadlineRating,
    SessionValidation,
    ValidationCeiling,
    MatchValidation,
) + REGRESSION_TABLES

EXPORTED = (
    "exclusions",
    "token_counts",
    "name_matches",
    "players",
    "wbf_players",
    "player_stats",
    "player_rates",
    "auction_analysis",
    "regression_models",
    "regression_coefficients",
    "regression_steps",
    "regression_vif",
    "regression_bootstrap",
    "regression_diagnostics",
    "regression_sweep",
    "chosen_model",
    "rankings",
    "ratings",
    "rating_validation",
    "headline_ratings",
    "session_validation",
    "validation_ceiling",
    "match_validation",
)


def _fmt(value: Any) -> str:
    """Numbers for people: thousands separators, 4 significant decimals for fractions."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) or (
        isinstance(value, float) and value.is_integer() and abs(value) >= 1
    ):
        return f"{int(value):,}"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1 else f"{value:,.4f}"
    return str(value)


def environment() -> Environment:
    """The Jinja2 environment of the report (autoescape on for every template)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    from bridgerank.pipeline.report.sections import summary_text

    env = Environment(
        loader=PackageLoader("bridgerank.pipeline.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    env.filters["fmt"] = _fmt
    env.filters["summary"] = summary_text
    return env


def render(engine: Engine, settings: Settings, database: str = "") -> str:
    """The report's HTML for the current database."""
    from bridgerank.pipeline.report.sections import SECTIONS

    sections = []
    with engine.connect() as conn:
        for section in SECTIONS:
            data = section.build(conn)
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
            sections=sections,
            database=database,
            generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            settings=json.dumps(dataclasses.asdict(settings), indent=2, default=str),
        )
    )


def export_csv(engine: Engine, folder: Path) -> list[Path]:
    """Every result table as ``folder/<table>.csv``."""
    import pandas as pd

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with engine.connect() as conn:
        present = set(inspect(conn).get_table_names())
        for table in EXPORTED:
            if table in present:
                path = folder / f"{table}.csv"
                pd.read_sql_table(table, conn).to_csv(path, index=False)
                written.append(path)
    return written


def report_path(settings: Settings) -> Path:
    """Where the report goes: ``<out>/report.html``."""
    return Path(settings.store.out) / "report.html"


def run(context: StageContext) -> dict[str, Any]:
    """Write the report and the CSV exports.

    Both are written beside their final places first and moved there only once the ledger
    row is committed: a run that fails (a read-only database, a full disk) leaves the
    previous report and CSVs as they were, and a reader never sees half a report.
    """
    path = report_path(context.settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    html = render(context.engine, context.settings, str(context.engine.url))
    staging = Path(tempfile.mkdtemp(prefix=".report-", dir=path.parent))
    try:
        (staging / path.name).write_text(html, encoding="utf-8")
        csv_files = export_csv(context.engine, staging / "csv")
        summary = {
            "report": str(path),
            "bytes": len(html.encode("utf-8")),
            "csv_tables": len(csv_files),
        }
        with context.engine.begin() as conn:
            context.finish(conn, summary, outputs=())
        _publish(staging, path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return summary


def _publish(staging: Path, path: Path) -> None:
    """Move the staged report and CSVs into place, each file by an atomic rename."""
    folder = path.parent / "csv"
    folder.mkdir(exist_ok=True)
    for staged in (staging / "csv").iterdir():
        staged.replace(folder / staged.name)
    (staging / path.name).replace(path)


def _extra_input(context: StageContext) -> list[Any]:
    """Edited templates, or another report path, make the report run again."""
    templates = Path(__file__).with_name("templates")
    digest = hashlib.sha256()
    for template in sorted(templates.glob("*.j2")):
        digest.update(template.read_bytes())
    return [str(report_path(context.settings).resolve()), digest.hexdigest()]


def _report_missing(context: StageContext) -> str | None:
    path = report_path(context.settings)
    return None if path.exists() else f"{path} is missing"


REPORT_STAGE = Stage(
    name="report",
    run=run,
    reads=(Board,),
    optional_reads=REPORTED_TABLES,
    writes=(),
    settings_sections=("store",),
    extra_input=_extra_input,
    incomplete=_report_missing,
)
