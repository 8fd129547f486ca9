"""Ratings of every player from a database's results, and how well each method predicts
results it has not seen: the work of the ``rate`` stage, without the database.

See :mod:`bridgerank.ratings.stage` for the games and the methods; :func:`rate_results`
takes the boards as rows and returns the tables' rows.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Hashable, Mapping

import numpy as np
from scipy.optimize import minimize_scalar

from bridgerank.core.sections import RateSettings
from bridgerank.ratings.bt import Hypergraph, fit, fit_hbt_newton
from bridgerank.ratings.games import (
    Ranking,
    TeamGame,
    index_players,
    log_loss,
    pair_rankings,
    pairwise_scores,
    single_table_games,
    team_games,
    win_rates,
)
from bridgerank.ratings.replay import Games, calibrate, replay
from bridgerank.ratings.skill import read_spread
from bridgerank.ratings.uncertainty import bootstrap_intervals

__all__ = ["RatingResults", "elo_methods", "rate_results", "validate"]


@dataclass
class RatingResults:
    """Rows of ``ratings``, ``rating_validation`` and ``rating_history``, and a summary."""

    ratings: list[dict[str, Any]] = field(default_factory=list)
    validation: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def _hyperedges(games: list[TeamGame], index: dict, weighting: str):
    return [
        (tuple(index[p] for p in winners), tuple(index[p] for p in losers), weight)
        for game in games
        for winners, losers, weight in game.hyperedges(weighting)
    ]


def _pairs(edges):
    """Each team game as the 16 one-vs-one games it implies, weight shared equally."""
    out: list[tuple[tuple[int], tuple[int], float]] = []
    for winners, losers, weight in edges:
        share = weight / (len(winners) * len(losers))
        out.extend(((i,), (j,), share) for i in winners for j in losers)
    return out


def _fit_strengths(method: str, edges, n: int, prior: bool) -> np.ndarray:
    # HBT and BT are concave: Newton. GBT is not: its own iteration, accelerated.
    if method == "hbt":
        return fit_hbt_newton(Hypergraph(edges, n), prior=prior).s
    if method == "gbt":
        return fit(
            Hypergraph(edges, n, reduce_overlap=False),
            "gbt-newman",
            prior=prior,
            tol=1e-8,
            accelerate=True,
        ).s
    return fit_hbt_newton(Hypergraph(_pairs(edges), n), prior=prior).s  # classical BT


def _team_probability(method: str, s: np.ndarray) -> Callable[[list[int], list[int]], float]:
    if method == "hbt":
        return lambda a, b: 1 / (1 + np.exp(s[b].sum() - s[a].sum()))
    if method == "gbt":
        pi = np.exp(s)
        return lambda a, b: pi[a].sum() / (pi[a].sum() + pi[b].sum())
    return lambda a, b: float(np.mean(1 / (1 + np.exp(s[b][None, :] - s[a][:, None]))))


def _outcome(game: TeamGame) -> float:
    return 1.0 if game.net > 0 else 0.0 if game.net < 0 else 0.5


def _scores(probabilities: list[float], games: list[TeamGame]) -> dict[str, float | None]:
    p = np.asarray(probabilities)
    y = np.asarray([_outcome(game) for game in games])
    decided = y != 0.5
    accuracy = float(np.mean((p[decided] > 0.5) == (y[decided] == 1))) if decided.any() else None
    return {"log_loss": log_loss(p, y), "accuracy": accuracy, "test_games": len(games)}


def _points_baseline(train: list[TeamGame], test: list[TeamGame], points: dict) -> list[float]:
    """P(A wins) = sigma(beta * (sum log(1 + mp) of A - of B)), beta fitted on training games."""

    def strength(team):
        return sum(np.log1p(points.get(player) or 0.0) for player in team)

    x_train = np.array([strength(g.team_a) - strength(g.team_b) for g in train])
    y_train = np.array([_outcome(g) for g in train])

    def loss(beta: float) -> float:
        return log_loss(1 / (1 + np.exp(-beta * x_train)), y_train)

    beta = minimize_scalar(loss, bounds=(-5, 5), method="bounded").x if len(train) else 0.0
    return [
        float(1 / (1 + np.exp(-beta * (strength(g.team_a) - strength(g.team_b))))) for g in test
    ]


def validate(
    games: list[TeamGame], split: float, weighting: str, prior: bool, points: dict
) -> list[dict[str, Any]]:
    """Fit each method on the earliest ``split`` of the games, score it on the rest."""
    cut = int(len(games) * split)
    train, test = games[:cut], games[cut:]
    if not train or not test:
        return []
    index = index_players(games)
    edges = _hyperedges(train, index, weighting)
    rows = []
    for method in ("hbt", "gbt", "bt"):
        s = np.nan_to_num(_fit_strengths(method, edges, len(index), prior))
        probability = _team_probability(method, s)
        predicted = [
            probability([index[p] for p in g.team_a], [index[p] for p in g.team_b]) for g in test
        ]
        rows.append({"method": method, **_scores(predicted, test)})
    rates = win_rates(train)
    predicted = [
        float(
            np.clip(
                0.5
                + np.mean([rates.get(p, (0.5, 0))[0] for p in g.team_a])
                - np.mean([rates.get(p, (0.5, 0))[0] for p in g.team_b]),
                0.01,
                0.99,
            )
        )
        for g in test
    ]
    rows.append({"method": "win rate", **_scores(predicted, test)})
    rows.append(
        {"method": "WBF masterpoints", **_scores(_points_baseline(train, test, points), test)}
    )
    return rows


def _share_strength(rankings: list[Ranking]) -> dict:
    """Share of opponents each player's pairs finished ahead of (ties half), per player."""
    beaten: dict = {}
    met: dict = {}
    for ranking in rankings:
        for i, team in enumerate(ranking.teams):
            wins = sum(
                1.0 if ranking.places[i] < other else 0.5 if ranking.places[i] == other else 0.0
                for j, other in enumerate(ranking.places)
                if j != i
            )
            for player in team:
                beaten[player] = beaten.get(player, 0.0) + wins
                met[player] = met.get(player, 0) + len(ranking.teams) - 1
    return {player: beaten[player] / met[player] for player in met}


