"""Regressions of ranking points on mistake rates: VIF screening, SAS-style selection,
diagnostics, validation beyond the thesis, and the ranking a model implies.

The library works on pandas frames without the pipeline; ``bridgerank.regression.stage`` is
the pipeline's ``regress`` stage and is not imported here.
"""

from bridgerank.regression.diagnostics import TestResult, diagnose
from bridgerank.regression.models import ModelSummary, cross_validated_r2, fit_model, predict
from bridgerank.regression.selection import Selection, Step, backward, forward, select, stepwise
from bridgerank.regression.study import RegressionResult, run_regression, threshold_sweep
from bridgerank.regression.vif import CollinearityWarning, vif_screen, vif_table

__all__ = [
    "CollinearityWarning", "ModelSummary", "RegressionResult", "Selection", "Step",
    "TestResult", "backward", "cross_validated_r2", "diagnose", "fit_model", "forward",
    "predict", "run_regression", "select", "stepwise", "threshold_sweep", "vif_screen",
    "vif_table",
]
