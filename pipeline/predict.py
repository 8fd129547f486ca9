"""``bridgerank predict``: forecast an event from the stored headline ratings before its
results are rated, keep the forecast, and score it once the event has been ingested.

The files named are read and cleaned in memory, record by record (nothing of them is stored
but the forecasts). A session already in the database is not forecast: its results are in
the ratings, so a forecast of it would be no forecast.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.engine import Engine

from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.cleaning.ingest.limits import Limits
from bridgerank.cleaning.ingest.sources import READERS, discover, scan, sniff, text_lines
from bridgerank.core.errors import SourceError, StageNotReady
from bridgerank.core.lock import run_lock
from bridgerank.core.sections import Settings
from bridgerank.core.store import StageRun, upsert
from bridgerank.ratings.stage import load_inputs
from bridgerank.ratings.tables import FittedHeadline, HeadlineRating, StoredForecast


@dataclass
class PredictOutcome:
    """Forecasts stored now, sessions passed over, and every stored forecast with its actual
    percentage where the event has since been ingested, with their score."""

    forecast: list[dict[str, Any]] = field(default_factory=list)
    already_rated: list[tuple[str, str]] = field(default_factory=list)
    stored: list[dict[str, Any]] = field(default_factory=list)
    score: dict[str, Any] = field(default_factory=dict)
    not_forecast: str = ""  # why the files given gave no forecast, when they gave none


def read_boards(sources: Sequence[str], settings: Settings) -> Iterator[dict[str, Any]]:
    """The clean boards of ``sources`` (files or folders), read in memory, numbered from 1."""
    number = 0
    limits = Limits.of(settings.ingest)  # the user's, as ingest applies them
    for candidate in discover(list(sources), settings.ingest.extensions):
        content = scan(candidate.path, limits)
        fmt = sniff(content.head)
        if fmt is None:
            if candidate.named:
                raise SourceError(candidate.path, "not a bridge hand-record file")
            continue
        with text_lines(candidate.path, content.encoding, limits) as lines:
            for record in READERS[fmt](lines, candidate.path):
                if record.parse_error:
                    continue
                outcome = clean_record(record.values, record.play_layout, settings=settings.clean)
                board = outcome.board
                if board is not None:
                    number += 1
                    board["id"] = number
                    board["round"] = record.values.get("stage")  # as the rate stage reads it
                    yield board


def _ratings(conn):
    """The stored headline ratings with the fit's penalty and variances, and when the rate
    stage fitted them."""
    from bridgerank.ratings.headline.forecast import StoredRatings

    rows = conn.execute(select(HeadlineRating.player, HeadlineRating.rating, HeadlineRating.sd))
    rating = {player: (value, sd) for player, value, sd in rows}
    fit = conn.execute(
        select(
            FittedHeadline.penalty, FittedHeadline.residual_variance, FittedHeadline.form_variance
        )
    ).first()
    if not rating or fit is None or fit.residual_variance is None:
        raise StageNotReady("predict", "rate", "Try: bridgerank run --to rate")
    fitted = conn.execute(
        select(StageRun.finished_at)
        .where(StageRun.stage == "rate")
        .order_by(StageRun.id.desc())
        .limit(1)
    ).scalar()
    stored = StoredRatings(rating, fit.residual_variance, fit.form_variance or 0.0, fit.penalty)
    return stored, fitted.strftime("%Y-%m-%d %H:%M:%S") if fitted else ""


def why_no_forecast(boards: Sequence[Mapping[str, Any]], min_tables: int) -> str:
    """Why boards read from files give no forecast, in one line: none read, or no deal
    played at the tables a matchpointed field needs."""
    from bridgerank.ratings.field import session_of
    from bridgerank.ratings.games import deal_key

    if not boards:
        return "the files hold no board with a result"
    tables = Counter((session_of(board), deal_key(board)) for board in boards)
    most = max(tables.values())
    return (
        f"the files' {len(tables):,} deals were played at {most:,} "
        f"table{'s' if most > 1 else ''} at most; a forecast is of a pair's matchpoint "
        f"percentage in a session whose deals were played at {min_tables} tables or more "
        "(a field) - team matches and events of one table a deal are not forecast yet"
    )


def predict(
    engine: Engine, settings: Settings, sources: Sequence[str], what: str = ""
) -> PredictOutcome:
    """Forecast the sessions of ``sources`` (none: only score the stored forecasts).

    Raises
    ------
    StageNotReady
        When no headline rating has been fitted.
    SourceError
        When a named file cannot be read or is no bridge data.
    """
    from bridgerank.ratings.field import period_of
    from bridgerank.ratings.headline.forecast import actual_percentages, forecast, forecast_score

    min_tables = settings.rate.min_tables
    outcome = PredictOutcome()
    with engine.connect() as conn:
        ratings, fitted = _ratings(conn)
        stored_boards, names, _ = load_inputs(conn)
    in_database = {(board["event"], period_of(board)) for board in stored_boards}
    if sources:
        boards = list(read_boards(sources, settings))
        rows = forecast(boards, names, ratings, min_tables)
        made = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        for row in rows:
            if (row["event"], row["session"]) in in_database:
                continue
            outcome.forecast.append(row | {"made_at": made, "ratings_of": fitted})
        outcome.already_rated = sorted(
            {(row["event"], row["session"]) for row in rows} & in_database
        )
        if not rows:
            outcome.not_forecast = why_no_forecast(boards, min_tables)
        if outcome.forecast:
            with run_lock(engine, what or "bridgerank predict"), engine.begin() as conn:
                upsert(conn, StoredForecast, outcome.forecast)
    actual = actual_percentages(stored_boards, min_tables)
    with engine.connect() as conn:
        for kept in conn.execute(select(StoredForecast.__table__)).mappings():
            key = (kept["event"], kept["session"], kept["player_a"], kept["player_b"])
            outcome.stored.append(dict(kept) | {"actual": actual.get(key)})
    outcome.score = forecast_score(outcome.stored)
    return outcome
