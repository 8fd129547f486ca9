"""The ``rate`` stage: ratings of every player from results, and how well each method
predicts results it has not seen.

Games: team boards played in both rooms (two pairs against two pairs, by the net score),
single-table boards (North-South against East-West, by their score against the double dummy
par, once the dds stage has stored it), and deals played at three or more
tables (rankings of the pairs, for the multiplayer Elo methods).

Methods: hypergraph Bradley-Terry (teams of changing make-up, strengths multiply), generalized
Bradley-Terry (strengths add), classical Bradley-Terry on the pairs every board implies, and
the plain share of boards won. Each is fitted on the earliest 80% of the games (by date) and
scored on the rest (log-loss, accuracy on decided boards), beside a WBF-points baseline; the
ratings kept are then fitted on all games, with bootstrap intervals for HBT. The team
headline (:mod:`~bridgerank.ratings.team_matches`), fitted on every team board, is kept beside
them as method ``team_imps``: IMPs per board a player adds to a team, with a 95% interval.

The run returns a :class:`~bridgerank.ratings.summaries.RateSummary` (its closing lines, the
ledger's history); what another command reads of it is in tables: the headline's fit
(``headline_fit``, for ``bridgerank predict`` and the report), the games rated
(``rate_inputs``) and the skill-o-meter's reading (``skill_o_meter``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Mapping

from sqlalchemy import Connection, case, func, select

from bridgerank.cleaning.clean.tables import Board, MatchBoardRow, TeamMatchRow
from bridgerank.cleaning.ingest.tables import RawBoard
from bridgerank.cleaning.match.lookup import PersonLookup, person_lookup
from bridgerank.cleaning.match.tables import NameMatch, Player, WbfPlayer
from bridgerank.core.stage import Stage, StageContext
from bridgerank.dds.lead_reading import read_lead_baselines
from bridgerank.dds.tables import CardAnalysis, TableEvidence
from bridgerank.ratings.actual_results import actual_results, seated_persons
from bridgerank.ratings.registry import registered_code
from bridgerank.ratings.summaries import (
    HeadlineSummary,
    RateSummary,
    ResultsSummary,
)
from bridgerank.ratings.tables import (
    ActualResult,
    DiscPoint,
    EventFit,
    EventMatchForecast,
    EventMatchValidation,
    EventStrength,
    FittedHeadline,
    GameMethodScore,
    GameStructure,
    HeadlineRating,
    MatchValidation,
    OneTableValidation,
    PairScorecard,
    RateInputs,
    Rating,
    RatingCheck,
    RatingHistory,
    RatingValidation,
    SessionPrediction,
    SessionValidation,
    SkillOMeter,
    TableScore,
    TeamFit,
    TeamStrength,
    ValidationCeiling,
)

if TYPE_CHECKING:
    from bridgerank.ratings.card_evidence import CardCounts
    from bridgerank.ratings.dd_prior import BoardEvidence


BOARD_COLUMNS = (
    "id",
    "event",
    "board_no",
    "deal_hash",
    "room",
    "date",
    "north",
    "east",
    "south",
    "west",
    "contract",
    "declarer",
    "result",
    "ns_vulnerable",
    "ew_vulnerable",
    "year",
    "bidstart",
    "home_team",
    "visit_team",
    "scoring",
    "ns_entry",
    "ew_entry",
)


def par_function(conn: Connection) -> Callable[[Mapping[str, Any]], int | None]:
    """Par of a board, as the dds stage stored it (None when it has not, or could not)."""
    par = dict(
        conn.execute(
            select(TableEvidence.board_id, TableEvidence.ns_par).where(
                TableEvidence.ns_par.is_not(None)
            )
        ).all()
    )
    return lambda board: par.get(board["id"])


def _card_counts(conn: Connection) -> CardCounts:
    """The dds stage's card verdicts counted per board, seat and role (none before it runs)."""
    from bridgerank.ratings.card_evidence import CardCounts  # numpy, only when rating

    cards = CardAnalysis.__table__.c
    query = select(
        cards.board_id,
        cards.seat,
        cards.role,
        func.count().label("cards"),
        func.sum(case((cards.cost_tricks > 0, 1), else_=0)).label("costly"),
    ).group_by(cards.board_id, cards.seat, cards.role)
    return CardCounts.of(conn.execute(query).mappings())


def _evidence(conn: Connection) -> BoardEvidence:
    """The dds stage's evidence on every board with a result (empty before it runs)."""
    from bridgerank.ratings.dd_prior import BoardEvidence  # numpy, only when rating

    columns = (
        TableEvidence.board_id,
        TableEvidence.declarer,
        TableEvidence.tricks_vs_dd,
        TableEvidence.bidding_imps,
        TableEvidence.lead_cost,
    )
    return BoardEvidence.of(conn.execute(select(*columns)).mappings())


