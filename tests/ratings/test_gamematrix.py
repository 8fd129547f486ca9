"""Game-matrix methods (spec section 6): test vectors G-1 to G-4, two-player reductions and the
edge cases of 6.8."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit, logit

from bridgerank.core.errors import InvalidGame, NoEstimate
from bridgerank.ratings.gamematrix import disc_fit, melo
from bridgerank.ratings.gamematrix.discs import decompose, disc_is_transitive
from bridgerank.ratings.gamematrix.hyperbolic import (
    asymptotic_threshold,
    exact_threshold,
    explicit_threshold,
    hyperbolic_elo,
    phi,
    preserves_transitivity,
    search_beta,
    squashed,
    sufficient_beta_holds,
)
from bridgerank.ratings.gamematrix.matrix import GameMatrix, holdout_mask, sign_accuracy
from bridgerank.ratings.gamematrix.matrix_elo import ELO_POINTS, game_elo
from bridgerank.ratings.gamematrix.structure import classify, has_hamiltonian_cycle


def g1() -> GameMatrix:
    """Bertrand et al.'s three players: 0 beats 1 and 2 with 0.55, 1 beats 2 with 0.95."""
    a, b = 0.55, 0.95
    return GameMatrix.complete(np.array([[0.5, a, a], [1 - a, 0.5, b], [1 - a, 1 - b, 0.5]]))


def g2_logits() -> np.ndarray:
    """Four players: rho = (1, .5, 0, -.5) plus 1.5 times the cycle 1 > 2 > 3 > 1."""
    rho = np.array([1.0, 0.5, 0.0, -0.5])
    logits = rho[:, None] - rho[None, :]
    for i, j in ((1, 2), (2, 3), (3, 1)):
        logits[i, j] += 1.5
        logits[j, i] -= 1.5
    return logits


def g2() -> GameMatrix:
    return GameMatrix.complete(expit(g2_logits()))


def differences(r: np.ndarray) -> np.ndarray:
    return r[:, None] - r[None, :]


# --- G-1: Elo breaks a transitive relation -------------------------------------------------


def test_g1_elo_ratings_and_points():
    r = game_elo(g1())
    np.testing.assert_allclose(r, [0.149102, 0.591468, -0.740570], atol=1e-6)
    np.testing.assert_allclose(r * ELO_POINTS, [25.901715, 102.748460, -128.650175], atol=1e-5)
    residuals = np.sum(g1().p - expit(differences(r)), axis=1) + 0.0  # diagonal: 1/2 - 1/2
    np.testing.assert_allclose(residuals, 0, atol=1e-10)


def test_g1_elo_ranks_the_loser_of_a_pair_above_its_winner():
    r = game_elo(g1())
    assert r[1] > r[0]  # although 0 beats 1
    assert sign_accuracy(differences(r), g1(), g1().mask) == pytest.approx(2 / 3, abs=1e-6)


G1_BETA_TABLE = [
    # beta, r_beta, row sums of P_beta, (S) holds, sign accuracy
    (0.5, [0.142140, 0.438433, -0.580573], [1.599668, 1.808315, 1.092017], False, 0.666667),
    (1.0, [0.135308, 0.247570, -0.382878], [1.598688, 1.680627, 1.220685], False, 0.666667),
    (1.5, [0.131418, 0.151792, -0.283210], [1.597104, 1.612161, 1.290735], False, 0.666667),
    (2.0, [0.127895, 0.100937, -0.228832], [1.594987, 1.574964, 1.330049], True, 1.0),
    (5.0, [0.101846, 0.015725, -0.117571], [1.576152, 1.511758, 1.412090], True, 1.0),
    (10.0, [0.064318, 0.001182, -0.065500], [1.548188, 1.500885, 1.450927], True, 1.0),
]


