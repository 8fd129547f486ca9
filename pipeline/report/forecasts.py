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
from typing import Any, Iterable, Mapping

import pandas as pd

from bridgerank.pipeline.report.csv_export import neutralise
from bridgerank.pipeline.report.frames import plain as frame_plain
from bridgerank.pipeline.report.reads import Read, ReportTables
from bridgerank.ratings.tables import ActualResult, ImpForecast, StoredForecast

__all__ = [
    "COLUMNS",
    "FORECAST_READS",
    "forecast_rows",
    "stored_forecast_rows",
    "write_forecasts_csv",
]

# What the forecasts page reads: the stored forecasts and what their events scored.
FORECAST_READS: tuple[Read, ...] = (StoredForecast, ImpForecast, ActualResult)
_KEY = ["event", "session", "side", "opponents"]

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


def _row(kind: str, stored: Mapping[str, Any], side: str, opponents: str) -> dict[str, Any]:
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


def forecast_rows(
    stored: Iterable[Mapping[str, Any]], imp_stored: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Every stored forecast (:data:`COLUMNS`), by event, session, kind and side.

    Parameters
    ----------
    stored : iterable of mapping
        The pair-session forecasts (``predictions`` rows) with their ``actual`` (None: not
        yet rated).
    imp_stored : iterable of mapping
        The IMP forecasts (``imp_forecasts`` rows) with their ``actual``.

    Returns
    -------
    list of dict
    """
    rows = [_row("session", row, f"{row['player_a']} - {row['player_b']}", "") for row in stored]
    rows += [_row(row["kind"], row, row["side"], row["opponents"] or "") for row in imp_stored]
    return sorted(rows, key=lambda row: (row["event"], row["session"], row["kind"], row["side"]))


def write_forecasts_csv(rows: list[dict[str, Any]], path: Path) -> None:
    """The rows as CSV (text that a spreadsheet would run as a formula neutralised)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({key: neutralise(value) for key, value in row.items()})


def _with_actual(forecasts: pd.DataFrame, results: pd.DataFrame) -> list[dict[str, Any]]:
    """Each forecast's row with the result stored under its key (None: not yet rated)."""
    found = {
        tuple(key): float(actual)
        for *key, actual in results[[*_KEY, "actual"]].itertuples(index=False)
    }
    rows = []
    for row in forecasts.to_dict("records"):
        plain = {str(key): frame_plain(value) for key, value in row.items()}
        key = tuple(plain.get(part) for part in _KEY)
        rows.append(plain | {"actual": found.get(key)})
    return rows


def stored_forecast_rows(tables: ReportTables) -> list[dict[str, Any]]:
    """Every stored forecast with its result where the rate stage has stored one: what the
    site's forecasts page lists."""
    results = tables.frame(ActualResult)
    sessions = tables.frame(StoredForecast).rename(
        columns={"player_a": "side", "player_b": "opponents"}
    )
    stored = [
        row | {"player_a": row.pop("side"), "player_b": row.pop("opponents")}
        for row in _with_actual(sessions, results[results["kind"] == "session"])
    ]
    imps = tables.frame(ImpForecast)
    events = imps[imps["kind"] == "event"]
    others = imps[imps["kind"] != "event"]
    imp_stored = _with_actual(events, results[results["kind"] == "event"])
    imp_stored += _with_actual(others, results[results["kind"] == "imps"])
    return forecast_rows(stored, imp_stored)
