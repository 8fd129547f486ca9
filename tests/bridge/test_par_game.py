"""The auction as a game at double dummy (bridge/par_game.py): its par from the start equals
DDS's par on every table of DDS's own 100 deals, for every dealer and vulnerability; and the
calls of auctions an expert judges by hand get the verdict he gives, with the reason.

The hand-judged tables are built for the point they make (both players of a side take the
same tricks unless the test is about who declares); the game needs no deal behind them.
"""

from __future__ import annotations

import itertools

import pytest

from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.par_game import ParGame
from bridgerank.dds.solver import par_score
from tests.paths import SHARED_DATA

NORTH, EAST, SOUTH, WEST = range(4)


def _side_table(ns: dict[str, int], ew: dict[str, int]) -> DDTable:
    """A table where both players of a side take the same tricks: strain -> tricks."""
    return DDTable(tuple((ns.get(s, 0), ew.get(s, 0), ns.get(s, 0), ew.get(s, 0)) for s in "SHDCN"))


def _judged(table, vulnerable, dealer, auction, year=None):
    game = ParGame(table, vulnerable, dealer, year)
    return game, {(c.index, c.call): c for c in game.judge(auction.split())}


def _list100_tables() -> list[DDTable]:
    tables = []
    for line in (SHARED_DATA / "dds" / "list100.txt").read_text().splitlines():
        if line.startswith("TABLE"):
            values = [int(value) for value in line.split()[1:]]
            tables.append(DDTable(tuple(tuple(values[i : i + 4]) for i in range(0, 20, 4))))
    return tables


def test_the_par_from_the_start_is_ddss_par_for_every_dealer_and_vulnerability():
    tables = _list100_tables()
    assert len(tables) == 100
    differences = [
        (table.hex, dealer, ns, ew)
        for table in tables
        for dealer, ns, ew in itertools.product(range(4), (False, True), (False, True))
        if ParGame(table, (ns, ew), dealer).par() != par_score(table, dealer, ns, ew)
    ]
    assert differences == []


def test_a_sacrifice_the_opponents_beat_by_bidding_on_is_no_better_call():
    # East-West make 13 tricks in no trump; North-South 7 in diamonds. After 6NT, North's
    # pass is right: 7D doubled (-1,400) is no better, for East-West bid 7NT over it. East's
    # final pass is the mistake: 7NT (+2,220) was there, 6NT made 13 tricks (+1,470).
    table = _side_table({"D": 7, "S": 2, "H": 2, "C": 2, "N": 1}, {"N": 13, "S": 12, "H": 12})
    game, calls = _judged(table, (False, True), EAST, "1N P 6N P P P")
    assert game.par() == -2220
    north = calls[(3, "P")]
    # the sacrifice only ties with the pass: East-West bid 7NT over it
    assert north.cost == 0 and north.par_before == -2220
    assert ("P", None) in north.best and ("7D", NORTH) in north.best
    east = calls[(4, "P")]
    assert (east.par_before, east.par_after, east.cost) == (-2220, -1470, 750)
    assert ("7N", EAST) in east.best
    assert [c.index for c in calls.values() if c.cost] == [4]


def test_a_phantom_sacrifice_and_an_overbid_are_mistakes_and_a_par_auction_has_none():
    # North-South take 9 tricks in spades, East-West 9 in diamonds, no one vulnerable: par is
    # 4D doubled one down (+100). 4S goes one down doubled (-100): 200 given away. Over it
    # West's 5D is a phantom sacrifice: doubled two down (+300) where a double of 4S took 100.
    table = _side_table(
        {"S": 9, "H": 6, "D": 4, "C": 5, "N": 7}, {"D": 9, "S": 4, "H": 6, "C": 6, "N": 5}
    )
    game, calls = _judged(table, (False, False), NORTH, "1S 2D 4S 5D X P P P")
    assert game.par() == 100
    assert (calls[(2, "4S")].par_after, calls[(2, "4S")].cost) == (-100, 200)
    sacrifice = calls[(3, "5D")]
    assert (sacrifice.par_before, sacrifice.par_after, sacrifice.cost) == (-100, 300, 400)
    assert set(sacrifice.best) == {("P", None), ("X", None)}
    assert [c.index for c in calls.values() if c.cost] == [2, 3]
    # the same deal bid to par: 3S, 4D sacrifice, doubled - no call gave anything away
    _, par_calls = _judged(table, (False, False), NORTH, "1S 2D 3S 4D X P P P")
    assert all(c.cost == 0 for c in par_calls.values())


