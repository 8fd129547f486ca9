"""The multiplayer Elo replay: compiled driver against the models' one-game updates.

    python benchmarks/bench_replay.py [--rankings 5000] [--players 500]

Rankings like a club's matchpoint games: fields of 4 to 13 pairs drawn from a pool of
players, places by hidden skill plus noise. The baseline replays them the plain way, one
game at a time through ``elo.update`` / ``plackett_luce.update`` with ratings in a dict; the
measured code is :func:`ratings.replay.replay` on games compiled once, as the rate stage's K
search uses it (about twenty replays per method). Both run in this process, so the ratio is
what to read on a shared, noisy machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bridgerank.ratings import elo, plackett_luce
from bridgerank.ratings.games import Ranking
from bridgerank.ratings.replay import Games, calibrate, replay

UPDATES = {"elo": elo.update, "dlo": plackett_luce.update}


def simulate(count: int, players: int, rng: np.random.Generator) -> list[Ranking]:
    hidden = rng.normal(0, 1, players)
    rankings = []
    for number in range(count):
        size = int(rng.integers(4, 14))
        pairs = rng.choice(players, 2 * size, replace=False).reshape(size, 2)
        performance = hidden[pairs].sum(axis=1) + rng.normal(0, 2, size)
        places = list(np.argsort(np.argsort(-performance)) + 1)
        rankings.append(Ranking([(int(a), int(b)) for a, b in pairs], places, (number,)))
    return rankings


def one_game_at_a_time(rankings: list[Ranking], method: str, k: float) -> dict:
    ratings: dict = {}
    for ranking in rankings:
        team = np.array([np.mean([ratings.get(p, 0.0) for p in t]) for t in ranking.teams])
        for t, change in zip(ranking.teams, UPDATES[method](team, ranking.places, k) - team):
            for player in t:
                ratings[player] = ratings.get(player, 0.0) + float(change)
    return ratings


def _best_of(runs: int, function, *args, **kwargs) -> tuple[object, float]:
    best, value = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        value = function(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return value, best


def main(count: int, players: int) -> None:
    rankings = simulate(count, players, np.random.default_rng(11))
    (games, compile_time) = _best_of(1, Games.from_rankings, rankings)
    print(
        f"{count} rankings of 4-13 pairs from {players} players; compiled once in "
        f"{compile_time:.2f} s; best of 3 runs"
    )
    print(
        f"{'method':>6} {'one game at a time s':>21} {'compiled s':>11} {'speed-up':>9} "
        f"{'max |diff|':>11} {'K search s':>11}"
    )
    for method in ("elo", "dlo"):
        plain, plain_time = _best_of(3, one_game_at_a_time, rankings, method, 20.0)
        fast, fast_time = _best_of(3, replay, games, method, 20.0)
        ratings = fast.by_player(games)  # type: ignore[union-attr]
        diff = max(abs(ratings[p] - plain[p]) for p in plain)  # type: ignore[index]
        _, search_time = _best_of(1, calibrate, games, method, xatol=1e-3)
        print(
            f"{method:>6} {plain_time:>21.2f} {fast_time:>11.3f} "
            f"{plain_time / fast_time:>8.1f}x {diff:>11.1e} {search_time:>11.2f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rankings", type=int, default=5000)
    parser.add_argument("--players", type=int, default=500)
    arguments = parser.parse_args()
    main(arguments.rankings, arguments.players)
