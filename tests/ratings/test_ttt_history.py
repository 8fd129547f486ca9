"""TrueSkill Through Time on plain floats (ratings/rivals/ttt_messages.py) and its history
that grows by dates (ratings/rivals/ttt_history.py), checked bit for bit against the
package's own games, builds and sweeps."""

import numpy as np
import pytest

pytest.importorskip("trueskillthroughtime")

from trueskillthroughtime import Game, Gaussian, History, Player  # noqa: E402

from bridgerank.ratings.rivals.ttt_history import SmoothedHistory  # noqa: E402
from bridgerank.ratings.rivals.ttt_messages import forget, game_likelihoods  # noqa: E402


def _games(dates=12, pairs=8, seed=3, per_date=1):
    """Sessions of ``pairs`` pairs at each date (``per_date`` of them, a player in one),
    best first by a noisy strength."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, pairs * per_date)
    composition, times = [], []
    for when in range(dates):
        seated = rng.permutation(pairs * per_date).reshape(per_date, pairs)
        for session in seated:
            order = session[np.argsort(-(strength[session] + rng.normal(0, 1, pairs)))]
            composition.append([[int(2 * p), int(2 * p + 1)] for p in order])
            times.append(when)
    return composition, times


def _package(composition, times, gamma=0.05, sweeps=None):
    history = History(composition=composition, times=times, beta=1.0, gamma=gamma)
    if sweeps:
        history.convergence(iterations=sweeps, verbose=False)
    return history


def _dates(ours: SmoothedHistory) -> list[dict]:
    return [date.posteriors() for date in ours.dates]


def _their_dates(theirs: History) -> list[dict]:
    return [{p: (g.mu, g.sigma) for p, g in b.posteriors().items()} for b in theirs.batches]


@pytest.mark.parametrize("teams", [2, 3, 5, 20])
def test_a_games_messages_are_the_packages_to_the_last_bit(teams):
    rng = np.random.default_rng(teams)
    for _ in range(50):
        priors = [
            [(float(rng.normal(0, 2)), float(rng.uniform(0.3, 6))) for _ in range(2)]
            for _ in range(teams)
        ]
        theirs = Game([[Player(Gaussian(m, s), 1.0) for m, s in team] for team in priors])
        assert game_likelihoods(priors, 1.0) == [
            [(g.mu, g.sigma) for g in team] for team in theirs.likelihoods
        ]


@pytest.mark.parametrize("per_date", [1, 2])
def test_a_new_history_built_and_smoothed_is_the_packages_at_every_date(per_date):
    composition, times = _games(per_date=per_date)
    built = SmoothedHistory(composition, times, gamma=0.05)
    assert _dates(built) == _their_dates(_package(composition, times))
    built.smooth(sweeps=4, window=2)
    assert _dates(built) == _their_dates(_package(composition, times, sweeps=4))


def test_a_history_of_one_date_settles_as_the_packages():
    composition, times = _games(dates=1, per_date=2)
    ours = SmoothedHistory(composition, times, gamma=0.05)
    ours.smooth(sweeps=3, window=2)
    assert _dates(ours) == _their_dates(_package(composition, times, sweeps=3))


def test_sweeps_stop_when_nothing_moves_as_the_packages_do():
    """Many sweeps: the package stops when no posterior moves by more than 1e-6, and so
    does the history (a sweep more would move the last bits)."""
    composition, times = _games(dates=3, pairs=3)
    ours = SmoothedHistory(composition, times, gamma=0.05)
    ours.smooth(sweeps=30, window=2)
    theirs = _package(composition, times)
    _, sweeps = theirs.convergence(iterations=30, verbose=False)
    assert sweeps == 9
    assert _dates(ours) == _their_dates(theirs)


def test_an_extended_history_is_the_packages_build_of_every_date():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    assert grown.extend(composition, times)
    assert len(grown.dates) == 12
    assert _dates(grown) == _their_dates(_package(composition, times))


def test_an_extended_history_after_smoothing_takes_the_latest_forward_messages():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    grown.smooth(sweeps=4, window=3)
    assert grown.extend(composition, times)
    # each player's prior at date 8 is his forward message out of his latest date, widened
    # by one step's drift, as the package's build takes it
    date7, date8 = grown.dates[7], grown.dates[8]
    for player, prior in date8.forward.items():
        assert prior == forget(date7.forward_out(player), 0.05, 1)


def test_a_window_sweeps_only_the_latest_dates():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    grown.smooth(sweeps=4, window=2)
    before = _dates(grown)
    grown.extend(composition, times)
    grown.smooth(sweeps=4, window=2)
    after = _dates(grown)
    # dates 0-5 untouched; the two dates before the new ones (6, 7) and the new ones moved
    assert after[:6] == before[:6]
    assert before[7][0] != after[7][0]
    assert len(after) == 12


def test_the_latest_skills_are_the_packages_learning_curves_ends():
    composition, times = _games()
    ours = SmoothedHistory(composition, times, gamma=0.05)
    ours.smooth(sweeps=4, window=2)
    curves = _package(composition, times, sweeps=4).learning_curves()
    posterior, last_time = ours.latest()
    assert posterior == {p: (c[-1][1].mu, c[-1][1].sigma) for p, c in curves.items()}
    assert last_time == {p: c[-1][0] for p, c in curves.items()}


def test_a_game_not_later_than_the_history_is_refused_and_changes_nothing():
    composition, times = _games()
    grown = SmoothedHistory(composition[:8], times[:8], gamma=0.05)
    grown.smooth(sweeps=4, window=2)
    before = grown.latest()
    assert not grown.extend(composition[:8] + [composition[8]], times[:8] + [7])
    assert grown.latest() == before and len(grown.dates) == 8
