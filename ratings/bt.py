"""The Bradley-Terry family on hyperedges: classical BT, hypergraph BT (HBT) and Huang's
generalized BT (GBT), with one iteration driver and one small update function per model.

A game (hyperedge) is ``(winners, losers, weight)``; a pairwise win matrix is the special case
of single-player teams. The models:

* HBT: ``P[I beats J] = prod(pi_I) / (prod(pi_I) + prod(pi_J))`` (team strength multiplies);
* GBT: ``P[I beats J] = sum(pi_I) / (sum(pi_I) + sum(pi_J))`` (team strength adds);
* BT: both, on 1-vs-1 games; Zermelo's iteration is GBT's Huang update there, Newman's is HBT's.

The driver sweeps players one at a time (Gauss-Seidel: the HBT paper's Algorithm 2; the
simultaneous version can overshoot and fail to converge), keeping every game's team sums up to
date, so a sweep costs time linear in the total team memberships; or it sweeps a colour class
of players who share no game at a time (:mod:`~bridgerank.ratings.bt_colours`), the same
sweep with the players in another order, in array operations.

Notes
-----
Existence: with maximum likelihood (no prior) the estimate is finite only when the comparison
graph is strongly connected; a player who never wins or never loses is detected before
iterating and reported with :class:`NoEstimate`. The prior (one virtual win and one virtual
loss against a player of strength 1, Newman 2023 eq. 26, generalised) always gives a finite,
unique answer and fixes the scale. Normalisation follows the spec: BT and equal-size HBT
without prior to geometric mean 1 per connected component; HBT with unequal team sizes never
(its level is identified); GBT always to sum 1.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np
from scipy import sparse
from scipy.linalg import cho_factor, cho_solve
from scipy.sparse.csgraph import connected_components

from bridgerank.core.errors import ConvergenceWarning, InvalidGame, NoEstimate
from bridgerank.ratings.bt_colours import ColouredSweep
from bridgerank.ratings.bt_updates import UPDATES, player_step

Game = tuple[Sequence[int], Sequence[int], float]


@dataclass
class Fit:
    """Estimated strengths: ``s`` = log-strengths, ``pi`` = exp(s); ``sweeps`` done."""

    s: np.ndarray
    sweeps: int
    converged: bool
    components: np.ndarray  # weakly connected component of each player

    @property
    def pi(self) -> np.ndarray:
        return np.exp(self.s)

    @property
    def elo(self) -> np.ndarray:
        """Ratings on the Elo scale: 400/ln(10) per unit of log-strength."""
        return 400 / np.log(10) * self.s


class Hypergraph:
    """Games as sparse winner/loser incidence matrices (players x games).

    Parameters
    ----------
    games : iterable of (winners, losers, weight)
        Player indices 0..n-1. A tie enters as two games of half weight each (section 0 of the
        spec). Players on both sides of a game are removed from both sides for HBT
        (``reduce_overlap``); a game left with an empty side carries no information.
    n : int
        Number of players.
    """

    def __init__(self, games: Iterable[Game], n: int, reduce_overlap: bool = True) -> None:
        rows_w: list[int] = []
        cols_w: list[int] = []
        rows_l: list[int] = []
        cols_l: list[int] = []
        weights: list[float] = []
        for game_winners, game_losers, weight in games:
            winners, losers = set(game_winners), set(game_losers)
            if reduce_overlap:
                winners, losers = winners - losers, losers - winners
                if not winners or not losers:
                    continue
            if not winners or not losers:
                raise InvalidGame("a game needs two non-empty teams")
            index = len(weights)
            weights.append(float(weight))
            rows_w.extend(winners)
            cols_w.extend([index] * len(winners))
            rows_l.extend(losers)
            cols_l.extend([index] * len(losers))
        m = len(weights)
        self.n, self.m = n, m
        self.weights = np.asarray(weights)
        self.win = sparse.csr_matrix((np.ones(len(rows_w)), (rows_w, cols_w)), shape=(n, m))
        self.lose = sparse.csr_matrix((np.ones(len(rows_l)), (rows_l, cols_l)), shape=(n, m))
        sizes_w = np.asarray(self.win.sum(axis=0)).ravel()
        sizes_l = np.asarray(self.lose.sum(axis=0)).ravel()
        self.equal_sizes = bool(np.all(sizes_w == sizes_l))

    @classmethod
    def from_matrix(cls, wins: np.ndarray) -> "Hypergraph":
        """1-vs-1 games from a win matrix ``W[i, j]`` = times i beat j."""
        wins = np.asarray(wins, dtype=float)
        games = [((i,), (j,), wins[i, j]) for i, j in zip(*np.nonzero(wins))]
        return cls(games, len(wins))

    def games_won(self, k: int) -> np.ndarray:
        """Indices of the games player k won."""
        return self.win.indices[self.win.indptr[k] : self.win.indptr[k + 1]]

    def games_lost(self, k: int) -> np.ndarray:
        """Indices of the games player k lost."""
        return self.lose.indices[self.lose.indptr[k] : self.lose.indptr[k + 1]]

    def components(self) -> np.ndarray:
        """Weakly connected component of each player (players sharing games, transitively)."""
        # Components of the bipartite player-game graph, read off for the players: linear in
        # the memberships (the players x players product has a block per game, 16 entries
        # for a 4-player game). Players come first, so the labels are those of the product.
        both = (self.win + self.lose).tocsr()
        adjacency = sparse.bmat([[None, both], [both.T, None]], format="csr")
        return connected_components(adjacency, directed=False)[1][: self.n]

    def check_estimable(self) -> None:
        """Raise :class:`NoEstimate` when a player with games never wins or never loses."""
        played = np.asarray((self.win + self.lose).sum(axis=1)).ravel() > 0
        wins = np.asarray(self.win @ self.weights).ravel()
        losses = np.asarray(self.lose @ self.weights).ravel()
        never_won = np.flatnonzero(played & (wins == 0))
        never_lost = np.flatnonzero(played & (losses == 0))
        if len(never_won) or len(never_lost):
            raise NoEstimate(
                f"no finite maximum likelihood estimate: players {never_won.tolist()} never won, "
                f"{never_lost.tolist()} never lost",
            )


# model -> (its step for one player, team sums in log space?)
MODELS = {
    name: (functools.partial(player_step, update), update.log_space)
    for name, update in UPDATES.items()
}


def _normalise(s: np.ndarray, components: np.ndarray, how: str | None) -> None:
    for component in np.unique(components):
        members = (components == component) & np.isfinite(s)
        if not members.any():
            continue
        if how == "mean-log":
            s[members] -= s[members].mean()
        elif how == "sum":
            s[members] -= np.log(np.exp(s[members]).sum())


def _squarem_step(sweep, s: np.ndarray) -> tuple[np.ndarray, int]:
    """One SQUAREM cycle on the fixed-point map ``sweep``; returns the point and sweeps used."""
    s1 = sweep(s)
    s2 = sweep(s1)
    r = np.nan_to_num(s1 - s)
    v = np.nan_to_num(s2 - s1) - r
    norm_v = float(np.sqrt(v @ v))
    if norm_v == 0:
        return s2, 2
    alpha = -float(np.sqrt(r @ r)) / norm_v
    alpha = min(alpha, -1.0)  # never shorter than two plain sweeps
    extrapolated = s - 2 * alpha * r + alpha * alpha * v
    extrapolated = np.where(np.isnan(s), np.nan, extrapolated)
    return sweep(extrapolated), 3


def fit(
    graph: Hypergraph,
    model: str = "hbt",
    prior: bool = False,
    tol: float = 1e-10,
    max_iter: int = 10_000,
    normalise: str | None = "auto",
    accelerate: bool = False,
    colours: bool = False,
) -> Fit:
    """Fit a model of :data:`MODELS` by Gauss-Seidel sweeps.

    Parameters
    ----------
    graph : Hypergraph
    model : {"hbt", "gbt-newman", "gbt-huang"}
    prior : bool
        Add one virtual win and one virtual loss against a player of strength 1 for everyone:
        finite, unique estimates on any data, and no normalisation.
    tol : float
        Stop when no log-strength moved more than this in a sweep.
    max_iter : int
        Sweeps at most; a :class:`ConvergenceWarning` says when it was reached.
    normalise : {"auto", "mean-log", "sum", None}
        "auto" follows the spec: nothing with a prior; HBT to mean log-strength 0 per component
        only when every game has equal team sizes; GBT to sum 1 per component.
    accelerate : bool
        SQUAREM extrapolation of the sweeps (Varadhan and Roland 2008): same fixed point, far
        fewer sweeps where the plain iteration crawls, as along the split between fixed
        partners (thousands of sweeps on bridge team data). Off by default, so the sweep
        counts are those of the papers' algorithms.
    colours : bool
        Sweep the players a colour class at a time (:mod:`~bridgerank.ratings.bt_colours`):
        the players in another order, the same fixed point, array operations per class
        rather than per player. Off by default, for the papers' order.

    Returns
    -------
    Fit
        Players with no games get NaN.

    Raises
    ------
    NoEstimate
        Without a prior, when some player never wins or never loses.
    """
    update, log_space = MODELS[model]
    if normalise == "auto":
        if prior:
            normalise = None
        elif model == "hbt":
            normalise = "mean-log" if graph.equal_sizes else None
        else:
            normalise = "sum"
    if not prior:
        graph.check_estimable()
    played = np.asarray((graph.win + graph.lose).sum(axis=1)).ravel() > 0
    players = np.flatnonzero(played)
    components = graph.components()
    win_t, lose_t = graph.win.T.tocsr(), graph.lose.T.tocsr()
    by_class = ColouredSweep(graph, model, players, prior) if colours else None

    def sweep(current: np.ndarray) -> np.ndarray:
        """One Gauss-Seidel pass over the players, then the normalisation."""
        values = np.nan_to_num(current)
        team_w = win_t @ (values if log_space else np.exp(values) * played)
        team_l = lose_t @ (values if log_space else np.exp(values) * played)
        if by_class is not None:
            by_class(values, team_w, team_l)
        else:
            for k in players.tolist():
                delta = update(graph, values, k, team_w, team_l, prior)
                old = values[k]
                values[k] = old + delta
                change = delta if log_space else np.exp(values[k]) - np.exp(old)
                team_w[graph.games_won(k)] += change
                team_l[graph.games_lost(k)] += change
        result = np.where(played, values, np.nan)
        _normalise(result, components, normalise)
        return result

    s = np.where(played, 0.0, np.nan)
    converged = False
    sweeps = 0
    while sweeps < max_iter and not converged:
        previous = s
        if accelerate:
            s, used = _squarem_step(sweep, s)
            sweeps += used
        else:
            s = sweep(s)
            sweeps += 1
        converged = bool(np.nanmax(np.abs(s - previous)) < tol)
    if not converged:
        warnings.warn(
            f"{model} did not converge in {max_iter} sweeps; try prior=True if some "
            "players are rarely compared",
            ConvergenceWarning,
            stacklevel=2,
        )
    return Fit(s, sweeps, converged, components)


def fit_bt(
    wins: np.ndarray,
    method: str = "newman",
    prior: bool = False,
    tol: float = 1e-10,
    max_iter: int = 10_000,
) -> Fit:
    """Classical Bradley-Terry on a win matrix (Zermelo's or Newman's iteration).

    Normalised to geometric mean 1 per connected component unless ``prior``.
    """
    model = {"newman": "hbt", "zermelo": "gbt-huang"}[method]
    return fit(
        Hypergraph.from_matrix(wins),
        model,
        prior,
        tol,
        max_iter,
        normalise=None if prior else "mean-log",
    )


def log_likelihood(graph: Hypergraph, s: np.ndarray, model: str = "hbt") -> float:
    """Log-likelihood of log-strengths ``s`` under HBT (products) or GBT (sums)."""
    values = np.nan_to_num(s)
    if model == "hbt":
        team_w, team_l = graph.win.T @ values, graph.lose.T @ values
        return float(np.sum(graph.weights * -np.logaddexp(0, team_l - team_w)))
    pi = np.exp(values)
    team_w, team_l = graph.win.T @ pi, graph.lose.T @ pi
    return float(np.sum(graph.weights * (np.log(team_w) - np.log(team_w + team_l))))


# Above this many players who played, :func:`fit_hbt_newton` solves with conjugate gradients.
DENSE_LIMIT = 2_000


def _conjugate_gradients(
    matvec: Callable[[np.ndarray], np.ndarray],
    b: np.ndarray,
    preconditioner: np.ndarray | None,
    rtol: float,
    max_iter: int,
) -> np.ndarray:
    """Solve ``A x = b`` for a symmetric positive semidefinite ``A`` given as ``matvec``.

    Plain preconditioned conjugate gradients from ``x = 0`` (no SciPy version differences in
    its tolerance arguments), stopped when ``|A x - b| <= rtol |b|``. ``preconditioner`` is
    the inverse of A's diagonal (Jacobi), or None. Without a preconditioner and on a
    consistent singular system the iterates stay in the range of A, so the limit is the
    minimum-norm solution, as ``lstsq`` gives.
    """
    x = np.zeros_like(b)
    r = b.copy()
    z = r * preconditioner if preconditioner is not None else r
    d = z.copy()
    rz = float(r @ z)
    bound = rtol * float(np.sqrt(b @ b))
    for _ in range(max_iter):
        if float(np.sqrt(r @ r)) <= bound:
            break
        ad = matvec(d)
        curvature = float(d @ ad)
        if curvature <= 0:  # only rounding left along d (A is semidefinite)
            break
        alpha = rz / curvature
        x += alpha * d
        r -= alpha * ad
        z = r * preconditioner if preconditioner is not None else r
        rz, previous = float(r @ z), rz
        d = z + (rz / previous) * d
    return x


def _newton_step(information: np.ndarray, gradient: np.ndarray, definite: bool) -> np.ndarray:
    """The dense Newton step: by a Cholesky factor where the prior makes the information
    positive definite (a tenth of the cost of the least-squares solve, the bootstraps' refits
    most of the results study on the corpus), else - or should the factor fail numerically -
    the minimum-norm least-squares step."""
    if definite:
        try:
            return cho_solve(cho_factor(information, lower=True), gradient)
        except np.linalg.LinAlgError:
            pass
    return np.linalg.lstsq(information, gradient, rcond=None)[0]


def fit_hbt_newton(
    graph: Hypergraph,
    prior: bool = True,
    tol: float = 1e-10,
    max_iter: int = 100,
    solver: str = "auto",
    start: np.ndarray | None = None,
) -> Fit:
    """HBT by Newton's method: the same estimate as :func:`fit` with ``model="hbt"``, faster
    on large data.

    HBT is logistic regression without intercept on rows ``x_m = 1[I_m] - 1[J_m]``, so its
    log-likelihood is concave in s and Newton converges in a few steps where the Gauss-Seidel
    sweeps crawl (fixed partnerships). A halving line search keeps the likelihood from
    decreasing.

    Parameters
    ----------
    graph : Hypergraph
    prior : bool
        One virtual win and one virtual loss against strength 1 for every player who played.
    tol : float
        Stop when no log-strength moved more than this in a step.
    max_iter : int
        Newton steps at most; a :class:`ConvergenceWarning` says when it was reached.
    solver : {"auto", "dense", "sparse"}
        How each step's linear system (the observed information, players x players) is
        solved. "dense": least squares on the dense matrix, cubic in the players. "sparse":
        conjugate gradients with products through the games, never forming the matrix, so
        each iteration is linear in the games (a truncated Newton method). "auto": sparse
        with the prior beyond :data:`DENSE_LIMIT` players who played, else dense (without
        the prior the sparse solve is exact on well-connected data but can stall on fixed
        partnerships).
    start : ndarray, optional
        Log-strengths to start from (NaN: 0), such as the fit of the whole data for a
        resample of it: with the prior the estimate is unique, so the start changes only
        how many steps reach it.

    Returns
    -------
    Fit
        ``sweeps`` counts Newton steps; players with no games get NaN.

    Raises
    ------
    NoEstimate
        Without a prior, when some player never wins or never loses.

    Notes
    -----
    Without a prior the information matrix is singular along shifts (equal team sizes) and
    partnership splits; the minimum-norm step is taken (dense: ``lstsq``; sparse:
    unpreconditioned conjugate gradients from zero, whose iterates stay in the matrix's range)
    and the result normalised as :func:`fit` does. With the prior the matrix is positive
    definite on the players who played, the step is unique, and the sparse solve uses a
    Jacobi (diagonal) preconditioner.
    """
    if solver not in ("auto", "dense", "sparse"):
        raise ValueError(f"solver must be 'auto', 'dense' or 'sparse', not {solver!r}")
    if not prior:
        graph.check_estimable()
    played = np.asarray((graph.win + graph.lose).sum(axis=1)).ravel() > 0
    active = np.flatnonzero(played)
    if solver == "auto":
        # Without the prior the matrix is singular and, with fixed partnerships, so badly
        # conditioned that unpreconditioned CG stalls (100 steps unconverged on 2,000 players
        # in pairs): keep the exact dense minimum-norm step there.
        solver = "sparse" if prior and len(active) > DENSE_LIMIT else "dense"
    design = (graph.win - graph.lose).T.tocsr()  # games x players
    design_t = design.T.tocsr()
    # The sparse solve works on the players who played only (the others' rows are zero)
    design_active = design[:, active].tocsr()
    design_active_t = design_active.T.tocsr()
    magnitude = abs(design_active_t)  # |x_mk|: the information's diagonal is |X|^T curvature
    weights = graph.weights

    def objective(s: np.ndarray) -> float:
        value = float(np.sum(weights * -np.logaddexp(0, -(design @ s))))
        if prior:
            value += float(np.sum(-np.logaddexp(0, -s[played]) - np.logaddexp(0, s[played])))
        return value

    s = np.zeros(graph.n) if start is None else np.where(played, np.nan_to_num(start), 0.0)
    converged = False
    steps = 0
    current = objective(s)
    while steps < max_iter and not converged:
        steps += 1
        margin = design @ s
        p = 1 / (1 + np.exp(-margin))
        gradient = design_t @ (weights * (1 - p))
        curvature = weights * p * (1 - p)
        prior_curvature = np.zeros(graph.n)
        if prior:
            sigma = 1 / (1 + np.exp(-s))
            gradient = gradient + np.where(played, 1 - 2 * sigma, 0)
            prior_curvature = np.where(played, 2 * sigma * (1 - sigma), 0)
        step = np.zeros(graph.n)
        if solver == "dense":
            information = (design_t @ sparse.diags(curvature) @ design).toarray()
            information += np.diag(prior_curvature)
            step[active] = _newton_step(
                information[np.ix_(active, active)], gradient[active], definite=prior
            )
        else:
            curvature_active = prior_curvature[active]

            def information_times(
                v: np.ndarray,
                curvature: np.ndarray = curvature,
                prior_part: np.ndarray = curvature_active,
            ) -> np.ndarray:
                # (X^T C X + P) v through the games: two products with X, never X^T C X
                return design_active_t @ (curvature * (design_active @ v)) + prior_part * v

            diagonal = magnitude @ curvature + curvature_active
            step[active] = _conjugate_gradients(
                information_times,
                gradient[active],
                1 / diagonal if prior else None,
                # Truncated Newton (forcing term ~ |gradient|, so still quadratic): a loose
                # solve while far off, where the step is only a direction, tight near the end
                rtol=max(1e-12, min(0.1, float(np.max(np.abs(gradient))))),
                max_iter=10 * len(active) + 100,
            )
        length = 1.0
        while True:
            candidate = s + length * step
            value = objective(candidate)
            if value >= current - 1e-12 or length < 1e-6:
                break
            length /= 2
        converged = bool(np.max(np.abs(candidate - s)) < tol)
        s, current = candidate, value
    result = np.where(played, s, np.nan)
    components = graph.components()
    if not prior and graph.equal_sizes:
        _normalise(result, components, "mean-log")
    if not converged:
        warnings.warn(
            f"HBT Newton did not converge in {max_iter} steps", ConvergenceWarning, stacklevel=2
        )
    return Fit(result, steps, converged, components)
