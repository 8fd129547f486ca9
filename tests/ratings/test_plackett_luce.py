"""Plackett-Luce multiplayer Elo, K calibration and the skill-o-meter: spec 5.9 vectors."""

import numpy as np
import pytest

from bridgerank.ratings import elo
from bridgerank.ratings.plackett_luce import expected_payoffs, payoffs, position_matrix, update
from bridgerank.ratings.replay import Games, calibrate, replay
from bridgerank.ratings.skill import p_from_sigma, simulate_p_deterministic

DLO1 = [1200, 1000, 900, 1050]
DLO1_P = [
    [0.521988, 0.303939, 0.138309, 0.035763],
    [0.165067, 0.243733, 0.326187, 0.265013],
    [0.092824, 0.145915, 0.237228, 0.524033],
    [0.220121, 0.306413, 0.298276, 0.175191],
]
DLO3 = [
    ((1, 2, 4), (2, 1, 3)),
    ((0, 1, 5), (2, 1, 3)),
    ((1, 2, 3), (2, 3, 1)),
    ((0, 3, 4), (2, 3, 1)),
    ((0, 1, 5), (1, 2, 3)),
    ((0, 1, 4), (2, 1, 3)),
    ((0, 1, 2), (2, 3, 1)),
    ((0, 3, 4), (1, 2, 3)),
    ((0, 1, 2), (1, 2, 3)),
    ((2, 3, 4), (1, 2, 3)),
    ((2, 3, 4), (1, 2, 3)),
    ((0, 1, 2), (2, 3, 1)),
    ((0, 2, 4), (3, 1, 2)),
    ((3, 4, 5), (1, 2, 3)),
    ((0, 2, 4), (1, 2, 3)),
    ((2, 3, 4), (1, 2, 3)),
]


@pytest.mark.parametrize("method", ["enumerate", "dp"])
def test_dlo1_position_matrix_exact(method):
    assert position_matrix(DLO1, method) == pytest.approx(np.array(DLO1_P), abs=1e-6)


def test_dlo1_monte_carlo_and_expectations():
    estimate = position_matrix(DLO1, "monte-carlo", samples=200_000, seed=12345)
    assert np.abs(estimate - np.array(DLO1_P)).max() < 0.005
    expected = [2.312152, 1.308855, 0.807530, 1.571463]
    assert expected_payoffs(DLO1) == pytest.approx(expected, abs=1e-6)
    matrix = position_matrix(DLO1, "dp")
    closed_form = expected_payoffs(DLO1)
    assert matrix @ (len(DLO1) - 1 - np.arange(len(DLO1))) == pytest.approx(closed_form, abs=1e-12)


def test_dlo1_updates_and_the_multielo_equivalence():
    assert list(payoffs([1, 3, 4, 2])) == [3, 1, 0, 2]
    assert update(DLO1, [1, 3, 4, 2]) == pytest.approx(
        [1207.337041, 996.705547, 891.386351, 1054.571060], abs=1e-6
    )
    assert list(payoffs([1, 2, 3, 2])) == [3, 1.5, 0, 1.5]
    assert update(DLO1, [1, 2, 3, 2]) == pytest.approx(
        [1207.337041, 1002.038880, 891.386351, 1049.237727], abs=1e-6
    )
    both = [1211.005562, 995.058321, 887.079527, 1056.856590]
    assert update(DLO1, [1, 3, 4, 2], k=48) == pytest.approx(both, abs=1e-6)
    assert elo.update(DLO1, [1, 3, 4, 2], k=32) == pytest.approx(both, abs=1e-6)
    assert update([1200, 1000], [1, 2]) == pytest.approx([1207.688098, 992.311902], abs=1e-6)


def test_dlo2_seven_players():
    ratings = [1510, 1480, 1420, 1500, 1390, 1600, 1450]
    matrix = position_matrix(ratings)  # the subset DP
    assert matrix[:, 0] == pytest.approx(
        [0.159514, 0.134214, 0.095016, 0.150591, 0.079946, 0.267792, 0.112927], abs=1e-6
    )
    assert matrix[:, 6] == pytest.approx(
        [0.085696, 0.121084, 0.220563, 0.096513, 0.285800, 0.024548, 0.165797], abs=1e-6
    )
    assert matrix.sum(axis=0) == pytest.approx(np.ones(7))
    assert matrix.sum(axis=1) == pytest.approx(np.ones(7))


def test_dlo3_k_calibration():
    games = Games.from_matches(DLO3, 6)
    for k, loss in [(8, 0.162724), (16, 0.159476), (32, 0.154713), (64, 0.149957)]:
        assert replay(games, "dlo", k).loss == pytest.approx(loss, abs=1e-6)
    k, loss = calibrate(games, "dlo")
    assert k == pytest.approx(93.576211, abs=1e-3) and loss == pytest.approx(0.148891, abs=1e-6)
    ratings = replay(games, "dlo", k).ratings
    assert ratings == pytest.approx(
        [97.109755, -6.121271, 160.499015, 23.079552, -146.533953, -128.033097], abs=1e-3
    )
    assert np.std(ratings) == pytest.approx(110.773829, abs=1e-3)
    k_log, log_loss = calibrate(games, "dlo", loss="log")
    assert k_log == pytest.approx(86.373574, abs=1e-3)
    assert log_loss == pytest.approx(1.686105, abs=1e-6)


def test_skill_o_meter_inversion():
    assert p_from_sigma(50, "n2") == pytest.approx(0.232721, abs=1e-6)
    assert p_from_sigma(100, "n2") == pytest.approx(0.431668, abs=1e-6)
    assert p_from_sigma(300, "n2") == pytest.approx(0.809589, abs=1e-6)
    assert p_from_sigma(0) == 0 and p_from_sigma(5000) == 0.99


def test_p_deterministic_simulation_spreads_with_p():
    rng = np.random.default_rng(3)
    spreads = []
    for p in (0.0, 0.5, 0.9):
        matches = simulate_p_deterministic(60, 3000, 2, p, rng)
        ratings = replay(Games.from_matches(matches, 60), "dlo", 16).ratings
        spreads.append(np.std(ratings))
    assert spreads[0] < spreads[1] < spreads[2]


def test_skill_o_meter_reads_more_skill_in_a_more_skilful_game():
    from bridgerank.ratings.skill import read_spread, skill_o_meter

    rng = np.random.default_rng(8)
    chance = skill_o_meter(simulate_p_deterministic(40, 2000, 4, 0.0, rng), 40)
    skilful = skill_o_meter(simulate_p_deterministic(40, 2000, 4, 0.8, rng), 40)
    assert chance.players == skilful.players == 40
    assert chance.p < skilful.p and chance.sigma < skilful.sigma
    # only regular players count: the one with 3 games is left out of the spread
    reading = read_spread(10.0, [100.0, -100.0, 5000.0], [30, 30, 3])
    assert reading.players == 2 and reading.sigma == pytest.approx(np.std([100, -100], ddof=1))
    assert reading.p == p_from_sigma(reading.sigma) and reading.k == 10.0
