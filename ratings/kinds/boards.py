"""The methods forecasting who wins a team or single-table board (the time split)."""

from bridgerank.ratings import baselines, results
from bridgerank.ratings.registry import Registry

METHODS = Registry(
    "boards",
    [results.HBT, results.GBT, results.BT, baselines.WIN_RATE_BOARDS, baselines.WBF_BOARDS],
)
