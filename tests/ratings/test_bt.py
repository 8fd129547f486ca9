"""The Bradley-Terry family against the spec's test vectors, choix, and invariants."""

import json

import numpy as np
import pytest

from bridgerank.ratings.bt import (
    ConvergenceWarning,
    Hypergraph,
    NoEstimate,
    fit,
    fit_bt,
    log_likelihood,
)
from tests.paths import TEST_DATA

CASES = json.loads((TEST_DATA / "bt_cases.json").read_text())


@pytest.mark.parametrize("case", CASES["bt"], ids=[c["desc"] for c in CASES["bt"]])
def test_classical_bt(case):
    result = fit_bt(np.array(case["W"]), case["method"], prior=case.get("prior", False), tol=1e-12)
    assert result.converged
    assert result.pi == pytest.approx(case["pi"], abs=1e-6)
    if "s" in case:
        assert result.s == pytest.approx(case["s"], abs=1e-6)
    if "elo" in case:
        assert result.elo == pytest.approx(case["elo"], abs=1e-5)
    if "sweeps" in case:
        assert result.sweeps == case["sweeps"]


def _probability(result, winners, losers, model):
    if model == "hbt":
        return 1 / (1 + np.exp(result.s[losers].sum() - result.s[winners].sum()))
    return result.pi[winners].sum() / (result.pi[winners].sum() + result.pi[losers].sum())


@pytest.mark.parametrize("case", CASES["hyper"], ids=[c["desc"] for c in CASES["hyper"]])
def test_hypergraph_models(case):
    n = 1 + max(max(winners + losers) for winners, losers, _ in case["games"])
    graph = Hypergraph(
        [tuple(game) for game in case["games"]], n, reduce_overlap=not case.get("overlap", False)
    )
    result = fit(graph, case["model"], prior=case.get("prior", False), tol=1e-12)
    assert result.converged
    if "s" in case:
        assert result.s == pytest.approx(case["s"], abs=1e-6)
    if "pi" in case:
        assert result.pi == pytest.approx(case["pi"], abs=1e-6)
    if "loglik" in case:
        kind = "hbt" if case["model"] == "hbt" else "gbt"
        assert log_likelihood(graph, result.s, kind) == pytest.approx(case["loglik"], abs=1e-6)
    for winners, losers, expected in case.get("p", []):
        assert _probability(result, winners, losers, case["model"]) == pytest.approx(
            expected, abs=1e-6
        )
    if "sweeps" in case:
        assert result.sweeps == case["sweeps"]


def test_no_estimate_without_a_prior_names_the_players():
    with pytest.raises(NoEstimate, match=r"players \[2\] never won"):
        fit_bt(np.array([[0, 2, 1], [1, 0, 1], [0, 0, 0]]))


def test_iteration_cap_warns():
    with pytest.warns(ConvergenceWarning, match="did not converge in 3 sweeps"):
        fit_bt(np.array([[0, 2, 1, 3], [1, 0, 2, 1], [1, 1, 0, 2], [0, 1, 1, 0]]), max_iter=3)


def test_two_players_reduce_to_the_win_ratio():
    result = fit_bt(np.array([[0, 3], [1, 0]]))
    assert result.pi[0] / result.pi[1] == pytest.approx(3)


def test_components_are_normalised_separately():
    games = [((0,), (1,), 2), ((1,), (0,), 1), ((2,), (3,), 1), ((3,), (2,), 4)]
    result = fit(Hypergraph(games, 5), "hbt")
    assert result.s[0] + result.s[1] == pytest.approx(0)
    assert result.s[2] + result.s[3] == pytest.approx(0)
    assert np.isnan(result.s[4])  # no games, no rating
    assert result.components[0] == result.components[1] != result.components[2]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_invariant_to_game_order_and_player_labels(seed):
    rng = np.random.default_rng(seed)
    games = [(tuple(rng.choice(6, 2, replace=False)), None, 1.0) for _ in range(60)]
    games = [((a,), (b,), w) for (a, b), _, w in games]
    base = fit(Hypergraph(games, 6), "hbt", prior=True).s
    shuffled = [games[i] for i in rng.permutation(len(games))]
    assert fit(Hypergraph(shuffled, 6), "hbt", prior=True).s == pytest.approx(base, abs=1e-8)
    relabel = rng.permutation(6)
    renamed = [((relabel[a],), (relabel[b],), w) for (a,), (b,), w in games]
    renamed_fit = fit(Hypergraph(renamed, 6), "hbt", prior=True)
    assert renamed_fit.s[relabel] == pytest.approx(base, abs=1e-8)


