"""The HBT paper's synthetic experiment (its Figure 1), and HBT's speed against BT and choix.

    python benchmarks/bench_hbt.py [--players 100] [--replications 5]

Strengths s ~ N(0, 1); each game draws 4 players, split 2-vs-2 with probability 0.9 and
1-vs-3 otherwise; the winner is drawn from the HBT model. For growing numbers of games m:
the median (over replications) Pearson correlation of fitted with true strengths, and the
median time per fit, for HBT by its Gauss-Seidel iteration and by Newton, for BT fitted on
the one-against-one pairs the games imply, and for choix's fastest BT routine
(``ilsr_pairwise``) on the same pairs (rounded to whole games). Time per fit divided by m
shows whether the cost is linear in the number of hyperedges.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bridgerank.ratings.bt import Hypergraph, fit, fit_hbt_newton


def simulate(n: int, m: int, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    truth = rng.normal(0, 1, n)
    games = []
    for _ in range(m):
        four = rng.choice(n, 4, replace=False)
        team_a, team_b = (four[:2], four[2:]) if rng.random() < 0.9 else (four[:1], four[1:])
        p = 1 / (1 + np.exp(truth[team_b].sum() - truth[team_a].sum()))
        winners, losers = (team_a, team_b) if rng.random() < p else (team_b, team_a)
        games.append((tuple(winners), tuple(losers), 1.0))
    return truth, games


def _pairs(games):
    return [((i,), (j,), 1 / (len(w) * len(lo))) for w, lo, _ in games for i in w for j in lo]


def _timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def main(players: int, replications: int) -> None:
    try:
        import choix
    except ImportError:  # choix is a test extra
        choix = None
    print(f"n = {players} players, {replications} replications; medians")
    print(
        f"{'games m':>8} {'corr HBT':>9} {'corr BT':>8} {'HBT GS s':>9} {'HBT Newton s':>13} "
        f"{'BT pairs s':>11} {'choix s':>8} {'GS us/game':>11}"
    )
    for m in (250, 500, 1000, 2000, 4000, 8000):
        rows = []
        for replication in range(replications):
            rng = np.random.default_rng(1000 * m + replication)
            truth, games = simulate(players, m, rng)
            graph = Hypergraph(games, players)
            gs, gs_time = _timed(fit, graph, "hbt", prior=True, tol=1e-8)
            newton, newton_time = _timed(fit_hbt_newton, graph, prior=True)
            pairs = Hypergraph(_pairs(games), players)
            bt, bt_time = _timed(fit_hbt_newton, pairs, prior=True)
            choix_time = float("nan")
            if choix is not None:
                data = [(w[0], lo[0]) for w, lo, _ in _pairs(games)]
                _, choix_time = _timed(choix.ilsr_pairwise, players, data, alpha=0.01)
            played = ~np.isnan(gs.s)
            rows.append(
                (
                    np.corrcoef(truth[played], gs.s[played])[0, 1],
                    np.corrcoef(truth[played], bt.s[played])[0, 1],
                    gs_time,
                    newton_time,
                    bt_time,
                    choix_time,
                )
            )
        median = np.median(np.array(rows), axis=0)
        print(
            f"{m:>8} {median[0]:>9.3f} {median[1]:>8.3f} {median[2]:>9.3f} {median[3]:>13.3f} "
            f"{median[4]:>11.3f} {median[5]:>8.3f} {1e6 * median[2] / m:>11.1f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--replications", type=int, default=5)
    arguments = parser.parse_args()
    main(arguments.players, arguments.replications)
