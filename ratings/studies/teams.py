"""The study of team matches: the team headline and its rivals walked forward over the team
boards' matches (:mod:`bridgerank.ratings.team_matches`) and over the pairs at one table a
deal (:mod:`bridgerank.ratings.one_table_pairs`), and the team events' matches rebuilt from
traveller files forecast round by round (:mod:`bridgerank.ratings.event_matches`)."""

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
    EventFit,
    EventMatchForecast,
    EventMatchValidation,
    EventStrength,
    MatchValidation,
    OneTableValidation,
    ValidationCeiling,
)

if TYPE_CHECKING:
    from bridgerank.core.stage import StageContext

__all__ = ["TEAMS", "is_match_measure"]


def is_match_measure(row: Any) -> bool:
    """Whether a ``validation_ceiling`` row is the held-out matches' (``team_match_*``)."""
    return str(row["measure"]).startswith("team_match_")


def run(data: RateData, context: StageContext) -> StudyResult:
    """Validate the team ratings on held-out matches (see the module docstring)."""
    # numpy and SciPy, only when rating
    from bridgerank.dds.lead_reading import read_lead_baselines
    from bridgerank.ratings.event_evidence import dd_measures
    from bridgerank.ratings.event_match_data import event_matches
    from bridgerank.ratings.event_matches import event_match_summary, study_event_matches
    from bridgerank.ratings.kinds import matches as match_kind
    from bridgerank.ratings.kinds import one_table
    from bridgerank.ratings.one_table_pairs import study_pairs
    from bridgerank.ratings.studies.team_data import team_data
    from bridgerank.ratings.team_matches import study_matches

    settings = context.settings.rate
    team = data.derived(team_data)
    match_rows, matches = study_matches(
        *team,
        data.points,
        settings.validation_bootstrap,
        settings=settings,
        methods=match_kind.METHODS,
    )
    pair_rows, matches.one_table = study_pairs(
        *team, settings.validation_bootstrap, settings=settings, methods=one_table.METHODS
    )
    event_rows, event_boards = data.event_rows
    matches_of_events = event_matches(event_rows, event_boards, data.lookup.name)
    event_study = study_event_matches(
        matches_of_events,
        data.points,
        settings.validation_bootstrap,
        context.progress,
        dd=dd_measures(matches_of_events, data.evidence, settings.teams.dd_shrinks),
        settings=settings,
    )
    events = event_match_summary(matches_of_events, event_study)
    if events is not None:
        # the opening leads of the matches' tables, beside a random lead
        with data.engine.connect() as conn:
            leads = read_lead_baselines(conn, matches_of_events.tables.board.tolist())
        if leads.leads:
            events.leads = leads
    event_players, event_fit = event_study.strengths.rows() if event_study.strengths else ([], [])
    return StudyResult(
        summary={"matches": matches, "event_matches": events},
        rows={
            ValidationCeiling: matches.validation.ceiling_rows() if matches.validation else [],
            MatchValidation: match_rows,
            EventMatchValidation: event_study.rows,
            EventStrength: event_players,
            EventFit: event_fit,
            EventMatchForecast: event_study.forecasts,
            OneTableValidation: pair_rows,
        },
    )


TEAMS = Study(
    name="teams",
    run=run,
    reads=BOARD_READS,
    optional_reads=(*PERSON_READS, *DD_READS, *EVENT_READS),
    writes=(
        ValidationCeiling,
        MatchValidation,
        EventMatchValidation,
        EventStrength,
        EventFit,
        EventMatchForecast,
        OneTableValidation,
    ),
    settings=("rate", "rate.teams", "rate.rivals"),
    summary_fields=("matches", "event_matches"),
    owns={ValidationCeiling: is_match_measure},
)