def test_equals_choix_maximum_likelihood():
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(7)
    strengths = rng.normal(0, 1, 8)
    pairs = []
    for _ in range(400):
        a, b = rng.choice(8, 2, replace=False)
        a_wins = rng.random() < 1 / (1 + np.exp(strengths[b] - strengths[a]))
        pairs.append((a, b) if a_wins else (b, a))
    theirs = choix.ilsr_pairwise(8, pairs, alpha=0.0, tol=1e-12)
    wins = np.zeros((8, 8))
    for winner, loser in pairs:
        wins[winner, loser] += 1
    ours = fit_bt(wins, tol=1e-12).s
    assert ours - ours.mean() == pytest.approx(theirs - theirs.mean(), abs=1e-6)


def test_bootstrap_intervals_hold_the_estimate_and_shrink_with_data():
    from bridgerank.ratings.uncertainty import bootstrap_intervals

    rng = np.random.default_rng(11)
    truth = np.array([0.8, 0.3, 0.0, -0.4, -0.7])
    widths = []
    for size in (100, 800):
        games = []
        for _ in range(size):
            a, b = rng.choice(5, 2, replace=False)
            won = rng.random() < 1 / (1 + np.exp(truth[b] - truth[a]))
            games.append(((a,), (b,), 1.0) if won else ((b,), (a,), 1.0))
        low, high = bootstrap_intervals(games, 5, resamples=40, seed=1)
        estimate = fit(Hypergraph(games, 5), "hbt", prior=True).s
        assert np.all(low <= estimate) and np.all(estimate <= high)
        widths.append(float(np.mean(high - low)))
    assert widths[1] < widths[0] / 2  # eight times the games: about a third of the width


def test_elo_spread():
    from bridgerank.ratings.uncertainty import elo_spread

    spread = elo_spread({"a": [(1, 1000.0), (2, 1010.0), (3, 990.0)], "b": [(1, 1000.0)]})
    assert spread["a"] == pytest.approx(10.0) and np.isnan(spread["b"])


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in CASES["hyper"]
        if c["desc"].startswith(("HBT-2b", "HBT-6", "GBT-1 Huang", "GBT-3"))
    ],
    ids=lambda c: c["desc"],
)
def test_acceleration_keeps_the_fixed_point(case):
    n = 1 + max(max(winners + losers) for winners, losers, _ in case["games"])
    graph = Hypergraph(
        [tuple(game) for game in case["games"]], n, reduce_overlap=not case.get("overlap", False)
    )
    plain = fit(graph, case["model"], prior=case.get("prior", False), tol=1e-12)
    fast = fit(graph, case["model"], prior=case.get("prior", False), tol=1e-12, accelerate=True)
    assert fast.s == pytest.approx(plain.s, abs=1e-8)
    assert fast.sweeps < plain.sweeps


@pytest.mark.parametrize(
    "case", [c for c in CASES["hyper"] if c["model"] == "hbt"], ids=lambda c: c["desc"]
)
def test_newton_reaches_the_same_estimates(case):
    from bridgerank.ratings.bt import fit_hbt_newton

    n = 1 + max(max(winners + losers) for winners, losers, _ in case["games"])
    graph = Hypergraph([tuple(game) for game in case["games"]], n)
    result = fit_hbt_newton(graph, prior=case.get("prior", False))
    assert result.converged and result.sweeps <= 10
    assert result.s == pytest.approx(case["s"], abs=1e-6)


