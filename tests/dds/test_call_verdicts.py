"""Each call's verdict, on hand-worked boards (tables as in test_verdicts: 20 hex digits,
strains S H D C N, each for N E S W; nobody vulnerable; scores worked out in the comments)."""

import pytest

from bridgerank.bridge.auction import Contract
from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.auction_verdicts import judge_auction
from bridgerank.dds.call_verdicts import blames_itself, judge_calls
from tests.dds.test_verdicts import CASES, SEATS

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


def test_a_lower_contract_given_up_is_blamed_on_the_call_that_moved_away():
    # Board 131's shape: 1H (N) P 1N (S) P P P. 1NT by S takes 6: -50. 1H by N takes 8:
    # +110 (hearts are North's: South cannot declare them), 160 given away. 1H stood until
    # South's 1NT (call 2) moved away from it: South's call is blamed, not North's 1H (the
    # alternative). EW let 1NT go undoubled: doubled, one down is +100 for them, not +50.
    calls = _calls("1H P 1N P P P", N, Contract(1, "N", 0), S, "57578585666666666767")
    assert _mistakes(calls) == {
        2: (("declarer_missed_higher_contract",), "1H", N, 110, 160.0),
        5: (("defender_missed_current_double",), "X", None, 100, 50.0),
    }
    assert not any(blames_itself(call, "1H P 1N P P P".split(), N) for call in calls)


def test_a_contract_bid_and_bid_past_by_partner_is_blamed_on_partners_bid():
    # 1S (N) P 2S (S) P 3H (N) P 4H (S) P P P: 4H by N takes 8, -100. Spades are North's
    # (named first) and take 9: 1S, 2S and 3S by N all score +140, 240 given away. 1S stood
    # until South's 2S, which kept +140; 2S stood until North's 3H (call 4), which gave up
    # the last of them: North's 3H is blamed, with 2S by North (the one it moved away from).
    calls = _calls("1S P 2S P 3H P 4H P P P", N, Contract(4, "H", 0), N, "94948585666666666666")
    mistakes = _mistakes(calls)
    assert mistakes[4] == (("declarer_missed_higher_contract",), "2S", N, 140, 240.0)
    assert 0 not in mistakes and 2 not in mistakes


def test_running_from_a_redouble_that_makes_is_blamed_on_the_run():
    # 1N (N) X R P 2C (N) P P P. 1NT by N takes 7: redoubled, 160 + 300 game + 100 = +560.
    # North ran to 2C, making 8: +90, 470 given away. South redoubled (right); North's 2C
    # (call 4) gave it up: a pass was the better call there, not a redouble.
    calls = _calls("1N X R P 2C P P P", N, Contract(2, "C", 0), N, "67676767676785857676")
    assert _mistakes(calls) == {
        4: (("declarer_missed_redoubling_opponents_erroneous_double",), "P", None, 560, 470.0)
    }


@pytest.mark.parametrize("case", CASES, ids=[case["desc"] for case in CASES])
def test_every_mistake_type_is_pinned_to_a_call_of_its_side_that_is_not_the_better_call(case):
    """The hand-worked boards of every mistake type (tests/data/dds_verdict_cases.json): each
    side's mistake lands on calls of that side, their costs add up to what it gave away, and
    no call is named as its own better call."""
    calls = case["calls"].split()
    first = SEATS[case["first"]]
    contract = None if case["contract"] is None else Contract(*case["contract"])
    declarer = None if case["declarer"] is None else SEATS[case["declarer"]]
    table = DDTable.from_hex(case["table"].replace(" ", ""))
    vulnerable = (case.get("ns_vul", False), case.get("ew_vul", False))
    verdicts = judge_auction(calls, first, contract, declarer, table, *vulnerable, 2000)
    judged = judge_calls(calls, first, verdicts, table, vulnerable, 2000)
    for verdict in verdicts:
        mine = [call for call in judged if call.kinds and call.seat % 2 == verdict.side]
        assert {kind for call in mine for kind in call.kinds} == set(verdict.chosen)
        assert sum(call.cost for call in mine) == pytest.approx(verdict.weight)
    assert not any(blames_itself(call, calls, first) for call in judged)


def test_running_from_partners_double_of_their_bid_is_blamed_with_pass_as_the_better_call():
    # 1S (E) 2H P P X P 2S (W) P P P. 2H by S takes 6: doubled, two down is +300 for EW.
    # West took the double out to 2S, making 8: +110, 190 given away. The double was there
    # already: the better call at West's 2S (call 6) was a pass, not a double.
    calls = _calls("1S 2H P P X P 2S P P P", E, Contract(2, "S", 0), E, "58586666666666666767")
    assert _mistakes(calls) == {
        6: (("declarer_missed_doubling_opponents_last_bid",), "P", None, 300, 190.0)
    }
