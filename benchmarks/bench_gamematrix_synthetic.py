"""The paper's protocol on synthetic games (Vadori and Savani 2024; spec section 6), which the
rate stage ran on every run until it moved here: it depends on no data.

    python benchmarks/bench_gamematrix_synthetic.py [--players 100] [--discs 0 1 3]
        [--seeds 3] [--neural [--neural-seeds 3] [--neural-steps 3000]]

For each count of discs, games of ``--players`` players whose logits are a transitive part
plus that many random disc games (``ratings.gamematrix.synthetic``), drawn anew for each of
``--seeds`` hold-outs of about 19% of the pairs; every method is fitted on the rest with one
cyclic component (:func:`bridgerank.ratings.gamematrix.game_study.synthetic_study`). The defaults
are the sizes the rate stage ran.

Prints what the study found: each game's structure (transitive, cyclic or hybrid; the share
of its logits that ratings explain; the strongest discs; the best method), then each method's
sign accuracy % over all pairs (mean ± sd over the hold-outs), (training, held-out) and its
held-out log-loss: the shape of the paper's Tables 1 and 2. Then the seconds of the whole
study against a baseline measured in the same run, Elo of the game (the cheapest method)
fitted once per hold-out on the same games, and their ratio.

With --neural the neural decomposition (spec 6.7, needs the `neural` extra) is scored too,
on the first ``--neural-seeds`` hold-outs of each game (about a minute and a half a fit).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bridgerank.ratings.gamematrix.game_study import GameFindings, synthetic_study
from bridgerank.ratings.gamematrix.matrix import holdout_mask
from bridgerank.ratings.gamematrix.matrix_elo import game_elo
from bridgerank.ratings.gamematrix.neural import NeuralOptions, require_torch
from bridgerank.ratings.gamematrix.synthetic import synthetic_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100, help="players per game")
    parser.add_argument(
        "--discs", type=int, nargs="+", default=[0, 1, 3], help="counts of random discs"
    )
    parser.add_argument("--seeds", type=int, default=3, help="hold-outs (a game drawn each)")
    parser.add_argument("--neural", action="store_true", help="score the neural method too")
    parser.add_argument("--neural-seeds", type=int, default=3, help="its hold-outs")
    parser.add_argument("--neural-steps", type=int, default=3000, help="its Adam steps a fit")
    options = parser.parse_args()
    neural = None
    if options.neural:
        require_torch()
        neural = NeuralOptions(steps=options.neural_steps)

    began = time.perf_counter()
    findings = synthetic_study(
        options.players,
        options.discs,
        options.seeds,
        neural=neural,
        neural_seeds=options.neural_seeds,
    )
    study = time.perf_counter() - began

    # the baseline: Elo of each game drawn, once per hold-out, as the protocol draws them
    began = time.perf_counter()
    for count in options.discs:
        for seed in range(options.seeds):
            rng = np.random.default_rng(seed)
            game = synthetic_game(options.players, count, rng)
            game_elo(game.restricted(holdout_mask(game.n, rng) & game.mask))
    baseline = time.perf_counter() - began

    print(
        f"synthetic games: {options.players} players, a transitive part plus "
        f"{', '.join(map(str, options.discs))} random discs; {options.seeds} hold-outs each"
    )
    print_structure(findings)
    print("\n" + "\n".join(findings.score_table()))
    print(f"\nthe whole study: {study:.1f} s")
    print(f"baseline, Elo of each game once per hold-out: {baseline:.2f} s")
    print(f"ratio study / baseline: {study / max(baseline, 1e-9):.0f}x")


def print_structure(findings: GameFindings) -> None:
    """Per game: its kind, the transitive share, the strongest discs, the best method."""
    print("\n| game | kind | transitive share % | discs of the logits | best method |")
    print("|---|---|---|---|---|")
    for row in findings.structure:
        discs = ", ".join(
            f"{row[f'lambda_{i}']:.2f}" for i in (1, 2, 3) if row[f"lambda_{i}"] is not None
        )
        print(
            f"| {row['game']} | {row['kind']} | {100 * row['transitive_share']:.1f} | "
            f"{discs or 'none'} ({row['transitive_discs']} transitive) | {row['best_method']} |"
        )


if __name__ == "__main__":
    main()