def _random_hypergraph(seed: int, players: int = 300, games: int = 3000) -> Hypergraph:
    """Bridge-like games: 2-vs-2 between pairs, a third of the players in fixed partnerships
    (whose split no game identifies), one game in ten 1-vs-3 among the others."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1, players)
    fixed = players // 3 // 2  # partnerships (2k, 2k + 1)
    free = np.arange(2 * fixed, players)
    edges = []
    for _ in range(games):
        if rng.random() < 0.1:
            four = rng.choice(free, 4, replace=False)
            a, b = (four[0],), tuple(four[1:])
        else:
            sides = []
            for _ in range(2):
                if rng.random() < 0.5:
                    k = rng.integers(fixed)
                    sides.append((2 * k, 2 * k + 1))
                else:
                    sides.append(tuple(rng.choice(free, 2, replace=False)))
            a, b = sides
            if set(a) & set(b):
                continue
        p = 1 / (1 + np.exp(truth[list(b)].sum() - truth[list(a)].sum()))
        edges.append((a, b, 1.0) if rng.random() < p else (b, a, 1.0))
    return Hypergraph(edges, players + 5)  # five players with no games


@pytest.mark.parametrize("prior", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_sparse_newton_equals_dense(seed, prior):
    from bridgerank.ratings.bt import fit_hbt_newton

    graph = _random_hypergraph(seed)
    dense = fit_hbt_newton(graph, prior=prior, solver="dense")
    sparse = fit_hbt_newton(graph, prior=prior, solver="sparse")
    assert dense.converged and sparse.converged
    assert np.array_equal(np.isnan(dense.s), np.isnan(sparse.s))
    assert np.nanmax(np.abs(sparse.s - dense.s)) < 1e-8
    # without a prior the partnership splits are the minimum-norm step's: partners equal
    assert sparse.s[0] == pytest.approx(sparse.s[1], abs=1e-8)
    # and it is the estimate the Gauss-Seidel sweeps reach, up to the splits no game sees
    sweeps = fit(graph, "hbt", prior=prior, tol=1e-12, accelerate=True).s
    pairs = sweeps[0:100:2] + sweeps[1:100:2], sparse.s[0:100:2] + sparse.s[1:100:2]
    assert pairs[1] == pytest.approx(pairs[0], abs=1e-6)
    assert sparse.s[100:] == pytest.approx(sweeps[100:], abs=1e-6, nan_ok=True)
    assert log_likelihood(graph, sparse.s) == pytest.approx(log_likelihood(graph, sweeps))


def test_newton_solver_auto_and_unknown():
    from bridgerank.ratings.bt import fit_hbt_newton

    graph = _random_hypergraph(2, players=60, games=600)
    assert fit_hbt_newton(graph, solver="auto").s == pytest.approx(
        fit_hbt_newton(graph, solver="dense").s, abs=1e-12, nan_ok=True
    )
    with pytest.raises(ValueError, match="solver"):
        fit_hbt_newton(graph, solver="cholesky")


def test_bootstrap_percentiles_are_numpys():
    from bridgerank.ratings.uncertainty import _nanpercentile_columns

    rng = np.random.default_rng(3)
    draws = rng.normal(size=(20, 300))
    draws[rng.random(draws.shape) < 0.3] = np.nan  # players missing from some resamples
    draws[:, 0] = np.nan  # and one from all
    for q in (2.5, 50, 97.5, 0, 100):
        with pytest.warns(RuntimeWarning, match="All-NaN"):
            expected = np.nanpercentile(draws, q, axis=0)
        assert np.array_equal(_nanpercentile_columns(draws, q), expected, equal_nan=True)


def test_newton_from_a_nearby_start_reaches_the_same_estimate_in_fewer_steps():
    """A bootstrap resample refitted from the whole data's estimate: the prior makes the
    estimate unique, so the start changes only the steps."""
    from bridgerank.ratings.bt import fit_hbt_newton
    from bridgerank.ratings.uncertainty import bootstrap_intervals

    rng = np.random.default_rng(4)
    strengths = rng.normal(0, 0.5, 40)
    games = []
    for _ in range(600):
        seats = rng.choice(40, 4, replace=False)
        a, b = seats[:2].tolist(), seats[2:].tolist()
        won = rng.random() < 1 / (1 + np.exp(strengths[b].sum() - strengths[a].sum()))
        games.append((a, b, 1.0) if won else (b, a, 1.0))
    whole = fit_hbt_newton(Hypergraph(games, 40), prior=True)
    picked = [games[i] for i in rng.integers(0, len(games), len(games))]
    cold = fit_hbt_newton(Hypergraph(picked, 40), prior=True)
    warm = fit_hbt_newton(Hypergraph(picked, 40), prior=True, start=whole.s)
    assert warm.converged and warm.s == pytest.approx(cold.s, abs=1e-8, nan_ok=True)
    assert warm.sweeps < cold.sweeps
    low, high = bootstrap_intervals(games, 40, "hbt", resamples=20)
    warm_low, warm_high = bootstrap_intervals(games, 40, "hbt", resamples=20, start=whole.s)
    assert warm_low == pytest.approx(low, abs=1e-8)
    assert warm_high == pytest.approx(high, abs=1e-8)
