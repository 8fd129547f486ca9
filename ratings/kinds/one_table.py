"""The methods forecasting a pair's IMPs against par in a session played at one table a deal."""

from bridgerank.ratings import one_table_pairs
from bridgerank.ratings.registry import Registry

METHODS = Registry(
    "one_table",
    [
        one_table_pairs.HEADLINE,
        one_table_pairs.COIN,
        one_table_pairs.PAST_AVERAGE,
        one_table_pairs.HEADLINE_NO_DD,
        one_table_pairs.HEADLINE_CARDS,
        one_table_pairs.HEADLINE_FIELDS,
    ],
)
