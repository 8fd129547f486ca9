"""The headline's gains over every method of a table, with simultaneous intervals
(ratings.gains)."""

import numpy as np
import pytest

from bridgerank.ratings.gains import GroupSums, simultaneous_gains


def _units(rng, groups=60, per_group=8):
    group = np.repeat(np.arange(groups), per_group)
    truth = rng.normal(0, 1, len(group))
    actual = truth + rng.normal(0, 2, len(group))
    return group, truth, actual


def test_point_gains_are_the_measures_differences():
    rng = np.random.default_rng(1)
    group, truth, actual = _units(rng)
    predicted = {
        "headline": truth,
        "noisy": truth + rng.normal(0, 1, len(truth)),
        "coin": np.zeros(len(truth)),
    }
    found = simultaneous_gains(predicted, actual, group, "headline", replicates=200)
    assert set(found) == {"noisy", "coin"}

    def rmse(x):
        return np.sqrt(np.mean((x - actual) ** 2))

    r = np.corrcoef(truth, actual)[0, 1]
    assert found["noisy"]["pearson"][0] == pytest.approx(
        r - np.corrcoef(predicted["noisy"], actual)[0, 1]
    )
    assert found["noisy"]["rmse"][0] == pytest.approx(rmse(predicted["noisy"]) - rmse(truth))
    # a coin has no correlation: the gain over it is the headline's whole Pearson
    assert found["coin"]["pearson"][0] == pytest.approx(r)
    for method in found.values():
        for gain, low, high in method.values():
            assert low < gain < high


def test_group_sums_score_a_resample_as_the_units_repeated():
    """A resample's weights count each group's units that many times."""
    rng = np.random.default_rng(2)
    group, truth, actual = _units(rng, groups=5, per_group=3)
    sums = GroupSums.of(truth[:, None], actual, group)
    weights = np.array([[2.0, 0.0, 1.0, 0.0, 2.0]])
    rows = np.concatenate([np.flatnonzero(group == g) for g in (0, 0, 2, 4, 4)])
    measured = sums.measures(weights)
    assert measured["pearson"][0, 0] == pytest.approx(np.corrcoef(truth[rows], actual[rows])[0, 1])
    assert measured["rmse"][0, 0] == pytest.approx(
        np.sqrt(np.mean((truth[rows] - actual[rows]) ** 2))
    )


def test_the_intervals_hold_for_the_whole_table_together():
    """Eight methods as good as the headline (every true gain is 0): per-comparison 95%
    intervals would exclude zero somewhere in about a third of such tables; the simultaneous
    ones in about 5% (with enough groups: on 40, bootstrap intervals run short, about 12%)."""
    rng = np.random.default_rng(3)
    tables, excluded = 100, 0
    for _ in range(tables):
        group, truth, actual = _units(rng, groups=150, per_group=5)
        predicted = {"headline": truth + rng.normal(0, 1, len(truth))}
        for number in range(8):
            predicted[f"twin{number}"] = truth + rng.normal(0, 1, len(truth))
        found = simultaneous_gains(predicted, actual, group, "headline", replicates=1000)
        excluded += any(
            low > 0 or high < 0 for method in found.values() for _, low, high in method.values()
        )
    assert excluded / tables < 0.1


def test_the_bounds_do_not_move_with_the_seed():
    rng = np.random.default_rng(4)
    group, truth, actual = _units(rng, groups=200, per_group=7)
    predicted = {"headline": truth, "half": truth / 2, "coin": np.zeros(len(truth))}
    first, second = (
        simultaneous_gains(predicted, actual, group, "headline", seed=seed) for seed in (0, 1)
    )
    for method in first:
        for gain in first[method]:
            assert np.allclose(first[method][gain], second[method][gain], atol=0.002), (
                method,
                gain,
            )
