"""Every stored forecast beside its result, one row each: what ``bridgerank predict`` prints,
writes to ``forecasts.csv`` and the site's forecasts page shows.

A row is a pair's session percentage (``kind`` "session"), a team match's margin ("match"), a
pair's IMPs against par in an event played at one table a deal ("pair") or a match of a team
event's round file ("event"), with the forecast,
its 80% interval, the result once the event has been run through the pipeline (None before),
and whether the result fell inside the interval.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from bridgerank.core.errors import StageNotReady
from bridgerank.core.sections import Settings
from bridgerank.pipeline.predict import PredictOutcome, predict
from bridgerank.pipeline.report.csv_export import neutralise
from bridgerank.pipeline.report.reads import Read, ReportTables
from bridgerank.ratings.tables import ImpForecast, StoredForecast

__all__ = [
    "COLUMNS",
    "FORECAST_READS",
    "forecast_rows",
    "stored_forecast_rows",
    "write_forecasts_csv",
]

# What the forecasts page reads to know whether any forecast is stored.
FORECAST_READS: tuple[Read, ...] = (StoredForecast.event, ImpForecast.event)

COLUMNS = (
    "kind",
    "event",
    "session",
    "side",
    "opponents",
    "boards",
    "forecast",
    "low_80",
    "high_80",
    "result",
    "held",
)


def _row(kind: str, stored: dict[str, Any], side: str, opponents: str) -> dict[str, Any]:
    actual = stored.get("actual")
    return {
        "kind": kind,
        "event": stored["event"],
        "session": stored["session"],
        "side": side,
        "opponents": opponents,
        "boards": stored["boards"],
        "forecast": stored["predicted"],
        "low_80": stored["low_80"],
        "high_80": stored["high_80"],
        "result": actual,
        "held": None if actual is None else stored["low_80"] <= actual <= stored["high_80"],
    }


def forecast_rows(outcome: PredictOutcome) -> list[dict[str, Any]]:
    """Every stored forecast (:data:`COLUMNS`), by event, session, kind and side."""
    rows = [
        _row("session", stored, f"{stored['player_a']} - {stored['player_b']}", "")
        for stored in outcome.stored
    ]
    rows += [
        _row(stored["kind"], stored, stored["side"], stored["opponents"] or "")
        for stored in outcome.imp_stored
    ]
    return sorted(rows, key=lambda row: (row["event"], row["session"], row["kind"], row["side"]))


def write_forecasts_csv(rows: list[dict[str, Any]], path: Path) -> None:
    """The rows as CSV (text that a spreadsheet would run as a formula neutralised)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({key: neutralise(value) for key, value in row.items()})


def stored_forecast_rows(
    tables: ReportTables, engine: Engine, settings: Settings
) -> list[dict[str, Any]]:
    """Every stored forecast with its result (empty: none stored, or no rating to score them
    by): what the site's forecasts page lists."""
    if not (tables.has(StoredForecast) or tables.has(ImpForecast)):
        return []
    try:
        return forecast_rows(predict(engine, settings, []))
    except StageNotReady:  # forecasts kept from a database whose ratings were cleared
        return []
