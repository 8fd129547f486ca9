"""The headline rating: player strengths from matchpoint shares, a ridge fit in one sparse
solve.

Model. At table ``t`` of a deal played at ``k`` tables, with North-South ``n, s`` and
East-West ``e, w``, let ``d_t = theta_n + theta_s - theta_e - theta_w``. North-South's share
is compared with the field, so its expectation is centred on the deal::

    E[share_t] - 1/2 = k / (k - 1) * (d_t - mean of d over the deal's k tables)

(``d_t`` against the mean of the *other* tables' ``d``: the opponents and the pairs sitting
the same way all enter). The strengths minimise the squared error plus ``penalty *
|theta|^2``, a Gaussian prior centred on the average player. A player's ``theta`` is in
matchpoint shares: ``100 * theta`` is the session percentage above 50 expected of them with
an average partner against an average field.

Player covariates ``Z`` (e.g. their double dummy measures, or how much they have played)
can move the prior's centre: ``theta = Z gamma + u`` with ``u`` penalised and ``gamma`` not,
fitted jointly. A table of period ``q`` sees its players' covariates computed from the tables
of earlier periods only (:func:`past_columns`): a covariate computed on the boards the fit
learns from carries their results (a player's boards played follow from how far his team
went), and ``gamma`` would learn that leak instead of what the covariate says in advance.
A forecast uses the covariates of all the training tables.

Two table-level terms beside them, each fitted with the strengths, unpenalised, and kept out
of them: what the source says of each pair when it enters (its stratum, fading as its
players' results come in, :mod:`~bridgerank.ratings.headline.entry`; ``entries``, on by
default, a term only where the tables know entries), and a partnership that has played
together before scoring a little above its players' sum
(:mod:`~bridgerank.ratings.headline.familiarity`; ``familiar``, on by default).

Up to 3,000 players the normal equations are formed once per set of tables (two sparse
products) and factorised once per penalty, so the penalties of a grid and the posterior
covariance share them; beyond, they are solved by conjugate gradients through the tables
(each step a pass over them), so a fit stays linear in the data. The penalty is chosen on the
training data alone: fitted on its earlier sessions, scored on its latest quarter; the same
split measures how much a pair's session form varies beyond the ratings' uncertainty and the
boards' luck (the *form variance* of the prediction intervals).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np
from scipy.linalg import cho_solve
from scipy.sparse.linalg import LinearOperator, cg

from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import (
    FieldTables,
    SessionScores,
    pair_percent,
    pair_sessions,
)
from bridgerank.ratings.headline.design import Design
from bridgerank.ratings.headline.entry import entry_columns, entry_offset
from bridgerank.ratings.headline.familiarity import familiarity_column
from bridgerank.ratings.headline.past import (
    Covariates,
    covariate_values,
    past_columns,
)
from bridgerank.ratings.holdout import Z80, best_of, latest_quarter

if TYPE_CHECKING:
    from bridgerank.core.sections import HeadlineSettings

# The form variance is set so that this share of the training split's late sessions fall
# inside their central intervals of that level (normal quantile Z80).
_COVERAGE = 0.8


def headline_settings(settings: HeadlineSettings | None) -> HeadlineSettings:
    """``[rate.headline]``: the given, or the shipped defaults for a fit or a check called
    alone."""
    return settings if settings is not None else default_settings().rate.headline


@dataclass
class HeadlineFit:
    """Strengths (MP shares above 1/2 with an average partner and field) with their posterior
    standard deviations; the penalty; the board residual variance; the form variance of a
    pair-session in squared percentage points; covariate coefficients, if any."""

    theta: np.ndarray
    sd: np.ndarray
    penalty: float
    residual_variance: float
    covariance: np.ndarray | None  # full posterior covariance of theta when players are few
    form_variance: float = 0.0
    coefficients: np.ndarray | None = None
    # a familiar partnership's bonus in d (matchpoint share), 0 when the fit has no such term
    familiarity: float = 0.0
    # each entry code's term in d (matchpoint share) at full weight; empty: no entry term
    entry_effects: dict[str, float] = field(default_factory=dict)


def fit_strengths(
    design: Design, target: np.ndarray, penalty: float, start: np.ndarray | None = None
) -> np.ndarray:
    """Ridge coefficients (players, then covariates) for ``target`` (North-South shares):
    from the factorised normal equations where they are small (:meth:`Design.is_dense`),
    else by preconditioned CG from ``start`` if given (a solution of a similar problem:
    fewer steps)."""
    columns = design.a.shape[1]
    right = design.a.T @ (design.scale * design.centre(target - 0.5))
    if design.is_dense():
        theta = np.zeros(columns)
        active = design.active()
        theta[active] = cho_solve(design.factor(penalty), right[active])
        return theta
    penalties = design.penalties(penalty)
    diagonal = design.normal_diagonal() + penalties
    operator = LinearOperator(
        (columns, columns),
        matvec=lambda theta: design.normal_matvec(theta) + penalties * theta,
        dtype=float,
    )
    preconditioner = LinearOperator((columns, columns), matvec=lambda r: r / diagonal, dtype=float)
    theta, info = cg(
        operator, right, x0=start, M=preconditioner, rtol=1e-10, atol=0.0, maxiter=5000
    )
    if info > 0:
        # not a failure worth stopping a run for: the last iterate is still a fine estimate
        warnings.warn(f"headline fit: CG stopped after {info} steps short of 1e-10", stacklevel=2)
    return theta


def posterior(
    design: Design,
    coefficients: np.ndarray,
    target: np.ndarray,
    penalty: float,
    covariates: np.ndarray | None = None,
) -> tuple[np.ndarray, float, np.ndarray | None]:
    """Standard deviations of the players' strengths, the residual variance, and (few
    players) their whole covariance, from ``sigma^2 (X^T X + penalties)^-1``; columns after
    the players' and the ``covariates``' (the familiarity's) are no part of a strength."""
    residual = target - design.predict(coefficients)
    # degrees of freedom: a table's share is tied to its deal's other tables by the centring
    dof = max(len(target) - len(design.sizes), 1)
    variance = float(residual @ residual / dof)
    if not design.is_dense():
        penalties = design.penalties(penalty)
        sd = np.sqrt(variance / (design.normal_diagonal() + penalties))
        return sd[: design.players], variance, None
    # the columns no table touches: uncorrelated, their variance the ridge's alone
    full = np.diag(variance / design.penalties(penalty))
    active = design.active()
    full[np.ix_(active, active)] = variance * cho_solve(design.factor(penalty), np.eye(len(active)))
    # theta = u + Z gamma: a linear map of the coefficients (none from the familiarity's),
    # applied block by block (the players' block and the covariates' few columns)
    players = design.players
    covariance = full[:players, :players]
    if covariates is not None:
        z, features = covariates, slice(players, players + covariates.shape[1])
        across = z @ full[features, :players]
        covariance = covariance + across + across.T + z @ full[features, features] @ z.T
    return np.sqrt(np.diag(covariance)), variance, covariance


def model_columns(
    tables: FieldTables,
    covariates: Covariates | None,
    familiar: bool,
    entries: bool = True,
    settings: HeadlineSettings | None = None,
) -> np.ndarray | None:
    """The design's columns after the players': the ``covariates``' past columns
    (:func:`past_columns`), the entries' if ``entries`` (one per code of ``tables.entries``,
    :func:`~bridgerank.ratings.headline.entry.entry_columns`), then the familiarity's if
    ``familiar``; None if none. Each sees the table's past only (an entry is known before
    the table is played). ``settings``: ``[rate.headline]``, the terms' ``entry_sessions``
    and ``familiar_sessions`` (None: the shipped defaults)."""
    settings = headline_settings(settings)
    entry_sessions, familiar_sessions = settings.entry_sessions, settings.familiar_sessions

    def columns() -> np.ndarray | None:
        blocks = []
        if covariates is not None:
            blocks.append(past_columns(tables, covariates))
        if entries and tables.entries:
            blocks.append(entry_columns(tables, entry_sessions=entry_sessions))
        if familiar:
            blocks.append(familiarity_column(tables, familiar_sessions=familiar_sessions)[:, None])
        return np.hstack(blocks) if blocks else None

    # the same for every headline method of a walk-forward's date
    key = ("model columns", familiar, entries, entry_sessions, familiar_sessions)
    return tables.kept_with(covariates, key, columns)


@dataclass
class Solved:
    """A fit's coefficients read back: the strengths (prior centres included), the
    covariates' coefficients, the familiarity's, the entries' by code."""

    theta: np.ndarray
    gamma: np.ndarray | None
    familiarity: float
    entry_effects: dict[str, float]


def solve_model(
    tables: FieldTables,
    penalty: float,
    covariates: Covariates | None,
    familiar: bool,
    entries: bool = True,
    settings: HeadlineSettings | None = None,
    design: Design | None = None,
) -> tuple[Design, np.ndarray, np.ndarray | None, Solved]:
    """The fit's design, coefficients, the covariates ``Z`` a forecast applies them to, and
    the coefficients read back. The ``design`` may be given: of the model columns
    (:func:`model_columns`, with ``settings``) when several penalties fit the same tables,
    or with penalised columns of its own (:meth:`Design.with_penalised`), which come right
    after the players' and are not read back."""
    players = len(tables.players)
    if design is None:
        columns = model_columns(tables, covariates, familiar, entries, settings)
        design = Design.of(tables, players, columns)
    z = None if covariates is None else covariate_values(tables, covariates)
    coefficients = fit_strengths(design, tables.share, penalty)
    rest = coefficients[players + design.penalised :]
    familiarity = float(rest[-1]) if familiar else 0.0
    features = 0 if z is None else z.shape[1]
    gamma = rest[:features]
    codes = tables.entries if entries else []
    effects = dict(zip(codes, map(float, rest[features : features + len(codes)])))
    theta = coefficients[:players] if z is None else coefficients[:players] + z @ gamma
    return (
        design,
        coefficients,
        z,
        Solved(theta, None if z is None else gamma, familiarity, effects),
    )


def table_offset(
    tables: FieldTables,
    familiarity: float = 0.0,
    entry_effects: Mapping[str, float] | None = None,
    history: FieldTables | None = None,
    settings: HeadlineSettings | None = None,
) -> np.ndarray | None:
    """Each table's terms in ``d`` beside the strengths: the familiarity's and the entries'
    (None when neither), the pairs' past counted in ``history`` (played before ``tables``)
    and in ``tables``' earlier periods; ``settings`` as :func:`model_columns` takes them."""
    settings = headline_settings(settings)
    offset = (
        familiarity * familiarity_column(tables, history, settings.familiar_sessions)
        if familiarity
        else None
    )
    if entry_effects:
        entry = entry_offset(tables, entry_effects, history, entry_sessions=settings.entry_sessions)
        offset = entry if offset is None else offset + entry
    return offset


def predict_sessions(
    fit: HeadlineFit,
    tables: FieldTables,
    history: FieldTables | None = None,
    settings: HeadlineSettings | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair-session's expected percentage in ``tables`` (ordered as
    :func:`pair_sessions`) and its prediction variance: the pair's rating uncertainty, the
    luck of a session of its length, and the form variance. ``history``: the tables played
    before ``tables`` (the fit's training tables), for the pairs' familiarity and entries;
    ``settings``: ``[rate.headline]``, as the fit had them (None: the shipped defaults)."""
    offset = table_offset(tables, fit.familiarity, fit.entry_effects, history, settings)
    shares = Design.of(tables, len(fit.theta)).predict(fit.theta, offset)
    return pair_percent(tables, shares), _session_variance(fit, pair_sessions(tables))


def _session_variance(fit: HeadlineFit, sessions: SessionScores) -> np.ndarray:
    first, second = sessions.pair[:, 0], sessions.pair[:, 1]
    if fit.covariance is not None:
        rating = (
            fit.covariance[first, first]
            + fit.covariance[second, second]
            + 2 * fit.covariance[first, second]
        )
    else:
        rating = fit.sd[first] ** 2 + fit.sd[second] ** 2
    return 100**2 * (rating + fit.residual_variance / sessions.boards) + fit.form_variance


def choose_model(
    tables: FieldTables,
    candidates: Sequence[Covariates | None],
    penalties: tuple[float, ...] | None = None,
    familiar: bool = True,
    entries: bool = True,
    settings: HeadlineSettings | None = None,
) -> tuple[Covariates | None, float, float]:
    """The prior's covariates and penalty whose fit on the earlier three quarters of the
    periods best predicts the sessions of the latest quarter (session RMSE): of
    ``candidates`` (None: a prior centred on the average player), each at its best penalty
    of ``penalties`` (None: ``[rate.headline] penalties`` of ``settings``), with the
    familiarity term if ``familiar`` and the entries' if ``entries`` (their thresholds
    ``settings``'; None: the shipped defaults).
    Returns the covariates, the penalty, and the form variance seen there: the variance that
    puts 80% of those sessions inside their 80% intervals. The first candidate, the middle
    penalty and no form variance when there is too little data."""
    settings = headline_settings(settings)
    if penalties is None:
        penalties = settings.penalties
    split = latest_quarter(tables)
    if split is None:
        return candidates[0], penalties[len(penalties) // 2], 0.0
    early, late = split
    best: tuple[float, Covariates | None, float, np.ndarray, Design] | None = None
    for covariates in candidates:
        penalty, errors, design = _best_penalty(
            early, late, covariates, penalties, familiar, entries, settings
        )
        score = float(np.mean(errors**2))
        if best is None or score < best[0]:
            best = (score, covariates, penalty, errors, design)
    assert best is not None  # at least one candidate
    _, covariates, penalty, errors, design = best
    early_fit = fit_chosen(early, (covariates, penalty, 0.0), familiar, entries, settings, design)
    expected = _session_variance(early_fit, pair_sessions(late))
    return covariates, penalty, form_variance(errors, expected)


def _best_penalty(
    early: FieldTables,
    late: FieldTables,
    covariates: Covariates | None,
    penalties: tuple[float, ...],
    familiar: bool,
    entries: bool,
    settings: HeadlineSettings,
) -> tuple[float, np.ndarray, Design]:
    """The penalty whose fit on ``early`` predicts ``late``'s sessions best, the session
    errors at it, and the design of ``early`` with its model columns (:func:`model_columns`)."""
    test_design = Design.of(late, len(early.players))
    actual = pair_sessions(late).percent
    columns = model_columns(early, covariates, familiar, entries, settings)
    # the late tables' terms, their pairs' past counted in the early ones too
    familiarity = (
        familiarity_column(late, early, settings.familiar_sessions)
        if familiar
        else np.zeros(len(late))
    )
    entry = (
        entry_columns(late, early, entry_sessions=settings.entry_sessions)
        if entries
        else np.zeros((len(late), 0))
    )

    design = Design.of(early, len(early.players), columns)  # one for every penalty

    def errors(penalty: float) -> np.ndarray:
        _, _, _, solved = solve_model(
            early, penalty, covariates, familiar, entries, settings, design
        )
        beta = np.array([solved.entry_effects.get(code, 0.0) for code in late.entries])
        shift = solved.familiarity * familiarity + (entry @ beta if entry.shape[1] else 0.0)
        return pair_percent(late, test_design.predict(solved.theta, shift)) - actual

    penalty, best = best_of(penalties, errors)
    return penalty, best, design


def form_variance(errors: np.ndarray, expected: np.ndarray) -> float:
    """The variance to add to every session's ``expected`` variance so that 80% of the
    ``errors`` fall inside their 80% intervals (zero if they already do).

    Matching the coverage rather than the mean squared error: a few wild sessions (a pair
    that fell apart) would otherwise widen every interval."""
    # the smallest f with |e| <= z80 * sqrt(v + f) for 80% of the sessions: the 80% quantile
    # of e^2 / z80^2 - v, which is where each session would just come inside
    needed = errors**2 / Z80**2 - expected
    return max(float(np.quantile(needed, _COVERAGE)), 0.0)


def fit_headline(
    tables: FieldTables,
    penalty: float | None = None,
    covariates: Covariates | None = None,
    candidates: Sequence[Covariates | None] | None = None,
    familiar: bool = True,
    entries: bool = True,
    penalties: tuple[float, ...] | None = None,
    settings: HeadlineSettings | None = None,
) -> HeadlineFit:
    """Fit the headline rating on ``tables``; penalty (of ``penalties``, None: ``[rate.headline]
    penalties`` of ``settings``) and form variance are chosen on them
    unless ``penalty`` is given (then no form variance). Without a penalty, ``candidates``
    (covariate sets, None for none) has the prior's covariates chosen on the tables too
    (:func:`choose_model`), in place of ``covariates``; the fit's ``coefficients`` say
    whether any were. ``familiar``, ``entries``: with the familiarity's and the entries'
    terms (the headline's own). ``settings``: ``[rate.headline]`` (None: the shipped
    defaults)."""
    if penalty is not None:
        return fit_chosen(tables, (covariates, penalty, 0.0), familiar, entries, settings)
    choices = (covariates,) if candidates is None else candidates
    choice = choose_model(
        tables, choices, penalties, familiar=familiar, entries=entries, settings=settings
    )
    return fit_chosen(tables, choice, familiar, entries, settings)


Choice = tuple[Covariates | None, float, float]  # covariates, penalty, form variance


def fit_chosen(
    tables: FieldTables,
    choice: Choice,
    familiar: bool = True,
    entries: bool = True,
    settings: HeadlineSettings | None = None,
    design: Design | None = None,
) -> HeadlineFit:
    """The headline fitted on ``tables`` with a choice already made (:func:`choose_model`'s
    covariates, penalty and form variance), so that methods sharing a choice make it once;
    ``settings``: ``[rate.headline]`` (None: the shipped defaults); ``design``: the tables'
    design of the model columns, if already built (:func:`solve_model`)."""
    covariates, penalty, form = choice
    design, coefficients, z, solved = solve_model(
        tables, penalty, covariates, familiar, entries, settings, design
    )
    sd, variance, covariance = posterior(design, coefficients, tables.share, penalty, z)
    return HeadlineFit(
        solved.theta,
        sd,
        penalty,
        variance,
        covariance,
        form,
        solved.gamma,
        solved.familiarity,
        solved.entry_effects,
    )
