"""Regressions of ranking points on mistake rates: VIF screening, SAS-style selection,
diagnostics, validation beyond the thesis, and the ranking a model implies.

The library works on pandas frames without the pipeline; ``bridgerank.regression.stage`` is
the pipeline's ``regress`` stage and is not imported here.
"""

from typing import TYPE_CHECKING

from bridgerank.core.lazy import lazy_face as _lazy_face

if TYPE_CHECKING:  # the names, for type checkers and editors
    from bridgerank.regression.diagnostics import TestResult, diagnose
    from bridgerank.regression.models import ModelSummary, cross_validated_r2, fit_model, predict
    from bridgerank.regression.selection import Selection, Step, backward, forward, select, stepwise
    from bridgerank.regression.study import RegressionResult, run_regression, threshold_sweep
    from bridgerank.regression.vif import CollinearityWarning, vif_screen, vif_table

__all__, __getattr__, __dir__ = _lazy_face(
    __name__,
    {
        "CollinearityWarning": "vif",
        "ModelSummary": "models",
        "RegressionResult": "study",
        "Selection": "selection",
        "Step": "selection",
        "TestResult": "diagnostics",
        "backward": "selection",
        "cross_validated_r2": "models",
        "diagnose": "diagnostics",
        "fit_model": "models",
        "forward": "selection",
        "predict": "models",
        "run_regression": "study",
        "select": "selection",
        "stepwise": "selection",
        "threshold_sweep": "study",
        "vif_screen": "vif",
        "vif_table": "vif",
    },
)
