"""The rate stage's "who beats whom" section on a database that has been through the match
stage, against a baseline measured in the same run: Elo of the game (spec 6.2) fitted once
per hold-out on each matrix, the cheapest method, so the ratio says what the whole protocol
(six methods, the noise reference) costs on top. The synthetic games of the paper's protocol
are no part of the stage: ``bench_gamematrix_synthetic.py`` runs them.

Prints the seconds of reading the boards, of building the matrices, of the whole section, of
the baseline, the ratio, and whether the section stays under a minute; then each game's
method scores (sign accuracy overall and (train, test), held-out log-loss: the shape of the
paper's Tables 1 and 2).

With --neural the neural decomposition (spec 6.7, needs the `neural` extra) is scored too, on
the first `neural_seeds` hold-outs of each game, and timed apart: the minute is for the six
other methods.

Usage: python benchmarks/bench_cycles.py DATABASE_URL [--neural]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.pipeline.stages import open_store
from bridgerank.ratings.gamematrix.from_boards import bridge_games
from bridgerank.ratings.gamematrix.game_study import GameFindings, game_study
from bridgerank.ratings.gamematrix.matrix import holdout_mask
from bridgerank.ratings.gamematrix.matrix_elo import game_elo
from bridgerank.ratings.gamematrix.neural import NeuralOptions
from bridgerank.ratings.inputs import load_inputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--neural", action="store_true", help="score the neural method too")
    options = parser.parse_args()
    settings = default_settings().rate.cycles
    engine = open_store(options.database, create=False)
    began = time.perf_counter()
    with engine.connect() as conn:
        boards, names, _ = load_inputs(conn)
    read = time.perf_counter() - began

    began = time.perf_counter()
    games = bridge_games(boards, names, settings)
    built = time.perf_counter() - began

    def study(neural: NeuralOptions | None) -> GameFindings:
        return game_study(
            games,
            settings.discs,
            settings.seeds,
            neural=neural,
            neural_seeds=settings.neural_seeds,
        )

    began = time.perf_counter()
    findings = study(None)
    section = built + time.perf_counter() - began
    neural_seconds = None
    if options.neural:
        began = time.perf_counter()
        findings = study(NeuralOptions(steps=settings.neural_steps))
        neural_seconds = time.perf_counter() - began - section + built

    began = time.perf_counter()
    for found in games:
        for seed in range(settings.seeds):
            mask = holdout_mask(found.game.n, np.random.default_rng(seed)) & found.game.mask
            game_elo(found.game.restricted(mask))
    baseline = time.perf_counter() - began

    print(f"read the boards: {read:.1f} s ({len(boards):,} boards)")
    for row in findings.structure:
        print(
            f"  {row['game']}: {row['players']} {row['entity']}s, {row['kind']}, "
            f"{100 * row['transitive_share']:.0f}% transitive, best {row['best_method']}"
        )
    print(f"matrices built: {built:.1f} s")
    print(f"whole section: {section:.1f} s (under a minute: {'yes' if section < 60 else 'NO'})")
    print(f"baseline, Elo of each bridge matrix once per hold-out: {baseline:.2f} s")
    print(f"ratio section / baseline: {section / max(baseline, 1e-9):.0f}x")
    if neural_seconds is not None:
        print(f"the neural decomposition on top: {neural_seconds:.0f} s")
    print("\n" + "\n".join(findings.score_table()))


if __name__ == "__main__":
    main()
