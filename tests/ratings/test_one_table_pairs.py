"""Pairs at one table a deal, held out: a pair-session's IMPs against par by hand, and the
walk-forward on simulated players whose strengths are known, where the team fit's strengths
must beat a coin with honest intervals."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.holdout import Forecast, walk_forward
from bridgerank.ratings.one_table_pairs import (
    PairBoards,
    pair_target,
    pair_units,
    study_pairs,
)
from bridgerank.ratings.team_evidence import OneTableBoards, TeamEvidence
from tests.ratings.test_matches import simulated_teams


def test_a_pair_session_is_its_boards_imps_against_par_from_its_side():
    one_table = OneTableBoards(
        period=np.array(["001", "001", "001", "002"], dtype=object),
        pairs=[(("a", "b"), ("c", "d")), (("c", "d"), ("a", "b")), (("a", "b"), ("e", "f"))]
        + [(("a", "b"), ("c", "d"))],
        imps=np.array([5.0, 3.0, -2.0, 7.0]),
        event=np.array(["Pairs"] * 4, dtype=object),
    )
    data = PairBoards.of(one_table)
    target = pair_target(data.subset(data.period == 0))
    # a-b: +5, then -3 (c-d sat North-South), then -2; c-d: -5 and +3; e-f: +2
    assert sorted(zip(target.boards.tolist(), target.actual.tolist())) == [
        (1, 2.0),
        (2, -2.0),
        (3, 0.0),
    ]
    assert set(target.group.tolist()) == {0}  # one session: resampled together


def _simulated(seed=3, pairs_rounds=30, noise=4.0):
    """Team boards of simulated players and, on later days, boards they played at one table a
    deal against par, from the same strengths."""
    truth, team = simulated_teams(players=80, rounds=40, seed=seed)
    rng = np.random.default_rng(seed + 1)
    period, boards, results = [], [], []
    for day in range(pairs_rounds):
        players = rng.choice(len(truth), 16, replace=False).reshape(-1, 2)
        for _ in range(48):  # each pair plays about twelve boards a day
            ns, ew = rng.choice(len(players), 2, replace=False)
            expected = truth[players[ns]].sum() - truth[players[ew]].sum()
            period.append(f"{day * 40 // pairs_rounds:03d}x{day:02d}")
            boards.append((tuple(players[ns].tolist()), tuple(players[ew].tolist())))
            results.append(np.round(expected + rng.normal(0, noise)))
    one_table = OneTableBoards(
        np.array(period, dtype=object),
        boards,
        np.array(results),
        np.array(["Pairs"] * len(results), dtype=object),
    )
    return truth, team, TeamEvidence(None, one_table)


def _oracle(truth):
    """The forecast of someone who knows the true strengths."""

    def predict(train, test, target=None):
        strength = np.array([truth[player] for player in test.players])
        return Forecast(pair_units(test).weights @ strength)

    return predict


def test_the_team_strengths_predict_held_out_pairs_with_honest_intervals():
    truth, team, evidence = _simulated()
    rows, summary = study_pairs(team, evidence, bootstrap=200)
    by_method = {row["method"]: row for row in rows}
    assert set(by_method) == {"headline", "coin", "imp_average"}
    assert summary is not None and summary.pairs == by_method["headline"]["pairs"] > 100
    # the true strengths' forecast on the same held-out pair-sessions reaches 0.38
    run = walk_forward(PairBoards.of(evidence.one_table), {"oracle": _oracle(truth)}, pair_target)
    ceiling = float(np.corrcoef(run.predicted("oracle"), run.actual)[0, 1])
    assert ceiling > 0.3 and summary.pearson > 0.6 * ceiling
    # the coin is worse (a pair-session's luck is large beside its players' edge: the
    # interval of 120 pair-sessions still spans no difference)
    coin = by_method["coin"]
    assert (
        coin["rmse_gain"] > 0 and coin["rmse_gain_low"] < coin["rmse_gain"] < coin["rmse_gain_high"]
    )
    assert by_method["headline"]["coverage_80"] == pytest.approx(0.8, abs=0.08)


def test_no_study_without_team_boards_or_dates_enough():
    _, team, evidence = _simulated(pairs_rounds=3)
    assert study_pairs(team, evidence) == ([], None)
    _, team, evidence = _simulated()
    assert study_pairs(team.subset(np.zeros(len(team), dtype=bool)), evidence) == ([], None)


def test_the_fit_is_chosen_on_the_one_table_boards_too():
    """The team players also play pairs at one table, where they play quite differently: the
    one-table boards only blur the team strengths, so judged on the team boards alone the
    fit leaves them out (weight 0) - and then forecasts every pair from the team strengths,
    which say nothing of pairs. The fit serves both forecasts and is judged on both: it keeps
    the one-table boards (weight 1)."""
    from bridgerank.ratings.team_fit import choose_joint

    _, team, _ = _simulated()
    rng = np.random.default_rng(11)
    at_pairs = rng.normal(0, 1.0, len(team.players))  # nothing to do with their team play
    period, boards, results = [], [], []
    for day in range(40):
        players = rng.choice(len(team.players), 16, replace=False).reshape(-1, 2)
        for _ in range(48):
            ns, ew = rng.choice(len(players), 2, replace=False)
            expected = at_pairs[players[ns]].sum() - at_pairs[players[ew]].sum()
            period.append(f"{day:03d}")
            pair = [tuple(team.players[p] for p in players[side]) for side in (ns, ew)]
            boards.append((pair[0], pair[1]))
            results.append(np.round(expected + rng.normal(0, 2.0)))
    one_table = OneTableBoards(
        np.array(period, dtype=object),
        boards,
        np.array(results),
        np.array(["Pairs"] * len(results), dtype=object),
    )
    _, weight = choose_joint(team, TeamEvidence(None, one_table))
    assert weight == 1.0