def stored_boards(conn: Connection) -> list[dict]:
    """The boards (:data:`BOARD_COLUMNS` and ``round``), the seats named as written."""
    # the round a source named (a championship's "round 7"): the session of an undated event
    columns = [getattr(Board, c) for c in BOARD_COLUMNS] + [
        RawBoard.__table__.c.stage.label("round")
    ]
    # in id order, the order SQLite happens to give: the replays take games of one date in
    # the order read, and PostgreSQL's join may read them in another (the quick start's Elo
    # history once differed between the two)
    query = select(*columns).join(RawBoard, RawBoard.id == Board.id).order_by(Board.id)
    return [dict(row) for row in conn.execute(query).mappings()]


def _event_match_rows(conn: Connection) -> tuple[list[dict], list[dict]]:
    """The ``team_matches`` rows and their ``match_boards`` rows (the clean stage's)."""
    matches = [dict(row) for row in conn.execute(select(TeamMatchRow.__table__)).mappings()]
    boards = [dict(row) for row in conn.execute(select(MatchBoardRow.__table__)).mappings()]
    return matches, boards


def load_inputs(
    conn: Connection, lookup: PersonLookup | None = None, boards: list[dict] | None = None
) -> tuple[list[dict], dict, dict]:
    """The boards (:func:`stored_boards`) with their seats as persons
    (:mod:`cleaning.match.lookup`; ``lookup`` when the caller has read it already), the raw
    names that are one person everywhere, and the WBF masterpoints of the matched players by
    player name (:func:`wbf_points`). ``boards``: the stored boards where the caller has read
    them already (their seats are renamed in place)."""
    boards = stored_boards(conn) if boards is None else boards
    # the seats as persons (a surname is whoever it was in its event; no one to rate is
    # blank); the names that mean one person everywhere, for boards of events not yet seen
    lookup = lookup or person_lookup(conn)
    lookup.rename(boards)
    names = lookup.global_names()
    return boards, names, wbf_points(conn)


def wbf_points(conn: Connection) -> dict[str, float | None]:
    """The WBF masterpoints of the matched players, by player name."""
    return dict(
        conn.execute(
            select(Player.name, WbfPlayer.mp).join(WbfPlayer, WbfPlayer.id == Player.wbf_id)
        ).all()
    )


def fit_rows(headline: HeadlineSummary) -> list[dict[str, Any]]:
    """The ``headline_fit`` row: what the headline was fitted on, its penalty and variances."""
    return [
        {
            "id": 1,
            "tables": headline.tables,
            "players": headline.players,
            "sessions": headline.sessions,
            "penalty": headline.penalty,
            "newcomer_prior": headline.newcomer_prior,
            "residual_variance": headline.residual_variance,
            "form_variance": headline.form_variance,
            "familiarity": headline.familiarity,
            "entry_effects": json.dumps(headline.entry_effects) if headline.entry_effects else None,
            "not_fitted": headline.note or None,
            "not_validated": headline.not_validated or None,
        }
    ]


def input_rows(results: ResultsSummary) -> list[dict[str, Any]]:
    """The ``rate_inputs`` row: the games of each kind rated, and the players."""
    return [
        {
            "id": 1,
            "team_games": results.team_games,
            "single_table_games": results.single_table_games,
            "pair_rankings": results.pair_rankings,
            "players": results.players,
        }
    ]


def skill_rows(results: ResultsSummary) -> list[dict[str, Any]]:
    """The ``skill_o_meter`` row (none without a reading): from the ``dlo`` ratings."""
    skill = results.skill_o_meter
    if skill is None:
        return []
    reading = {"k": skill.k, "sigma": skill.sigma, "p": skill.p, "players": skill.players}
    return [{"method": "dlo", **reading}]


