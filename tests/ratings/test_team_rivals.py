"""The rivals on team matches (ratings.rivals.team_play): a team board read as a deal at two
tables, TrueSkill Through Time's games of line-ups, and each rival learning known strengths
of simulated teams in the walk-forward."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.field import FieldTables
from bridgerank.ratings.holdout import walk_forward
from bridgerank.ratings.registry import StudyInputs, registry
from bridgerank.ratings.rivals import team_play
from bridgerank.ratings.rivals.pair_elo import PairElo
from bridgerank.ratings.team_boards import TeamBoards, match_margins
from bridgerank.ratings.team_matches import match_target

# Two boards of one match: team A (players 0-3) against team B (4-7). Seats: team A's open
# North, South, closed East, West; team B's open East, West, closed North, South.
TWO_BOARDS = TeamBoards(
    players=list(range(8)),
    seats=np.array([[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]]),
    imps=np.array([10.0, 0.0]),
    match=np.array([0, 0]),
    sign=np.array([1.0, 1.0]),
    period=np.array([0, 0]),
    periods=["2001.01.01"],
    matches=[("Cup", "2001.01.01")],
)


def test_a_team_board_is_a_deal_at_two_tables():
    tables = team_play.board_tables(TWO_BOARDS)
    # the open room: A's North-South (0, 1) against B's East-West (4, 5); the closed room: B's
    # North-South (6, 7) against A's East-West (2, 3)
    assert tables.seats.tolist() == [[0, 1, 4, 5], [6, 7, 2, 3]] * 2
    # A won the first board (North-South's share 1 at the open table), tied the second
    assert tables.share.tolist() == [1.0, 0.0, 0.5, 0.5]
    assert tables.group.tolist() == [0, 0, 1, 1]
    assert tables.session.tolist() == [0, 0, 0, 0]


def test_a_team_win_moves_the_pair_elo_of_both_its_partnerships():
    rival = PairElo(k=10.0)
    tables = team_play.board_tables(TWO_BOARDS)
    rival.learn(tables, np.arange(2))  # the first board
    # A's two partnerships beat the other table's North-South or East-West: +K each
    assert rival.rating[(0, 1)] == pytest.approx(10.0)
    assert rival.rating[(2, 3)] == pytest.approx(10.0)
    assert rival.rating[(4, 5)] == pytest.approx(-10.0)
    assert rival.rating[(6, 7)] == pytest.approx(-10.0)


def test_multiplayer_elo_ranks_each_directions_two_pairs_of_a_team_board():
    """On two tables both multiplayer Elos move a pair by K (a - e): level newcomers expect
    half a pair beaten; A's pairs beat theirs on the first board (+K/2 each), tie the second
    (no move)."""
    from bridgerank.ratings.rivals.multiplayer_elo import MultiplayerElo

    rival = MultiplayerElo(k=16.0)
    tables = team_play.board_tables(TWO_BOARDS)
    rival.learn(tables, np.arange(len(tables)))
    assert rival.rating[:4].tolist() == pytest.approx([8.0] * 4)
    assert rival.rating[4:].tolist() == pytest.approx([-8.0] * 4)
    # forecast: A's North-South (rating 8) against B's (-8), 16 points apart
    alone = rival.north_south_share(tables, np.arange(2))
    assert alone[0] == pytest.approx(1 / (1 + 10 ** (-16 / 400)))
    # judged less the opponents at the table: 8 - (-8) against -8 - 8, 32 points apart
    judged = MultiplayerElo(k=16.0, opponents=True)
    judged.rating = rival.rating.copy()
    assert judged.north_south_share(tables, np.arange(2))[0] == pytest.approx(
        1 / (1 + 10 ** (-32 / 400))
    )


def test_yearly_through_time_refits_at_a_new_year_and_learns_games_one_by_one_between():
    from bridgerank.ratings.rivals.ttt import ThroughTimePairs

    seats = np.array([[0, 1, 2, 3, 4, 5, 6, 7]] * 2)
    days = ["2001.1", "2001.2", "2002.1"]

    def match(day: int, imps: float) -> FieldTables:
        data = TeamBoards(
            players=list(range(8)),
            seats=seats,
            imps=np.array([imps, imps]),
            match=np.zeros(2, dtype=np.int64),
            sign=np.ones(2),
            period=np.full(2, day),
            periods=days,
        )
        return team_play.board_tables(data)

    rival = ThroughTimePairs(0.03, games=team_play.line_up_games, yearly=True)
    first = match(0, 5.0)
    rival.learn(first, np.arange(4))
    assert rival.stale  # the first year: refitted at the next forecast
    rival.north_south_share(first, np.arange(2))
    assert not rival.stale and rival.posterior[0][0] > 0 > rival.posterior[4][0]
    before = rival.posterior[0]
    rival.learn(match(1, -5.0), np.arange(4))  # the same year: one game learned, no refit
    assert not rival.stale and rival.posterior[0][0] < before[0]
    assert rival.posterior[0][1] < before[1]  # one more game: surer
    rival.learn(match(2, 5.0), np.arange(4))  # a new year: the whole history refitted
    assert rival.stale and len(rival.composition) == 3


def test_multiplayer_elo_pairs_every_table_of_a_deal_with_the_others():
    from bridgerank.ratings.field import deal_pairs

    i, j = deal_pairs(np.array([5, 2, 5, 5, 2]))
    assert sorted(zip(i.tolist(), j.tolist())) == [
        (0, 2),
        (0, 3),
        (1, 4),
        (2, 0),
        (2, 3),
        (3, 0),
        (3, 2),
        (4, 1),
    ]


def test_through_time_plays_each_line_up_of_a_match_as_one_game():
    # the same match: a line-up of 0-7 wins one board and ties one; then 8-11 replace B
    seats = np.array([[0, 1, 2, 3, 4, 5, 6, 7]] * 2 + [[8, 9, 10, 11, 0, 1, 2, 3]] * 3)
    data = TeamBoards(
        players=list(range(12)),
        seats=seats,
        imps=np.array([10.0, 0.0, -3.0, -1.0, 5.0]),
        match=np.zeros(5, dtype=np.int64),
        sign=np.ones(5),
        period=np.zeros(5, dtype=np.int64),
        periods=["2001.01.01"],
    )
    tables = team_play.board_tables(data)
    games = team_play.line_up_games(tables, np.arange(len(tables)))
    # the first line-up: A (0-3) won more boards; the second: 0-3 (sitting as B) won two of
    # three against 8-11
    assert games == [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 1, 2, 3], [8, 9, 10, 11]]]


def fixed_partnerships(partnerships=24, rounds=30, boards=8, seed=3):
    """Simulated team matches of fixed partnerships of known strength (IMPs per board a
    pair adds), teamed at random each round; the truth is each board's expected IMPs."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1.0, partnerships)
    seats, imps, match, period, truth = [], [], [], [], []
    number = 0
    for day in range(rounds):
        order = rng.permutation(partnerships).reshape(-1, 4)  # two pairs a team
        for a1, a2, b1, b2 in order:
            for _ in range(boards):
                expected = strength[a1] + strength[a2] - strength[b1] - strength[b2]
                # team A: open North-South a1, closed East-West a2; team B: open EW b1, closed NS b2
                seats.append(
                    [2 * a1, 2 * a1 + 1, 2 * a2, 2 * a2 + 1, 2 * b1, 2 * b1 + 1, 2 * b2, 2 * b2 + 1]
                )
                imps.append(np.round(expected + rng.normal(0, 5)))
                truth.append(expected)
                match.append(number)
                period.append(day)
            number += 1
    data = TeamBoards(
        players=list(range(2 * partnerships)),
        seats=np.array(seats),
        imps=np.array(imps, dtype=float),
        match=np.array(match),
        sign=np.ones(len(imps)),
        period=np.array(period),
        periods=[f"{day:03d}" for day in range(rounds)],
    )
    return np.array(truth), data


