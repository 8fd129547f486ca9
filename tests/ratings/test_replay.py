"""The compiled replay driver against the models' own one-game updates."""

import numpy as np
import pytest

from bridgerank.core.errors import InvalidGame
from bridgerank.ratings import elo, plackett_luce
from bridgerank.ratings.games import Ranking
from bridgerank.ratings.replay import Games, calibrate, replay

UPDATES = {"elo": elo.update, "dlo": plackett_luce.update}


def _random_rankings(seed: int, count: int = 300, skill: float = 0.0) -> list[Ranking]:
    """Pairs of 40 players; places random (ties happen), or by hidden skill plus noise."""
    rng = np.random.default_rng(seed)
    hidden = rng.normal(0, 1, 40)
    rankings = []
    for number in range(count):
        size = int(rng.integers(2, 9))
        players = rng.choice(40, 2 * size, replace=False).reshape(size, 2)
        teams = [(f"p{a}", f"p{b}") for a, b in players]
        if skill:
            performance = skill * hidden[players].sum(axis=1) + rng.normal(0, 1, size)
            places = list(np.argsort(np.argsort(-performance)) + 1)
        else:
            places = list(rng.integers(1, size + 1, size))
        rankings.append(Ranking(teams, places, (number,)))
    return rankings


def _one_game_at_a_time(rankings, method, k):
    """The plain reading of the method: team = mean of members, members take the change."""
    ratings, history, total = {}, {}, 0.0
    for number, ranking in enumerate(rankings, start=1):
        team = np.array([np.mean([ratings.get(p, 0.0) for p in t]) for t in ranking.teams])
        n = len(team)
        error = (plackett_luce.payoffs(ranking.places) - plackett_luce.expected_payoffs(team)) / (
            n - 1
        )
        total += float(np.mean(error**2))
        for t, change in zip(ranking.teams, UPDATES[method](team, ranking.places, k) - team):
            for player in t:
                ratings[player] = ratings.get(player, 0.0) + float(change)
                history.setdefault(player, []).append((number, ratings[player]))
    return ratings, history, total / len(rankings)


@pytest.mark.parametrize("method", ["elo", "dlo"])
def test_replay_equals_the_models_one_game_updates(method):
    rankings = _random_rankings(5)
    games = Games.from_rankings(rankings)
    outcome = replay(games, method, 24.0, keep_history=True)
    ratings, history, loss = _one_game_at_a_time(rankings, method, 24.0)
    assert outcome.by_player(games) == pytest.approx(ratings, abs=1e-9)
    assert outcome.loss == pytest.approx(loss, abs=1e-12)
    got = outcome.history_by_player(games)
    assert got.keys() == history.keys()
    for player, points in history.items():
        assert [n for n, _ in got[player]] == [n for n, _ in points]
        assert [v for _, v in got[player]] == pytest.approx([v for _, v in points], abs=1e-9)


def test_a_player_in_two_teams_of_one_game_takes_both_changes():
    rankings = [Ranking([("a", "b"), ("a", "c"), ("d", "e")], [1, 2, 3], (0,))]
    games = Games.from_rankings(rankings)
    ratings, _, _ = _one_game_at_a_time(rankings, "dlo", 32.0)
    assert replay(games, "dlo", 32.0).by_player(games) == pytest.approx(ratings)


def test_calibrated_k_minimises_the_loss_and_bad_games_are_refused():
    games = Games.from_rankings(_random_rankings(7, 400, skill=1.0))
    k, loss = calibrate(games, "dlo")
    assert 1 < k < 200 and loss == pytest.approx(replay(games, "dlo", k).loss)
    assert loss <= min(replay(games, "dlo", k * f).loss for f in (0.5, 0.9, 1.1, 2.0))
    with pytest.raises(InvalidGame, match="two teams"):
        Games.from_matches([([0], [1])], 3)
    with pytest.raises(InvalidGame, match="unknown method"):
        replay(games, "glicko", 10.0)


@pytest.mark.parametrize("method", ["elo", "dlo"])
def test_a_replay_goes_on_from_earlier_ratings_as_one_replay_of_all(method):
    games = Games.from_rankings(_random_rankings(8))
    whole = replay(games, method, 24.0)
    first = Games(games.players, games.members[:120], games.places[:120])
    rest = Games(games.players, games.members[120:], games.places[120:])
    went_on = replay(rest, method, 24.0, start=replay(first, method, 24.0).ratings)
    np.testing.assert_array_equal(went_on.ratings, whole.ratings)


def test_the_session_elo_replays_only_the_deals_a_training_set_adds(monkeypatch):
    """Walked forward, the session baselines' kept replay gives what a replay of every
    training deal from scratch gives; a set that is not an extension is replayed whole."""
    from bridgerank.ratings import baselines
    from bridgerank.ratings.baselines import ELO_OPPONENTS_SESSIONS, _later_deals

    whole_replays = []
    calibrated = baselines.calibrated_elo
    monkeypatch.setattr(
        baselines,
        "calibrated_elo",
        lambda games, *args, **kw: (
            whole_replays.append(len(games)) or calibrated(games, *args, **kw)
        ),
    )
    from bridgerank.ratings.headline.sessions import session_target
    from bridgerank.ratings.holdout import walk_forward
    from bridgerank.ratings.registry import StudyInputs
    from tests.ratings.test_rivals import _club

    _, tables = _club(sessions=14)
    shared: dict = {}
    kept = ELO_OPPONENTS_SESSIONS.make(tables, StudyInputs(None, shared=shared))
    run = walk_forward(tables, {"elo": kept}, session_target)
    k = shared[("elo sessions", "elo")]["k"]
    assert len(whole_replays) == 1  # the first training set; the later ones went on from it

    def fresh(train, test, target):  # a new replay for every training set, K as the kept one's
        alone = {("elo sessions", "elo"): {"k": k}}
        return ELO_OPPONENTS_SESSIONS.make(tables, StudyInputs(None, shared=alone))(
            train, test, target
        )

    again = walk_forward(tables, {"elo": fresh}, session_target)
    np.testing.assert_allclose(run.predicted("elo"), again.predicted("elo"), rtol=0, atol=1e-12)
    assert _later_deals(np.array([1, 2]), np.array([1, 2, 5])).tolist() == [5]
    assert _later_deals(np.array([1, 5]), np.array([1, 2, 5])) is None
    assert _later_deals(None, np.array([1, 2])) is None
