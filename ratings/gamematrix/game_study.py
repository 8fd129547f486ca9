"""The rate stage's question on who beats whom: for each game matrix built from results, the
structure, the discs, the strongest cyclic component's points, and every method's held-out
scores (:func:`game_study`). The paper's protocol on synthetic games of known make-up
(:func:`synthetic_study`) asks the same of games whose answer is known; it depends on no
data, so it runs in ``benchmarks/bench_gamematrix_synthetic.py``, not in the rate stage."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from bridgerank.ratings.gamematrix import melo
from bridgerank.ratings.gamematrix.bridge_games import BridgeGame
from bridgerank.ratings.gamematrix.discs import decompose
from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.gamematrix.methods import NEURAL, method_fitters
from bridgerank.ratings.gamematrix.neural import NeuralOptions
from bridgerank.ratings.gamematrix.noise import NoiseReference, noise_reference
from bridgerank.ratings.gamematrix.protocol import ProtocolRow, run_protocol
from bridgerank.ratings.gamematrix.structure import Structure, classify
from bridgerank.ratings.gamematrix.synthetic import synthetic_game
from bridgerank.ratings.summaries import CycleSummary, GameSummary

Protocol = Callable[[GameMatrix], list[ProtocolRow]]
Job = tuple[str, str, GameMatrix, int, Protocol]


@dataclass
class GameFindings:
    """Rows for the tables ``game_structure``, ``game_method_scores`` and ``disc_points``."""

    structure: list[dict[str, Any]] = field(default_factory=list)
    scores: list[dict[str, Any]] = field(default_factory=list)
    points: list[dict[str, Any]] = field(default_factory=list)

    def score_table(self) -> list[str]:
        """Per game, each method's sign accuracy % overall (± sd over hold-outs), on training
        and held-out entries, held-out log-loss and hold-outs: Markdown lines, as the
        benchmarks print them."""
        methods = list(dict.fromkeys(score["method"] for score in self.scores))
        lines = ["| game | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
        for row in self.structure:
            cells = {s["method"]: s for s in self.scores if s["game"] == row["game"]}
            lines.append(
                f"| {row['game']} | "
                + " | ".join(_score_cell(cells.get(m)) for m in methods)
                + " |"
            )
        return lines

    def summary(self) -> CycleSummary:
        """For the ledger and the closing lines: each game's kind, transitive share, best
        method."""
        return CycleSummary(
            [
                GameSummary(
                    game=row["game"],
                    entity=row["entity"],
                    kind=row["kind"],
                    players=row["players"],
                    transitive_share=round(row["transitive_share"], 3),
                    noise_low=_rounded(row["noise_low"]),
                    noise_high=_rounded(row["noise_high"]),
                    best_method=row["best_method"],
                )
                for row in self.structure
            ]
        )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def completed_logits(game: GameMatrix) -> np.ndarray:
    """The observed logits, with each unobserved entry taken from the transitive part (so a
    missing entry adds no cycle): the Schur form needs every entry."""
    logits = game.logits()
    r = melo.transitive_part(logits, game.mask)
    return np.where(game.mask, logits, r[:, None] - r[None, :])


def finding(structure: Structure, noise: NoiseReference | None) -> str:
    """The finding in a sentence: the structure, and whether sampling noise explains it."""
    share = f"{100 * structure.transitive_share:.0f}%"
    if structure.kind == "transitive":
        return f"Transitive: one order agrees with every observed win; ratings explain {share}."
    head = f"{structure.kind.capitalize()}: ratings explain {share} of the logits"
    if noise is None:
        return f"{head}; the rest goes round in circles."
    band = f"{100 * noise.low:.0f}-{100 * noise.high:.0f}%"
    if noise.explains(structure.transitive_share):
        return (
            f"{head}, no less than the {band} that a purely transitive game measured on the "
            "same boards would show: the cycles are what sampling noise makes, one rating "
            "suffices."
        )
    return (
        f"{head}, below the {band} that a purely transitive game measured on the same boards "
        "would show: some of these wins go round in circles beyond sampling noise."
    )


def best_method(rows: Sequence[ProtocolRow]) -> str | None:
    """Highest held-out sign accuracy, then lowest held-out log-loss, among the methods scored
    on every hold-out (one scored on the first few only saw other pairs held out)."""
    most = max((row.seeds for row in rows), default=0)
    ranked = [row for row in rows if np.isfinite(row.test) and row.seeds == most]
    if not ranked:
        return None
    return min(ranked, key=lambda row: (-round(row.test, 6), row.test_log_loss)).method


def describe(
    name: str,
    entity: str,
    game: GameMatrix,
    comparisons: int,
    protocol: Protocol,
    findings: GameFindings,
) -> None:
    """Classify ``game``, decompose it, score the methods, and append the rows."""
    structure = classify(game)
    # Synthetic games hold exact probabilities: no boards, no sampling noise to compare with.
    noise = noise_reference(game, np.random.default_rng(0)) if comparisons else None
    discs = decompose(completed_logits(game))
    strengths = list(discs.strength[:3]) + [None] * (3 - min(len(discs), 3))
    cyclic = melo.fit_batch(game, 1)
    residual = decompose(
        np.where(game.mask, game.logits() - (cyclic.r[:, None] - cyclic.r[None, :]), 0.0)
    )
    rows = protocol(game)
    findings.structure.append(
        {
            "game": name,
            "entity": entity,
            "players": game.n,
            "observed": float(game.mask.sum() / max(game.n * (game.n - 1), 1)),
            "comparisons": comparisons,
            "kind": structure.kind,
            "transitive_share": structure.transitive_share,
            "noise_low": noise.low if noise else None,
            "noise_mean": noise.mean if noise else None,
            "noise_high": noise.high if noise else None,
            "lambda_1": strengths[0],
            "lambda_2": strengths[1],
            "lambda_3": strengths[2],
            "transitive_discs": sum(discs.is_transitive(d) for d in range(len(discs))),
            "cyclic_lambda": float(residual.strength[0]) if len(residual) else 0.0,
            "best_method": best_method(rows),
            "sentence": finding(structure, noise),
        }
    )
    findings.scores.extend({"game": name} | _score_row(row) for row in rows)
    if len(residual):
        root = np.sqrt(residual.strength[0])
        findings.points.extend(
            {
                "game": name,
                "label": str(label),
                "x": float(root * residual.u[number, 0]),
                "y": float(root * residual.v[number, 0]),
                "rating": float(cyclic.r[number]),
            }
            for number, label in enumerate(game.labels)
        )


def _score_row(row: ProtocolRow) -> dict[str, Any]:
    values = asdict(row)
    values.pop("game")
    return {
        key: (None if isinstance(v, float) and not np.isfinite(v) else v)
        for key, v in values.items()
    }


def game_study(
    games: Sequence[BridgeGame],
    discs: int,
    seeds: int,
    progress: Callable[[Iterable[Any], str, int], Iterable[Any]] | None = None,
    neural: NeuralOptions | None = None,
    neural_seeds: int = 3,
) -> GameFindings:
    """Describe every bridge game, each over ``seeds`` hold-outs of about 19% of the pairs with
    ``discs`` cyclic components per method. With ``neural`` options the neural decomposition
    is scored too, on the first ``neural_seeds`` hold-outs of each game."""
    methods = method_fitters(neural)
    limits = {NEURAL: neural_seeds}
    jobs: list[Job] = []
    for found in games:

        def bridge_protocol(game: GameMatrix, name: str = found.name) -> list[ProtocolRow]:
            return run_protocol(name, lambda rng: game, range(seeds), discs, methods, limits)

        jobs.append((found.name, found.entity, found.game, found.comparisons, bridge_protocol))
    return _describe_all(jobs, progress)


def synthetic_study(
    players: int,
    disc_counts: Sequence[int],
    seeds: int,
    discs: int = 1,
    progress: Callable[[Iterable[Any], str, int], Iterable[Any]] | None = None,
    neural: NeuralOptions | None = None,
    neural_seeds: int = 3,
) -> GameFindings:
    """The paper's protocol on synthetic games: for each count of ``disc_counts``, games of
    ``players`` players with a transitive part and that many random discs
    (:func:`~bridgerank.ratings.gamematrix.synthetic.synthetic_game`), a new game drawn for
    each of ``seeds`` hold-outs of about 19% of the pairs, every method fitted with ``discs``
    cyclic components (at least one). The structure described is that of the first game
    drawn (seed 0); its entity is ``synthetic``, and it has no noise band (its entries are
    exact probabilities, not counts)."""
    methods = method_fitters(neural)
    limits = {NEURAL: neural_seeds}
    jobs: list[Job] = []
    for count in disc_counts:
        name = f"Synthetic: transitive + {count} disc{'' if count == 1 else 's'}"

        def draw(rng: np.random.Generator, count: int = count) -> GameMatrix:
            return synthetic_game(players, count, rng)

        def synthetic_protocol(
            game: GameMatrix, name: str = name, draw: Callable = draw
        ) -> list[ProtocolRow]:
            return run_protocol(name, draw, range(seeds), max(discs, 1), methods, limits)

        jobs.append((name, "synthetic", draw(np.random.default_rng(0)), 0, synthetic_protocol))
    return _describe_all(jobs, progress)


def _describe_all(
    jobs: Sequence[Job],
    progress: Callable[[Iterable[Any], str, int], Iterable[Any]] | None,
) -> GameFindings:
    findings = GameFindings()
    for job in (progress or (lambda items, label, total: items))(
        jobs, "cycles matrices", len(jobs)
    ):
        name, entity, game, comparisons, protocol = job
        describe(name, entity, game, comparisons, protocol, findings)
    return findings


def _score_cell(score: dict[str, Any] | None) -> str:
    """``overall ± sd (train, test) log-loss [hold-outs]``, percentages."""
    if score is None or score["overall"] is None:
        return "-"
    return (
        f"{100 * score['overall']:.1f} ± {100 * (score['overall_sd'] or 0):.1f} "
        f"({100 * score['train']:.0f}, {100 * (score['test'] or 0):.0f}) "
        f"{score['test_log_loss'] or float('nan'):.3f} [{score['seeds']}]"
    )
