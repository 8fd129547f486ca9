"""HBT by Newton at scale: the sparse solve on 100,000 players and 1,000,000 games, against
the dense solve on a size where that is still feasible, in the same run.

    python benchmarks/bench_hbt_scale.py [--players 100000] [--games 1000000]
                                         [--small-players 2000] [--small-games 20000]

The data are the HBT paper's synthetic experiment (as ``bench_hbt.py``): strengths
s ~ N(0, 1); each game draws 4 distinct players, split 2-vs-2 with probability 0.9 and 1-vs-3
otherwise; the winner is drawn from the HBT model. Fits use the prior, as the pipeline does.
Printed: the time to build the hypergraph and to fit it, Newton steps, the Pearson correlation
of the fit with the true strengths, and on the small size the dense and sparse fits side by
side (time ratio, largest difference of the estimates).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bridgerank.ratings.bt import Hypergraph, fit_hbt_newton


def simulate(n: int, m: int, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """Strengths and games as the paper generates them (vectorised: a million games)."""
    truth = rng.normal(0, 1, n)
    four = rng.integers(0, n, (m, 4))
    while True:  # redraw the games that drew a player twice
        ordered = np.sort(four, axis=1)
        clash = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not len(clash):
            break
        four[clash] = rng.integers(0, n, (len(clash), 4))
    two_two = rng.random(m) < 0.9
    first = np.where(two_two[:, None], [1, 1, 0, 0], [1, 0, 0, 0]).astype(bool)
    margin = np.where(first, truth[four], -truth[four]).sum(axis=1)
    first_wins = rng.random(m) < 1 / (1 + np.exp(-margin))
    games = []
    for players, split, won in zip(four.tolist(), first.tolist(), first_wins.tolist()):
        a = tuple(p for p, side in zip(players, split) if side)
        b = tuple(p for p, side in zip(players, split) if not side)
        games.append((a, b, 1.0) if won else (b, a, 1.0))
    return truth, games


def _timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def _correlation(truth: np.ndarray, s: np.ndarray) -> float:
    played = ~np.isnan(s)
    return float(np.corrcoef(truth[played], s[played])[0, 1])


def main(players: int, games: int, small_players: int, small_games: int) -> None:
    print(
        f"{'players':>8} {'games':>9} {'solver':>7} {'build s':>8} {'fit s':>8} {'steps':>6} "
        f"{'corr':>6}"
    )
    rng = np.random.default_rng(0)
    truth, small = simulate(small_players, small_games, rng)
    graph, build = _timed(Hypergraph, small, small_players)
    fits = {}
    for solver in ("dense", "sparse"):
        fits[solver], seconds = _timed(fit_hbt_newton, graph, prior=True, solver=solver)
        fits[solver + " s"] = seconds
        print(
            f"{small_players:>8} {small_games:>9} {solver:>7} {build:>8.2f} {seconds:>8.2f} "
            f"{fits[solver].sweeps:>6} {_correlation(truth, fits[solver].s):>6.3f}"
        )
    difference = float(np.nanmax(np.abs(fits["dense"].s - fits["sparse"].s)))
    print(
        f"  sparse / dense time: {fits['sparse s'] / fits['dense s']:.3f}; "
        f"largest difference of the estimates {difference:.1e}"
    )
    truth, large = simulate(players, games, rng)
    graph, build = _timed(Hypergraph, large, players)
    del large
    result, seconds = _timed(fit_hbt_newton, graph, prior=True, solver="sparse")
    print(
        f"{players:>8} {games:>9} {'sparse':>7} {build:>8.2f} {seconds:>8.2f} "
        f"{result.sweeps:>6} {_correlation(truth, result.s):>6.3f}"
    )
    print(f"  converged: {result.converged}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--small-players", type=int, default=2_000)
    parser.add_argument("--small-games", type=int, default=20_000)
    arguments = parser.parse_args()
    main(arguments.players, arguments.games, arguments.small_players, arguments.small_games)
