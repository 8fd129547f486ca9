"""Checks of a fitted model's assumptions: formal tests and the two plots the thesis used."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.diagnostic import het_breuschpagan


@dataclass
class TestResult:
    """A formal test: statistic, p-value, and the verdict at ``alpha``."""

    name: str
    statistic: float
    p_value: float
    verdict: str


def diagnose(
    y: pd.Series, x: pd.DataFrame, variables: list[str], alpha: float = 0.05
) -> tuple[list[TestResult], np.ndarray, np.ndarray]:
    """Breusch-Pagan (constant variance) and Shapiro-Wilk (normal errors) on a model.

    Returns
    -------
    tests : list of TestResult
    fitted, residuals : ndarray
        For the plots.
    """
    design = sm.add_constant(x[variables], has_constant="add")
    fit = sm.OLS(y, design).fit()
    lm, lm_p, _, _ = het_breuschpagan(fit.resid, design)
    w, w_p = stats.shapiro(fit.resid)
    tests = [
        TestResult(
            "Breusch-Pagan",
            float(lm),
            float(lm_p),
            "heteroscedastic errors" if lm_p < alpha else "no evidence against constant variance",
        ),
        TestResult(
            "Shapiro-Wilk",
            float(w),
            float(w_p),
            "errors not normal" if w_p < alpha else "no evidence against normal errors",
        ),
    ]
    return tests, fit.fittedvalues.to_numpy(), fit.resid.to_numpy()


def plots_png(fitted: np.ndarray, residuals: np.ndarray) -> dict[str, str]:
    """Residuals against fitted values, and a normal QQ plot, as base64 PNG strings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    images = {}
    figure, axis = plt.subplots(figsize=(5, 3.5), dpi=100)
    axis.scatter(fitted, residuals, s=12, alpha=0.7)
    axis.axhline(0, color="grey", linewidth=1)
    axis.set_xlabel("predicted value")
    axis.set_ylabel("residual")
    axis.set_title("Residuals against predicted values")
    images["residuals"] = png_of(figure)
    figure, axis = plt.subplots(figsize=(5, 3.5), dpi=100)
    stats.probplot(residuals, dist="norm", plot=axis)
    axis.set_title("Normal QQ plot of residuals")
    images["qq"] = png_of(figure)
    return images


def png_of(figure) -> str:
    """A matplotlib figure as a base64 PNG string (the figure is closed)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")
