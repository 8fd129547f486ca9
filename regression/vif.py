"""Variance inflation factors, and the iterative screen that drops the worst one above a bound."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from bridgerank.core.errors import CollinearityWarning


def vif_table(predictors: pd.DataFrame) -> pd.Series:
    """VIF of each column.

    Parameters
    ----------
    predictors : DataFrame
        One column per predictor, no intercept column.

    Returns
    -------
    Series
        VIF per column, in column order; ``inf`` for a column the others explain exactly.

    Notes
    -----
    VIF_j = 1 / (1 - R_j^2), R_j^2 from regressing column j on the others *with an
    intercept*. statsmodels' ``variance_inflation_factor`` is only right when the design
    matrix it is given holds a constant column; this function adds it.
    """
    values = predictors.to_numpy(dtype=float)
    n, k = values.shape
    result = {}
    for j, name in enumerate(predictors.columns):
        others = np.column_stack([np.ones(n), np.delete(values, j, axis=1)])
        target = values[:, j]
        coef, *_ = np.linalg.lstsq(others, target, rcond=None)
        residual = target - others @ coef
        total = ((target - target.mean()) ** 2).sum()
        r2 = 1 - (residual @ residual) / total if total > 0 else 1.0
        result[name] = np.inf if r2 >= 1 - 1e-12 else 1 / (1 - r2)
    return pd.Series(result, name="vif")


def vif_screen(predictors: pd.DataFrame, bound: float = 5.0) -> tuple[list[str], list[dict]]:
    """Drop, one at a time, the predictor with the largest VIF above ``bound``.

    Returns
    -------
    kept : list of str
        The predictors left, in their original order.
    steps : list of dict
        One per round: ``{"round", "variable", "vif", "dropped"}`` for every variable, so
        the report can show the whole screen.
    """
    kept = list(predictors.columns)
    steps: list[dict] = []
    for round_number in range(1, len(kept) + 1):
        table = vif_table(predictors[kept])
        worst = str(table.idxmax())  # a column name
        dropped = bool(table[worst] > bound)
        steps.extend(
            {
                "round": round_number,
                "variable": name,
                "vif": float(value),
                "dropped": dropped and name == worst,
            }
            for name, value in table.items()
        )
        if not dropped:
            break
        if np.isinf(table[worst]):
            warnings.warn(
                f"{worst} is a linear combination of the other predictors",
                CollinearityWarning,
                stacklevel=2,
            )
        kept.remove(worst)
        if len(kept) < 2:
            break
    return kept, steps
