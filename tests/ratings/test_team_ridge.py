"""The team fits' ridge problem (ratings/team_ridge.py): its solution is the normal
equations' at every penalty, and one problem serves many penalties."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from bridgerank.ratings.team_ridge import FREE, RidgeSystem


def _problem(seed: int = 3) -> RidgeSystem:
    """Sixty players on 400 rows of four against four, two covariates, unequal weights."""
    rng = np.random.default_rng(seed)
    rows, players = 400, 60
    seats = np.stack([rng.choice(players, 8, replace=False) for _ in range(rows)])
    design = sparse.csr_matrix(
        (np.tile([1.0] * 4 + [-1.0] * 4, rows), (np.repeat(np.arange(rows), 8), seats.ravel())),
        shape=(rows, players),
    )
    centres = rng.normal(size=(players, 2))
    strength = rng.normal(size=players) + centres @ np.array([0.5, -0.3])
    outcome = design @ strength + rng.normal(scale=3.0, size=rows)
    weight = np.where(np.arange(rows) < 300, 1.0, 0.5)
    return RidgeSystem(design, outcome, weight, design @ centres, centres, team_rows=300)


def _by_normal_equations(system: RidgeSystem, penalty: float) -> np.ndarray:
    """The strengths from the dense normal equations of the stacked, weighted rows."""
    root = np.sqrt(system.weight)
    full = np.hstack(
        [(system.design.toarray() * root[:, None]), system.row_covariates * root[:, None] * FREE]
    )
    solution = np.linalg.solve(
        full.T @ full + penalty * np.eye(full.shape[1]), full.T @ (system.outcome * root)
    )
    players = system.design.shape[1]
    return solution[:players] + system.centres @ (solution[players:] * FREE)


@pytest.mark.parametrize("penalty", [1.0, 30.0, 1e4])
def test_the_solution_is_the_normal_equations_one(penalty: float) -> None:
    system = _problem()
    np.testing.assert_allclose(
        system.fit(penalty).theta, _by_normal_equations(system, penalty), atol=1e-5
    )


def test_one_system_serves_every_penalty_as_a_fresh_one_would() -> None:
    shared = _problem()
    for penalty in (100.0, 1.0, 1000.0):
        alone = _problem().fit(penalty)
        again = shared.fit(penalty)
        np.testing.assert_array_equal(again.theta, alone.theta)
        np.testing.assert_array_equal(again.sd, alone.sd)


def test_a_larger_penalty_shrinks_the_strengths_towards_their_centres() -> None:
    system = _problem()
    loose, tight = system.fit(1.0), system.fit(1e6)
    centre = system.centres @ np.linalg.lstsq(system.centres, tight.theta, rcond=None)[0]
    assert np.abs(tight.theta - centre).max() < 1e-3
    assert np.abs(loose.theta - centre).max() > 0.1
