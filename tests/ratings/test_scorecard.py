"""A pair's sessions as a scorecard: places by hand, and each held-out session's forecast
the one the walk-forward made for that pair."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.headline.scorecard import scorecard_rows
from bridgerank.ratings.headline.sessions import session_target
from bridgerank.ratings.holdout import Forecast, walk_forward
from tests.ratings.club_tables import club_tables

# Four dates, one deal each at three tables: pairs 0-1, 2-3, 4-5 North-South, 6-7, 8-9,
# 10-11 East-West; the top North-South table scores 100%, the next 50%, the last 0%.
SEATS = [[0, 1, 6, 7], [2, 3, 8, 9], [4, 5, 10, 11]]
TABLES = club_tables(SEATS * 4, [1.0, 0.5, 0.0] * 4, np.repeat(range(4), 3), np.repeat(range(4), 3))


def _by_pair(rows, date):
    return {(row["player_a"], row["player_b"]): row for row in rows if row["session"] == date}


def test_a_mitchell_ranks_each_direction_and_a_howell_all_pairs_together():
    rows = scorecard_rows(TABLES, None)
    assert len(rows) == 4 * 6
    first = _by_pair(rows, "0")
    # every pair kept its direction (a Mitchell): North-South 0-1 100%, 2-3 50%, 4-5 0%;
    # East-West 10-11 100% (their opponents scored 0%), 8-9 50%, 6-7 0%
    places = {pair: (row["place"], row["pairs"], row["direction"]) for pair, row in first.items()}
    assert places[("0", "1")] == (1, 3, "NS") and places[("4", "5")] == (3, 3, "NS")
    assert places[("10", "11")] == (1, 3, "EW") and places[("8", "9")] == (2, 3, "EW")
    assert first[("0", "1")]["percent"] == pytest.approx(100.0)
    assert all(row["forecast"] is None for row in rows)
    # a second deal where 0-1 sit East-West (a Howell): one ranking of all six pairs
    howell = club_tables(
        SEATS + [[6, 7, 0, 1], [8, 9, 2, 3], [10, 11, 4, 5]],
        [1.0, 0.5, 0.0, 0.5, 1.0, 0.0],
        [0, 0, 0, 1, 1, 1],
        [0] * 6,
    )
    together = _by_pair(scorecard_rows(howell, None), "0")
    assert {row["direction"] for row in together.values()} == {""}
    assert {row["pairs"] for row in together.values()} == {6}
    # 0-1: 100% then 50%, 8-9: 50% then 100% (75%); 4-5 and 10-11 50%; 2-3 and 6-7 25%
    assert {pair: row["place"] for pair, row in together.items()} == {
        ("0", "1"): 1,
        ("8", "9"): 1,
        ("10", "11"): 3,
        ("4", "5"): 3,
        ("2", "3"): 5,
        ("6", "7"): 5,
    }


def test_each_held_out_session_carries_the_forecast_made_for_its_pair():
    def headline(train, test, target):
        # a forecast that names its pair: 10 times the first player plus the date
        first = target.detail.pair[:, 0]
        return Forecast(10.0 * first + target.period, np.full(len(first), 4.0))

    run = walk_forward(TABLES, {"headline": headline}, session_target)
    rows = scorecard_rows(TABLES, run)
    held = [row for row in rows if row["forecast"] is not None]
    assert {row["session"] for row in held} == {"2", "3"}  # the later half of the dates
    for row in held:
        assert row["forecast"] == pytest.approx(10.0 * int(row["player_a"]) + int(row["session"]))
        assert row["forecast_sd"] == pytest.approx(2.0)
