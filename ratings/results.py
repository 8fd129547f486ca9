"""Ratings of every player from a database's results, and how well each method predicts
results it has not seen: the work of the ``rate`` stage, without the database.

See :mod:`bridgerank.ratings.stage` for the games and the methods; :func:`rate_results`
takes the boards as rows and returns the tables' rows.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Hashable, Mapping

import numpy as np

from bridgerank.core.sections import RateSettings
from bridgerank.ratings.baselines import board_shares, calibrated_elo, outcome, ranking_shares
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
)
from bridgerank.ratings.registry import BoardMethod, Method, StudyInputs, registry
from bridgerank.ratings.replay import Games
from bridgerank.ratings.skill import read_spread
from bridgerank.ratings.uncertainty import bootstrap_intervals

__all__ = ["RatingResults", "elo_methods", "rate_results", "validate"]

BOARDS_TASK = "boards (team and single-table)"
RANKINGS_TASK = "pair rankings"


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


# --- the Bradley-Terry family as methods of the boards kind -------------------------------


def _fit_hbt(edges, n: int, prior: bool) -> np.ndarray:
    # HBT and BT are concave: Newton. GBT is not: its own iteration, accelerated.
    return fit_hbt_newton(Hypergraph(edges, n), prior=prior).s


def _fit_gbt(edges, n: int, prior: bool) -> np.ndarray:
    return fit(
        Hypergraph(edges, n, reduce_overlap=False),
        "gbt-newman",
        prior=prior,
        tol=1e-8,
        accelerate=True,
    ).s


def _fit_bt(edges, n: int, prior: bool) -> np.ndarray:
    return fit_hbt_newton(Hypergraph(_pairs(edges), n), prior=prior).s  # classical BT


def _hbt_probability(s: np.ndarray) -> Callable[[list[int], list[int]], float]:
    return lambda a, b: 1 / (1 + np.exp(s[b].sum() - s[a].sum()))


def _gbt_probability(s: np.ndarray) -> Callable[[list[int], list[int]], float]:
    pi = np.exp(s)
    return lambda a, b: pi[a].sum() / (pi[a].sum() + pi[b].sum())


def _bt_probability(s: np.ndarray) -> Callable[[list[int], list[int]], float]:
    return lambda a, b: float(np.mean(1 / (1 + np.exp(s[b][None, :] - s[a][:, None]))))


def strength_method(
    fit_strengths: Callable[[list, int, bool], np.ndarray],
    probability: Callable[[np.ndarray], Callable[[list[int], list[int]], float]],
    intervals: str | None = None,
) -> Callable[[list[TeamGame], StudyInputs], BoardMethod]:
    """A boards method from a fit of log-strengths on hyperedges (``fit_strengths(edges,
    players, prior)``) and the probability that team A beats team B under them; with
    ``intervals`` (a model of :func:`~bridgerank.ratings.uncertainty.bootstrap_intervals`),
    the kept ratings have bootstrap intervals (``[rate] bootstrap_resamples``)."""

    def make(games: list[TeamGame], inputs: StudyInputs) -> BoardMethod:
        settings = inputs.settings
        if settings is None:
            raise ValueError("the boards methods need the [rate] settings")
        index = index_players(games)  # every player of every game: one numbering

        def predict(train: list[TeamGame], test: list[TeamGame]) -> np.ndarray:
            edges = _hyperedges(train, index, settings.weighting)
            s = np.nan_to_num(fit_strengths(edges, len(index), settings.prior))
            chance = probability(s)
            return np.array(
                [chance([index[p] for p in g.team_a], [index[p] for p in g.team_b]) for g in test]
            )

        def rate(games: list[TeamGame]) -> dict[Hashable, tuple]:
            edges = _hyperedges(games, index, settings.weighting)
            s = fit_strengths(edges, len(index), settings.prior)
            low = high = None
            if intervals and settings.bootstrap_resamples:
                low, high = bootstrap_intervals(
                    edges, len(index), intervals, settings.bootstrap_resamples
                )
            return {
                player: (
                    float(s[i]),
                    None if low is None else float(low[i]),
                    None if high is None else float(high[i]),
                )
                for player, i in index.items()
            }

        return BoardMethod(predict, rate)

    return make


HBT = Method(
    "hbt",
    "hypergraph Bradley-Terry: a team's strength multiplies its players'",
    strength_method(_fit_hbt, _hbt_probability, intervals="hbt"),
)
GBT = Method(
    "gbt",
    "generalized Bradley-Terry (Huang et al.): a team's strength adds its players'",
    strength_method(_fit_gbt, _gbt_probability),
)
BT = Method(
    "bt",
    "classical Bradley-Terry on the one-against-one games every board implies",
    strength_method(_fit_bt, _bt_probability),
)


def _scores(probabilities: np.ndarray, games: list[TeamGame]) -> dict[str, float | None]:
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray([outcome(game) for game in games])
    decided = y != 0.5
    accuracy = float(np.mean((p[decided] > 0.5) == (y[decided] == 1))) if decided.any() else None
    return {"log_loss": log_loss(p, y), "accuracy": accuracy, "test_games": len(games)}


def validate(
    games: list[TeamGame], split: float, methods: Mapping[str, BoardMethod]
) -> list[dict[str, Any]]:
    """Fit each method on the earliest ``split`` of the games, score it on the rest."""
    cut = int(len(games) * split)
    train, test = games[:cut], games[cut:]
    if not train or not test:
        return []
    return [
        {"method": name, **_scores(method.predict(train, test), test)}
        for name, method in methods.items()
    ]


# --- pair rankings: multiplayer Elo and the win rate ----------------------------------------


def elo_methods(
    rankings: list[Ranking], split: float, min_games: int, calibration: int = 0
) -> tuple[list[dict], list[dict], dict[str, Any], dict]:
    """Multiplayer Elo on pair rankings: ratings, validation rows, skill-o-meter, histories.

    K is calibrated on the first ``calibration`` rankings of each set (0: all of them): the
    prequential search replays its rankings some twenty times.
    """

    def head(items: list[Ranking]) -> Games:
        return Games.from_rankings(items[:calibration] if calibration else items)

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
            _, trained_run = calibrated_elo(train_games, method, head(train), xatol=1e-3)
            trained = trained_run.by_player(train_games)

            def mean_rating(team: tuple, by_player: dict[Hashable, float] = trained) -> float:
                return float(np.mean([by_player.get(p, 0.0) for p in team]))

            validation.append(
                {"task": RANKINGS_TASK, "method": method, **pairwise_scores(test, mean_rating)}
            )
        k, outcome_run = calibrated_elo(
            all_games, method, head(rankings), xatol=1e-3, keep_history=True
        )
        ratings = outcome_run.by_player(all_games)
        histories[method] = outcome_run.history_by_player(all_games)
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
        share = ranking_shares(train)

        def logit(t):
            value = float(np.clip(np.mean([share.get(p, 0.5) for p in t]), 0.01, 0.99))
            return 400 * np.log10(value / (1 - value))

        validation.append(
            {"task": RANKINGS_TASK, "method": "win_rate", **pairwise_scores(test, logit)}
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

    Notes
    -----
    The methods of team and single-table boards are those of the boards registry
    (:mod:`registry`); those that keep ratings are fitted again on every game for the
    ``ratings`` table.
    """
    team = team_games(boards, names)
    single = single_table_games(boards, names, par_of)
    games = sorted(team + single, key=lambda game: game.when)
    rows: list[dict[str, Any]] = []
    validation: list[dict[str, Any]] = []
    if games:
        played = board_shares(games)
        methods = registry("boards").make(games, StudyInputs(section, points))
        for name, method in methods.items():
            if method.rate is None:
                continue
            rows.extend(
                {
                    "player": str(player),
                    "method": name,
                    "rating": rating,
                    "low": low,
                    "high": high,
                    "games": played[player][1],
                }
                for player, (rating, low, high) in method.rate(games).items()
            )
        validation = [
            {"task": BOARDS_TASK, **row} for row in validate(games, section.train_share, methods)
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
