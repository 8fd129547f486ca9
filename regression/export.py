"""A regression study as tidy tables: written to the database and to CSV files alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from bridgerank.regression.study import RegressionResult

TABLES = (
    "regression_models",
    "regression_coefficients",
    "regression_steps",
    "regression_vif",
    "regression_bootstrap",
    "regression_diagnostics",
    "rankings",
)


def result_frames(result: RegressionResult) -> dict[str, pd.DataFrame]:
    """One DataFrame per table of :data:`TABLES` (plus ``regression_sweep`` when given)."""
    models: list[dict[str, Any]] = []
    coefficients: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    vifs: list[dict[str, Any]] = []
    bootstrap: list[dict[str, Any]] = []
    for study in result.datasets:
        base = {"response": study.response, "weighting": study.weighting}
        vifs.extend({**base, **step} for step in study.vif_steps)
        bootstrap.extend(
            {**base, "method": "stepwise", "variable": name, "frequency": share}
            for name, share in study.bootstrap.items()
        )
        if study.note:
            models.append({**base, "method": None, "n": study.n, "note": study.note})
        for method, outcome in study.methods.items():
            model = outcome.model
            is_chosen = result.chosen is model
            models.append(
                {
                    **base,
                    "method": method,
                    "n": model.n,
                    "variables": ", ".join(model.variables),
                    "r2": model.r2,
                    "adj_r2": model.adj_r2,
                    "model_p_value": model.f_p_value,
                    "cv_r2": outcome.cv_r2,
                    "respects_domain": model.respects_domain,
                    "positive_coefficients": ", ".join(model.positive),
                    "chosen": is_chosen,
                    "log_adj_r2": outcome.log_model.adj_r2 if outcome.log_model else None,
                    "note": "",
                }
            )
            log = outcome.log_model
            for name, value in model.coefficients.items():
                coefficients.append(
                    {
                        **base,
                        "method": method,
                        "variable": name,
                        "coefficient": value,
                        "p_value": model.p_values[name],
                        "hc3_p_value": model.hc3_p_values[name],
                        "log_coefficient": log.coefficients.get(name) if log else None,
                        "log_p_value": log.p_values.get(name) if log else None,
                    }
                )
            steps.extend(
                {
                    **base,
                    "method": method,
                    "step": step.number,
                    "action": step.action,
                    "variable": step.variable,
                    "f_value": step.f_value,
                    "p_value": step.p_value,
                }
                for step in outcome.selection.steps
            )
    frames = {
        "regression_models": pd.DataFrame(models),
        "regression_coefficients": pd.DataFrame(coefficients),
        "regression_steps": pd.DataFrame(steps),
        "regression_vif": pd.DataFrame(vifs),
        "regression_bootstrap": pd.DataFrame(bootstrap),
        "regression_diagnostics": pd.DataFrame([vars(test) for test in result.diagnostics]),
        "rankings": pd.DataFrame(),
    }
    if result.chosen is not None:
        chosen = result.chosen
        frames["chosen_model"] = pd.DataFrame(
            [
                {
                    "model": result.chosen_from,
                    "response": chosen.response,
                    "variables": ", ".join(chosen.variables),
                    "adj_r2": chosen.adj_r2,
                    "cv_r2": result.chosen_cv_r2,
                    "coefficients": json.dumps(chosen.coefficients),
                }
            ]
        )
        assert result.ranking is not None  # the study ranks the players by the chosen model
        ranking = result.ranking.reset_index().rename(columns={"index": "player", "name": "player"})
        frames["rankings"] = ranking.rename(columns={chosen.response: "actual"})
    return frames


def write_csv(frames: dict[str, pd.DataFrame], folder: str | Path) -> list[Path]:
    """Write each table as ``folder/<name>.csv``; returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, frame in frames.items():
        path = folder / f"{name}.csv"
        frame.to_csv(path, index=False)
        paths.append(path)
    return paths
