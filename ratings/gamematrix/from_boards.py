"""The rate stage's part on who beats whom: game matrices among the strongest pairs and the
teams of the largest team events, each classified, decomposed into discs and used to score
the methods of spec section 6 (:mod:`bridgerank.ratings.gamematrix`). The same protocol on
synthetic games of known make-up needs no data and runs in a benchmark
(``benchmarks/bench_gamematrix_synthetic.py``), not in every rate run."""

from __future__ import annotations

from typing import Any, Hashable, Mapping, Sequence

from bridgerank.core.sections import CycleSettings
from bridgerank.core.stage import Progress, no_progress
from bridgerank.ratings.gamematrix.bridge_games import BridgeGame, pair_game, team_game_matrices
from bridgerank.ratings.gamematrix.game_study import GameFindings, game_study
from bridgerank.ratings.gamematrix.neural import NeuralOptions, require_torch


def bridge_games(
    boards: Sequence[Mapping[str, Any]],
    names: Mapping[str, Hashable],
    settings: CycleSettings,
) -> list[BridgeGame]:
    """The pair matrix (when enough pairs qualify) and the largest team events' matrices."""
    games = []
    pairs = pair_game(
        boards,
        names,
        "Pairs: the strongest",
        settings.top_pairs,
        settings.min_boards,
        settings.min_common,
        settings.alpha,
    )
    if pairs is not None:
        games.append(pairs)
    teams = team_game_matrices(boards, names, settings.min_teams, settings.alpha)
    return games + teams[: settings.team_events]


def cycle_study(
    boards: Sequence[Mapping[str, Any]],
    names: Mapping[str, Hashable],
    settings: CycleSettings,
    progress: Progress = no_progress,
) -> GameFindings:
    """Every game of :func:`bridge_games`, described and scored (with the neural
    decomposition when the settings ask for it and PyTorch is installed; when it is not, a
    one-line error before any work)."""
    neural = None
    if settings.neural:
        require_torch()
        neural = NeuralOptions(steps=settings.neural_steps)
    return game_study(
        bridge_games(boards, names, settings),
        settings.discs,
        settings.seeds,
        progress,
        neural,
        settings.neural_seeds,
    )
