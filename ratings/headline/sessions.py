"""Walk-forward validation at the level users look at: each pair's session percentage.

The kind :data:`SESSIONS` of the held-out harness (:mod:`holdout`): the unit is a pair's
session, its target the pair's percentage there. The periods (dates, else years) are taken in
order; each period of the later half is a test: every method of the sessions registry
(:mod:`registry`) is fitted on all earlier periods only, then predicts each pair's percentage
in each session of the test period. The predictions are scored against what happened, method
against method on the same pair-sessions, with intervals simultaneous over the table, and
against references that are not the headline itself (:mod:`ceiling`).

This module holds the headline rating's variants and the two simplest baselines; the WBF,
win-rate and Elo baselines are in :mod:`baselines`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable

import numpy as np

from bridgerank.ratings.baselines import pair_share_forecast, table_shares, wbf_listed
from bridgerank.ratings.field import FieldTables, pair_sessions
from bridgerank.ratings.headline.covariates import newcomer_choice
from bridgerank.ratings.headline.entry import entry_profile
from bridgerank.ratings.headline.fit import (
    Choice,
    choose_model,
    fit_chosen,
    fit_headline,
    predict_sessions,
)
from bridgerank.ratings.headline.past import Covariates, joined
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

if TYPE_CHECKING:
    from bridgerank.core.sections import HeadlineSettings

__all__ = ["SESSIONS", "headline_covariates", "headline_method", "session_target"]


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


def dd_applies(data: FieldTables, inputs: StudyInputs) -> bool:
    """Whether the dds stage left evidence on enough of ``data``'s tables for the players'
    past double dummy measures to move their prior centres (``[rate.headline]
    min_evidence_coverage``)."""
    evidence = inputs.evidence
    least = inputs.rate.headline.min_evidence_coverage
    return evidence is not None and evidence.coverage(data) >= least


def headline_covariates(
    data: FieldTables, inputs: StudyInputs, entries: bool = True, dd: bool = True
) -> Covariates | None:
    """What moves the headline's prior centres on ``data``: each player's entries so far
    (:func:`~bridgerank.ratings.headline.entry.entry_profile`, where the tables know
    entries) and his past double dummy measures (where :func:`dd_applies`); None when
    neither. ``entries``/``dd`` False leave one out (the variants that say what each adds).
    Their shrinkage is ``[rate.headline]``'s ``profile_boards`` and ``dd_shrinks``. Made once
    per study and choice of parts: the variants then share their past columns
    (:mod:`~bridgerank.ratings.headline.past`)."""
    key = ("headline covariates", id(data), entries, dd)
    if key not in inputs.shared:
        inputs.shared[key] = _covariates(data, inputs, entries, dd)
    return inputs.shared[key]


def _covariates(
    data: FieldTables, inputs: StudyInputs, entries: bool, dd: bool
) -> Covariates | None:
    headline = inputs.rate.headline
    parts: list[Covariates] = []
    if entries and data.entries:
        parts.append(partial(entry_profile, profile_boards=headline.profile_boards))
    if dd and dd_applies(data, inputs):
        assert inputs.evidence is not None
        parts.append(partial(inputs.evidence.player_measures, shrinks=headline.dd_shrinks))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else joined(*parts)


def headline_method(
    covariates: Covariates | None = None,
    newcomers: bool = True,
    familiar: bool = True,
    entries: bool = True,
    settings: HeadlineSettings | None = None,
) -> Predict:
    """The headline rating (:mod:`bridgerank.ratings.headline.fit`), with prediction variances
    (:func:`~bridgerank.ratings.headline.fit.predict_sessions`); ``covariates`` move each
    player's prior centre (:func:`headline_covariates`), and with ``newcomers`` each fit
    chooses on its training data whether the newcomer prior
    (:func:`~bridgerank.ratings.headline.covariates.newcomer_choice`) joins them;
    ``familiar``, ``entries``: with the familiarity's and the pairs' entries' terms
    (:mod:`~bridgerank.ratings.headline.familiarity`, :mod:`~bridgerank.ratings.headline.entry`);
    ``settings``: ``[rate.headline]``, the grid of its penalty and its terms' thresholds
    (None: the shipped defaults)."""
    candidates = newcomer_choice(covariates) if newcomers else None

    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        fit = fit_headline(
            train,
            covariates=covariates,
            candidates=candidates,
            familiar=familiar,
            entries=entries,
            settings=settings,
        )
        percent, variance = predict_sessions(fit, test, train, settings)
        return Forecast(percent, variance)

    return predict


def headline_choice(train: FieldTables, inputs: StudyInputs, data: FieldTables) -> Choice:
    """The headline's choice of prior and penalty on ``train`` (its covariates on ``data``,
    :func:`headline_covariates`, with the newcomer prior or without,
    :func:`~bridgerank.ratings.headline.fit.choose_model`), made once per training set of a
    study and shared by the methods built on it."""
    key = ("headline choice", len(train), int(train.period.max()))
    if key not in inputs.shared:
        inputs.shared[key] = choose_model(
            train, headline_candidates(data, inputs), settings=inputs.rate.headline
        )
    return inputs.shared[key]


def newcomer_prior_applies(data: FieldTables) -> bool:
    """Whether the headline chooses the newcomer prior on ``data``: where the tables know no
    entry. An entry says directly what the sessions played stand in for (a newcomer's
    holding), and with it the newcomer prior adds nothing on held-out sessions (ACBL: 0.501
    with it, 0.503 without) while each refit moves every player's centre with his count of
    sessions - the stronger partner's rating then fell after two sessions in three with a
    weaker one (:func:`~bridgerank.ratings.headline.checks.strong_partner_rose`)."""
    return not data.entries


def headline_candidates(data: FieldTables, inputs: StudyInputs) -> tuple[Covariates | None, ...]:
    """The priors the headline chooses between on each training set: its covariates
    (:func:`headline_covariates`), and the same with the newcomer prior where it applies
    (:func:`newcomer_prior_applies`)."""
    covariates = headline_covariates(data, inputs)
    return newcomer_choice(covariates) if newcomer_prior_applies(data) else (covariates,)


def _shared_headline(data: FieldTables, inputs: StudyInputs) -> Predict:
    settings = inputs.rate.headline

    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        fit = fit_chosen(train, headline_choice(train, inputs, data), settings=settings)
        percent, variance = predict_sessions(fit, test, train, settings)
        return Forecast(percent, variance)

    return predict


def _wbf_centres(inputs: StudyInputs) -> Callable[[FieldTables], np.ndarray]:
    points = inputs.points
    return lambda train: np.log1p([[points.get(str(p)) or 0.0] for p in train.players])


HEADLINE = Method(
    "headline",
    "headline rating (player strengths, ridge, centred on the field; the pairs' entries and "
    "past double dummy measures where known; newcomer prior when the training data choose it)",
    _shared_headline,
)
# the players' strengths alone, no term for a familiar partnership: what that term adds
HEADLINE_UNFAMILIAR = Method(
    "headline_no_fam",
    "headline without its term for a partnership that has played together before",
    lambda data, inputs: headline_method(
        headline_covariates(data, inputs),
        newcomer_prior_applies(data),
        familiar=False,
        settings=inputs.rate.headline,
    ),
)
# the federation's points as every player's prior centre: what results add to them
HEADLINE_WBF = Method(
    "headline_wbf",
    "headline with WBF masterpoints as each player's prior centre",
    lambda data, inputs: (
        headline_method(_wbf_centres(inputs), settings=inputs.rate.headline)
        if wbf_listed(inputs.points, data.players, inputs.rate.rivals.wbf_min_listed_share)
        else None
    ),
)
# the prior never moved by the newcomer prior: what choosing that prior adds, where it applies
HEADLINE_PLAIN = Method(
    "headline_plain",
    "headline without the newcomer prior",
    lambda data, inputs: (
        headline_method(
            headline_covariates(data, inputs),
            newcomers=False,
            settings=inputs.rate.headline,
        )
        if newcomer_prior_applies(data)
        else None
    ),
)
# the thesis's question: do past double dummy measures predict beyond results? The headline
# without them, where they apply, says what they add
HEADLINE_NO_DD = Method(
    "headline_no_dd",
    "headline without the players' past double dummy measures",
    lambda data, inputs: (
        headline_method(
            headline_covariates(data, inputs, dd=False),
            newcomer_prior_applies(data),
            settings=inputs.rate.headline,
        )
        if dd_applies(data, inputs)
        else None
    ),
)
# what the pairs' entries add (where the tables know any): the headline blind to them
HEADLINE_NO_ENTRY = Method(
    "headline_noentry",
    "headline without what the source says of each pair before play (its stratum)",
    lambda data, inputs: (
        headline_method(
            headline_covariates(data, inputs, entries=False),
            entries=False,
            settings=inputs.rate.headline,
        )
        if data.entries
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


def shrunk_mean(shrinks: tuple[float, ...]) -> Predict:
    """The shrunk mean: a pair's percentage is the mean of its players' past shares, each
    shrunk toward 50% by a number of boards (of ``shrinks``, ``[rate.headline]
    mean_shrinks``) chosen on the training data (earlier three quarters against the latest
    quarter).

    Parameters
    ----------
    shrinks : tuple of float
        The pseudo-boards at 50% tried, in order.

    Returns
    -------
    callable
        ``predict(train, test, target) -> Forecast``, as the harness calls it.
    """

    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        shrink = choose_on_latest_quarter(train, shrinks, _shrunk_errors)
        return pair_share_forecast(table_shares(train, shrink), target)

    return predict


COIN = Method("coin", "everyone 50%", lambda data, inputs: coin)
SHRUNK_MEAN = Method(
    "shrunk_mean",
    "each player's mean matchpoint share, shrunk toward 50%",
    lambda data, inputs: shrunk_mean(inputs.rate.headline.mean_shrinks),
)