@pytest.mark.parametrize("beta, r, rows, s_holds, accuracy", G1_BETA_TABLE)
def test_g1_hyperbolic_elo_beta_table(beta, r, rows, s_holds, accuracy):
    game = g1()
    fitted = hyperbolic_elo(game, beta)
    np.testing.assert_allclose(fitted.r, r, atol=1e-6)
    np.testing.assert_allclose(squashed(game, beta).p.sum(axis=1), rows, atol=1e-6)
    assert sufficient_beta_holds(game, beta) is s_holds
    assert preserves_transitivity(game, beta) is (accuracy == 1.0)
    assert sign_accuracy(differences(fitted.r), game, game.mask) == pytest.approx(accuracy, 1e-6)


def test_g1_thresholds():
    game = g1()
    assert exact_threshold(game) == pytest.approx(1.679382, abs=1e-6)
    assert explicit_threshold(game) == pytest.approx(1.760185, abs=1e-6)
    assert asymptotic_threshold(game) == pytest.approx(1.727076, abs=1e-6)


def test_g1_squashed_game_and_saturating_reconstruction_at_beta_5():
    game = g1()
    np.testing.assert_allclose(
        squashed(game, 5.0).p,
        [[0.5, 0.538076, 0.538076], [0.461924, 0.5, 0.549834], [0.461924, 0.450166, 0.5]],
        atol=1e-6,
    )
    np.testing.assert_allclose(
        hyperbolic_elo(game, 5.0).probabilities(),
        [[0.5, 0.523016, 1.0], [0.476984, 0.5, 0.540133], [0.0, 0.459867, 0.5]],
        atol=1e-6,
    )


def test_beta_search_finds_a_beta_that_keeps_every_win():
    fitted = search_beta(g1())
    assert fitted.beta >= 2.0
    assert sign_accuracy(differences(fitted.r), g1(), g1().mask) == 1.0


# --- G-2 and G-3: a transitive part and a cycle ----------------------------------------------


def test_g2_elo_and_its_sign_accuracy():
    r = game_elo(g2())
    np.testing.assert_allclose(r, [0.738821, 0.141917, -0.249468, -0.631270], atol=1e-6)
    assert sign_accuracy(differences(r), g2(), g2().mask) == pytest.approx(0.833333, abs=1e-6)


def test_g2_discs():
    discs = decompose(g2().logits())
    np.testing.assert_allclose(discs.strength, [3.106765, 1.448452], atol=1e-6)
    assert [discs.is_transitive(d) for d in range(2)] == [False, True]
    np.testing.assert_allclose(
        np.linalg.svd(g2().logits(), compute_uv=False),
        [3.106765, 3.106765, 1.448452, 1.448452],
        atol=1e-6,
    )
    np.testing.assert_allclose(
        discs.reconstruct(1),
        [
            [0.0, -0.552558, 0.979880, 0.725179],
            [0.552558, 0.0, 1.661903, -0.043155],
            [-0.979880, -1.661903, 0.0, 2.257616],
            [-0.725179, 0.043155, -2.257616, 0.0],
        ],
        atol=1e-6,
    )
    assert sign_accuracy(discs.reconstruct(1), g2(), g2().mask) == pytest.approx(0.833333, 1e-6)
    assert np.abs(discs.reconstruct(2) - g2().logits()).max() < 1e-12


def test_g3_batch_melo_recovers_the_transitive_part_and_the_cycle():
    fitted = melo.fit_batch(g2(), k=1)
    np.testing.assert_allclose(fitted.r, [0.75, 0.25, -0.25, -0.75], atol=1e-12)
    residual = decompose(g2().logits() - differences(fitted.r))
    np.testing.assert_allclose(residual.strength, [1.5 * np.sqrt(3)], atol=1e-6)
    assert np.abs(fitted.logits() - g2().logits()).max() < 1e-12
    assert sign_accuracy(fitted.logits(), g2(), g2().mask) == 1.0


