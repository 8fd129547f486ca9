"""Forward, backward and stepwise selection with SAS PROC REG's semantics and defaults.

p-values are those of the partial F test, which equals the t test of the coefficient. Forward
enters while p < ``entry``; backward removes the least significant while its p > ``stay``;
stepwise enters at p < ``entry``, removes at p > ``stay``, and stops when nothing can enter
or leave, or when the variable to enter is the one just removed. The levels are arguments:
SAS's defaults (0.50; 0.10; 0.15 and 0.15) are the ``[regress]`` settings' defaults, kept
only in ``defaults.toml``
(:meth:`bridgerank.core.sections.RegressSettings.selection_levels`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats


@dataclass
class Step:
    """One selection step: a variable entered or removed, with its partial F and p-value."""

    number: int
    action: str  # enter | remove
    variable: str
    f_value: float
    p_value: float


@dataclass
class Selection:
    """The result of a selection procedure."""

    method: str
    variables: list[str]
    steps: list[Step] = field(default_factory=list)


def _partial_f(
    y: np.ndarray, x: pd.DataFrame, variables: list[str]
) -> dict[str, tuple[float, float]]:
    """Partial F (= t squared) and its p-value for each variable of an OLS fit with intercept.

    A small numpy fit rather than statsmodels: selection refits thousands of times under the
    bootstrap, and this is the same arithmetic.
    """
    design = np.column_stack([np.ones(len(y))] + [x[name].to_numpy(float) for name in variables])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - design @ coef
    dof = len(y) - design.shape[1]
    sigma2 = float(residual @ residual) / dof
    inverse = np.linalg.pinv(design.T @ design)
    out = {}
    for index, name in enumerate(variables, start=1):
        variance = sigma2 * inverse[index, index]
        if not variance > 0 or not np.isfinite(variance):
            out[name] = (0.0, 1.0)  # no information in this column: it never enters
            continue
        t = coef[index] / np.sqrt(variance)
        out[name] = (float(t * t), float(2 * stats.t.sf(abs(t), dof)))
    return out


def _entry_candidates(y, x, model: list[str]) -> dict[str, tuple[float, float]]:
    """Partial F and p-value of each variable outside the model, if it entered."""
    values = y.to_numpy(float)
    return {
        name: _partial_f(values, x, model + [name])[name] for name in x.columns if name not in model
    }


def _in_model(y, x, model: list[str]) -> dict[str, tuple[float, float]]:
    return _partial_f(y.to_numpy(float), x, model)


def forward(y: pd.Series, x: pd.DataFrame, entry: float) -> Selection:
    """Forward selection: enter the most significant variable while its p < ``entry``."""
    result = Selection("forward", [])
    while len(result.variables) < x.shape[1]:
        candidates = _entry_candidates(y, x, result.variables)
        name = min(candidates, key=lambda v: candidates[v][1])
        f_value, p_value = candidates[name]
        if not p_value < entry:
            break
        result.variables.append(name)
        result.steps.append(Step(len(result.steps) + 1, "enter", name, f_value, p_value))
    return result


def backward(y: pd.Series, x: pd.DataFrame, stay: float) -> Selection:
    """Backward elimination: remove the least significant variable while its p > ``stay``."""
    result = Selection("backward", list(x.columns))
    while result.variables:
        current = _in_model(y, x, result.variables)
        name = max(current, key=lambda v: current[v][1])
        f_value, p_value = current[name]
        if not p_value > stay:
            break
        result.variables.remove(name)
        result.steps.append(Step(len(result.steps) + 1, "remove", name, f_value, p_value))
    return result


def stepwise(y: pd.Series, x: pd.DataFrame, entry: float, stay: float) -> Selection:
    """Stepwise selection (see the module docstring)."""
    result = Selection("stepwise", [])
    just_removed: str | None = None
    while len(result.variables) < x.shape[1]:
        candidates = _entry_candidates(y, x, result.variables)
        name = min(candidates, key=lambda v: candidates[v][1])
        f_value, p_value = candidates[name]
        if not p_value < entry or name == just_removed:
            break
        result.variables.append(name)
        result.steps.append(Step(len(result.steps) + 1, "enter", name, f_value, p_value))
        just_removed = None
        while result.variables:
            current = _in_model(y, x, result.variables)
            worst = max(current, key=lambda v: current[v][1])
            if not current[worst][1] > stay:
                break
            result.variables.remove(worst)
            result.steps.append(Step(len(result.steps) + 1, "remove", worst, *current[worst]))
            just_removed = worst
    return result


def select(method: str, y: pd.Series, x: pd.DataFrame, **levels: float) -> Selection:
    """Run one selection procedure.

    Parameters
    ----------
    method : {"forward", "backward", "stepwise"}
    y : Series
        The response.
    x : DataFrame
        The candidate predictors.
    **levels : float
        ``entry`` and/or ``stay``, as the method takes them
        (``settings.regress.selection_levels(method)``).

    Returns
    -------
    Selection
    """
    methods: dict[str, Callable[..., Selection]] = {
        "forward": forward,
        "backward": backward,
        "stepwise": stepwise,
    }
    return methods[method](y, x, **levels)
