"""The headline rating on a database's pair events: ratings of every player, walk-forward
validation of held-out sessions against the baselines, and the ceiling - the rows of the
``headline_ratings``, ``session_validation`` and ``validation_ceiling`` tables.

Once the dds stage has run, a variant of the headline whose players' prior centres move with
their past double dummy measures (:mod:`dd_prior`) is validated beside it, as the row
``headline_dd``: the thesis's question - do double dummy mistakes reveal skill that results
do not? - answered on held-out sessions. Each fit of the headline chooses on its training
data whether a newcomer prior (the number of sessions each player had played,
:mod:`covariates`) moves the prior centres; the row ``headline_plain`` never uses it, to show
what that choice adds. Covariates are each player's measures from earlier dates only.

The methods are those of the sessions registry (:mod:`registry`), walked forward by the
held-out harness (:mod:`holdout`) with the target of :data:`walkforward.SESSIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Hashable, Mapping, Sequence

import numpy as np

from bridgerank.ratings.dd_prior import BoardEvidence
from bridgerank.ratings.field import field_tables, pair_sessions
from bridgerank.ratings.headline.ceiling import (
    attainable_correlation,
    calibrated_spread,
    ceiling,
    known_strengths_correlation,
)
from bridgerank.ratings.headline.checks import rating_checks
from bridgerank.ratings.headline.covariates import newcomer_choice
from bridgerank.ratings.headline.familiarity import familiarity_column
from bridgerank.ratings.headline.fit import fit_headline
from bridgerank.ratings.headline.scorecard import scorecard_rows
from bridgerank.ratings.headline.sessions import HEADLINE_DD, SESSIONS, session_target
from bridgerank.ratings.holdout import HeldOut, validation_rows, walk_forward
from bridgerank.ratings.registry import StudyInputs, registry
from bridgerank.ratings.summaries import (
    DdEvidenceSummary,
    HeadlineSummary,
    HeadlineValidationSummary,
)

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings

# Fewer periods than this and there is nothing to walk forward over.
MIN_PERIODS = 4
DD_METHOD = HEADLINE_DD.name


@dataclass
class HeadlineResults:
    """Rows of the four tables, and a summary for the stage's log."""

    ratings: list[dict[str, Any]] = field(default_factory=list)
    validation: list[dict[str, Any]] = field(default_factory=list)
    ceiling: list[dict[str, Any]] = field(default_factory=list)
    predictions: list[dict[str, Any]] = field(default_factory=list)
    summary: HeadlineSummary = field(default_factory=HeadlineSummary)
    # every method's held-out forecasts (None: not validated), to score them again
    run: HeldOut | None = None
    # the rows of ``rating_checks`` (:mod:`~bridgerank.ratings.headline.checks`)
    checks: list[dict[str, Any]] = field(default_factory=list)
    # the rows of ``pair_scorecards`` (:mod:`~bridgerank.ratings.headline.scorecard`)
    scorecards: list[dict[str, Any]] = field(default_factory=list)


def headline_study(
    boards: Sequence[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    min_tables: int = 3,
    bootstrap: int = 10_000,
    progress=None,
    evidence: BoardEvidence | None = None,
    points: Mapping[str, float] | None = None,
    settings: RateSettings | None = None,
) -> HeadlineResults:
    """Fit, validate and bound the headline rating (see the module docstring): every method
    of the sessions registry (:mod:`registry`) walked forward beside it; with the dds stage's
    ``evidence``, the headline with past double dummy measures; with WBF masterpoints per
    player (``points``), the federations' ranking as a baseline and as a prior centre."""
    tables = field_tables(boards, player_of, min_tables)
    results = HeadlineResults()
    if len(tables) == 0:
        results.summary = HeadlineSummary(note="no deal played at enough tables of one event")
        return results
    fit = fit_headline(tables, candidates=newcomer_choice())
    sessions = pair_sessions(tables)
    boards_of = np.bincount(tables.seats.ravel(), minlength=len(tables.players))
    played = np.zeros(len(tables.players), dtype=np.int64)
    for player_column in (0, 1):
        np.add.at(played, sessions.pair[:, player_column], 1)
    results.ratings = [
        {
            "player": str(player),
            "rating": 100 * float(fit.theta[index]),
            "sd": 100 * float(fit.sd[index]),
            "boards": int(boards_of[index]),
            "sessions": int(played[index]),
        }
        for index, player in enumerate(tables.players)
    ]
    results.ceiling = ceiling(tables)
    results.summary = HeadlineSummary(
        tables=len(tables),
        players=len(tables.players),
        sessions=len(tables.sessions),
        penalty=fit.penalty,
        newcomer_prior=None if fit.coefficients is None else float(fit.coefficients[0]),
        residual_variance=fit.residual_variance,
        form_variance=fit.form_variance,
        # none where no pair had played together before: nothing to learn the bonus from
        familiarity=fit.familiarity if familiarity_column(tables).any() else None,
    )
    if len(tables.periods) < MIN_PERIODS:
        results.summary.not_validated = f"fewer than {MIN_PERIODS} dates: not validated"
        results.checks = rating_checks(tables, fit, None)
        results.scorecards = scorecard_rows(tables, None)
        return results
    inputs = StudyInputs(settings, points or {}, evidence)
    methods = registry("sessions").make(tables, inputs)
    run = walk_forward(tables, methods, session_target, progress=progress)
    results.run = run
    results.validation = validation_rows(run, SESSIONS, "headline", bootstrap)
    variance = run.variance("headline")
    results.predictions = [
        {
            "period": int(period),
            "session": int(session),
            "predicted": float(predicted),
            "actual": float(actual),
            "sd": None if variance is None else float(np.sqrt(variance[index])),
        }
        for index, (period, session, predicted, actual) in enumerate(
            zip(run.period, run.group, run.predicted("headline"), run.actual)
        )
    ]
    held_out = tables.subset(np.isin(tables.period, np.unique(run.period)))
    # both references draw the players from the population the sessions show (their ICC
    # reproduced): the fit's own makes pairs more persistent than they are
    spread = calibrated_spread(fit, tables)
    known = known_strengths_correlation(fit, held_out, spread=spread)
    results.ceiling.append({"measure": "known_strengths_r", "value": known, "n": len(run)})
    attainable = attainable_correlation(fit, tables, run.period, spread=spread)
    if attainable is not None:
        # the mean over simulated data sets of this size, and the 80% range of one of them
        for measure, value in (
            ("attainable_r", attainable.mean),
            ("attainable_r_p10", attainable.low),
            ("attainable_r_p90", attainable.high),
        ):
            results.ceiling.append({"measure": measure, "value": value, "n": attainable.draws})
    results.checks = rating_checks(tables, fit, run)
    results.scorecards = scorecard_rows(tables, run)
    rows = {row["method"]: row for row in results.validation}
    headline_row = rows["headline"]
    results.summary.validation = HeadlineValidationSummary(
        pair_sessions=len(run),
        pearson=headline_row["pearson"],
        rmse=headline_row["rmse"],
        coverage_80=headline_row["coverage_80"],
    )
    dd_row = rows.get(DD_METHOD)
    if dd_row is not None:
        # the row's gains are the headline's over it: their negatives are what dd adds
        results.summary.dd_evidence = DdEvidenceSummary(
            pearson=dd_row["pearson"],
            pearson_added=None if dd_row["pearson_gain"] is None else -dd_row["pearson_gain"],
            rmse=dd_row["rmse"],
        )
    return results
