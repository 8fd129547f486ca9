"""Fitted models: the summary SAS prints, the domain rule, and what the thesis did not do.

Beyond the thesis (whose chosen model had R^2 = 0.07 and failed its assumptions): the
out-of-sample R^2 of every model by k-fold cross-validation, how often each variable is
selected over bootstrap resamples, and a heteroscedasticity-robust fit (HC3 standard errors,
and the same model on log(1 + response)) beside the plain one.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np
import pandas as pd
import statsmodels.api as sm
from statsmodels.tools.sm_exceptions import SingularMatrixWarning

from bridgerank.regression.selection import select


@dataclass
class ModelSummary:
    """A fitted OLS model as the report shows it."""

    response: str
    variables: list[str]
    coefficients: dict[str, float]  # with "Intercept"
    p_values: dict[str, float]
    hc3_p_values: dict[str, float]
    f_p_value: float | None
    r2: float
    adj_r2: float
    n: int
    positive: list[str] = field(default_factory=list)  # mistake rates with a positive sign

    @property
    def respects_domain(self) -> bool:
        """Mistakes cannot raise ability: no mistake rate may have a positive coefficient."""
        return not self.positive


def _design(x: pd.DataFrame, variables: list[str]) -> pd.DataFrame:
    if variables:
        return sm.add_constant(x[variables], has_constant="add")
    return pd.DataFrame({"const": np.ones(len(x))}, index=x.index)


def fit_model(y: pd.Series, x: pd.DataFrame, variables: list[str]) -> ModelSummary:
    """Fit ``y`` on ``variables`` with an intercept.

    Returns
    -------
    ModelSummary
        Coefficients and p-values keyed by variable (``Intercept`` for the constant), the
        model F test's p-value (None without predictors), R^2, adjusted R^2, HC3 p-values,
        and the predictors whose coefficient is positive.
    """
    fit = sm.OLS(y, _design(x, variables)).fit()
    with np.errstate(divide="ignore", invalid="ignore"):
        # A player alone in making a rare mistake fits it exactly (leverage 1): HC3 divides
        # by 1 - leverage, so its p-values are not defined and come out NaN, stored empty.
        robust = fit.get_robustcov_results(cov_type="HC3")

    def named(values) -> dict[str, float]:
        return {
            ("Intercept" if name == "const" else name): float(value)
            for name, value in zip(fit.params.index, values)
        }

    coefficients = named(fit.params)
    return ModelSummary(
        response=str(y.name),
        variables=list(variables),
        coefficients=coefficients,
        p_values=named(fit.pvalues),
        hc3_p_values=named(robust.pvalues),
        f_p_value=float(fit.f_pvalue) if variables else None,
        r2=float(fit.rsquared),
        adj_r2=float(fit.rsquared_adj),
        n=int(fit.nobs),
        positive=[v for v in variables if coefficients[v] > 0],
    )


def cross_validated_r2(
    y: pd.Series, x: pd.DataFrame, variables: list[str], folds: int, seed: int = 0
) -> float:
    """Out-of-sample R^2 of a model by k-fold cross-validation (variables fixed).

    Notes
    -----
    1 - (sum of squared prediction errors) / (sum of squares around each training fold's
    mean): a model no better than the mean scores 0 or less.
    """
    order = np.random.default_rng(seed).permutation(len(y))
    errors = baseline = 0.0
    for fold in np.array_split(order, folds):
        train = np.setdiff1d(order, fold)
        y_train, y_test = y.iloc[train], y.iloc[fold]
        with warnings.catch_warnings():
            # A rare mistake's rate may not vary within a fold (its few players all held
            # out): the fit's pseudo-inverse then gives that variable no weight, which is
            # the right prediction, and the warning says nothing the result does not.
            warnings.simplefilter("ignore", SingularMatrixWarning)
            fit = sm.OLS(y_train, _design(x.iloc[train], variables)).fit()
        predicted = fit.predict(_design(x.iloc[fold], variables))
        errors += float(((y_test - predicted) ** 2).sum())
        baseline += float(((y_test - y_train.mean()) ** 2).sum())
    return 1 - errors / baseline


def bootstrap_frequencies(
    y: pd.Series,
    x: pd.DataFrame,
    method: str,
    resamples: int,
    levels: Mapping[str, float],
    seed: int = 0,
) -> dict[str, float]:
    """Share of bootstrap resamples in which ``method`` selects each variable.

    ``levels`` are the method's ``entry``/``stay`` (:func:`regression.selection.select`).
    """
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    for _ in range(resamples):
        rows = rng.integers(0, len(y), len(y))
        sample_y = y.iloc[rows].reset_index(drop=True)
        sample_x = x.iloc[rows].reset_index(drop=True)
        counts.update(select(method, sample_y, sample_x, **levels).variables)
    return {name: counts[name] / resamples for name in x.columns}


def log_response_model(y: pd.Series, x: pd.DataFrame, variables: list[str]) -> ModelSummary:
    """The same predictors on log(1 + y), a variance-stabilising variant for skewed points."""
    return fit_model(np.log1p(y.clip(lower=0)).rename(f"log1p_{y.name}"), x, variables)


def predict(summary: ModelSummary, x: pd.DataFrame) -> pd.Series:
    """Predicted response of a fitted summary for the rows of ``x``."""
    value = pd.Series(summary.coefficients["Intercept"], index=x.index, dtype=float)
    for name in summary.variables:
        value = value + summary.coefficients[name] * x[name]
    return value