def test_g4_one_online_melo_step():
    r_i, r_j, c_i, c_j, p_hat = melo.online_step(
        0.2, -0.1, np.array([0.3, -0.2]), np.array([0.1, 0.4]), 0.0, 0.1, 0.05
    )
    assert p_hat == pytest.approx(0.608259, abs=1e-6)
    assert (r_i, r_j) == pytest.approx((0.139174, -0.039174), abs=1e-6)
    np.testing.assert_allclose(c_i, [0.287835, -0.196959], atol=1e-6)
    np.testing.assert_allclose(c_j, [0.093917, 0.390876], atol=1e-6)


def test_online_melo_learns_a_cycle_elo_cannot():
    rps = GameMatrix.complete(expit(3 * np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]])))
    fitted = melo.fit_online(rps, 1, np.random.default_rng(0), epochs=300)
    assert sign_accuracy(fitted.logits(), rps, rps.mask) == 1.0
    np.testing.assert_allclose(game_elo(rps), 0, atol=1e-9)  # Elo: all equal


def test_disc_rating_fits_a_three_player_game_with_one_disc():
    # any antisymmetric 3 x 3 matrix is one disc
    fitted = disc_fit.fit_discs(g1(), 1, rounds=30)
    np.testing.assert_allclose(fitted.logits(), g1().logits(), atol=1e-3)


def test_disc_rating_on_observed_entries_only():
    game = g2()
    train = ~np.eye(4, dtype=bool)
    train[0, 3] = train[3, 0] = False
    fitted = disc_fit.fit_discs(game.restricted(train), 2, rounds=30)
    assert sign_accuracy(fitted.logits(), game, train) == 1.0


# --- classification ----------------------------------------------------------------------------


def test_classification_of_the_test_games():
    assert classify(g1()).kind == "transitive"
    assert classify(g2()).kind == "hybrid"  # player 0 beats everyone; 1, 2, 3 go round
    rps = GameMatrix.complete(expit(np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]])))
    structure = classify(rps)
    assert (structure.kind, structure.tournament, structure.transitive_share) == (
        "cyclic",
        True,
        pytest.approx(0.0, abs=1e-12),
    )
    assert classify(g1()).transitive_share < 1  # Elo's differences miss part of G-1's logits


def test_classification_with_ties_and_missing_entries():
    # 0 > 1 > 2 > 3, 3 > 0, 0 ties 2, 1 vs 3 unobserved: a Hamiltonian cycle 0-1-2-3-0
    p = np.full((4, 4), 0.5)
    for i, j in ((0, 1), (1, 2), (2, 3), (3, 0)):
        p[i, j], p[j, i] = 0.8, 0.2
    mask = ~np.eye(4, dtype=bool)
    mask[1, 3] = mask[3, 1] = False
    game = GameMatrix(p, mask, mask.astype(float))
    assert not game.complete_observed
    assert classify(game).kind == "cyclic"
    # without the win of 3 over 0 the observed wins fit one order
    p[3, 0], p[0, 3] = 0.2, 0.8
    assert classify(GameMatrix(p, mask, mask.astype(float))).kind == "transitive"


def test_hamiltonian_search():
    path = np.zeros((4, 4), dtype=bool)
    path[0, 1] = path[1, 2] = path[2, 3] = True
    assert not has_hamiltonian_cycle(path)
    path[3, 0] = True
    assert has_hamiltonian_cycle(path)


def test_a_tie_in_a_complete_game_breaks_transitivity():
    p = np.array([[0.5, 0.7, 0.5], [0.3, 0.5, 0.7], [0.5, 0.3, 0.5]])
    assert classify(GameMatrix.complete(p)).kind == "hybrid"


# --- two players, edge cases (6.8) -------------------------------------------------------------


