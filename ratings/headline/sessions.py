"""Walk-forward validation at the level users look at: each pair's session percentage.

The kind :data:`SESSIONS` of the held-out harness (:mod:`holdout`): the unit is a pair's
session, its target the pair's percentage there. The periods (dates, else years) are taken in
order; each period of the later half is a test: every method of the sessions registry
(:mod:`registry`) is fitted on all earlier periods only, then predicts each pair's percentage
in each session of the test period. The predictions are scored against what happened, method
against method on the same pair-sessions, with intervals simultaneous over the table, and
against the ceiling the data allow (:mod:`ceiling`).

This module holds the headline rating's variants and the two simplest baselines; the WBF,
win-rate and Elo baselines are in :mod:`baselines`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from bridgerank.ratings.baselines import pair_share_forecast, table_shares, wbf_listed
from bridgerank.ratings.field import FieldTables, pair_sessions
from bridgerank.ratings.headline.covariates import newcomer_choice
from bridgerank.ratings.headline.fit import (
    Choice,
    Covariates,
    choose_model,
    fit_chosen,
    fit_headline,
    predict_sessions,
)
from bridgerank.ratings.holdout import (
    LEVELS,
    Forecast,
    HeldOut,
    Kind,
    Predict,
    Target,
    choose_on_latest_quarter,
)
from bridgerank.ratings.registry import Method, StudyInputs

__all__ = ["SESSIONS", "headline_method", "session_target"]

# The headline with double dummy measures as each player's prior centre is validated beside
# it when the dds stage left evidence on at least this share of the tables.
MIN_EVIDENCE_COVERAGE = 0.5
# Shrinkage of the shrunk mean (boards toward 50%), chosen on the training data.
SHRINKS = (0.0, 10.0, 30.0, 100.0, 300.0)


def session_target(test: FieldTables) -> Target:
    """Every pair's percentage in every session of ``test``; resampled by session."""
    sessions = pair_sessions(test)
    return Target(sessions.percent, sessions.session, sessions.boards, sessions.period, sessions)


def _session_counts(run: HeldOut) -> dict[str, int]:
    return {
        "pair_sessions": len(run),
        "sessions": len(np.unique(run.group)),
        "periods": len(np.unique(run.period)),
    }


SESSIONS: Kind[FieldTables] = Kind(
    "sessions",
    session_target,
    ("pearson", "spearman", "rmse", "within_session_spearman", "orders_right"),
    LEVELS,
    ("pearson", "rmse"),
    _session_counts,
)


# --- the headline and its variants ----------------------------------------------------------


def headline_method(
    covariates: Covariates | None = None, newcomers: bool = True, familiar: bool = True
) -> Predict:
    """The headline rating (:mod:`bridgerank.ratings.headline.fit`), with prediction variances
    (:func:`~bridgerank.ratings.headline.fit.predict_sessions`); ``covariates`` move each
    player's prior centre (e.g. :class:`~bridgerank.ratings.dd_prior.BoardEvidence`), and
    with ``newcomers`` each fit chooses on its training data whether the newcomer prior
    (:func:`~bridgerank.ratings.headline.covariates.newcomer_choice`) joins them;
    ``familiar``: with the familiarity term
    (:mod:`~bridgerank.ratings.headline.familiarity`)."""
    candidates = newcomer_choice(covariates) if newcomers else None

    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        fit = fit_headline(train, covariates=covariates, candidates=candidates, familiar=familiar)
        percent, variance = predict_sessions(fit, test, train)
        return Forecast(percent, variance)

    return predict


def headline_choice(train: FieldTables, inputs: StudyInputs) -> Choice:
    """The headline's choice of prior and penalty on ``train`` (the newcomer prior or none,
    :func:`~bridgerank.ratings.headline.fit.choose_model`), made once per training set of a
    study and shared by the methods built on it."""
    key = ("headline choice", len(train), int(train.period.max()))
    if key not in inputs.shared:
        inputs.shared[key] = choose_model(train, newcomer_choice())
    return inputs.shared[key]


def _shared_headline(data: FieldTables, inputs: StudyInputs) -> Predict:
    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        percent, variance = predict_sessions(
            fit_chosen(train, headline_choice(train, inputs)), test, train
        )
        return Forecast(percent, variance)

    return predict


def _wbf_centres(inputs: StudyInputs) -> Callable[[FieldTables], np.ndarray]:
    points = inputs.points
    return lambda train: np.log1p([[points.get(str(p)) or 0.0] for p in train.players])


HEADLINE = Method(
    "headline",
    "headline rating (player strengths, ridge, centred on the field; newcomer prior when the "
    "training data choose it)",
    _shared_headline,
)
# the players' strengths alone, no term for a familiar partnership: what that term adds
HEADLINE_UNFAMILIAR = Method(
    "headline_no_fam",
    "headline without its term for a partnership that has played together before",
    lambda data, inputs: headline_method(familiar=False),
)
# the federation's points as every player's prior centre: what results add to them
HEADLINE_WBF = Method(
    "headline_wbf",
    "headline with WBF masterpoints as each player's prior centre",
    lambda data, inputs: (
        headline_method(_wbf_centres(inputs)) if wbf_listed(inputs.points, data.players) else None
    ),
)
# the prior always centred on the average player, never moved by the newcomer prior: what
# choosing that prior adds
HEADLINE_PLAIN = Method(
    "headline_plain",
    "headline with its prior always centred on the average player",
    lambda data, inputs: headline_method(newcomers=False),
)
# the thesis's question: do past double dummy measures predict beyond results?
HEADLINE_DD = Method(
    "headline_dd",
    "headline with past double dummy measures as each player's prior centre",
    lambda data, inputs: (
        headline_method(inputs.evidence.player_measures)
        if inputs.evidence is not None and inputs.evidence.coverage(data) >= MIN_EVIDENCE_COVERAGE
        else None
    ),
)


# --- the simplest baselines ---------------------------------------------------------------


def coin(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
    """Everyone scores 50%."""
    return Forecast(np.full(len(target.actual), 50.0))


def _shrunk_errors(early: FieldTables, late: FieldTables, shrink: float) -> np.ndarray:
    target = session_target(late)
    return pair_share_forecast(table_shares(early, shrink), target).value - target.actual


def shrunk_mean(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
    """A pair's percentage is the mean of its players' past shares, each shrunk toward 50% by
    a number of boards chosen on the training data (earlier three quarters against the
    latest quarter)."""
    shrink = choose_on_latest_quarter(train, SHRINKS, _shrunk_errors)
    return pair_share_forecast(table_shares(train, shrink), target)


COIN = Method("coin", "everyone 50%", lambda data, inputs: coin)
SHRUNK_MEAN = Method(
    "shrunk_mean",
    "each player's mean matchpoint share, shrunk toward 50%",
    lambda data, inputs: shrunk_mean,
)
