"""Team events' matches forecast round by round: the matches the clean stage rebuilds from
traveller files (``team_matches``, ``match_boards``).

The matches, in time order and with every table against its field, are
:mod:`~bridgerank.ratings.event_match_data`'s (a round's time is its year and round number);
the headline forecast, a ridge over players refitted round by round, is
:mod:`~bridgerank.ratings.round_ridge`'s. This module is the study: every match after the
first year forecast walk-forward by round, by the headline and the methods it is measured
against, scored overall, by event kind and on the events whose deals are known.

Beside it the study scores a variant that also reads each player's double dummy measures of
earlier rounds (:mod:`~bridgerank.ratings.event_evidence`, on the events whose deals are
known), and a reference that is no forecast: each team's form in the rest of its event, later
rounds included (:func:`event_form_in_hindsight`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.event_match_data import EVENT_KINDS, EventMatches

# the report's event pages and the rate stage (modules this change may not touch) import
# these from here
from bridgerank.ratings.holdout import Forecast, Kind, Target
from bridgerank.ratings.round_ridge import (
    HEADLINE_SETTINGS,
    PLAIN_SETTINGS,
    EventStrengths,
    RoundRidge,
    experience_covariates,
)
from bridgerank.ratings.team_boards import TeamBoards
from bridgerank.ratings.team_matches import match_ceiling, match_target

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings
    from bridgerank.ratings.summaries import EventMatchSummary

__all__ = [
    "HINDSIGHT",
    "DoubleDummyMeasures",
    "METHOD_DESCRIPTIONS",
    "EventMatchValidation",
    "WITH_DEALS",
    "event_form_in_hindsight",
    "event_match_kind",
    "event_match_summary",
    "event_methods",
    "event_target",
    "study_event_matches",
]


def event_target(event_of_match: np.ndarray) -> Callable[[TeamBoards], Target]:
    """The kind's target: every match of a test round and its margin
    (:func:`~bridgerank.ratings.team_matches.match_target`); matches of one event are
    resampled together (they share teams and deals)."""
    return functools.partial(match_target, event_of_match=event_of_match)


def event_match_kind(event_of_match: np.ndarray) -> Kind[TeamBoards]:
    """The held-out kind: a match's margin, its measures, gains and counts (matches, boards
    and events held out); matches resampled by event (``event_of_match``: each match's event
    index)."""
    return Kind(
        "event matches",
        event_target(event_of_match),
        ("pearson", "rmse", "winner_right"),
        (0.8,),
        ("pearson", "rmse"),
        lambda run: {
            "matches": len(run),
            "boards": int(run.boards.sum()),
            "events": len(np.unique(run.group)),
        },
    )


def event_methods(
    data: EventMatches,
    points: Mapping[str, float] | None,
    rivals: bool = True,
    dd: DoubleDummyMeasures | None = None,
    settings: RateSettings | None = None,
) -> dict[str, Any]:
    """The methods every held-out round is forecast by: the headline, the plain ridge over
    match boards, a coin, each player's past IMPs a board, with WBF lists the players'
    masterpoints (a line in the teams' summed log points, fitted on the training boards),
    with ``dd`` the headline with the players' double dummy measures beside experience
    (:mod:`~bridgerank.ratings.event_evidence`) and, with
    ``rivals``, the online ratings players know, each reading a match board as a deal at
    two tables (:mod:`~bridgerank.ratings.rivals.team_play`; TrueSkill Through Time refits
    its history once a year, not at each of some 400 rounds). ``settings``: the ``[rate]``
    settings the rivals' grids and the WBF baseline's threshold are read from (None: the
    shipped defaults)."""
    from bridgerank.ratings.baselines import wbf_listed, wbf_standing
    from bridgerank.ratings.registry import StudyInputs
    from bridgerank.ratings.rivals import team_play
    from bridgerank.ratings.team_baselines import coin_imps, imp_average, scaled_baseline

    methods: dict[str, Any] = {
        "headline": RoundRidge(data, HEADLINE_SETTINGS),
        "headline_plain": RoundRidge(data, PLAIN_SETTINGS),
        "coin": coin_imps,
        "imp_average": imp_average,
    }
    if dd is not None:
        methods["headline_dd"] = RoundRidge(
            data, HEADLINE_SETTINGS, experience_covariates(data.boards) + list(dd.covariates)
        )
        if dd.lead is not None:
            methods[LEADS] = RoundRidge(
                data, HEADLINE_SETTINGS, experience_covariates(data.boards) + [dd.lead]
            )
    inputs = StudyInputs(settings, dict(points or {}))
    listed = wbf_listed(points or {}, data.boards.players, inputs.rate.rivals.wbf_min_listed_share)
    if points and listed:
        methods["wbf_points"] = scaled_baseline(lambda train: wbf_standing(points, train.players))
    if rivals:
        for rival in ONLINE_RIVALS:
            method = getattr(team_play, rival)
            methods[method.name] = method.make(data.boards, inputs)
    return methods


# The subset of the matches of events whose deals are known, where the double dummy question
# is asked.
WITH_DEALS = "with deals"


@dataclass
class DoubleDummyMeasures:
    """The players' double dummy measures before each period (players by periods arrays, as
    :func:`~bridgerank.ratings.event_evidence.dd_measures` reads them) and whether each
    event's deals are known (most of its tables have measures)."""

    covariates: Sequence[np.ndarray]
    events_with_deals: np.ndarray
    # the opening leads' measure alone (one of ``covariates``), when any lead was valued
    lead: np.ndarray | None = None


