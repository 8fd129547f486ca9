"""Sweeps a colour class at a time: the player-by-player sweep in colour order, the spec's
fixed points."""

import json

import numpy as np
import pytest

from bridgerank.ratings.bt import MODELS, Hypergraph, fit
from bridgerank.ratings.bt_colours import ColouredSweep, colour_classes
from tests.paths import TEST_DATA

CASES = json.loads((TEST_DATA / "bt_cases.json").read_text())


def _bridge_like_games(seed: int = 3) -> tuple[list, int]:
    """Team games of four against four, teams drawn from a few clubs, some of them ties."""
    rng = np.random.default_rng(seed)
    players = 60
    games = []
    for _ in range(400):
        club = rng.integers(0, 4) * 15
        seats = club + rng.choice(15, 8, replace=False)
        weight = 0.5 if rng.random() < 0.1 else 1.0
        games.append((tuple(seats[:4].tolist()), tuple(seats[4:].tolist()), weight))
    return games, players


def test_the_classes_share_no_game_and_hold_every_player():
    games, players = _bridge_like_games()
    graph = Hypergraph(games, players, reduce_overlap=False)
    classes = colour_classes(graph, np.arange(players))
    assert sorted(np.concatenate(classes).tolist()) == list(range(players))
    both = (graph.win + graph.lose).tocsr()
    for members in classes:
        # no game holds two players of one class
        assert np.asarray(both[members].sum(axis=0)).max() <= 1
    assert len(classes) < players / 2  # players of different clubs share a class


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("prior", [True, False])
def test_a_coloured_sweep_is_the_player_by_player_sweep_in_colour_order(model, prior):
    games, players = _bridge_like_games()
    graph = Hypergraph(games, players, reduce_overlap=model == "hbt")
    played = np.arange(players)
    update, log_space = MODELS[model]
    start = np.random.default_rng(5).normal(0, 0.3, players)

    def team_sums(values):
        base = values if log_space else np.exp(values)
        return graph.win.T @ base, graph.lose.T @ base

    # the papers' update, one player at a time, the players taken class by class
    expected = start.copy()
    team_w, team_l = team_sums(expected)
    for k in np.concatenate(colour_classes(graph, played)).tolist():
        delta = update(graph, expected, k, team_w, team_l, prior)
        old = expected[k]
        expected[k] = old + delta
        change = delta if log_space else np.exp(expected[k]) - np.exp(old)
        team_w[graph.games_won(k)] += change
        team_l[graph.games_lost(k)] += change

    coloured = start.copy()
    ColouredSweep(graph, model, played, prior)(coloured, *team_sums(coloured))
    assert coloured == pytest.approx(expected, abs=1e-12)
    assert not np.allclose(coloured, start)


@pytest.mark.parametrize("case", CASES["hyper"], ids=lambda c: c["desc"])
def test_coloured_fits_reach_the_spec_estimates(case):
    n = 1 + max(max(winners + losers) for winners, losers, _ in case["games"])
    graph = Hypergraph(
        [tuple(game) for game in case["games"]], n, reduce_overlap=not case.get("overlap", False)
    )
    found = fit(graph, case["model"], prior=case.get("prior", False), tol=1e-12, colours=True)
    assert found.converged
    if "s" in case:
        assert found.s == pytest.approx(case["s"], abs=1e-6)
    if "pi" in case:
        assert found.pi == pytest.approx(case["pi"], abs=1e-6)