def run(context: StageContext) -> RateSummary:
    """Rate every player (see the module docstring)."""
    # numpy and SciPy, only when rating
    from bridgerank.ratings.event_evidence import dd_measures
    from bridgerank.ratings.event_match_data import event_matches
    from bridgerank.ratings.event_matches import event_match_summary, study_event_matches
    from bridgerank.ratings.gamematrix.from_boards import cycle_study
    from bridgerank.ratings.headline.session_study import headline_study
    from bridgerank.ratings.one_table_pairs import study_pairs
    from bridgerank.ratings.results import rate_results
    from bridgerank.ratings.table_scores import table_scores
    from bridgerank.ratings.team_matches import study_matches, team_inputs
    from bridgerank.ratings.team_ratings import team_ratings

    settings = context.settings.rate
    with context.engine.connect() as conn:
        lookup = person_lookup(conn)
        stored = stored_boards(conn)
        # the boards with their seats as the files name them (what forecasts are keyed by),
        # copied before the seats become persons
        written = [seated_persons(dict(board)) for board in stored]
        boards, names, points = load_inputs(conn, lookup, stored)
        par_of = par_function(conn)
        evidence = _evidence(conn)
        cards = _card_counts(conn)
        event_rows, event_boards = _event_match_rows(conn)
        matches_of_events = event_matches(event_rows, event_boards, lookup.name)
        # the opening leads of the matches' tables, beside a random lead
        match_leads = read_lead_baselines(conn, matches_of_events.tables.board.tolist())
    results = rate_results(boards, names, points, par_of, settings)
    headline = headline_study(
        boards,
        names,
        settings.min_tables,
        settings.validation_bootstrap,
        context.progress,
        evidence,
        points,
        settings=settings,
    )
    # the team boards and what every other board says of their players, gathered once for
    # the held-out matches and for the team headline fitted on every team board
    team = team_inputs(boards, names, evidence, par_of, cards, settings.min_tables)
    match_rows, matches = study_matches(
        *team, points, settings.validation_bootstrap, settings=settings
    )
    pair_rows, matches.one_table = study_pairs(
        *team, settings.validation_bootstrap, settings=settings
    )
    team_rated = team_ratings(*team, settings=settings)
    cycles = cycle_study(boards, names, settings.cycles, context.progress)
    # the team events' matches, forecast round by round (traveller files: Valet's)
    event_study = study_event_matches(
        matches_of_events,
        points,
        settings.validation_bootstrap,
        context.progress,
        dd=dd_measures(matches_of_events, evidence),
        settings=settings,
    )
    summary = RateSummary(
        results=results.summary,
        headline=headline.summary,
        matches=matches,
        cycles=cycles.summary(),
        event_matches=event_match_summary(matches_of_events, event_study),
    )
    if match_leads.leads and summary.event_matches is not None:
        summary.event_matches.leads = match_leads
    event_players, event_fit = event_study.strengths.rows() if event_study.strengths else ([], [])
    with context.engine.begin() as conn:
        context.finish(
            conn,
            summary,
            replace={
                Rating: list(results.ratings) + team_rated.ratings,
                TeamStrength: team_rated.strengths,
                TeamFit: team_rated.fit,
                RatingValidation: results.validation,
                RatingHistory: results.history,
                RateInputs: input_rows(summary.results),
                SkillOMeter: skill_rows(summary.results),
                HeadlineRating: headline.ratings,
                FittedHeadline: fit_rows(summary.headline),
                SessionValidation: headline.validation,
                ValidationCeiling: headline.ceiling
                + (matches.validation.ceiling_rows() if matches.validation else []),
                SessionPrediction: headline.predictions,
                PairScorecard: headline.scorecards,
                RatingCheck: headline.checks,
                MatchValidation: match_rows,
                EventMatchValidation: event_study.rows,
                EventStrength: event_players,
                EventFit: event_fit,
                EventMatchForecast: event_study.forecasts,
                OneTableValidation: pair_rows,
                GameStructure: cycles.structure,
                GameMethodScore: cycles.scores,
                DiscPoint: cycles.points,
                TableScore: table_scores(boards),
                ActualResult: actual_results(written, par_of, event_rows, settings.min_tables),
            },
        )
    return summary


RATE_STAGE = Stage(
    name="rate",
    run=run,
    reads=(Board, RawBoard),
    optional_reads=(
        NameMatch,
        Player,
        WbfPlayer,
        TableEvidence,
        CardAnalysis,
        TeamMatchRow,
        MatchBoardRow,
    ),
    writes=(
        Rating,
        RatingValidation,
        RatingHistory,
        RateInputs,
        SkillOMeter,
        HeadlineRating,
        FittedHeadline,
        SessionValidation,
        SessionPrediction,
        PairScorecard,
        RatingCheck,
        ValidationCeiling,
        MatchValidation,
        EventMatchValidation,
        EventStrength,
        EventFit,
        EventMatchForecast,
        OneTableValidation,
        TeamStrength,
        TeamFit,
        TableScore,
        ActualResult,
        GameStructure,
        GameMethodScore,
        DiscPoint,
    ),
    # the methods' modules are named by string in the registries: their code counts too
    extra_input=registered_code,
    settings_sections=("rate",),
    summary_type=RateSummary,
)
