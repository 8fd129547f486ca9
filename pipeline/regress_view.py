"""What ``bridgerank regress --rates FILES`` prints: the regression study on files, in the
shape of the thesis's Table 12, then the chosen model and its diagnostics."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the study loads pandas and statsmodels; the CLI loads it when it runs
    from bridgerank.regression.study import RegressionResult


def _sas_p(value: float) -> str:
    """A p-value as SAS prints it."""
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def print_study(result: RegressionResult) -> None:
    """Print the regression study on files, in the shape of the thesis's Table 12.

    Parameters
    ----------
    result : RegressionResult
        :func:`~bridgerank.regression.study.regress_files`'s study: a line per dataset and
        selection method, then the chosen model (or why there is none) and its diagnostics.
    """
    """The regression study on files, in the shape of the thesis's Table 12."""
    click.echo(f"{'dataset':<16} {'method':<9} {'adj R2':>7} {'CV R2':>7}  domain  variables (p)")
    for study in result.datasets:
        if study.note:
            click.echo(f"{study.key:<16} {study.note}")
        for method, outcome in study.methods.items():
            model = outcome.model
            cv = f"{outcome.cv_r2:.4f}" if outcome.cv_r2 is not None else "-"
            listed = ", ".join(f"{v} ({_sas_p(model.p_values[v])})" for v in model.variables)
            click.echo(
                f"{study.key:<16} {method:<9} {model.adj_r2:>7.4f} {cv:>7}  "
                f"{'ok' if model.respects_domain else 'FLAG':<6}  {listed or 'none'}"
            )
    if result.chosen is None:
        click.echo("no model respects the domain rule (mistake rates with negative signs)")
        return
    chosen = result.chosen
    terms = " ".join(
        f"{value:+.5f} x {name}"
        for name, value in chosen.coefficients.items()
        if name != "Intercept"
    )
    click.echo(
        f"chosen: {result.chosen_from}\n  {chosen.response} = "
        f"{chosen.coefficients['Intercept']:.5f} {terms}\n  adjusted R2 "
        f"{chosen.adj_r2:.4f}, cross-validated R2 {result.chosen_cv_r2:.4f}"
    )
    for test in result.diagnostics:
        click.echo(
            f"  {test.name}: statistic {test.statistic:.4f}, p {test.p_value:.4g}: {test.verdict}"
        )
