"""Is a game transitive, cyclic or hybrid (spec 6.1), and how much of it is transitive?

On the "beats" digraph (an edge ``i -> j`` when ``i`` beats ``j``, ties and unobserved pairs
without edge):

* **transitive**: no directed cycle, so one ordering of the players agrees with every observed
  win (for a complete game without ties this is the usual ``i > j > k  =>  i > k``; with missing
  entries, the orders a single rating could respect);
* **cyclic**: a directed cycle through every player (a Hamiltonian cycle). For a tournament
  (complete, no ties) that is strong connectivity (Camion's theorem); otherwise the cycle is
  searched exactly for up to :data:`EXACT_LIMIT` players and left undecided beyond;
* **hybrid**: neither.

The continuous answer is the **transitive share**: the part of the squared logits that rating
differences explain (the Hodge projection, :func:`.melo.transitive_part`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse.csgraph import connected_components

from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.gamematrix.melo import transitive_part

#: Largest game whose Hamiltonian cycle is searched exactly (2^n n^2 work) when not a tournament.
EXACT_LIMIT = 16


@dataclass
class Structure:
    """The classification of a game's observed entries."""

    kind: str  # "transitive", "cyclic", "hybrid" or "cyclic or hybrid" (undecided)
    tournament: bool  # complete and without ties
    strongly_connected: bool
    transitive_share: float  # share of the squared observed logits explained by ratings


def beats(game: GameMatrix) -> np.ndarray:
    """The beats digraph: ``i -> j`` when the observed ``P_ij > 1/2``."""
    return game.mask & (game.payoff > 0)


def is_acyclic(graph: np.ndarray) -> bool:
    """No directed cycle (Kahn's algorithm)."""
    remaining = graph.copy()
    alive = np.ones(len(graph), dtype=bool)
    while alive.any():
        sources = alive & ~remaining[alive].any(axis=0)
        if not sources.any():
            return False
        alive &= ~sources
        remaining[sources] = False
    return True


def has_hamiltonian_cycle(graph: np.ndarray) -> bool:
    """Exact search by dynamic programming over subsets (Held-Karp), for small graphs."""
    n = len(graph)
    if n < 2:
        return False
    if n == 2:
        return bool(graph[0, 1] and graph[1, 0])
    # reach[S][v]: a path from 0 through exactly the set S ending at v
    reach = np.zeros((1 << n, n), dtype=bool)
    reach[1, 0] = True
    successors = [np.flatnonzero(graph[v]) for v in range(n)]
    for subset in range(1, 1 << n, 2):
        for v in np.flatnonzero(reach[subset]):
            for w in successors[v]:
                if not subset & (1 << w):
                    reach[subset | (1 << w), w] = True
    full = (1 << n) - 1
    return bool(np.any(reach[full] & graph[:, 0]))


def is_transitive(game: GameMatrix) -> bool:
    """A complete game: ``i`` beats ``j`` and ``j`` beats ``k`` imply ``i`` beats ``k`` (a tie
    breaks it). With missing entries: the beats digraph has no directed cycle."""
    graph = beats(game)
    if not game.complete_observed:
        return is_acyclic(graph)
    two_steps = (graph.astype(np.int64) @ graph.astype(np.int64)) > 0
    np.fill_diagonal(two_steps, False)
    return not np.any(two_steps & ~graph)


def transitive_share(game: GameMatrix) -> float:
    """Share of the squared observed logits that rating differences explain (1 for a purely
    transitive logit matrix, 0 for a pure cycle of equal strength)."""
    logits = game.logits()
    total = np.sum(logits[game.mask] ** 2)
    if total == 0:
        return 1.0
    r = transitive_part(logits, game.mask)
    fitted = (r[:, None] - r[None, :])[game.mask]
    return float(np.sum(fitted**2) / total)


def classify(game: GameMatrix) -> Structure:
    """Transitive, cyclic or hybrid (module docstring)."""
    graph = beats(game)
    ties = game.mask & (game.payoff == 0)
    tournament = game.complete_observed and not ties.any()
    strong = connected_components(graph.astype(np.int8), directed=True, connection="strong")[0] == 1
    if is_transitive(game):
        kind = "transitive"
    elif not strong:
        kind = "hybrid"
    elif tournament:
        kind = "cyclic"
    elif game.n <= EXACT_LIMIT:
        kind = "cyclic" if has_hamiltonian_cycle(graph) else "hybrid"
    else:
        kind = "cyclic or hybrid"
    return Structure(kind, tournament, bool(strong), transitive_share(game))
