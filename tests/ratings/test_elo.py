"""Multiplayer Elo against the multielo package's own tests (spec section 4.10)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgerank.ratings.elo import (
    EloTracker,
    actual_scores,
    expected_scores,
    score_function,
    update,
)


@pytest.mark.parametrize(
    "k,d,alpha,ratings,expected,new",
    [
        (32, 400, 1, [1200, 1000], [0.75974693, 0.24025307], [1207.68809835, 992.31190165]),
        (
            32,
            400,
            1,
            [1200, 1000, 900],
            [0.53625579, 0.29343936, 0.17030485],
            [1208.34629612, 1002.55321444, 889.10048944],
        ),
        (
            32,
            400,
            1.25,
            [1200, 1000, 900, 1050],
            [0.38535873, 0.21814249, 0.13458826, 0.26191052],
            [1214.82857088, 1009.6423915, 900.67244749, 1024.85659012],
        ),
    ],
)
def test_multielo_tests(k, d, alpha, ratings, expected, new):
    order = list(range(1, len(ratings) + 1))
    assert expected_scores(ratings, d) == pytest.approx(expected, abs=5e-9)
    assert update(ratings, order, k, d, alpha) == pytest.approx(new, abs=5e-8)


@pytest.mark.parametrize(
    "order,new",
    [
        ([1, 2, 2], [1207.06479284, 989.33333333, 803.60187383]),
        ([1, 1, 2], [1196.39812617, 1010.66666667, 792.93520716]),
    ],
)
def test_multielo_ties(order, new):
    assert update([1200, 1000, 800], order) == pytest.approx(new, abs=5e-8)


def test_readme_and_tracker_examples():
    assert update([1200, 900, 1000], [1, 2, 3]) == pytest.approx(
        [1208.34629612, 910.43382278, 981.21988111], abs=5e-8
    )
    tracker = EloTracker()
    tracker.play_all(
        [(["Lisa", "Homer"], [1, 2]), (["Marge", "Bart"], [1, 2]), (["Lisa", "Bart"], [1, 2])]
    )
    assert tracker.ratings == pytest.approx(
        {"Lisa": 1030.530498, "Marge": 1016, "Homer": 984, "Bart": 969.469502}, abs=1e-6
    )
    assert [rating for _, rating in tracker.history["Lisa"]] == pytest.approx(
        [1016, 1030.530498], abs=1e-6
    )


def test_score_functions_and_own_vector():
    assert score_function(5) == pytest.approx([0.4, 0.3, 0.2, 0.1, 0])
    assert score_function(5, 1.5) == pytest.approx(
        [0.496183, 0.290076, 0.152672, 0.061069, 0], abs=1e-6
    )
    ratings, order = [1500, 1400, 1450, 1300, 1350], [2, 1, 2, 4, 3]
    assert actual_scores(order, 2) == pytest.approx(
        [0.192308, 0.576923, 0.192308, 0.0, 0.038462], abs=1e-6
    )
    assert expected_scores(ratings) == pytest.approx(
        [0.267466, 0.200000, 0.234345, 0.132534, 0.165655], abs=1e-6
    )
    assert update(ratings, order, 24, 400, 2) == pytest.approx(
        [1492.784802, 1436.184615, 1445.964418, 1287.276736, 1337.789428], abs=1e-6
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(500, 2500), min_size=2, max_size=8), st.data())
def test_zero_sum_and_symmetric(ratings, data):
    order = data.draw(
        st.lists(st.integers(1, len(ratings)), min_size=len(ratings), max_size=len(ratings))
    )
    alpha = data.draw(st.sampled_from([1, 1.25, 2]))
    new = update(ratings, order, alpha=alpha)
    assert new.sum() == pytest.approx(sum(ratings))
    permutation = np.random.default_rng(len(ratings)).permutation(len(ratings))
    permuted = update(np.asarray(ratings)[permutation], np.asarray(order)[permutation], alpha=alpha)
    assert permuted == pytest.approx(new[permutation])
