"""The TrueSkill Through Time history that grows by dates (ratings/rivals/ttt_history.py),
checked against the package's own history and sweeps."""

import copy

import numpy as np
import pytest

pytest.importorskip("trueskillthroughtime")

from bridgerank.ratings.rivals.ttt_history import SmoothedHistory  # noqa: E402


def _games(dates=12, pairs=8, seed=3):
    """Sessions of ``pairs`` pairs at each date, best first by a noisy strength."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, pairs)
    composition, times = [], []
    for when in range(dates):
        order = np.argsort(-(strength + rng.normal(0, 1, pairs)))
        composition.append([[int(2 * p), int(2 * p + 1)] for p in order])
        times.append(when)
    return composition, times


def _means(history: SmoothedHistory) -> dict:
    return {player: mu for player, (mu, _) in history.latest()[0].items()}


def test_a_sweep_over_every_date_is_the_packages_own():
    composition, times = _games()
    ours = SmoothedHistory(composition, times, gamma=0.05)
    theirs = copy.deepcopy(ours)
    ours._sweep(0)
    theirs.history.iteration()
    assert _means(ours) == _means(theirs)


def test_an_extended_history_is_the_packages_build_of_every_date():
    from trueskillthroughtime import History

    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    assert grown.extend(composition, times)
    whole = History(composition=composition, times=times, beta=1.0, gamma=0.05)
    assert len(grown.history.batches) == len(whole.batches) == 12
    for ours, theirs in zip(grown.history.batches, whole.batches):
        assert {p: (g.mu, g.sigma) for p, g in ours.posteriors().items()} == {
            p: (g.mu, g.sigma) for p, g in theirs.posteriors().items()
        }


def test_an_extended_history_after_smoothing_takes_the_latest_forward_messages():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    grown.smooth(sweeps=4, window=3)
    assert grown.extend(composition, times)
    # each player's prior at date 8 is his forward message out of his latest date, widened
    # by one step's drift, as the package's build takes it
    date7, date8 = grown.history.batches[7], grown.history.batches[8]
    for player, skill in date8.skills.items():
        expected = date7.forward_prior_out(player).forget(0.05, 1)
        assert (skill.forward.mu, skill.forward.sigma) == (expected.mu, expected.sigma)


def test_a_window_sweeps_only_the_latest_dates():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    grown.smooth(sweeps=4, window=2)
    before = [dict(batch.posteriors()) for batch in grown.history.batches]
    grown.extend(composition, times)
    grown.smooth(sweeps=4, window=2)
    after = [batch.posteriors() for batch in grown.history.batches]
    # dates 0-5 untouched; the two dates before the new ones (6, 7) and the new ones moved
    for date in range(6):
        assert {p: (g.mu, g.sigma) for p, g in before[date].items()} == {
            p: (g.mu, g.sigma) for p, g in after[date].items()
        }
    assert before[7][0].mu != after[7][0].mu
    assert len(after) == 12


def test_a_new_history_and_its_latest_skills_are_the_packages():
    from trueskillthroughtime import History

    composition, times = _games()
    ours = SmoothedHistory(composition, times, gamma=0.05)
    ours.smooth(sweeps=4, window=2)
    theirs = History(composition=composition, times=times, beta=1.0, gamma=0.05)
    theirs.convergence(iterations=4, verbose=False)
    curves = theirs.learning_curves()
    assert _means(ours) == {player: curve[-1][1].mu for player, curve in curves.items()}


def test_a_game_not_later_than_the_history_is_refused_and_changes_nothing():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    grown.smooth(sweeps=4, window=2)
    before = _means(grown)
    assert not grown.extend(composition[:8] + [composition[8]], times[:8] + [7])
    assert _means(grown) == before and len(grown.history.batches) == 8
