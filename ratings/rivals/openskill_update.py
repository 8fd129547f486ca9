"""OpenSkill's Plackett-Luce update of one ranking of teams, on plain floats.

The model of the ``openskill`` package (version 6, ``PlackettLuce`` with its defaults: Weng
and Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4).
Its ``rate`` deep-copies every rating object it is given, which cost more than the update on
the rate stage's thousands of rankings; here a rating is a ``(mu, sigma)`` tuple and the
update one function. It takes the package's steps in the package's order, so the figures
are the package's to the last bit (the tests compare them):

1. every player's ``sigma`` widened by the dynamics ``tau``: ``sqrt(sigma^2 + tau^2)``;
2. the teams sorted by rank (stably), a team's ``mu`` and ``sigma^2`` its players' sums;
3. ``c = sqrt(sum over teams of (sigma_t^2 + beta^2))``; for each team ``q`` the sum of
   ``exp(mu_i / c)`` over the teams ``i`` ranked no better than ``q``;
4. each team's ``omega`` and ``delta`` over the teams ranked no worse, ties shared (``a_q``
   teams at ``q``'s rank), scaled by ``sigma_t^2 / c`` and ``sigma_t^2 / c^2`` times
   ``gamma = sigma_t / c``;
5. each player's ``mu`` moved by its share ``sigma^2 / sigma_t^2`` of ``omega``, ``sigma``
   shrunk by ``sqrt(max(1 - share * delta, kappa))``.

The package then averages the moves of tied teams, but over objects it has already moved in
place, so every average is zero: that step changes nothing and is left out.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from typing import Hashable, Mapping, Sequence, TypeVar

__all__ = ["KAPPA", "MU", "NEW", "SIGMA", "TAU", "Rating", "rate_ranking"]

Rating = tuple[float, float]  # mu, sigma
Player = TypeVar("Player", bound=Hashable)

# the package's defaults
MU = 25.0
SIGMA = 25.0 / 3.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
NEW: Rating = (MU, SIGMA)  # a player not rated yet


def _ordinal(rating: Rating) -> float:
    """The package's ordinal, ``mu - 3 sigma``: the order in which a team's players are
    summed."""
    return (rating[0] - 3.0 * rating[1]) + 0.0


def rate_ranking(
    teams: Sequence[Sequence[Player]],
    ratings: Mapping[Player, Rating],
    ranks: Sequence[float],
    beta: float,
) -> dict[Player, Rating]:
    """The ratings after one game: ``teams`` (each a list of players) finished at ``ranks``
    (1 the best; equal ranks a tie).

    A player in two teams of the game (two tables of a deal under one name) is one rating,
    as he is one object to the package: widened once for each place he holds, summed into
    each team as he then stands, moved by each team in turn.

    Parameters
    ----------
    teams : sequence of sequences of hashable
        Two teams or more.
    ratings : mapping
        Every player's ``(mu, sigma)`` before the game.
    ranks : sequence of float
        One per team.
    beta : float
        The model's performance noise.

    Returns
    -------
    dict
        The players' ratings after the game.
    """
    tau_squared = TAU * TAU
    state = {player: ratings[player] for team in teams for player in team}
    for team in teams:
        for player in team:
            mu, sigma = state[player]
            state[player] = (mu, math.sqrt(sigma * sigma + tau_squared))
    order = sorted(range(len(teams)), key=lambda index: ranks[index])
    ranked = [teams[index] for index in order]
    rank = [int(value) for value in sorted(ranks)]
    count = len(ranked)
    team_mu, team_variance = [], []
    for team in ranked:
        mu_sum = variance_sum = 0.0
        members = [state[player] for player in team]
        if len(members) > 2:  # two floats add alike in either order: no sort needed
            members.sort(key=_ordinal, reverse=True)
        for mu, sigma in members:
            mu_sum += mu
            variance_sum += sigma**2
        team_mu.append(mu_sum)
        team_variance.append(variance_sum)
    collective = 0.0
    for variance in team_variance:
        collective += variance + beta**2
    c = math.sqrt(collective)
    strength = [math.exp(mu / c) for mu in team_mu]
    # the teams ranked no worse than team i are the first reach[i] (the teams are sorted)
    reach = [bisect_right(rank, own) for own in rank]
    sum_q = [0.0] * count
    for i in range(count):
        for q in range(reach[i]):
            sum_q[q] += strength[i]
    tied = [bisect_right(rank, own) - bisect_left(rank, own) for own in rank]
    for i, team in enumerate(ranked):
        omega = delta = 0.0
        for q in range(reach[i]):
            share = strength[i] / sum_q[q]
            delta += share * (1 - share) / tied[q]
            if q == i:
                omega += (1 - share) / tied[q]
            else:
                omega -= share / tied[q]
        variance = team_variance[i]
        omega *= variance / c
        delta *= variance / c**2
        delta *= math.sqrt(variance) / c
        for player in team:
            mu, sigma = state[player]
            part = sigma**2 / variance
            state[player] = (mu + part * omega, sigma * math.sqrt(max(1 - part * delta, KAPPA)))
    return state