@pytest.mark.parametrize(
    "method",
    [
        team_play.PAIR_ELO,
        team_play.NGS,
        team_play.OPENSKILL,
        team_play.GLICKO2,
        team_play.TTT,
        team_play.TTT_YEARLY,
        team_play.ELO,
        team_play.ELO_OPPONENTS,
    ],
    ids=lambda m: m.name,
)
def test_each_rival_learns_simulated_team_matches(method):
    """Held out, each rival's match forecasts, in IMPs, follow the teams' true difference."""
    truth, data = fixed_partnerships()
    predict = method.make(data, StudyInputs(None, {}))
    run = walk_forward(data, {method.name: predict}, match_target)
    held = np.isin(data.period, np.unique(run.period))
    expected = match_margins(data.subset(held), truth[held])[0]
    forecast = run.predicted(method.name)
    assert np.corrcoef(forecast, expected)[0, 1] > 0.5
    # calibrated to IMPs: the forecasts' spread is of the margins' order, not of a share's
    assert 0.3 < forecast.std() / expected.std() < 2.0


def test_every_rival_of_the_sessions_is_a_rival_of_the_matches():
    sessions = {method.name for method in registry("sessions")}
    matches = {method.name for method in registry("matches")}
    assert {"pair_elo", "openskill", "ngs", "glicko2", "ttt"} <= sessions & matches
    # the team events' matches score the multiplayer Elos too, as the sessions read them
    from bridgerank.ratings.event_matches import ONLINE_RIVALS

    assert {"elo", "elo_opponents"} <= sessions
    assert {"ELO", "ELO_OPPONENTS", "TTT_YEARLY"} <= set(ONLINE_RIVALS)


def test_glicko2_reads_a_match_as_one_game_of_the_boards_won():
    """A newcomers' match of 24 boards, 6 won by team A: each of A's players moves as after
    one game scored 1/4 (the published steps once), not as after 24 games against the same
    team (an overshoot of over a thousand rating points)."""
    from bridgerank.ratings.rivals.glicko2 import (
        START_DEVIATION,
        START_VOLATILITY,
        Glicko2Pairs,
        _g,
        rate_period,
    )

    boards = 24
    match = TeamBoards(
        players=list(range(8)),
        seats=np.tile(np.arange(8), (boards, 1)),
        imps=np.array([5.0] * 6 + [-5.0] * 18),
        match=np.zeros(boards, dtype=np.int64),
        sign=np.ones(boards),
        period=np.zeros(boards, dtype=np.int64),
        periods=["2001.01.01"],
    )
    rival = Glicko2Pairs(tau=0.6, one_game_a_session=True)
    tables = team_play.board_tables(match)
    rival.learn(tables, np.arange(len(tables)))
    g = float(_g(np.array(START_DEVIATION)))
    expected = rate_period(0.0, START_DEVIATION, START_VOLATILITY, g * g / 4, g * (0.25 - 0.5), 0.6)
    for player in (0, 1, 2, 3):
        assert rival.mu[player] == pytest.approx(expected[0])
        assert rival.phi[player] == pytest.approx(expected[1])
    assert rival.mu[4] == pytest.approx(-expected[0])
