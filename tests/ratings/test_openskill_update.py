"""OpenSkill's Plackett-Luce update on plain floats (ratings/rivals/openskill_update.py),
checked bit for bit against the ``openskill`` package's ``rate``."""

import numpy as np
import pytest

pytest.importorskip("openskill")

from openskill.models import PlackettLuce  # noqa: E402

from bridgerank.ratings.rivals.openskill_update import MU, SIGMA, rate_ranking  # noqa: E402


def _theirs(model, teams, ratings, ranks):
    """The package's ``rate`` on one object per player (a player in two teams is the same
    object twice, as the rival's dictionary of ratings gives it)."""
    objects = {p: model.rating(mu=mu, sigma=sigma) for p, (mu, sigma) in ratings.items()}
    rated = model.rate([[objects[p] for p in team] for team in teams], ranks=ranks)
    return {p: (r.mu, r.sigma) for team, new in zip(teams, rated) for p, r in zip(team, new)}


@pytest.mark.parametrize("size", [1, 2, 3])
@pytest.mark.parametrize("teams", [2, 3, 10, 30])
def test_a_rankings_update_is_the_packages_to_the_last_bit(teams, size):
    rng = np.random.default_rng(10 * teams + size)
    for beta in (2.0, 25 / 6, 8.0):
        model = PlackettLuce(beta=beta)
        for levels in (teams, max(teams // 3, 1)):  # every place apart; many tied
            players = rng.permutation(teams * size).reshape(teams, size).tolist()
            ratings = {
                p: (float(rng.normal(25, 4)), float(rng.uniform(0.5, 9)))
                for p in range(teams * size)
            }
            ranks = [float(rank) for rank in rng.integers(1, levels + 1, teams)]
            assert rate_ranking(players, ratings, ranks, beta) == _theirs(
                model, players, ratings, ranks
            )


@pytest.mark.parametrize("teams", [2, 5, 12])
def test_a_player_in_two_teams_is_rated_as_the_package_rates_one_object_twice(teams):
    """Two tables of a deal under one name: the package widens, sums and moves the one
    object each time it comes; so does the update, to the last bit."""
    rng = np.random.default_rng(teams)
    model = PlackettLuce(beta=25 / 6)
    for _ in range(20):
        players = rng.permutation(2 * teams).reshape(teams, 2).tolist()
        players[-1][1] = players[0][0]  # the first team's first player also in the last team
        ratings = {
            p: (float(rng.normal(25, 4)), float(rng.uniform(0.5, 9))) for p in range(2 * teams)
        }
        ranks = [float(rank) for rank in rng.integers(1, teams + 1, teams)]
        found = rate_ranking(players, ratings, ranks, 25 / 6)
        assert found == _theirs(model, players, ratings, ranks)


def test_the_defaults_are_the_packages():
    rating = PlackettLuce().rating()
    assert (MU, SIGMA) == (rating.mu, rating.sigma)