def test_ten_points_are_ten_points_and_a_relay_that_leaves_the_slam_open_costs_nothing():
    # 4NT and 4S both make 10 tricks: 430 against 420. The game finds the 10 points (the
    # report shows nothing below its threshold: 10 points are 0 IMPs); 4S itself costs
    # nothing, since partner could still bid 4NT - his pass is what gave them away.
    table = _side_table({"S": 10, "N": 10, "H": 6, "D": 5, "C": 5}, {"D": 7, "C": 7})
    _, calls = _judged(table, (False, False), NORTH, "1S P 4S P P P")
    assert calls[(2, "4S")].cost == 0
    assert calls[(4, "P")].cost == 10 and calls[(4, "P")].best == (("4N", NORTH),)
    # Blackwood: 4NT asks, 5H answers, 6S makes 12 tricks - par (980) all the way
    slam = _side_table({"S": 12, "N": 11, "H": 8, "D": 6, "C": 6}, {"H": 5, "D": 6, "C": 6})
    game, calls = _judged(slam, (False, False), NORTH, "1S P 4N P 5H P 6S P P P")
    assert game.par() == 980 and all(c.cost == 0 for c in calls.values())


def test_doubling_a_making_contract_and_not_redoubling_it():
    # 4S makes exactly (+420). West's double gives away 380: redoubled it would score more
    # than East-West's best escape, 5D doubled four down (+800). South, last to call, should
    # have redoubled (the escape then costs East-West 800; passing, 4S doubled scores 590).
    table = _side_table({"S": 10, "N": 8, "H": 6, "D": 5, "C": 5}, {"D": 7, "C": 7, "N": 5})
    _, calls = _judged(table, (False, False), NORTH, "1S P 4S X P P P")
    assert (calls[(3, "X")].par_after, calls[(3, "X")].cost) == (800, 380)
    assert calls[(6, "P")].cost == 210 and calls[(6, "P")].best == (("R", None),)
    assert calls[(4, "P")].cost == 0  # North may pass: South can still redouble


def test_the_player_who_names_a_strain_first_declares_it():
    # South takes 10 tricks in hearts, North 8. Where North names hearts first, 4H is his and
    # goes two down; where South named them, North's 4H is South's and makes.
    table = DDTable(((9, 3, 9, 3), (8, 4, 10, 4), (5, 7, 5, 7), (4, 7, 4, 7), (7, 5, 7, 5)))
    game = ParGame(table, (False, False), NORTH)
    for auction, declarer, ns_score in (
        ("1S P 2C P 4H P P P", NORTH, -100),
        ("1S P 2H P 4H P P P", SOUTH, 420),
    ):
        state = game.start()
        for call in auction.split()[:4]:
            state = game.after(state, call)
        assert game.declarer_after(state, "4H") == declarer
        for call in auction.split()[4:]:
            state = game.after(state, call)
        assert state.ended and game.value(state) == ns_score
    # North's 4H there gave points away (his pass would have left South in 2C, or
    # more), and every heart bid among his best calls is his own to declare
    fourth = game.judge("1S P 2C P 4H P P P".split())[4]
    assert fourth.par_after == -100 and fourth.cost > 0
    assert all(seat == NORTH for call, seat in fourth.best if call[1:] == "H")


def test_the_undertricks_of_the_boards_year():
    # 6D doubled five down, not vulnerable: 1,100 since 1988, 900 before (200 a trick from
    # the 4th), North-South's
    table = _side_table({"S": 13, "N": 13, "H": 13, "D": 13, "C": 13}, {"D": 7})
    for year, ns_score in ((1955, 900), (2010, 1100)):
        game = ParGame(table, (False, False), EAST, year)
        state = game.start()
        for call in ("6D", "X", "P", "P", "P"):
            state = game.after(state, call)
        assert state.ended and game.value(state) == ns_score


def test_an_illegal_call_is_refused():
    game = ParGame(_side_table({"S": 7}, {}), (False, False), NORTH)
    with pytest.raises(ValueError, match="call 2 \\(1C\\) is not legal"):
        game.judge(["1S", "1C"])
    partner_bid = game.after(game.after(game.start(), "1S"), "P")
    with pytest.raises(ValueError, match="a double needs the opponents' undoubled bid"):
        game.after(partner_bid, "X")  # South doubling his partner's 1S