# A reference, not a forecast: each team's results in the other matches of its event.
HINDSIGHT = "hindsight_form"
# The headline with the opening leads' measure alone beside experience.
LEADS = "headline_leads"


def event_form_in_hindsight(data: EventMatches) -> np.ndarray:
    """Each match's margin as the teams' form in the rest of their event says it: team A's
    IMPs a board in its other matches of the event (earlier and later rounds alike) less team
    B's, times the match's boards; a team is the players who sat on one side in the event,
    joined through every line-up they shared. Model-free and knowing the future, it is a
    reference for what the results of an event say of its matches, not a forecast."""
    from bridgerank.core.disjoint import DisjointSets

    boards = data.boards
    event = data.event[boards.match]
    teams: DisjointSets[tuple[int, int]] = DisjointSets()
    for side in (boards.seats[:, :4], boards.seats[:, 4:]):
        for seat in range(1, 4):
            for number, first, other in zip(event, side[:, 0], side[:, seat]):
                teams.union((int(number), int(first)), (int(number), int(other)))
    code: dict[tuple[int, int], int] = {}
    team_of = [
        np.array(
            [
                code.setdefault(teams.find((int(number), int(player))), len(code))
                for number, player in zip(event, side)
            ]
        )
        for side in (boards.seats[:, 0], boards.seats[:, 4])
    ]
    matches = len(boards.matches)
    team_a, team_b = np.zeros(matches, np.int64), np.zeros(matches, np.int64)
    team_a[boards.match], team_b[boards.match] = team_of
    margin = np.bincount(boards.match, weights=boards.imps, minlength=matches)
    count = np.bincount(boards.match, minlength=matches).astype(float)
    total = np.bincount(team_a, margin, len(code)) - np.bincount(team_b, margin, len(code))
    played = np.bincount(team_a, count, len(code)) + np.bincount(team_b, count, len(code))
    # each side's IMPs a board in its other matches (a team of one match: none, 0)
    rate_a = (total[team_a] - margin) / np.maximum(played[team_a] - count, 1.0)
    rate_b = (total[team_b] + margin) / np.maximum(played[team_b] - count, 1.0)
    return (rate_a - rate_b) * count


# The ratings players know that learn one match at a time (team_play's forms of them).
ONLINE_RIVALS = ("PAIR_ELO", "NGS", "GLICKO2", "OPENSKILL", "ELO", "ELO_OPPONENTS", "TTT_YEARLY")