def elo_methods(
    rankings: list[Ranking], split: float, min_games: int, calibration: int = 0
) -> tuple[list[dict], list[dict], dict[str, Any], dict]:
    """Multiplayer Elo on pair rankings: ratings, validation rows, skill-o-meter, histories.

    K is calibrated on the first ``calibration`` rankings of each set (0: all of them): the
    prequential search replays its rankings some twenty times.
    """

    def head(items: list[Ranking]) -> list[Ranking]:
        return items[:calibration] if calibration else items

    cut = int(len(rankings) * split)
    train, test = rankings[:cut], rankings[cut:]
    rows: list[dict[str, Any]] = []
    validation: list[dict[str, Any]] = []
    histories: dict[str, Any] = {}
    verdict: dict[str, Any] = {}
    games: dict = {}
    for ranking in rankings:
        for team in ranking.teams:
            for player in team:
                games[player] = games.get(player, 0) + 1
    train_games, all_games = Games.from_rankings(train), Games.from_rankings(rankings)
    for method in ("elo", "dlo"):
        if train and test:
            k_train, _ = calibrate(Games.from_rankings(head(train)), method, xatol=1e-3)
            trained = replay(train_games, method, k_train).by_player(train_games)

            def mean_rating(team: tuple, by_player: dict[Hashable, float] = trained) -> float:
                return float(np.mean([by_player.get(p, 0.0) for p in team]))

            validation.append(
                {"task": "pair rankings", "method": method, **pairwise_scores(test, mean_rating)}
            )
        k, _ = calibrate(Games.from_rankings(head(rankings)), method, xatol=1e-3)
        outcome = replay(all_games, method, k, keep_history=True)
        ratings = outcome.by_player(all_games)
        histories[method] = outcome.history_by_player(all_games)
        rows.extend(
            {
                "player": str(player),
                "method": method,
                "rating": value,
                "low": None,
                "high": None,
                "games": games[player],
            }
            for player, value in ratings.items()
        )
        if method == "dlo":
            verdict = asdict(
                read_spread(
                    k, list(ratings.values()), [games[player] for player in ratings], min_games
                )
            )
    if train and test:
        share = _share_strength(train)

        def logit(t):
            value = float(np.clip(np.mean([share.get(p, 0.5) for p in t]), 0.01, 0.99))
            return 400 * np.log10(value / (1 - value))

        validation.append(
            {"task": "pair rankings", "method": "win rate", **pairwise_scores(test, logit)}
        )
    return rows, validation, verdict, histories


