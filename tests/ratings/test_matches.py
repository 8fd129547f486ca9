"""The IMP headline of team play: boards grouped into matches and oriented to one team, the
ridge fit against the dense solution, the metrics by hand, and the walk-forward on simulated
teams whose strengths are known."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.holdout import walk_forward
from bridgerank.ratings.team_baselines import coin_imps
from bridgerank.ratings.team_boards import TeamBoards, board_design, team_boards
from bridgerank.ratings.team_fit import fit_imps
from bridgerank.ratings.team_matches import (
    headline_imps,
    match_ceiling,
    match_metrics,
    match_target,
)


def _room(board_id, room, names, date, board_no, contract, declarer, result, event="Cup"):
    north, east, south, west = names
    return {
        "home_team": "",
        "visit_team": "",
        "id": board_id,
        "event": event,
        "date": date,
        "year": int(date[:4]),
        "board_no": board_no,
        "deal_hash": f"{event}{date}{board_no}",
        "room": room,
        "north": north,
        "east": east,
        "south": south,
        "west": west,
        "contract": contract,
        "declarer": declarer,
        "result": result,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
    }


def _match(first_id, date, home, away, boards=2, swap_second=False, event="Cup"):
    """Boards of a match between two teams of four (names a1..a4 against b1..b4); on every
    board the team sitting North-South in the open room wins 11 IMPs (see below).
    ``swap_second`` seats the away team North-South in the open room of the second board."""
    rows = []
    for number in range(boards):
        ns_open, ew_open = (away, home) if swap_second and number == 1 else (home, away)
        open_names = (ns_open[0], ew_open[0], ns_open[1], ew_open[1])
        closed_names = (ew_open[2], ns_open[2], ew_open[3], ns_open[3])
        board_id = first_id + 2 * number
        rows.append(_room(board_id, "Open", open_names, date, number + 1, "4S", "N", 10, event))
        # closed room: the open room's North-South team sits East-West, and makes 8 tricks
        # in 2S by East: -110 for North-South there, so the open room's NS team nets 420 + 110
        rows.append(
            _room(board_id + 1, "Closed", closed_names, date, number + 1, "2S", "E", 8, event)
        )
    for row in rows:  # the record names the match's teams, as PBN's HomeTeam and VisitTeam
        row.update(home_team=home[0][0], visit_team=away[0][0])
    return rows


def test_boards_become_matches_oriented_to_one_team():
    home = [f"a{i}" for i in range(4)]
    away = [f"b{i}" for i in range(4)]
    other_home = [f"c{i}" for i in range(4)]
    other_away = [f"d{i}" for i in range(4)]
    boards = (
        _match(1, "2001.05.01", home, away, swap_second=True)
        + _match(101, "2001.05.01", other_home, other_away)  # same round, other players
        + _match(201, "2001.05.02", home, other_home)
    )
    data = team_boards(boards, {})
    assert len(data) == 6 and len(data.players) == 16
    assert sorted(np.bincount(data.match).tolist()) == [2, 2, 2]  # three matches
    # 4S= +420 against 2S by East -110: 530 points, 11 IMPs to the open room's NS team
    assert set(np.abs(data.imps).tolist()) == {11.0}
    # the swapped board is oriented back to the team of the match's first board (home),
    # who lost it: away sat North-South in its open room
    first_match = data.match == data.match[0]
    assert data.sign[first_match].tolist() == [1.0, -1.0]
    assert (data.sign[first_match] * data.imps[first_match]).tolist() == [11.0, -11.0]
    assert data.periods == ["2001.05.01", "2001.05.02"]


def simulated_teams(
    players=80, teams_per_round=10, rounds=40, boards=8, seed=2, spread=0.4, noise=4.0, weight=None
):
    """Team boards of simulated players whose strengths (``truth``, IMPs per board) are
    known; each round's players are drawn at random, in proportion to ``weight(truth)`` when
    given (who plays most)."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, spread, players)
    chance = None if weight is None else weight(truth) / weight(truth).sum()
    seats, outcome, match, period = [], [], [], []
    number = 0
    for day in range(rounds):
        chosen = rng.choice(players, 8 * teams_per_round // 2, replace=False, p=chance)
        for eight in chosen.reshape(-1, 8):
            for _ in range(boards):
                expected = truth[eight[:4]].sum() - truth[eight[4:]].sum()
                seats.append(eight)
                outcome.append(np.round(expected + rng.normal(0, noise)))
                match.append(number)
                period.append(day)
            number += 1
    count = len(outcome)
    data = TeamBoards(
        players=list(range(players)),
        seats=np.array(seats),
        imps=np.array(outcome, dtype=float),
        match=np.array(match),
        sign=np.ones(count),
        period=np.array(period),
        periods=[f"{day:03d}" for day in range(rounds)],
    )
    return truth, data


def test_the_sparse_fit_is_the_dense_ridge_solution():
    truth, data = simulated_teams()
    dense = board_design(data).toarray()
    expected = np.linalg.solve(dense.T @ dense + 10 * np.eye(len(truth)), dense.T @ data.imps)
    fit = fit_imps(data, 10.0)
    assert np.allclose(fit.theta, expected, atol=1e-6)
    assert np.corrcoef(fit.theta, truth)[0, 1] > 0.6
    assert fit.residual_variance == pytest.approx(16 + 1 / 12, rel=0.15)  # noise + rounding


def test_walk_forward_beats_a_coin_with_honest_intervals():
    _, data = simulated_teams()
    run = walk_forward(data, {"headline": headline_imps, "coin": coin_imps}, match_target)
    ours = match_metrics(run.predicted("headline"), run.actual, run.variance("headline"))
    coin = match_metrics(run.predicted("coin"), run.actual, None)
    assert ours["rmse"] < coin["rmse"] and ours["pearson"] > 0.4
    assert ours["winner_right"] > 0.6 and coin["winner_right"] == 0.5
    assert 0.72 <= ours["coverage_80"] <= 0.88


def test_match_metrics_by_hand():
    predicted = np.array([10.0, -5.0, 0.0, 3.0])
    actual = np.array([20.0, 5.0, -4.0, 0.0])
    metrics = match_metrics(predicted, actual, np.full(4, 100.0))
    # decided matches: right, wrong, level prediction (half); the drawn match is left out
    assert metrics["winner_right"] == pytest.approx(1.5 / 3)
    assert metrics["rmse"] == pytest.approx(np.sqrt((100 + 100 + 16 + 9) / 4))
    # 80% interval: +-12.8 IMPs: all four inside
    assert metrics["coverage_80"] == 1.0


def test_matches_of_one_round_without_team_names_are_not_crossed():
    home = [f"a{i}" for i in range(4)]
    away = [f"b{i}" for i in range(4)]
    other_home = [f"c{i}" for i in range(4)]
    other_away = [f"d{i}" for i in range(4)]
    boards = _match(1, "2001.05.01", home, away) + _match(101, "2001.05.01", other_home, other_away)
    for row in boards:
        row.update(home_team="", visit_team="")
    # two open and two closed rooms of each board, and nothing to say which go together
    assert len(team_boards(boards, {})) == 0


def test_the_ceiling_is_the_share_of_a_margin_that_is_the_teams_difference():
    truth, data = simulated_teams(rounds=150)  # 750 matches of 8 boards
    reliability, bound = match_ceiling(data)
    # the share the simulation put there: the variance of the matches' expected margins over
    # that plus eight boards' noise (sd 4, and the rounding to whole IMPs)
    expected = np.bincount(data.match, weights=board_design(data) @ truth)
    share = expected.var() / (expected.var() + 8 * (16 + 1 / 12))
    assert reliability == pytest.approx(share, abs=0.08)
    assert bound == pytest.approx(np.sqrt(reliability))
    # every board played twice in a row: the odd and even halves agree exactly
    twice = TeamBoards(
        data.players,
        np.repeat(data.seats, 2, axis=0),
        np.repeat(data.imps, 2),
        np.repeat(data.match, 2),
        np.repeat(data.sign, 2),
        np.repeat(data.period, 2),
        data.periods,
    )
    assert match_ceiling(twice) == pytest.approx((1.0, 1.0))
