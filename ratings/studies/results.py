"""The study of results: the Bradley-Terry family, the multiplayer Elos and the win rate on
every board and pair ranking (:mod:`bridgerank.ratings.results`), the team headline fitted
on every team board (``team_imps``), each table's score, and what each pair-session and match
actually scored (for the stored forecasts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridgerank.core.studies import Study, StudyResult
from bridgerank.ratings.inputs import (  # in the study's code: what it reads
    BOARD_READS,
    DD_READS,
    EVENT_READS,
    PERSON_READS,
    RateData,
)
from bridgerank.ratings.tables import (
    ActualResult,
    RateInputs,
    Rating,
    RatingHistory,
    RatingValidation,
    SkillOMeter,
    TableScore,
    TeamFit,
    TeamStrength,
)

if TYPE_CHECKING:
    from bridgerank.core.stage import StageContext
    from bridgerank.ratings.summaries import ResultsSummary

__all__ = ["RESULTS", "input_rows", "skill_rows"]


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


def run(data: RateData, context: StageContext) -> StudyResult:
    """Rate every player on every board (see the module docstring)."""
    # numpy and SciPy, only when rating
    from bridgerank.ratings.actual_results import actual_results
    from bridgerank.ratings.kinds import boards, rankings
    from bridgerank.ratings.results import rate_results
    from bridgerank.ratings.studies.team_data import team_data
    from bridgerank.ratings.table_scores import table_scores
    from bridgerank.ratings.team_ratings import team_ratings

    settings = context.settings.rate
    results = rate_results(
        data.boards,
        data.names,
        data.points,
        data.par_of,
        settings,
        board_methods=boards.METHODS,
        ranking_methods=rankings.METHODS,
    )
    team_rated = team_ratings(*data.derived(team_data), settings=settings)
    event_rows, _ = data.event_rows
    return StudyResult(
        summary={"results": results.summary},
        rows={
            Rating: list(results.ratings) + team_rated.ratings,
            TeamStrength: team_rated.strengths,
            TeamFit: team_rated.fit,
            RatingValidation: results.validation,
            RatingHistory: results.history,
            RateInputs: input_rows(results.summary),
            SkillOMeter: skill_rows(results.summary),
            TableScore: table_scores(data.boards),
            ActualResult: actual_results(
                data.written, data.par_of, event_rows, settings.min_tables
            ),
        },
    )


RESULTS = Study(
    name="results",
    run=run,
    reads=BOARD_READS,
    optional_reads=(*PERSON_READS, *DD_READS, *EVENT_READS),
    writes=(
        Rating,
        TeamStrength,
        TeamFit,
        RatingValidation,
        RatingHistory,
        RateInputs,
        SkillOMeter,
        TableScore,
        ActualResult,
    ),
    settings=("rate", "rate.teams", "rate.rivals"),
    summary_fields=("results",),
)
