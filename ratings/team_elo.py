"""The multiplayer Elo methods for teams (bridge pairs): a team's rating is the mean of its
members', and every member takes the team's change.

Two update rules share one driver: the multielo model (:mod:`ratings.elo`) and the
ranking-probability model (:mod:`ratings.plackett_luce`), whose K is calibrated on the games
(prequential squared error, as its reference does).
"""

from __future__ import annotations

from typing import Callable, Hashable, Sequence

import numpy as np
from scipy.optimize import minimize_scalar

from ratings import elo, plackett_luce
from ratings.bridge import Ranking

UPDATES: dict[str, Callable] = {
    "elo": lambda ratings, places, k: elo.update(ratings, places, k),
    "dlo": lambda ratings, places, k: plackett_luce.update(ratings, places, k),
}


def replay(rankings: Sequence[Ranking], method: str, k: float, initial: float = 0.0,
           ratings: dict[Hashable, float] | None = None
           ) -> tuple[dict[Hashable, float], dict[Hashable, list[tuple[int, float]]], float]:
    """Ratings after the rankings in order, each player's history, and the prequential error.

    The error is the DLO reference's: per game, the mean of ((a - e) / (n - 1))^2 over teams,
    then the mean over games, with ``a`` the payoff (opponents beaten) and ``e`` its
    expectation under the pre-game ratings.
    """
    ratings = dict(ratings or {})
    history: dict[Hashable, list[tuple[int, float]]] = {}
    update = UPDATES[method]
    total = 0.0
    for number, ranking in enumerate(rankings, start=1):
        team_ratings = np.array([np.mean([ratings.get(p, initial) for p in team])
                                 for team in ranking.teams])
        n = len(team_ratings)
        error = (plackett_luce.payoffs(ranking.places)
                 - plackett_luce.expected_payoffs(team_ratings)) / (n - 1)
        total += float(np.mean(error ** 2))
        changes = update(team_ratings, ranking.places, k) - team_ratings
        for team, change in zip(ranking.teams, changes):
            for player in team:
                ratings[player] = ratings.get(player, initial) + float(change)
                history.setdefault(player, []).append((number, ratings[player]))
    return ratings, history, total / max(len(rankings), 1)


def calibrate(rankings: Sequence[Ranking], method: str, upper: float = 200.0) -> float:
    """K minimising the prequential error on [0, upper] (bounded Brent)."""
    result = minimize_scalar(lambda k: replay(rankings, method, k)[2], bounds=(0, upper),
                             method="bounded", options={"xatol": 1e-3})
    return float(result.x)


def pairwise_scores(rankings: Sequence[Ranking], strength: Callable[[tuple], float]
                    ) -> dict[str, float]:
    """Log-loss and accuracy of P(team i ahead of team j) over every decided pair of teams.

    ``strength`` maps a team to a rating on the Elo scale (400 points = factor 10 in odds).
    """
    losses, hits = [], []
    for ranking in rankings:
        values = [strength(team) for team in ranking.teams]
        for i in range(len(values)):
            for j in range(i + 1, len(values)):
                if ranking.places[i] == ranking.places[j]:
                    continue
                p = 1 / (1 + 10 ** ((values[j] - values[i]) / 400))
                ahead = ranking.places[i] < ranking.places[j]
                p_true = min(max(p if ahead else 1 - p, 1e-12), 1 - 1e-12)
                losses.append(-np.log(p_true))
                hits.append(p_true > 0.5)
    return {"log_loss": float(np.mean(losses)) if losses else None,
            "accuracy": float(np.mean(hits)) if hits else None, "test_games": len(losses)}
