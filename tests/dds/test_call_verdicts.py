"""Each call's verdict, on hand-worked boards (tables as in test_verdicts: 20 hex digits,
strains S H D C N, each for N E S W; nobody vulnerable; scores worked out in the comments)."""

from bridgerank.bridge.auction import Contract
from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.auction_verdicts import judge_auction
from bridgerank.dds.call_verdicts import judge_calls

N, E, S, W = range(4)
NOBODY = (False, False)


def _calls(auction, first, contract, declarer, table):
    calls = auction.split()
    dd = DDTable.from_hex(table)
    verdicts = judge_auction(calls, first, contract, declarer, dd, *NOBODY, 2000)
    return judge_calls(calls, first, verdicts, dd, NOBODY, 2000)


def _mistakes(calls):
    return {
        c.index: (c.kinds, c.alternative, c.alternative_declarer, c.alternative_score, c.cost)
        for c in calls
        if c.kinds
    }


def test_a_slam_missed_is_the_last_pass_that_could_have_bid_it():
    # NS take 12 tricks in spades. 1S (N) P 4S (S) P P P: 4S+2 = 480. 6S by N (N named
    # spades first) = 980: 500 given away; North's pass at call 4 was the last NS call with
    # the auction below 6S. After 1S the standing contract is 1S+5 = 30 + 50 + 150 = 230.
    # EW: doubling 4S making 12 costs them 790; every EW contract fails by far: no mistake.
    calls = _calls("1S P 4S P P P", N, Contract(4, "S", 0), N, "c1c1858567676767a3a3")
    assert [c.ns_dd_score for c in calls] == [230, 230, 480, 480, 480, 480]
    assert [c.seat for c in calls] == [N, E, S, W, N, E]
    assert _mistakes(calls) == {4: (("declarer_missed_higher_contract",), "6S", N, 980, 500.0)}
    assert calls[4].actual_score == 480


def test_the_bid_over_the_opponents_is_where_the_double_was_missed():
    # 1H (N) 1S (E) 4H 4S 5H P P P. 5H by N takes 10: -50. Doubling 4S by E (8 tricks, two
    # down) was +300 for NS: 350 given away by the 5H bid (call 4). EW let 5H go undoubled:
    # doubled it was +100 for them, not +50; West's last pass (call 7) is the last chance.
    # Standing: 1H+3 = 170; 1S+1 by E = -110; 4H = 420; 4S two down = +100; 5H one down = -50.
    calls = _calls("1H 1S 4H 4S 5H P P P", N, Contract(5, "H", 0), N, "6868a3a3676767676666")
    assert [c.ns_dd_score for c in calls] == [170, -110, 420, 100, -50, -50, -50, -50]
    assert _mistakes(calls) == {
        4: (("declarer_missed_doubling_opponents_last_bid",), "X", None, 300, 350.0),
        7: (("defender_missed_current_double",), "X", None, 100, 50.0),
    }


def test_a_tie_between_types_splits_the_cost_between_their_calls():
    # 1N (N) X R P P P: 1NR by N takes 6, -200. Not redoubling (South's R, call 2) and
    # 1C by N (one down doubled, available only at North's opening call) both give -100:
    # the 100 given away is split, 50 at each call.
    calls = _calls("1N X R P P P", N, Contract(1, "N", 2), N, "67676767676767676767")
    assert _mistakes(calls) == {
        0: (("declarer_missed_higher_contract",), "1C", N, -100, 50.0),
        2: (("declarer_erroneous_redouble",), "P", None, -100, 50.0),
    }
    assert calls[1].ns_dd_score == -100 and calls[2].ns_dd_score == -200


def test_a_passed_out_deal_blames_the_sides_last_pass():
    # Passed out; NS make 10 tricks in spades (4S = 420), EW make nothing: North dealt, so
    # South's pass (call 2) was NS's last call.
    calls = _calls("P P P P", N, None, None, "a3a38585666666666666")
    assert [c.ns_dd_score for c in calls] == [0, 0, 0, 0]
    assert _mistakes(calls) == {2: (("passed_higher_contract",), "4S", N, 420, 420.0)}
