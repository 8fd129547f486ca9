"""Ratings of every player from a database's results, and how well each method predicts
results it has not seen: the work of the ``rate`` stage, without the database.

See :mod:`bridgerank.ratings.stage` for the games; the methods are those of the boards and
the rankings registries (:mod:`registry`; the Bradley-Terry family is defined here, the
baselines in :mod:`baselines`), each fitted on the earliest ``train_share`` of its games and
scored on the rest. :func:`rate_results` takes the boards as rows and returns the tables'
rows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Hashable, Mapping

import numpy as np

from bridgerank.core.sections import RateSettings
from bridgerank.ratings.baselines import board_shares, outcome
from bridgerank.ratings.bt import Hypergraph, fit, fit_hbt_newton
from bridgerank.ratings.games import (
    TeamGame,
    index_players,
    log_loss,
    pair_rankings,
    pairwise_scores,
    single_table_games,
    team_games,
)
from bridgerank.ratings.registry import Method, Rated, Registry, SplitMethod, StudyInputs, registry
from bridgerank.ratings.skill import read_spread
from bridgerank.ratings.summaries import ResultsSummary, SkillSummary
from bridgerank.ratings.uncertainty import bootstrap_intervals

__all__ = ["RatingResults", "rate_results", "validate"]

BOARDS_TASK = "boards (team and single-table)"
RANKINGS_TASK = "pair rankings"


@dataclass
class RatingResults:
    """Rows of ``ratings``, ``rating_validation`` and ``rating_history``, and a summary."""

    ratings: list[dict[str, Any]] = field(default_factory=list)
    validation: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    summary: ResultsSummary = field(default_factory=ResultsSummary)


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
        colours=True,
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
) -> Callable[[list[TeamGame], StudyInputs], SplitMethod]:
    """A boards method from a fit of log-strengths on hyperedges (``fit_strengths(edges,
    players, prior)``) and the probability that team A beats team B under them; with
    ``intervals`` (a model of :func:`~bridgerank.ratings.uncertainty.bootstrap_intervals`),
    the kept ratings have bootstrap intervals (``[rate] bootstrap_resamples``)."""

    def make(games: list[TeamGame], inputs: StudyInputs) -> SplitMethod:
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

        def rate(games: list[TeamGame]) -> Rated:
            edges = _hyperedges(games, index, settings.weighting)
            s = fit_strengths(edges, len(index), settings.prior)
            low = high = None
            if intervals and settings.bootstrap_resamples:
                low, high = bootstrap_intervals(
                    edges,
                    len(index),
                    intervals,
                    settings.bootstrap_resamples,
                    start=s,
                )
            return Rated(
                {
                    player: (
                        float(s[i]),
                        None if low is None else float(low[i]),
                        None if high is None else float(high[i]),
                    )
                    for player, i in index.items()
                }
            )

        return SplitMethod(predict, rate)

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
    task: str,
    items: list,
    split: float,
    methods: Mapping[str, SplitMethod],
    scores: Callable[[Any, list], dict[str, float | None]],
) -> list[dict[str, Any]]:
    """Fit each method on the earliest ``split`` of the items (already in time order), score
    its predictions of the rest with ``scores(predicted, test)``: the boards' log-loss and
    accuracy on decided boards (:func:`_scores`), the rankings' on every decided pair of pairs
    (:func:`~bridgerank.ratings.games.pairwise_scores`)."""
    cut = int(len(items) * split)
    train, test = items[:cut], items[cut:]
    if not train or not test:
        return []
    return [
        {"task": task, "method": name, **scores(method.predict(train, test), test)}
        for name, method in methods.items()
    ]


def _kept(name: str, rated: Rated, played: Mapping[Hashable, int]) -> list[dict[str, Any]]:
    """The ``ratings`` rows of a method's kept ratings."""
    return [
        {
            "player": str(player),
            "method": name,
            "rating": rating,
            "low": low,
            "high": high,
            "games": played[player],
        }
        for player, (rating, low, high) in rated.ratings.items()
    ]


def rate_results(
    boards: list[dict[str, Any]],
    names: dict[str, str],
    points: dict[str, float],
    par_of: Callable[[Mapping[str, Any]], int | None],
    section: RateSettings,
    board_methods: Registry | None = None,
    ranking_methods: Registry | None = None,
) -> RatingResults:
    """Rate every player from the boards; validate every method on the latest games.

    Parameters
    ----------
    boards : list of dict
        Rows of ``boards`` (the columns of :data:`bridgerank.ratings.inputs.BOARD_COLUMNS`).
    names : dict
        Raw name -> player name (the match stage's verdicts; others stand for themselves).
    points : dict
        Player name -> WBF open masterpoints, for the baseline.
    par_of : callable
        The double dummy par of a board for North-South, or None when it is not known.
    section : RateSettings

    Notes
    -----
    The methods are those of the boards and the rankings registries (:mod:`registry`): each
    is fitted on the earliest ``train_share`` of its games and scored on the rest; those that
    keep ratings are fitted again on every game (the ``ratings`` table, and the histories of
    the replayed ones). The skill-o-meter reads the ranking-probability Elo (``dlo``): its K
    and its ratings of the regular players.
    """
    inputs = StudyInputs(section, points)
    team = team_games(boards, names)
    single = single_table_games(boards, names, par_of)
    games = sorted(team + single, key=lambda game: game.when)
    rows: list[dict[str, Any]] = []
    validation: list[dict[str, Any]] = []
    if games:
        played = {player: count for player, (_, count) in board_shares(games).items()}
        methods = (board_methods or registry("boards")).make(games, inputs)
        for name, method in methods.items():
            if method.rate is not None:
                rows.extend(_kept(name, method.rate(games), played))
        validation = validate(BOARDS_TASK, games, section.train_share, methods, _scores)
    rankings = pair_rankings(boards, names, section.min_tables)
    skill: SkillSummary | None = None
    histories: dict[str, Any] = {}
    if rankings:
        in_rankings = Counter(p for ranking in rankings for team in ranking.teams for p in team)
        methods = (ranking_methods or registry("rankings")).make(rankings, inputs)
        validation.extend(
            validate(
                RANKINGS_TASK,
                rankings,
                section.train_share,
                methods,
                lambda strength, test: pairwise_scores(test, strength),
            )
        )
        for name, method in methods.items():
            if method.rate is None:
                continue
            rated = method.rate(rankings)
            rows.extend(_kept(name, rated, in_rankings))
            if rated.history is not None:
                histories[name] = rated.history
            if name == "dlo" and rated.k is not None:
                ratings = [rating for rating, _, _ in rated.ratings.values()]
                counts = [in_rankings[player] for player in rated.ratings]
                reading = read_spread(rated.k, ratings, counts, section.regular_games)
                skill = SkillSummary(**asdict(reading))
    summary = ResultsSummary(
        team_games=len(team),
        single_table_games=len(single),
        pair_rankings=len(rankings),
        players=len({row["player"] for row in rows}),
        validation={
            f"{row['task']}: {row['method']}": round(row["log_loss"], 4)
            for row in validation
            if row["log_loss"] is not None
        },
        skill_o_meter=skill,
    )
    history_rows = [
        {"method": method, "player": str(player), "game": number, "rating": value}
        for method, history in histories.items()
        for player, points in history.items()
        for number, value in points
    ]
    return RatingResults(rows, validation, history_rows, summary)
