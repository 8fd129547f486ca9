"""The study of the headline on sessions: the headline rating fitted on every pair-session,
and every method of the sessions registry walked forward beside it
(:mod:`bridgerank.ratings.headline.session_study`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from bridgerank.core.studies import Study, StudyResult
from bridgerank.dds.tables import TableEvidence
from bridgerank.ratings.inputs import (  # in the study's code: what it reads
    BOARD_READS,
    PERSON_READS,
    RateData,
)
from bridgerank.ratings.tables import (
    FittedHeadline,
    HeadlineRating,
    PairScorecard,
    RatingCheck,
    SessionPrediction,
    SessionValidation,
    ValidationCeiling,
)

if TYPE_CHECKING:
    from bridgerank.core.stage import StageContext
    from bridgerank.ratings.summaries import HeadlineSummary

__all__ = ["HEADLINE", "fit_rows", "is_session_measure"]


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


def is_session_measure(row: Any) -> bool:
    """Whether a ``validation_ceiling`` row is the sessions' (the team study's are named
    ``team_match_*``)."""
    return not str(row["measure"]).startswith("team_match_")


def run(data: RateData, context: StageContext) -> StudyResult:
    """Fit and validate the headline (see the module docstring)."""
    from bridgerank.ratings.headline.session_study import headline_study  # numpy, SciPy
    from bridgerank.ratings.kinds.sessions import METHODS

    settings = context.settings.rate
    headline = headline_study(
        data.boards,
        data.names,
        settings.min_tables,
        settings.validation_bootstrap,
        context.progress,
        data.evidence,
        data.points,
        settings=settings,
        methods=METHODS,
    )
    return StudyResult(
        summary={"headline": headline.summary},
        rows={
            HeadlineRating: headline.ratings,
            FittedHeadline: fit_rows(headline.summary),
            SessionValidation: headline.validation,
            ValidationCeiling: headline.ceiling,
            SessionPrediction: headline.predictions,
            PairScorecard: headline.scorecards,
            RatingCheck: headline.checks,
        },
    )


HEADLINE = Study(
    name="headline",
    run=run,
    reads=BOARD_READS,
    optional_reads=(*PERSON_READS, TableEvidence),
    writes=(
        HeadlineRating,
        FittedHeadline,
        SessionValidation,
        ValidationCeiling,
        SessionPrediction,
        PairScorecard,
        RatingCheck,
    ),
    settings=("rate", "rate.headline", "rate.rivals"),
    summary_fields=("headline",),
    owns={ValidationCeiling: is_session_measure},
)
