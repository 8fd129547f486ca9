"""A whole regression study: every dataset x method, the chosen model, its checks, a ranking.

Datasets are every response (``pp``, ``mp`` or any other named column) crossed with the
weighted and unweighted rates. For each: the VIF screen, then forward, backward and stepwise
selection (at the ``[regress]`` settings' levels, SAS's by default), each model fitted,
cross-validated and flagged by the domain rule, and bootstrap selection frequencies for
stepwise.

The chosen model follows the thesis's reasoning as a rule: among the selected models and, per
dataset, the model made of the predictors that are negative and significant (p < 0.05) in all
three selected models, keep those with no positive coefficient on a mistake rate, and take
the highest adjusted R^2. On the thesis's data this is its Table 16 model.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import pandas as pd

from bridgerank.core.sections import RegressSettings
from bridgerank.regression.data import (
    apply_thresholds,
    dataset,
    read_rates_csv,
    read_responses_csv,
    weightings,
)
from bridgerank.regression.diagnostics import TestResult, diagnose, plots_png
from bridgerank.regression.models import (
    ModelSummary,
    bootstrap_frequencies,
    cross_validated_r2,
    fit_model,
    log_response_model,
    predict,
)
from bridgerank.regression.selection import Selection, select
from bridgerank.regression.vif import vif_screen

METHODS = ("stepwise", "backward", "forward")


@dataclass
class MethodResult:
    """One selection procedure on one dataset."""

    selection: Selection
    model: ModelSummary
    cv_r2: float | None
    log_model: ModelSummary | None


@dataclass
class DatasetResult:
    """Everything computed on one response x predictor set."""

    response: str
    weighting: str
    n: int
    vif_steps: list[dict]
    predictors: list[str]
    methods: dict[str, MethodResult] = field(default_factory=dict)
    bootstrap: dict[str, float] = field(default_factory=dict)
    note: str = ""

    @property
    def key(self) -> str:
        return f"{self.response}, {self.weighting}"


@dataclass
class RegressionResult:
    """The study: datasets, the chosen model and why, its diagnostics and the ranking."""

    datasets: list[DatasetResult]
    chosen: ModelSummary | None = None
    chosen_from: str = ""
    chosen_cv_r2: float | None = None
    diagnostics: list[TestResult] = field(default_factory=list)
    plots: dict[str, str] = field(default_factory=dict)
    ranking: pd.DataFrame | None = None


def _study(
    y: pd.Series, x: pd.DataFrame, weighting: str, settings: RegressSettings
) -> DatasetResult:
    constant = [name for name in x.columns if x[name].nunique() <= 1]
    x = x.drop(columns=constant)
    if len(y) < x.shape[1] + 3:
        result = DatasetResult(str(y.name), weighting, len(y), [], list(x.columns))
        result.note = f"too few players ({len(y)}) for {x.shape[1]} predictors"
        return result
    kept, steps = vif_screen(x, settings.vif_bound)
    result = DatasetResult(str(y.name), weighting, len(y), steps, kept)
    if constant:
        result.note = f"left out, the same for every player: {', '.join(constant)}"
    x = x[kept]
    folds = min(settings.cv_folds, len(y))
    for method in METHODS:
        selection = select(method, y, x, **settings.selection_levels(method))
        model = fit_model(y, x, selection.variables)
        result.methods[method] = MethodResult(
            selection,
            model,
            cross_validated_r2(y, x, selection.variables, folds) if folds >= 2 else None,
            log_response_model(y, x, selection.variables),
        )
    if settings.bootstrap_resamples:
        result.bootstrap = bootstrap_frequencies(
            y, x, "stepwise", settings.bootstrap_resamples, settings.selection_levels("stepwise")
        )
    return result


def _candidates(result: DatasetResult, y: pd.Series, x: pd.DataFrame):
    for method, outcome in result.methods.items():
        yield f"{result.key}, {method}", outcome.model
    if len(result.methods) == len(METHODS):
        steady = [
            name
            for name in result.predictors
            if all(
                name in o.model.variables
                and o.model.coefficients[name] < 0
                and o.model.p_values[name] < 0.05
                for o in result.methods.values()
            )
        ]
        if steady:
            yield (
                f"{result.key}, predictors negative and significant in all three",
                fit_model(y, x, steady),
            )


def run_regression(
    rates: pd.DataFrame,
    responses: pd.DataFrame,
    response_names: Sequence[str],
    settings: RegressSettings,
    *,
    plots: bool = True,
) -> RegressionResult:
    """Run the study (see the module docstring) on every player of ``rates``.

    Parameters
    ----------
    rates : DataFrame
        Rates per player (index = player name), Table 4 names. No threshold is applied here:
        the pipeline applies ``settings.thresholds`` first (:func:`apply_thresholds`), files
        are taken whole.
    responses : DataFrame
        Response columns per player name.
    response_names : sequence of str
        Responses to study, e.g. ``["pp", "mp"]``.
    settings : RegressSettings
        The ``[regress]`` section: VIF bound, selection levels, folds, bootstrap resamples.
    plots : bool, default True
        Draw the chosen model's residual plots (a search has no use for them).

    Returns
    -------
    RegressionResult
    """
    studies: list[DatasetResult] = []
    candidates: list[tuple[str, ModelSummary, pd.Series, pd.DataFrame]] = []
    for response in response_names:
        for weighting in weightings(rates):
            y, x = dataset(rates, responses, response, weighting)
            study = _study(y, x, weighting, settings)
            studies.append(study)
            candidates.extend(
                (label, model, y, x[study.predictors])
                for label, model in _candidates(study, y, x[study.predictors])
            )
    result = RegressionResult(studies)
    allowed = [c for c in candidates if c[1].variables and c[1].respects_domain]
    if not allowed:
        return result
    label, model, y, x = max(allowed, key=lambda c: c[1].adj_r2)
    result.chosen, result.chosen_from = model, label
    result.chosen_cv_r2 = cross_validated_r2(y, x, model.variables, min(settings.cv_folds, len(y)))
    result.diagnostics, fitted, residuals = diagnose(y, x, model.variables)
    if plots:
        result.plots = plots_png(fitted, residuals)
    ranking = pd.DataFrame({"predicted": predict(model, x), model.response: y})
    ranking = ranking.sort_values("predicted", ascending=False)
    ranking.insert(0, "rank", range(1, len(ranking) + 1))
    result.ranking = ranking
    return result


def threshold_sweep(
    rates: pd.DataFrame,
    responses: pd.DataFrame,
    response_names: Sequence[str],
    thresholds: Mapping[str, float],
    factors: Sequence[float],
    settings: RegressSettings,
) -> pd.DataFrame:
    """Players kept and the best adjusted R^2 (over methods) for scaled thresholds.

    Each row is one factor x dataset: the thesis's thresholds multiplied by the factor.
    Bootstrap is skipped whatever ``settings`` say, and no plots are drawn: this is a search.
    """
    settings = dataclasses.replace(settings, bootstrap_resamples=0)
    rows = []
    for factor in factors:
        scaled = {name: value * factor for name, value in thresholds.items()}
        kept = apply_thresholds(rates, scaled)
        for response in response_names:
            for weighting in weightings(rates):
                y, x = dataset(kept, responses, response, weighting)
                study = _study(y, x, weighting, settings)
                best = max((o.model.adj_r2 for o in study.methods.values()), default=None)
                rows.append(
                    {
                        "factor": factor,
                        "response": response,
                        "weighting": weighting,
                        "players": len(y),
                        "best_adj_r2": best,
                        **scaled,
                    }
                )
    return pd.DataFrame(rows)


def regress_files(
    rate_files: Sequence[str],
    response_file: str | None,
    responses: Sequence[str],
    settings: RegressSettings,
    only_present: bool = False,
) -> RegressionResult:
    """The study on CSV files (``bridgerank regress --rates FILE --responses FILE``).

    Parameters
    ----------
    rate_files : sequence of str
        CSV files of rates per player, joined by name.
    response_file : str, optional
        CSV of responses per player; without it, the rates files' own numeric columns.
    responses : sequence of str
        The response columns to study.
    settings : RegressSettings
        The ``[regress]`` section. Its thresholds are not applied: files hold the players the
        user chose (and often no opportunity counts to apply them to).
    only_present : bool, default False
        Study only those of ``responses`` the files have (the settings' default list names
        the pipeline's headline rating, which a user's files seldom hold); a named response
        the files lack is an error either way when none is left.

    Returns
    -------
    RegressionResult
    """
    rates = pd.concat([read_rates_csv(path) for path in rate_files], axis=1)
    rates = rates.loc[:, ~rates.columns.duplicated()]
    if response_file:
        points = read_responses_csv(response_file)
        # the responses come from the file: a rates file's own mp/pp columns are not used
        rates = rates.drop(columns=[name for name in responses if name in rates.columns])
    else:
        points = rates.select_dtypes("number")
    if only_present:
        present = [name for name in responses if name in points.columns]
        responses = present or responses  # none present: the study says which is missing
    return run_regression(rates, points, responses, settings)
