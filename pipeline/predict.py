"""``bridgerank predict``: forecast an event from the stored headline ratings before its
results are rated, keep the forecast, and score it once the event has been ingested.

The files named are read and cleaned in memory, record by record (nothing of them is stored
but the forecasts). A session already in the database is not forecast: its results are in
the ratings, so a forecast of it would be no forecast.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.engine import Engine

from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.cleaning.ingest.limits import Limits
from bridgerank.cleaning.ingest.records import RawRecord
from bridgerank.cleaning.ingest.sources import discover, file_records, identify
from bridgerank.cleaning.match.lookup import person_lookup
from bridgerank.core.errors import StageNotReady
from bridgerank.core.lock import run_lock
from bridgerank.core.sections import Settings
from bridgerank.core.store import StageRun, upsert
from bridgerank.ratings.actual_results import KINDS, seated_persons
from bridgerank.ratings.inputs import stored_boards
from bridgerank.ratings.tables import (
    ActualResult,
    EventFit,
    EventStrength,
    FittedHeadline,
    HeadlineRating,
    ImpForecast,
    MatchValidation,
    OneTableValidation,
    StoredForecast,
    TeamFit,
    TeamStrength,
)


@dataclass
class PredictOutcome:
    """Forecasts stored now, sessions passed over, and every stored forecast with its actual
    result where the event has since been ingested, with their score: pair-session
    percentages (``forecast``, ``stored``, ``score``) and IMP forecasts of team matches and
    one-table pairs (``imp_forecast``, ``imp_stored``, ``imp_score`` by kind)."""

    forecast: list[dict[str, Any]] = field(default_factory=list)
    already_rated: list[tuple[str, str]] = field(default_factory=list)
    stored: list[dict[str, Any]] = field(default_factory=list)
    score: dict[str, Any] = field(default_factory=dict)
    not_forecast: str = ""  # why the files given gave no forecast, when they gave none
    # the tables of the files with a seat that names no one person (a placeholder such as
    # "North" or "?", a robot, a team string: none is rated), and those seats' names
    nobody_tables: int = 0
    nobody_names: dict[str, int] = field(default_factory=dict)
    # why a round file's traveller records gave no team-event match forecast
    not_forecast_matches: str = ""
    imp_forecast: list[dict[str, Any]] = field(default_factory=list)
    imp_stored: list[dict[str, Any]] = field(default_factory=list)
    imp_score: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the model's held-out check on this database, by IMP kind: Pearson, RMSE gain over a
    # coin (positive: better than a level forecast) and the units it rests on
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)


# The kinds of IMP forecast: a team match of boards in both rooms (the team headline), a pair
# at one table a deal (the team headline), a match of a team event's round file (the team
# events' headline).
IMP_KINDS = ("match", "pair", "event")
_SEAT_NAMES = ("north", "east", "south", "west")


def _records(
    sources: Sequence[str], settings: Settings, only: str | None = None
) -> Iterator[tuple[Path, RawRecord]]:
    """Each readable record of ``sources`` (files or folders) with its file, read as ingest
    reads them (:func:`~bridgerank.cleaning.ingest.sources.identify`); of format ``only``
    where given. A file named that is no bridge data is an error, as in ingest."""
    limits = Limits.of(settings.ingest)  # the user's, as ingest applies them
    for candidate in discover(list(sources), settings.ingest.extensions):
        content, fmt = identify(candidate.path, candidate.named, limits)
        if fmt is None or (only is not None and fmt != only):
            continue
        with file_records(candidate.path, content, fmt, limits) as records:
            for record in records:
                if not record.parse_error:
                    yield candidate.path, record


def read_boards(
    sources: Sequence[str], settings: Settings, nobody: Counter[str] | None = None
) -> Iterator[dict[str, Any]]:
    """The clean boards of ``sources`` (files or folders), read in memory, numbered from 1;
    ``nobody`` counts, by the name the file gives, the seats left blank as naming no one
    person (:func:`~bridgerank.ratings.actual_results.seated_persons`)."""
    number = 0
    for _, record in _records(sources, settings):
        outcome = clean_record(record.values, record.play_layout, settings=settings.clean)
        board = outcome.board
        if board is not None:
            number += 1
            board["id"] = number
            board["round"] = record.values.get("stage")  # as the rate stage reads it
            board = seated_persons(board)
            if nobody is not None:
                for seat in _SEAT_NAMES:
                    if not board.get(seat):
                        raw = " ".join((record.values.get(f"{seat}name") or "").split())
                        nobody[raw or "(no name)"] += 1
            yield board


def _nobody_tables(boards: Sequence[Mapping[str, Any]]) -> int:
    """The tables of ``boards`` with a seat left blank: no forecast counts them."""
    return sum(not all(board.get(seat) for seat in _SEAT_NAMES) for board in boards)


def read_travellers(sources: Sequence[str], settings: Settings) -> list[dict[str, Any]]:
    """The traveller records (Valet's round files) of ``sources``, read in memory as the
    clean stage pairs them into matches, numbered from 1; a record without a deal counts
    (a match is forecast from its line-ups)."""
    from bridgerank.cleaning.clean.team_matches import traveller_row

    clean = settings.clean
    return [
        traveller_row(number, record.values, str(path), clean.first_year, clean.latest_year)
        for number, (path, record) in enumerate(_records(sources, settings, "valet"), start=1)
    ]


def _headline(conn):
    """The stored headline ratings with the fit's penalty and variances (None: none)."""
    from bridgerank.ratings.headline.forecast import StoredRatings

    rows = conn.execute(
        select(
            HeadlineRating.player, HeadlineRating.rating, HeadlineRating.sd, HeadlineRating.sessions
        )
    ).all()
    rating = {row.player: (row.rating, row.sd) for row in rows}
    fit = conn.execute(
        select(
            FittedHeadline.penalty,
            FittedHeadline.residual_variance,
            FittedHeadline.form_variance,
            FittedHeadline.familiarity,
            FittedHeadline.entry_effects,
        )
    ).first()
    if not rating or fit is None or fit.residual_variance is None:
        return None
    return StoredRatings(
        rating,
        fit.residual_variance,
        fit.form_variance or 0.0,
        fit.penalty,
        fit.familiarity or 0.0,
        entry_effects=json.loads(fit.entry_effects) if fit.entry_effects else {},
        sessions={row.player: row.sessions for row in rows},
    )


def _familiar(
    written: Sequence[Mapping[str, Any]],
    names: Mapping[str, Any],
    min_tables: int,
    familiar_sessions: int,
) -> set[tuple[str, str]]:
    """The partnerships the stored boards make familiar (as the rate stage counts them:
    ``familiar_sessions`` sessions together or more)."""
    from bridgerank.ratings.field import field_tables
    from bridgerank.ratings.headline.familiarity import familiar_pairs

    return familiar_pairs(field_tables(written, names, min_tables), familiar_sessions)


def _strengths(conn):
    """The team headline's stored strengths and fit (None: no team board was rated)."""
    from bridgerank.ratings.imp_forecast import StoredStrengths

    fit = conn.execute(select(TeamFit.__table__)).mappings().first()
    if fit is None:
        return None
    rows = conn.execute(select(TeamStrength.player, TeamStrength.strength, TeamStrength.sd))
    return StoredStrengths(
        {player: (value, sd) for player, value, sd in rows},
        fit["board_variance"],
        fit["one_table_variance"],
        (fit["newcomer"], fit["newcomer_sd"]),
        fit.get("newcomer_own_sd"),
    )


def _event_strengths(conn):
    """The team events' headline as stored (None: no match of a team event was rated)."""
    from bridgerank.ratings.event_forecast import StoredEventStrengths

    fit = conn.execute(select(EventFit.__table__)).mappings().first()
    if fit is None:
        return None
    rows = conn.execute(select(EventStrength.player, EventStrength.strength))
    return StoredEventStrengths(
        {player: value for player, value in rows}, fit["board_variance"], fit["newcomer"]
    )


def _actual_results(conn) -> dict[str, dict[tuple[str, str, str, str], float]]:
    """The results the rate stage stored (:mod:`~bridgerank.ratings.actual_results`), by kind,
    each keyed (event, session, side, opponents)."""
    found: dict[str, dict[tuple[str, str, str, str], float]] = {kind: {} for kind in KINDS}
    for row in conn.execute(select(ActualResult.__table__)).mappings():
        key = (row["event"], row["session"], row["side"], row["opponents"])
        found[row["kind"]][key] = float(row["actual"])
    return found


def _fitted_at(conn) -> str:
    """When the rate stage last ran, UTC."""
    fitted = conn.execute(
        select(StageRun.finished_at)
        .where(StageRun.stage == "rate")
        .order_by(StageRun.id.desc())
        .limit(1)
    ).scalar()
    return fitted.strftime("%Y-%m-%d %H:%M:%S") if fitted else ""


def why_no_forecast(
    boards: Sequence[Mapping[str, Any]], min_tables: int, headline: bool, team: bool
) -> str:
    """Why boards read from files give no forecast, in one line: none read, or none of the
    kind the stored ratings forecast (``headline``: pair ratings of matchpointed fields are
    stored; ``team``: the team headline's strengths are)."""
    from bridgerank.ratings.field import session_of
    from bridgerank.ratings.games import deal_key

    if not boards:
        return "the files hold no board with a result"
    tables = Counter((session_of(board), deal_key(board)) for board in boards)
    most = max(tables.values())
    played = (
        f"the files' {len(tables):,} deals were played at {most:,} "
        f"table{'s' if most > 1 else ''} at most"
    )
    if most >= min_tables:
        return (
            f"{played}; a session with a field is forecast from the pair ratings of fields, "
            "and the database has none (no deal of it was played at "
            f"{min_tables} tables or more)"
        )
    if not team:
        return (
            f"{played}; team matches and events of one table a deal are forecast from the "
            "team ratings, and the database has none (no board of it was played in both "
            "rooms of a team match)"
        )
    return (
        f"{played}; no team match (the same deal in both rooms) and no deal played at one "
        "table with four players named"
    )


def _new(
    rows: Sequence[dict[str, Any]], in_database: set[tuple[str, str]], stamp: dict[str, str]
) -> tuple[list[dict[str, Any]], set[tuple[str, str]]]:
    """The forecast rows of sessions not in the database, stamped; and those that are."""
    fresh = [row | stamp for row in rows if (row["event"], row["session"]) not in in_database]
    rated = {(row["event"], row["session"]) for row in rows} & in_database
    return fresh, rated


def _event_forecasts(
    travellers: Sequence[dict[str, Any]], events, lookup, names: Mapping[str, str]
) -> tuple[list[dict[str, Any]], str]:
    """The forecasts of the matches a round file's travellers make, or why there are none
    (empty when no traveller was read)."""
    if not travellers:
        return [], ""
    if events is None:
        return [], (
            f"the files' {len(travellers):,} traveller records are forecast as team matches "
            "from the team events' ratings, and the database has none (rate a folder of "
            "team events first: bridgerank run FOLDER --to rate)"
        )
    from bridgerank.cleaning.clean.team_matches import build_matches
    from bridgerank.ratings.event_forecast import forecast_event_matches

    def person_of(raw: str, event: str) -> str:
        name, known = lookup.player(raw, event)
        return name if known is not None else names.get(raw, raw)

    found = build_matches(travellers)
    if not found.matches:
        reasons = ", ".join(f"{code} {count:,}" for code, count in found.reasons().most_common())
        return [], f"the files' tables pair into no team match ({reasons})"
    return forecast_event_matches(found.matches, events, person_of), ""


def predict_line_ups(
    engine: Engine, team_a: Sequence[str], team_b: Sequence[str], boards: int
) -> Any:
    """Team A's margin against team B over ``boards`` boards, from the team events' stored
    headline (:func:`~bridgerank.ratings.event_forecast.forecast_line_ups`; not stored: a
    question, not an event).

    Raises
    ------
    StageNotReady
        When no match of a team event has been rated.
    ValueError
        When a line-up is not four different players, or ``boards`` < 1.
    """
    from bridgerank.ratings.event_forecast import forecast_line_ups

    with engine.connect() as conn:
        events = _event_strengths(conn)
        if events is None:
            raise StageNotReady(
                "predict",
                "rate",
                "Line-ups are forecast from the team events' matches (Valet's round files): "
                "try bridgerank run FOLDER --to rate",
            )
        names = person_lookup(conn).global_names()
    return forecast_line_ups(team_a, team_b, boards, events, _typed_names(events, names))


def _typed_names(events, names: Mapping[str, str]) -> Any:
    """A name as a captain types it -> the person the stored strengths know: the match
    stage's person of that name, else the rated name with the same words in any order and
    case (``Jeff Meckstroth`` is ``MECKSTROTH Jeff``) where only one has them."""
    by_words: dict[frozenset[str], list[str]] = {}
    for player in events.strength:
        by_words.setdefault(frozenset(player.lower().split()), []).append(player)

    def person(raw: str) -> str:
        if raw in names or raw in events.strength:
            return names.get(raw, raw)
        same = by_words.get(frozenset(raw.lower().split()), [])
        return same[0] if len(same) == 1 else raw

    return person


def _held_out_checks(conn) -> dict[str, dict[str, Any]]:
    """The team headline's held-out check on this database, for the IMP forecasts' kinds it
    makes: a team match's (``match_validation``) and a one-table pair's
    (``one_table_validation``); the coin's RMSE less the headline's is its gain."""
    checks = {}
    for kind, table, units in (
        ("match", MatchValidation, "matches"),
        ("pair", OneTableValidation, "pairs"),
    ):
        rows = {
            row["method"]: row
            for row in conn.execute(select(table.__table__)).mappings()
            if row["method"] in ("headline", "coin")
        }
        if "headline" in rows:
            coin = rows.get("coin")
            checks[kind] = {
                "pearson": rows["headline"]["pearson"],
                "units": rows["headline"][units],
                "over_coin": None if coin is None else coin["rmse"] - rows["headline"]["rmse"],
            }
    return checks


def one_spelling(boards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The boards with each name that differs from another only in case or spacing ("Sam
    Lev", "Sam  lev") written one way, the first the file gives: a file's typing is not two
    players (the database's names went through the match stage; a new file's did not)."""
    first: dict[str, str] = {}
    fixed = []
    for board in boards:
        changed = {}
        for seat in _SEAT_NAMES:
            name = board.get(seat)
            if isinstance(name, str) and name.strip():
                spelt = first.setdefault(" ".join(name.split()).casefold(), name)
                if spelt != name:
                    changed[seat] = spelt
        fixed.append(board | changed if changed else board)
    return fixed


def predict(
    engine: Engine, settings: Settings, sources: Sequence[str], what: str = ""
) -> PredictOutcome:
    """Forecast the sessions, team matches and one-table events of ``sources`` (none: only
    score the stored forecasts).

    Raises
    ------
    StageNotReady
        When neither a headline rating nor a team rating has been fitted.
    SourceError
        When a named file cannot be read or is no bridge data.
    """
    from bridgerank.ratings.field import period_of
    from bridgerank.ratings.headline.forecast import forecast, forecast_score
    from bridgerank.ratings.imp_forecast import forecast_imps

    min_tables = settings.rate.min_tables
    headline = settings.rate.headline
    outcome = PredictOutcome()
    with engine.connect() as conn:
        ratings, strengths = _headline(conn), _strengths(conn)
        events = _event_strengths(conn)
        if ratings is None and strengths is None and events is None:
            raise StageNotReady("predict", "rate", "Try: bridgerank run --to rate")
        fitted = _fitted_at(conn)
        outcome.checks = _held_out_checks(conn)
        lookup = person_lookup(conn)
        names = lookup.global_names()  # the boards' names that are one person
        # what the rated events scored, keyed as forecasts are (the rate stage's)
        actual = _actual_results(conn)
        # named as files name them, as forecasts name sides
        written = [seated_persons(board) for board in stored_boards(conn)]
    if ratings is not None and ratings.familiarity:
        familiar = _familiar(written, names, min_tables, headline.familiar_sessions)
        ratings = replace(ratings, familiar=familiar)
    in_database = {(board["event"], period_of(board)) for board in written}
    if sources:
        nobody: Counter[str] = Counter()
        boards = one_spelling(list(read_boards(sources, settings, nobody)))
        outcome.nobody_tables = _nobody_tables(boards)
        outcome.nobody_names = dict(nobody.most_common())
        stamp = {
            "made_at": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "ratings_of": fitted,
        }
        rows = forecast(boards, names, ratings, min_tables, headline) if ratings is not None else []
        imp_rows = forecast_imps(boards, names, strengths) if strengths is not None else []
        travellers = read_travellers(sources, settings)
        event_rows, no_event_forecast = _event_forecasts(travellers, events, lookup, names)
        outcome.forecast, rated = _new(rows, in_database, stamp)
        outcome.imp_forecast, imp_rated = _new(imp_rows, in_database, stamp)
        rounds_in = {(event, session) for event, session, _, _ in actual["event"]}
        event_forecast, event_rated = _new(event_rows, rounds_in, stamp)
        outcome.imp_forecast += event_forecast
        outcome.already_rated = sorted(rated | imp_rated | event_rated)
        outcome.not_forecast_matches = no_event_forecast
        if not rows and not imp_rows and not event_rows and not no_event_forecast:
            outcome.not_forecast = why_no_forecast(
                boards, min_tables, ratings is not None, strengths is not None
            )
        if outcome.forecast or outcome.imp_forecast:
            with run_lock(engine, what or "bridgerank predict"), engine.begin() as conn:
                upsert(conn, StoredForecast, outcome.forecast)
                upsert(conn, ImpForecast, outcome.imp_forecast)
    with engine.connect() as conn:
        for kept in conn.execute(select(StoredForecast.__table__)).mappings():
            key = (kept["event"], kept["session"], kept["player_a"], kept["player_b"])
            outcome.stored.append(dict(kept) | {"actual": actual["session"].get(key)})
        query = select(ImpForecast.__table__).order_by(
            ImpForecast.event, ImpForecast.session, ImpForecast.kind, ImpForecast.side
        )
        for kept in conn.execute(query).mappings():
            key = (kept["event"], kept["session"], kept["side"], kept["opponents"])
            results = actual["event" if kept["kind"] == "event" else "imps"]
            outcome.imp_stored.append(dict(kept) | {"actual": results.get(key)})
    outcome.score = forecast_score(outcome.stored)
    for kind in IMP_KINDS:
        kept_rows = [row for row in outcome.imp_stored if row["kind"] == kind]
        if kept_rows:
            outcome.imp_score[kind] = forecast_score(kept_rows)
    return outcome
