"""The headline rating of team play: IMPs per board, and its validation on held-out matches.

Every team board played in both rooms (:func:`games.team_games`) is one row: team A (the
open room's North-South pair and the closed room's East-West pair) against team B, the
outcome team A's IMPs. A player's strength ``theta`` is the IMPs per board the player adds to
a team: team A is expected ``sum(theta_A) - sum(theta_B)`` IMPs. Strengths are ridge
estimates (Gaussian prior), fitted in one sparse least-squares solve; the penalty is chosen
on the training dates alone (earlier three quarters against the latest quarter, by match
error).

A *match* is every board of one event and date between the same two teams: boards join when
they share a player on each side (a match's segments, whatever line-ups each fields), never a
team's other match that day. Its margin is team A's IMPs summed over its boards, each board
oriented to the same team. Validation is walk-forward by date, as for pair sessions: each
later date's matches are predicted by methods re-fitted on all earlier dates.

The boards and their matches are :mod:`~bridgerank.ratings.team_boards`, the fit and its
choices :mod:`~bridgerank.ratings.team_fit`, the baselines
:mod:`~bridgerank.ratings.team_baselines`, the headline fitted on every board
:mod:`~bridgerank.ratings.team_ratings`. This module holds what a held-out match is and how it
is scored (its target, the ceiling of its margins, the measures), the methods registered for
it and the study.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from bridgerank.ratings.evidence_variants import evidence_variants
from bridgerank.ratings.holdout import (
    Forecast,
    Kind,
    Predict,
    Target,
    pearson,
    score,
    validation_rows,
    walk_forward,
)
from bridgerank.ratings.registry import Method, Registry, StudyInputs, registry
from bridgerank.ratings.summaries import MatchSummary, MatchValidationSummary
from bridgerank.ratings.team_baselines import coin_imps, imp_average, scaled_baseline, walked_hbt
from bridgerank.ratings.team_boards import TeamBoards, match_margins
from bridgerank.ratings.team_evidence import TeamEvidence
from bridgerank.ratings.team_fit import (
    choose_joint,
    choose_penalty,
    fit_imps,
    fit_joint,
    match_forecast,
)

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings


def match_ceiling(test: TeamBoards) -> tuple[float | None, float | None]:
    """How far held-out matches' margins can be predicted at all: the correlation of each
    match's odd and even boards' sums (oriented to its reference team) across the matches,
    stepped up to the whole match (Spearman-Brown) - the share of a margin's variance that is
    the two teams' difference on the day - and its root, above which no forecast's
    correlation with the margins can be expected. (None, None) for fewer than three."""
    # each board's place within its match (in the order of the rows), without a loop over
    # the matches: a folder of team events holds some 18,000
    order = np.argsort(test.match, kind="stable")
    match, values = test.match[order], (test.sign * test.imps)[order]
    starts = np.flatnonzero(np.r_[True, match[1:] != match[:-1]])
    sizes = np.diff(np.r_[starts, len(match)])
    position = np.arange(len(match)) - np.repeat(starts, sizes)
    unit = np.repeat(np.arange(len(starts)), sizes)
    odd = np.bincount(unit, weights=values * (position % 2 == 0), minlength=len(starts))
    even = np.bincount(unit, weights=values * (position % 2 == 1), minlength=len(starts))
    half = pearson(odd, even) if len(starts) > 2 else None
    reliability = None if half is None else 2 * half / (1 + half)
    bound = float(np.sqrt(reliability)) if reliability is not None and reliability > 0 else None
    return reliability, bound


def match_target(test: TeamBoards, event_of_match: np.ndarray | None = None) -> Target:
    """Every match of ``test`` and its margin, oriented to its reference team; a match is
    resampled alone, or with its event's (``event_of_match``: each match's event index)."""
    margin, count = match_margins(test, test.imps)
    present = np.unique(test.match)
    group = present if event_of_match is None else event_of_match[present]
    return Target(margin, group, count, np.full(len(margin), test.period[0]))


MATCHES: Kind[TeamBoards] = Kind(
    "matches",
    match_target,
    ("pearson", "rmse", "winner_right"),
    (0.8,),
    ("rmse",),
    lambda run: {"matches": len(run), "boards": int(run.boards.sum())},
)


def headline_imps(
    train: TeamBoards,
    test: TeamBoards,
    target: Target | None = None,
    penalties: tuple[float, ...] | None = None,
) -> Forecast:
    """The IMP rating of the team boards alone: ridge strengths, penalty (of ``penalties``,
    None: the shipped defaults') chosen on the training dates."""
    return match_forecast(fit_imps(train, choose_penalty(train, penalties)), test)


def joint_headline_method(
    evidence: TeamEvidence,
    points: Mapping[str, float] | None = None,
    one_table_weights: tuple[float, ...] | None = None,
    penalties: tuple[float, ...] | None = None,
) -> Predict:
    """The team headline (:func:`~bridgerank.ratings.team_fit.fit_joint`; with ``points``, the
    WBF masterpoints among the covariates), its choices made on the training dates
    (:func:`~bridgerank.ratings.team_fit.choose_joint`, of ``penalties`` and
    ``one_table_weights``; None: the shipped defaults' grids)."""

    def predict(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
        penalty, weight = choose_joint(train, evidence, points, one_table_weights, penalties)
        before = train.periods[int(test.period[0])]
        return match_forecast(fit_joint(train, penalty, evidence, before, weight, points), test)

    return predict


def match_metrics(
    predicted: np.ndarray, actual: np.ndarray, variance: np.ndarray | None
) -> dict[str, float | None]:
    """Pearson, RMSE (IMPs), the share of decided matches whose winner was predicted, and the
    coverage of the 80% intervals (:func:`holdout.score` with this kind's measures)."""
    group = np.arange(len(actual))
    return score(predicted, actual, group, variance, MATCHES.measures, MATCHES.levels)


HEADLINE = Method(
    "headline",
    "IMP headline rating: team boards, boards played at one table against par, and each "
    "player's experience and double dummy measures as the prior's centre",
    lambda data, inputs: joint_headline_method(
        inputs.team_evidence or TeamEvidence(),
        one_table_weights=inputs.rate.teams.one_table_weights,
        penalties=inputs.rate.teams.joint_penalties,
    ),
)
HEADLINE_ONE_TABLE = Method(
    "headline_1table",
    "the IMP headline with the boards played at one table always as rows (weight 1)",
    lambda data, inputs: joint_headline_method(
        inputs.team_evidence or TeamEvidence(),
        one_table_weights=(1.0,),
        penalties=inputs.rate.teams.joint_penalties,
    ),
)


def _joint_on(evidence: TeamEvidence, inputs: StudyInputs) -> Predict:
    """The team headline on ``evidence`` (a variant of the study's), the study's grids."""
    teams = inputs.rate.teams
    return joint_headline_method(evidence, None, teams.one_table_weights, teams.joint_penalties)


_VARIANTS = evidence_variants(_joint_on)
HEADLINE_NO_DD = _VARIANTS["headline_no_dd"]
HEADLINE_CARDS = _VARIANTS["headline_cards"]  # the card-level dd question
HEADLINE_FIELDS = _VARIANTS["headline_fields"]  # the scales tied
HEADLINE_PLAIN = Method(
    "headline_plain",
    "IMP rating of the team boards alone (player strengths in IMPs per board, ridge)",
    lambda data, inputs: functools.partial(headline_imps, penalties=inputs.rate.teams.penalties),
)
COIN = Method("coin", "every match level", lambda data, inputs: coin_imps)
IMP_AVERAGE = Method(
    "imp_average", "each player's past IMPs per board", lambda data, inputs: imp_average
)
HBT = Method(
    "hbt",
    "hypergraph Bradley-Terry on boards won and lost, scaled to IMPs",
    lambda data, inputs: scaled_baseline(walked_hbt()),
)
# the federation's points as every player's prior centre: what results add to them
HEADLINE_WBF = Method(
    "headline_wbf",
    "IMP headline with WBF masterpoints among each player's covariates",
    lambda data, inputs: (
        joint_headline_method(
            inputs.team_evidence or TeamEvidence(),
            inputs.points,
            inputs.rate.teams.one_table_weights,
            inputs.rate.teams.joint_penalties,
        )
        if inputs.points
        else None
    ),
)


def study_matches(
    data: TeamBoards,
    team_evidence: TeamEvidence,
    points: Mapping[str, float] | None = None,
    bootstrap: int = 10_000,
    min_periods: int | None = None,
    settings: RateSettings | None = None,
    methods: Registry | None = None,
) -> tuple[list[dict[str, Any]], MatchSummary]:
    """The ``match_validation`` rows (one per method of the matches registry,
    :mod:`registry`, or of ``methods``) and a summary, on the team boards ``data`` and what
    the rest of the records say of their players (``team_evidence``: both from
    :func:`~bridgerank.ratings.team_inputs.team_inputs`); no rows with fewer than
    ``min_periods`` dates (None: ``[rate.teams] min_periods`` of ``settings``, or of the
    shipped defaults). Every method's gains are the headline's over it."""
    summary = MatchSummary(team_boards=len(data), players=len(data.players))
    inputs = StudyInputs(settings, points or {}, team_evidence=team_evidence)
    if min_periods is None:
        min_periods = inputs.rate.teams.min_periods
    if len(np.unique(data.period)) < min_periods:
        summary.not_validated = f"fewer than {min_periods} dates of team matches: not validated"
        return [], summary
    run = walk_forward(data, (methods or registry("matches")).make(data, inputs), match_target)
    if not len(run):
        return [], summary
    rows = validation_rows(run, MATCHES, "headline", bootstrap)
    headline = next(row for row in rows if row["method"] == "headline")
    reliability, bound = match_ceiling(data.subset(np.isin(data.period, np.unique(run.period))))
    summary.validation = MatchValidationSummary(
        matches=headline["matches"],
        pearson=headline["pearson"],
        rmse=headline["rmse"],
        coverage_80=headline["coverage_80"],
        split_half=reliability,
        ceiling=bound,
    )
    return rows, summary
