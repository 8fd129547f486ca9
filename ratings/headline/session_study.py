"""The headline rating on a database's pair events: ratings of every player, walk-forward
validation of held-out sessions against the baselines, and references that are not the
headline itself - the rows of the ``headline_ratings``, ``session_validation`` and
``validation_ceiling`` tables.

The headline's prior centres move with what is known of a player before a session: his pairs'
entries (strata, where the source prints them, :mod:`entry`) and, once the dds stage has run,
his past double dummy measures (:mod:`dd_prior`). Variants without each are validated beside
it: ``headline_noentry`` and ``headline_no_dd`` (the thesis's question - do double dummy
mistakes reveal skill that results do not? - answered on held-out sessions). Each fit of the
headline chooses on its training data whether a newcomer prior (the number of sessions each
player had played, :mod:`covariates`) moves the prior centres; the row ``headline_plain``
never uses it, to show what that choice adds. Covariates are each player's measures from
earlier dates only. Every method is also scored on the pair-sessions with a player never seen
before and on regular partnerships (:mod:`experience`).

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
    calibrated_spread,
    ceiling,
    known_strengths_correlation,
    relearned_correlation,
)
from bridgerank.ratings.headline.checks import rating_checks
from bridgerank.ratings.headline.experience import experience_scores
from bridgerank.ratings.headline.familiarity import familiarity_column
from bridgerank.ratings.headline.fit import choose_model, fit_chosen
from bridgerank.ratings.headline.scorecard import scorecard_rows
from bridgerank.ratings.headline.sessions import (
    HEADLINE_NO_DD,
    SESSIONS,
    headline_candidates,
    session_target,
)
from bridgerank.ratings.holdout import validation_rows, walk_forward
from bridgerank.ratings.registry import Registry, StudyInputs, registry
from bridgerank.ratings.summaries import (
    DdEvidenceSummary,
    HeadlineSummary,
    HeadlineValidationSummary,
)

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings

DD_METHOD = HEADLINE_NO_DD.name


@dataclass
class HeadlineResults:
    """Rows of the four tables, and a summary for the stage's log."""

    ratings: list[dict[str, Any]] = field(default_factory=list)
    validation: list[dict[str, Any]] = field(default_factory=list)
    ceiling: list[dict[str, Any]] = field(default_factory=list)
    predictions: list[dict[str, Any]] = field(default_factory=list)
    summary: HeadlineSummary = field(default_factory=HeadlineSummary)
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
    methods: Registry | None = None,
) -> HeadlineResults:
    """Fit and validate the headline rating (see the module docstring): every method of the
    sessions registry (:mod:`registry`) walked forward beside it; with the dds stage's
    ``evidence``, the players' past double dummy measures in its prior; with WBF masterpoints
    per player (``points``), the federations' ranking as a baseline and as a prior centre."""
    tables = field_tables(boards, player_of, min_tables)
    results = HeadlineResults()
    if len(tables) == 0:
        results.summary = HeadlineSummary(note="no deal played at enough tables of one event")
        return results
    inputs = StudyInputs(settings, points or {}, evidence)
    headline = inputs.rate.headline  # the study's settings, or the shipped defaults
    candidates = headline_candidates(tables, inputs)
    choice = choose_model(tables, candidates, settings=headline)
    fit = fit_chosen(tables, choice, settings=headline)
    # the newcomer prior's coefficient comes first where the fit chose it
    newcomer = len(candidates) > 1 and choice[0] is candidates[1]
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
        newcomer_prior=(
            float(fit.coefficients[0]) if newcomer and fit.coefficients is not None else None
        ),
        residual_variance=fit.residual_variance,
        form_variance=fit.form_variance,
        # none where no pair had played together before: nothing to learn the bonus from
        familiarity=(
            fit.familiarity
            if familiarity_column(tables, familiar_sessions=headline.familiar_sessions).any()
            else None
        ),
        entry_effects=dict(fit.entry_effects),
    )
    # fewer periods than this and there is nothing to walk forward over
    if len(tables.periods) < headline.min_periods:
        results.summary.not_validated = f"fewer than {headline.min_periods} dates: not validated"
        results.checks = rating_checks(tables, fit, None, choice[0], headline)
        results.scorecards = scorecard_rows(tables, None)
        return results
    # the study passes its kind's list (its code fingerprint follows it); a caller of the
    # library gets the registered one
    made = (methods or registry("sessions")).make(tables, inputs)
    run = walk_forward(tables, made, session_target, progress=progress)
    results.validation = validation_rows(run, SESSIONS, "headline", bootstrap)
    by_experience = experience_scores(tables, run, headline.regular_sessions)
    settings_chosen = {
        name: method.chosen() for name, method in made.items() if hasattr(method, "chosen")
    }
    for row in results.validation:
        row |= by_experience[row["method"]]
        row["setting"] = settings_chosen.get(row["method"]) or None
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
    relearned = relearned_correlation(fit, tables, run.period, spread=spread, settings=headline)
    if relearned is not None:
        # the mean over simulated data sets of this size, and the 80% range of one of them
        for measure, value in (
            ("relearned_r", relearned.mean),
            ("relearned_r_p10", relearned.low),
            ("relearned_r_p90", relearned.high),
        ):
            results.ceiling.append({"measure": measure, "value": value, "n": relearned.draws})
    results.checks = rating_checks(tables, fit, run, choice[0], headline)
    results.scorecards = scorecard_rows(tables, run)
    rows = {row["method"]: row for row in results.validation}
    headline_row = rows["headline"]
    results.summary.validation = HeadlineValidationSummary(
        pair_sessions=len(run),
        pearson=headline_row["pearson"],
        rmse=headline_row["rmse"],
        coverage_80=headline_row["coverage_80"],
        newcomer_pearson=headline_row["newcomer_pearson"],
        newcomer_sessions=headline_row["newcomer_sessions"],
        settings={name: chosen for name, chosen in settings_chosen.items() if chosen},
    )
    dd_row = rows.get(DD_METHOD)
    if dd_row is not None:
        # the row's gains are the headline's over it: what the dd measures add
        results.summary.dd_evidence = DdEvidenceSummary(
            pearson=dd_row["pearson"],
            pearson_added=dd_row["pearson_gain"],
            rmse=dd_row["rmse"],
        )
    return results