METHOD_DESCRIPTIONS = {
    "headline": "IMPs a board from match boards, every table against its field, teammates "
    "drawn together and experience, penalties chosen round by round",
    "headline_plain": "ridge over players on the match boards alone",
    "headline_dd": "the headline with each player's double dummy measures of earlier rounds "
    "(declarer play, defence, contract against par, opening leads) beside experience",
    LEADS: "the headline with each player's opening leads of earlier rounds (tricks lost "
    "to the double dummy best lead) beside experience",
    "coin": "every match level",
    "imp_average": "each player's past IMPs per board",
    HINDSIGHT: "a reference, not a forecast: each team's IMPs a board in its other matches "
    "of the event, later rounds included",
    "wbf_points": "WBF open masterpoints (a line in the teams' summed log points; the lists "
    "of 2014 and after flatter earlier years' players)",
    "pair_elo": "the Common Game's partnership Elo, each match board a deal at two tables",
    "ngs": "the EBU's National Grading Scheme, each match graded",
    "glicko2": "Glicko-2, a pair its players' mean, each match one game",
    "openskill": "OpenSkill (Plackett-Luce, teams of two), each match board a deal at two tables",
    "elo": "multiplayer Elo, a pair its players' mean, each match board a ranking of the two "
    "North-South pairs and of the two East-West pairs",
    "ttt": "TrueSkill Through Time, each line-up of a match a game of two teams of four, "
    "refitted once a year, TrueSkill's one-game update between",
    "elo_opponents": "multiplayer Elo as above, a pair judged by its rating less its "
    "opponents' at the table",
}


@dataclass
class EventMatchValidation:
    """The study's rows (``event_match_validation``), each subset's headline figures and
    the headline fitted on every match (None: no round was held out)."""

    rows: list[dict[str, Any]]
    headline: dict[str, dict[str, Any]]
    strengths: EventStrengths | None = None
    # the headline's forecast of each held-out match (``event_match_forecasts``)
    forecasts: list[dict[str, Any]] = field(default_factory=list)


def study_event_matches(
    data: EventMatches,
    points: Mapping[str, float] | None = None,
    bootstrap: int = 10_000,
    progress: Any = None,
    rivals: bool = True,
    dd: DoubleDummyMeasures | None = None,
    settings: RateSettings | None = None,
) -> EventMatchValidation:
    """Every match after the first year forecast walk-forward by round (see the module
    docstring), scored overall, by event kind and (with ``dd``) on the matches of the events
    with deals, each method's gains the headline's over it with
    intervals that resample whole events, simultaneous over each subset's table; beside each
    subset, its margins' split-half reliability and ceiling (no intervals on a subset from
    fewer than ``[rate.teams] min_events`` events). ``settings``: the ``[rate]`` settings of
    the rivals' grids, the WBF baseline and ``min_events`` (None: the shipped defaults)."""
    from bridgerank.ratings.holdout import HeldOut, validation_rows, walk_forward

    boards = data.boards
    if not len(boards):
        return EventMatchValidation([], {})
    years = np.array([int(name[:4]) for name in boards.periods])
    tests = int(np.sum(years > years.min()))
    if tests == 0 or len(np.unique(data.event)) < 2:
        return EventMatchValidation([], {})
    kind = event_match_kind(data.event)
    min_events = (settings if settings is not None else default_settings().rate).teams.min_events
    methods = event_methods(data, points, rivals, dd, settings)
    run = walk_forward(
        boards,
        methods,
        kind.target,
        test_share=(tests - 0.5) / len(years),
        progress=progress,
    )
    if not len(run):
        return EventMatchValidation([], {})
    held = np.concatenate(
        [np.unique(boards.match[boards.period == p]) for p in np.unique(run.period)]
    )
    # beside the forecasts, the reference that knows each event's other matches
    run.forecasts[HINDSIGHT] = [Forecast(event_form_in_hindsight(data)[held], None)]
    kinds = data.kind_of_match()[held]
    subsets = {"all": np.ones(len(held), bool)} | {kind: kinds == kind for kind in EVENT_KINDS}
    if dd is not None:
        subsets[WITH_DEALS] = dd.events_with_deals[data.event[held]]
    rows: list[dict[str, Any]] = []
    headline: dict[str, dict[str, Any]] = {}
    for subset, mask in subsets.items():
        if mask.sum() < 3:
            continue
        part = HeldOut(
            run.actual[mask],
            run.group[mask],
            run.boards[mask],
            run.period[mask],
            {
                name: [Forecast(run.predicted(name)[mask], _masked(run.variance(name), mask))]
                for name in run.forecasts
            },
        )
        reliability, ceiling = match_ceiling(boards.subset(np.isin(boards.match, held[mask])))
        few = len(np.unique(part.group)) < min_events
        found = validation_rows(part, kind, "headline", 0 if few else bootstrap)
        for row in found:
            row |= {"subset": subset, "split_half": reliability, "ceiling": ceiling}
        rows += found
        headline[subset] = next(row for row in found if row["method"] == "headline") | {
            "coin_rmse": next(row["rmse"] for row in found if row["method"] == "coin"),
            "dd": next((row for row in found if row["method"] == "headline_dd"), None),
            "leads": next((row for row in found if row["method"] == LEADS), None),
            "hindsight": next(row["pearson"] for row in found if row["method"] == HINDSIGHT),
        }
    strengths = methods["headline"].current()
    return EventMatchValidation(rows, headline, strengths, _held_out_forecasts(data, run, held))


