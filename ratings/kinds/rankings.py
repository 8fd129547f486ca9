"""The methods forecasting which of two pairs finished ahead on a deal played at several
tables (the time split)."""

from bridgerank.ratings import baselines
from bridgerank.ratings.registry import Registry

METHODS = Registry(
    "rankings",
    [baselines.ELO_RANKINGS, baselines.DLO_RANKINGS, baselines.WIN_RATE_RANKINGS],
)
