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
ratings kept are then fitted on all games, with bootstrap intervals for HBT.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from sqlalchemy import Connection, delete, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.ingest.tables import RawBoard
from bridgerank.cleaning.match.tables import NameMatch, Player, WbfPlayer
from bridgerank.core.stage import Stage, StageContext
from bridgerank.dds.tables import TableEvidence
from bridgerank.ratings.tables import (
    DiscPoint,
    GameMethodScore,
    GameStructure,
    HeadlineRating,
    MatchValidation,
    Rating,
    RatingHistory,
    RatingValidation,
    SessionPrediction,
    SessionValidation,
    ValidationCeiling,
)

if TYPE_CHECKING:
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
)


def _par_function(conn: Connection) -> Callable[[Mapping[str, Any]], int | None]:
    """Par of a board, as the dds stage stored it (None when it has not, or could not)."""
    par = dict(
        conn.execute(
            select(TableEvidence.board_id, TableEvidence.ns_par).where(
                TableEvidence.ns_par.is_not(None)
            )
        ).all()
    )
    return lambda board: par.get(board["id"])


def _evidence(conn: Connection) -> BoardEvidence:
    """The dds stage's evidence on every board with a result (empty before it runs)."""
    from bridgerank.ratings.dd_prior import BoardEvidence  # numpy, only when rating

    columns = (
        TableEvidence.board_id,
        TableEvidence.declarer,
        TableEvidence.tricks_vs_dd,
        TableEvidence.bidding_imps,
    )
    return BoardEvidence.of(conn.execute(select(*columns)).mappings())


def load_inputs(conn: Connection) -> tuple[list[dict], dict, dict]:
    """The boards (:data:`BOARD_COLUMNS` and ``round``), each raw name's player name, and the WBF
    masterpoints of the matched players by player name."""
    # the round a source named (a championship's "round 7"): the session of an undated event
    columns = [getattr(Board, c) for c in BOARD_COLUMNS] + [
        RawBoard.__table__.c.stage.label("round")
    ]
    boards = [
        dict(row)
        for row in conn.execute(select(*columns).join(RawBoard, RawBoard.id == Board.id)).mappings()
    ]
    names = dict(
        conn.execute(
            select(NameMatch.raw_name, Player.name).join(Player, Player.id == NameMatch.player_id)
        ).all()
    )
    points = dict(
        conn.execute(
            select(Player.name, WbfPlayer.mp).join(WbfPlayer, WbfPlayer.id == Player.wbf_id)
        ).all()
    )
    return boards, names, points


def run(context: StageContext) -> dict[str, Any]:
    """Rate every player (see the module docstring)."""
    # numpy and SciPy, only when rating
    from bridgerank.ratings.cycles import cycle_study
    from bridgerank.ratings.matches import match_study
    from bridgerank.ratings.results import rate_results
    from bridgerank.ratings.study import headline_study

    settings = context.settings.rate
    with context.engine.connect() as conn:
        boards, names, points = load_inputs(conn)
        par_of = _par_function(conn)
        evidence = _evidence(conn)
    results = rate_results(boards, names, points, par_of, settings)
    headline = headline_study(
        boards,
        names,
        settings.min_tables,
        settings.validation_bootstrap,
        context.progress,
        evidence,
        points,
    )
    match_rows, results.summary["matches"] = match_study(
        boards, names, points, settings.validation_bootstrap
    )
    results.summary["headline"] = headline.summary
    cycles = cycle_study(boards, names, settings.cycles, context.progress)
    results.summary["cycles"] = cycles.summary()
    with context.engine.begin() as conn:
        for model, table_rows in (
            (Rating, results.ratings),
            (RatingValidation, results.validation),
            (RatingHistory, results.history),
            (HeadlineRating, headline.ratings),
            (SessionValidation, headline.validation),
            (ValidationCeiling, headline.ceiling),
            (SessionPrediction, headline.predictions),
            (MatchValidation, match_rows),
            (GameStructure, cycles.structure),
            (GameMethodScore, cycles.scores),
            (DiscPoint, cycles.points),
        ):
            conn.execute(delete(model))
            if table_rows:
                conn.execute(model.__table__.insert(), table_rows)
        context.finish(conn, results.summary)
    return results.summary


RATE_STAGE = Stage(
    name="rate",
    run=run,
    reads=(Board, RawBoard),
    optional_reads=(NameMatch, Player, WbfPlayer, TableEvidence),
    writes=(
        Rating,
        RatingValidation,
        RatingHistory,
        HeadlineRating,
        SessionValidation,
        SessionPrediction,
        ValidationCeiling,
        MatchValidation,
        GameStructure,
        GameMethodScore,
        DiscPoint,
    ),
    settings_sections=("rate",),
)