def _held_out_forecasts(data: EventMatches, run: Any, held: np.ndarray) -> list[dict[str, Any]]:
    """The headline's walk-forward forecast of each held-out match, team A's margin with its
    standard deviation, by ``team_matches`` row (none where the rows gave no ids)."""
    if len(data.match_ids) != len(data.boards.matches):
        return []
    predicted, variance = run.predicted("headline"), run.variance("headline")
    return [
        {
            "match_id": int(data.match_ids[match]),
            "predicted": float(predicted[number]),
            "sd": float(np.sqrt(variance[number])) if variance is not None else None,
        }
        for number, match in enumerate(held)
    ]


def _masked(values: np.ndarray | None, mask: np.ndarray) -> np.ndarray | None:
    return None if values is None else values[mask]


def _added(
    variant: Mapping[str, Any], headline: Mapping[str, Any]
) -> tuple[float, float | None, float | None]:
    """What a variant of the headline adds to its Pearson, with the interval: the table
    gives the headline's gain over the variant, so the variant's gain is its negative."""
    gain = variant["pearson"] - headline["pearson"]
    if variant["pearson_gain_low"] is None:
        return gain, None, None
    return gain, -variant["pearson_gain_high"], -variant["pearson_gain_low"]


def event_match_summary(data: EventMatches, found: EventMatchValidation) -> EventMatchSummary:
    """The rate stage's summary of the study (:class:`~bridgerank.ratings.summaries.
    EventMatchSummary`)."""
    from bridgerank.ratings.summaries import EventMatchSummary

    summary = EventMatchSummary(matches=len(data.boards.matches), events=len(data.events))
    overall = found.headline.get("all")
    if overall is not None:
        summary.held_out = overall["matches"]
        summary.pearson = overall["pearson"]
        summary.coin_gain = overall["coin_rmse"] - overall["rmse"]
        summary.ceiling = overall["ceiling"]
        summary.hindsight_pearson = overall["hindsight"]
    with_deals = found.headline.get(WITH_DEALS)
    if with_deals is not None and with_deals["dd"] is not None:
        summary.dd_matches = with_deals["matches"]
        summary.dd_gain, summary.dd_gain_low, summary.dd_gain_high = _added(
            with_deals["dd"], with_deals
        )
        if with_deals["leads"] is not None:
            summary.lead_gain, summary.lead_gain_low, summary.lead_gain_high = _added(
                with_deals["leads"], with_deals
            )
    championships = found.headline.get("championships")
    if championships is not None:
        summary.championship_pearson = championships["pearson"]
        summary.championship_ceiling = championships["ceiling"]
    return summary
