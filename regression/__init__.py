"""Regressions of ranking points on mistake rates: VIF screening, SAS-style selection,
diagnostics, validation beyond the thesis, and the ranking a model implies."""
