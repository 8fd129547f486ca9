"""Forecasts in IMPs: a team match's margin and a pair's IMPs against par at one table a deal,
by hand from known strengths; the results never enter them; the forecast and the result of
the same side meet under one key."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.holdout import Z80
from bridgerank.ratings.imp_forecast import StoredStrengths, actual_imps, forecast_imps
from tests.ratings.test_matches import _match, _room

HOME = [f"a{i}" for i in range(4)]
AWAY = [f"b{i}" for i in range(4)]


def _stored(one_table_variance=25.0):
    strength = {name: (0.5, 0.1) for name in HOME} | {name: (0.0, 0.2) for name in AWAY[:3]}
    return StoredStrengths(strength, 36.0, one_table_variance, (-0.25, 0.3))


def test_a_match_is_forecast_from_its_players_strengths():
    boards = _match(1, "2001.05.01", HOME, AWAY, boards=3)
    (row,) = forecast_imps(boards, {}, _stored())
    # team A is the open room's North-South of the first board: the home team, whose four
    # add 0.5 each; the away team's b3 was never seen, a newcomer (-0.25)
    per_board = 4 * 0.5 - (3 * 0.0 - 0.25)
    assert row["kind"] == "match" and row["boards"] == 3
    assert row["side"] == "a0 - a1 - a2 - a3" and row["opponents"] == "b0 - b1 - b2 - b3"
    assert row["predicted"] == pytest.approx(3 * per_board)
    # three boards' luck, and each player's rating error the same on all three boards
    rating = 9 * (4 * 0.1**2 + 3 * 0.2**2 + 0.3**2)
    assert row["sd"] == pytest.approx(np.sqrt(3 * 36.0 + rating))
    assert row["high_80"] - row["predicted"] == pytest.approx(Z80 * row["sd"])
    assert (row["players"], row["rated"]) == (8, 7)
    # the result is what happened: 11 IMPs a board to the home team
    assert actual_imps(boards, lambda board: None) == {
        ("Cup", "2001.05.01", "a0 - a1 - a2 - a3", "b0 - b1 - b2 - b3"): 33.0
    }


def test_a_matchs_segments_are_one_match_and_a_teams_next_match_another():
    first = _match(1, "2001.05.01", HOME, AWAY, boards=2)
    # the second segment: the home team fields a substitute (c0), the away team the same four
    second = _match(11, "2001.05.01", ["c0", *HOME[1:]], AWAY, boards=2)
    # later that day the home team meets another team
    other = [f"d{i}" for i in range(4)]
    third = _match(21, "2001.05.01", HOME, other, boards=2)
    for number, board in enumerate(second + third):
        board["board_no"] += 2 + 2 * (number // 4)
        board["deal_hash"] += f"-{number // 4}"
    rows = forecast_imps(first + second + third, {}, _stored())
    assert [(row["side"], row["opponents"], row["boards"]) for row in rows] == [
        ("a0 - a1 - a2 - a3 - c0", "b0 - b1 - b2 - b3", 4),
        ("a0 - a1 - a2 - a3", "d0 - d1 - d2 - d3", 2),
    ]


def _one_table(board_id, names, board_no, contract, declarer, result):
    return _room(board_id, "", names, "2002.01.10", board_no, contract, declarer, result, "Pairs")


def test_a_pair_at_one_table_a_deal_is_forecast_against_its_opponents():
    # a1-a3 (North-South) meet b0-b2 on two boards, then a0-a2 (East-West) on one
    boards = [
        _one_table(1, ("a1", "b0", "a3", "b2"), 1, "4S", "N", 10),
        _one_table(2, ("a1", "b0", "a3", "b2"), 2, "3N", "N", 8),
        _one_table(3, ("a1", "a0", "a3", "a2"), 3, "2H", "E", 8),
    ]
    rows = {row["side"]: row for row in forecast_imps(boards, {}, _stored())}
    assert set(rows) == {"a1 - a3", "b0 - b2", "a0 - a2"}
    pair = rows["a1 - a3"]
    # each board: the pair's two strengths less its opponents' two
    assert pair["predicted"] == pytest.approx(2 * (1.0 - 0.0) + (1.0 - 1.0))
    assert pair["kind"] == "pair" and pair["boards"] == 3 and pair["rated"] == 2
    # weights per player: a1, a3 on three boards; b0, b2 and a0, a2 against them
    rating = 2 * 3**2 * 0.1**2 + 2 * 2**2 * 0.2**2 + 2 * 1**2 * 0.1**2
    assert pair["sd"] == pytest.approx(np.sqrt(3 * 25.0 + rating))
    # the results: North-South's score less par, in IMPs, from each pair's side
    par = {1: 420, 2: 400, 3: -110}
    actual = actual_imps(boards, lambda board: par[board["id"]])
    # 4S= 420 (par 420): 0; 3NT-1 -50 (par 400): -450, -10 IMPs; 2H= by East -110 (par -110): 0
    assert actual[("Pairs", "2002.01.10", "a1 - a3", "")] == -10.0
    assert actual[("Pairs", "2002.01.10", "b0 - b2", "")] == 10.0
    assert actual[("Pairs", "2002.01.10", "a0 - a2", "")] == 0.0


def test_results_do_not_enter_a_forecast_and_no_variance_means_no_pairs():
    boards = _match(1, "2001.05.01", HOME, AWAY, boards=3)
    changed = [board | {"result": 13 if board["room"] == "Open" else 5} for board in boards]
    assert forecast_imps(boards, {}, _stored()) == forecast_imps(changed, {}, _stored())
    one_table = [_one_table(1, ("a1", "b0", "a3", "b2"), 1, "4S", "N", 10)]
    assert forecast_imps(one_table, {}, _stored(one_table_variance=None)) == []
    # a person the ratings know under another name is looked up as that person
    renamed = [board | {"north": "Alpha"} if board["north"] == "a0" else board for board in boards]
    (row,) = forecast_imps(renamed, {"Alpha": "a0"}, _stored())
    assert row["rated"] == 7 and "Alpha" in row["side"] + row["opponents"]


def test_newcomers_facing_each_other_cancel_their_shared_error():
    """A newcomer's strength is the covariates' (one value for every newcomer): its error is
    one error, which two newcomers on opposite sides cancel; only each one's own part adds."""
    stored = StoredStrengths({}, 36.0, None, (0.9, 1.2), newcomer_own_sd=0.05)
    boards = _match(1, "2001.05.01", HOME, AWAY, boards=20)
    (row,) = forecast_imps(boards, {}, stored)
    assert row["rated"] == 0 and row["predicted"] == pytest.approx(0.0)
    # twenty boards' luck and eight newcomers' own errors, each on all twenty boards
    assert row["sd"] == pytest.approx(np.sqrt(20 * 36.0 + 8 * 20**2 * 0.05**2))
    # three of the home team known: one newcomer a side would cancel, here the away team's
    # four face one, so three newcomers' shared error counts, on every board
    known = {name: (0.0, 0.1) for name in HOME[:3]}
    mixed = StoredStrengths(known, 36.0, None, (0.9, 1.2), newcomer_own_sd=0.05)
    (row,) = forecast_imps(boards, {}, mixed)
    shared = 1.2**2 - 0.05**2
    own = 3 * 20**2 * 0.1**2 + 5 * 20**2 * 0.05**2
    assert row["sd"] == pytest.approx(np.sqrt(20 * 36.0 + own + (20 * 3) ** 2 * shared))
    # a fit of an older version keeps no own part: each newcomer's whole deviation his own
    older = StoredStrengths({}, 36.0, None, (0.9, 1.2))
    (row,) = forecast_imps(boards, {}, older)
    assert row["sd"] == pytest.approx(np.sqrt(20 * 36.0 + 8 * 20**2 * 1.2**2))
