"""The headline's familiarity term (ratings.headline.familiarity): a partnership's sessions
together counted from its past only, found where partnerships gain from playing together,
kept out of the players' ratings, and near zero where they gain nothing."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.field import pair_sessions
from bridgerank.ratings.headline.checks import regular_gap
from bridgerank.ratings.headline.familiarity import (
    familiar_pairs,
    familiarity_column,
    named_column,
)
from bridgerank.ratings.headline.fit import fit_headline, predict_sessions
from bridgerank.ratings.headline.forecast import StoredRatings, forecast
from tests.ratings.club_tables import club_strengths, club_tables, simulated_club


def _regulars():
    """Pair 0-1 meets a new pair every date (4 dates); pair 2-3 plays dates 0 and 3 only."""
    seats = [[0, 1, 4, 5], [0, 1, 6, 7], [2, 3, 8, 9], [0, 1, 8, 9], [2, 3, 0, 1]]
    return club_tables(seats, [0.5] * 5, [0, 1, 1, 2, 3], [0, 1, 1, 2, 3])


def test_a_pair_is_familiar_after_three_sessions_together_before_the_table():
    tables = _regulars()
    # 0-1 had 0, 1, 2, 3 sessions together before; at the last table it sits East-West
    assert familiarity_column(tables).tolist() == [0.0, 0.0, 0.0, 0.0, -1.0]


def test_the_training_tables_count_as_the_past_of_the_tested():
    tables = _regulars()
    train, test = tables.subset(tables.period < 3), tables.subset(tables.period == 3)
    assert familiarity_column(test, train).tolist() == [-1.0]
    assert familiarity_column(test).tolist() == [0.0]  # without its past, nobody is familiar
    assert familiar_pairs(train) == {("0", "1")}
    names = [str(player) for player in tables.players]
    assert named_column(test, names, familiar_pairs(train)).tolist() == [-1.0]


def test_the_sessions_that_make_a_pair_familiar_are_a_setting():
    # [rate.headline] familiar_sessions: 0-1 had 2 sessions together before date 2
    tables = _regulars()
    assert familiarity_column(tables, familiar_sessions=2).tolist() == [0.0, 0.0, 0.0, 1.0, -1.0]
    assert familiarity_column(tables, familiar_sessions=5).tolist() == [0.0] * 5
    assert familiar_pairs(tables, familiar_sessions=2) == {("0", "1"), ("2", "3"), ("8", "9")}


@pytest.fixture(scope="module")
def bonus_club():
    return simulated_club(bonus=0.03, seed=11)


def test_the_fit_finds_a_familiar_pairs_bonus_and_keeps_it_out_of_the_ratings(bonus_club):
    fit = fit_headline(bonus_club)
    # the shares are ranks, not the strengths' units: read the bonus on the strengths' scale
    scale = np.polyfit(club_strengths(60, 11), fit.theta, 1)[0]
    assert fit.familiarity / scale == pytest.approx(0.03, abs=0.006)
    # a player's sessions with the regular partner scored above those with strangers against
    # the ratings without the term; the term closes the gap
    without = regular_gap(bonus_club, fit_headline(bonus_club, familiar=False))
    gap = regular_gap(bonus_club, fit)
    assert without["low"] > 1.0
    assert abs(gap["value"]) < 1.0 and gap["low"] < 0 < gap["high"]


def test_where_partners_gain_nothing_the_term_is_near_zero():
    fit = fit_headline(simulated_club(seed=11))
    assert abs(fit.familiarity) < 0.008


def test_a_forecast_moves_a_familiar_pair_by_the_fitted_bonus(bonus_club):
    fit = fit_headline(bonus_club)
    late = bonus_club.subset(bonus_club.period == bonus_club.period.max())
    history = bonus_club.subset(bonus_club.period < bonus_club.period.max())
    with_history, _ = predict_sessions(fit, late, history)
    alone, _ = predict_sessions(fit, late)  # nobody familiar without the past
    assert not np.allclose(with_history, alone)
    assert np.mean(with_history) == pytest.approx(50.0) == pytest.approx(np.mean(alone))
    # the stored-ratings forecast of the same session, with the pairs familiar by name, agrees
    names = [str(player) for player in bonus_club.players]
    stored = StoredRatings(
        {name: (100 * value, 1.0) for name, value in zip(names, fit.theta)},
        fit.residual_variance,
        0.0,
        fit.penalty,
        fit.familiarity,
        familiar_pairs(history),
    )
    boards = _boards_of(late, names)
    rows = forecast(boards, {}, stored)
    by_pair = {(row["player_a"], row["player_b"]): row["predicted"] for row in rows}
    sessions_pairs = [tuple(sorted(names[p] for p in pair)) for pair in _pairs(late)]
    assert [by_pair[pair] for pair in sessions_pairs] == pytest.approx(with_history.tolist())


def _pairs(tables):
    return pair_sessions(tables).pair.tolist()


def _boards_of(tables, names):
    """Board rows of ``tables`` as a file gives them: each table's North-South making as
    many overtricks as its rank in the deal (the result plays no part in a forecast)."""
    rows = []
    for number, (seats, group) in enumerate(zip(tables.seats.tolist(), tables.group.tolist())):
        north, south, east, west = (names[player] for player in seats)
        rows.append(
            {
                "id": number + 1,
                "event": "club",
                "date": "2020.01.01",
                "year": 2020,
                "board_no": int(group),
                "deal_hash": f"d{group}",
                "north": north,
                "south": south,
                "east": east,
                "west": west,
                "contract": "1NT",
                "declarer": "N",
                "result": 7 + number % 3,
                "ns_vulnerable": False,
                "ew_vulnerable": False,
            }
        )
    return rows
