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


def test_places_share_the_better_place_and_count_the_sessions_pairs():
    rows = scorecard_rows(TABLES, None)
    assert len(rows) == 4 * 6
    first = _by_pair(rows, "0")
    # 100% (0-1 and 10-11, whose opponents scored 0%), 50% (2-3, 8-9), 0% (4-5, 6-7)
    assert [first[pair]["place"] for pair in (("0", "1"), ("10", "11"))] == [1, 1]
    assert [first[pair]["place"] for pair in (("2", "3"), ("8", "9"))] == [3, 3]
    assert first[("4", "5")]["place"] == 5 and first[("4", "5")]["pairs"] == 6
    assert first[("0", "1")]["percent"] == pytest.approx(100.0)
    assert all(row["forecast"] is None for row in rows)


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
