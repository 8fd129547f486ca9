"""The paper's protocol (spec 6.6): per seed, hold out about 19% of the pairs, fit every method
on the rest with the same number of discs, and report sign accuracy overall (Table 1) and on
(train, test) (Table 2), with the spread over seeds, plus the held-out log-loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from bridgerank.ratings.gamematrix.matrix import GameMatrix, holdout_mask
from bridgerank.ratings.gamematrix.methods import Fitter, MethodScore, method_fitters, score


@dataclass
class ProtocolRow:
    """One method on one game, over the seeds: means and standard deviations."""

    game: str
    method: str
    seeds: int
    overall: float
    overall_sd: float
    train: float
    test: float
    test_sd: float
    test_log_loss: float


def _mean_sd(values: Sequence[float | None]) -> tuple[float, float]:
    kept = np.array([value for value in values if value is not None], dtype=float)
    if not len(kept):
        return float("nan"), float("nan")
    return float(kept.mean()), float(kept.std(ddof=1)) if len(kept) > 1 else 0.0


def run_protocol(
    name: str,
    game_of_seed: Callable[[np.random.Generator], GameMatrix],
    seeds: Iterable[int],
    k: int,
    methods: Mapping[str, Fitter] | None = None,
    seed_limits: Mapping[str, int] | None = None,
) -> list[ProtocolRow]:
    """Score ``methods`` (name -> fitter; by default the six of ``METHODS``) on the games
    ``game_of_seed(rng)`` draws, one hold-out per seed.

    The game and the hold-out of a seed are the same for every method; the hold-out keeps
    only observed entries, so a bridge matrix's missing pairs stay missing. A method named in
    ``seed_limits`` is scored on that many first seeds only (a costly one); its rows say how
    many.
    """
    fitters = dict(methods or method_fitters())
    limits = seed_limits or {}
    scores: dict[str, list[MethodScore]] = {method: [] for method in fitters}
    for number, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        game = game_of_seed(rng)
        train = holdout_mask(game.n, rng) & game.mask
        for method in fitters:
            if number >= limits.get(method, number + 1):
                continue
            scores[method].append(
                score(method, game, train, k, np.random.default_rng(seed), fitters)
            )
    rows = []
    for method, results in scores.items():
        overall, overall_sd = _mean_sd([result.overall for result in results])
        test, test_sd = _mean_sd([result.test for result in results])
        train, _ = _mean_sd([result.train for result in results])
        loss, _ = _mean_sd([result.test_log_loss for result in results])
        rows.append(
            ProtocolRow(name, method, len(results), overall, overall_sd, train, test, test_sd, loss)
        )
    return rows


def markdown_tables(rows: Sequence[ProtocolRow]) -> str:
    """Table 1 (overall sign accuracy %, sd over seeds) and Table 2 ((train, test) %, held-out
    log-loss) in Markdown, one line per game."""
    games = list(dict.fromkeys(row.game for row in rows))
    methods = list(dict.fromkeys(row.method for row in rows))
    cell = {(row.game, row.method): row for row in rows}
    head = "| game | " + " | ".join(methods) + " |\n|---|" + "---|" * len(methods) + "\n"

    def table(text: Callable[[ProtocolRow], str]) -> str:
        return head + "".join(
            f"| {game} | " + " | ".join(text(cell[game, m]) for m in methods) + " |\n"
            for game in games
        )

    return (
        "Sign accuracy %, overall (mean ± sd over seeds):\n\n"
        + table(lambda row: f"{100 * row.overall:.1f} ± {100 * row.overall_sd:.1f}")
        + "\n(train, test) sign accuracy % and held-out log-loss:\n\n"
        + table(
            lambda row: f"({100 * row.train:.0f}, {100 * row.test:.0f}) {row.test_log_loss:.3f}"
        )
    )