@pytest.mark.parametrize("p12", [0.05, 0.5, 0.7, 0.999])
def test_two_player_reductions(p12):
    game = GameMatrix.complete(np.array([[0.5, p12], [1 - p12, 0.5]]))
    r = game_elo(game)
    assert r[0] - r[1] == pytest.approx(logit(p12), abs=1e-9)
    discs = decompose(game.logits())
    if p12 == 0.5:
        assert len(discs) == 0
    else:
        assert discs.strength == pytest.approx([abs(logit(p12))])
        assert discs.is_transitive(0)
    assert melo.fit_batch(game, 1).c.size == 0  # no cyclic residual
    # (beyond beta |logit| of about 18, tanh rounds to 1 in double precision and the
    # back-transform saturates: no exact round trip is possible there)
    for beta in (0.25, 0.5, 1.0):
        fitted = hyperbolic_elo(game, beta)
        assert fitted.r[0] - fitted.r[1] == pytest.approx(phi(logit(p12), beta), abs=1e-9)
        assert fitted.probabilities()[0, 1] == pytest.approx(p12, abs=1e-7)


def test_certain_entries_have_no_elo_until_smoothed():
    wins = np.array([[0, 3, 2], [0, 0, 1], [0, 1, 0]], dtype=float)  # 0 never loses
    raw = GameMatrix.from_counts(wins, np.zeros((3, 3)), alpha=0.0)
    with pytest.raises(NoEstimate, match="smooth the counts"):
        game_elo(raw)
    smoothed = GameMatrix.from_counts(wins, np.zeros((3, 3)), alpha=0.5)
    assert smoothed.p[0, 1] == pytest.approx((3 + 0.5) / (3 + 1))
    r = game_elo(smoothed)
    assert np.isfinite(r).all() and r[0] == r.max()
    assert np.isfinite(smoothed.logits()).all()


def test_ties_are_kept_by_the_squash_and_left_out_of_sign_accuracy():
    assert phi(np.array(0.0), 3.0) == 0.0
    p = np.array([[0.5, 0.5, 0.9], [0.5, 0.5, 0.6], [0.1, 0.4, 0.5]])
    game = GameMatrix.complete(p)
    predicted = np.array([[0, 1.0, 1], [-1.0, 0, -1], [-1, 1, 0]])  # wrong on (1, 2) only
    assert sign_accuracy(predicted, game, game.mask) == pytest.approx(0.5)


def test_a_disconnected_mask_gives_separate_problems():
    p = np.full((4, 4), 0.5)
    p[0, 1], p[1, 0] = 0.8, 0.2
    p[2, 3], p[3, 2] = 0.6, 0.4
    mask = np.zeros((4, 4), dtype=bool)
    mask[0, 1] = mask[1, 0] = mask[2, 3] = mask[3, 2] = True
    r = game_elo(GameMatrix(p, mask, mask.astype(float)))
    np.testing.assert_allclose(
        r, [logit(0.8) / 2, -logit(0.8) / 2, logit(0.6) / 2, -logit(0.6) / 2]
    )


def test_bad_matrices_are_refused():
    with pytest.raises(InvalidGame, match="P\\[i,j\\] \\+ P\\[j,i\\] = 1"):
        GameMatrix.complete(np.array([[0.5, 0.7], [0.7, 0.5]]))
    with pytest.raises(InvalidGame, match="square"):
        GameMatrix.complete(np.zeros((2, 3)))


def test_holdout_mask_drops_about_19_percent_of_pairs_symmetrically():
    mask = holdout_mask(200, np.random.default_rng(1))
    assert (mask == mask.T).all() and not mask.diagonal().any()
    assert 1 - mask.sum() / (200 * 199) == pytest.approx(0.19, abs=0.01)


def test_disc_transitivity_by_half_plane():
    angles = np.array([0.1, 1.0, 2.5])
    assert disc_is_transitive(np.cos(angles), np.sin(angles))
    angles = np.array([0.0, 2.2, 4.4])
    assert not disc_is_transitive(np.cos(angles), np.sin(angles))