def rate_results(
    boards: list[dict[str, Any]],
    names: dict[str, str],
    points: dict[str, float],
    par_of: Callable[[Mapping[str, Any]], int | None],
    section: RateSettings,
) -> RatingResults:
    """Rate every player from the boards; validate every method on the latest games.

    Parameters
    ----------
    boards : list of dict
        Rows of ``boards`` (the columns of :data:`bridgerank.ratings.stage.BOARD_COLUMNS`).
    names : dict
        Raw name -> player name (the match stage's verdicts; others stand for themselves).
    points : dict
        Player name -> WBF open masterpoints, for the baseline.
    par_of : callable
        The double dummy par of a board for North-South, or None when it is not known.
    section : RateSettings
    """
    team = team_games(boards, names)
    single = single_table_games(boards, names, par_of)
    games = sorted(team + single, key=lambda game: game.when)
    index = index_players(games)
    players = list(index)
    rows: list[dict[str, Any]] = []
    validation: list[dict[str, Any]] = []
    if games:
        edges = _hyperedges(games, index, section.weighting)
        played = win_rates(games)
        low = high = None
        if section.bootstrap_resamples:
            low, high = bootstrap_intervals(edges, len(index), "hbt", section.bootstrap_resamples)
        for method in ("hbt", "gbt", "bt"):
            s = _fit_strengths(method, edges, len(index), section.prior)
            for i, player in enumerate(players):
                rows.append(
                    {
                        "player": str(player),
                        "method": method,
                        "rating": float(s[i]),
                        "low": float(low[i]) if method == "hbt" and low is not None else None,
                        "high": float(high[i]) if method == "hbt" and high is not None else None,
                        "games": played[player][1],
                    }
                )
        rows.extend(
            {
                "player": str(player),
                "method": "win rate",
                "rating": rate,
                "low": None,
                "high": None,
                "games": count,
            }
            for player, (rate, count) in played.items()
        )
        validation = [
            {"task": "boards (team and single-table)", **row}
            for row in validate(
                games, section.train_share, section.weighting, section.prior, points
            )
        ]
    rankings = pair_rankings(boards, names, section.min_tables)
    skill: dict[str, Any] = {}
    histories: dict = {}
    if rankings:
        elo_rows, elo_validation, skill, histories = elo_methods(
            rankings, section.train_share, section.regular_games, section.calibration_rankings
        )
        rows.extend(elo_rows)
        validation.extend(elo_validation)
    summary = {
        "team_games": len(team),
        "single_table_games": len(single),
        "pair_rankings": len(rankings),
        "players": len({row["player"] for row in rows}),
        "validation": {
            f"{row['task']}: {row['method']}": round(row["log_loss"], 4)
            for row in validation
            if row["log_loss"] is not None
        },
        "skill_o_meter": skill,
    }
    history_rows = [
        {"method": method, "player": str(player), "game": number, "rating": value}
        for method, history in histories.items()
        for player, points in history.items()
        for number, value in points
    ]
    return RatingResults(rows, validation, history_rows, summary)
