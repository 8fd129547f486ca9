"""Hand-worked boards for every mistake type: exact counts and weights.

Tables are written by hand as 20 hex digits: strains S H D C N, each for N E S W. All
scores below are worked out by hand in the comments (non-vulnerable unless said).
"""

import pytest

from bridgerank.bridge.auction import Contract
from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.auction_verdicts import judge_auction
from bridgerank.dds.card_verdicts import judge_cards, judge_claim
from bridgerank.dds.counters import COUNTERS, RATES, rates, seat_counters

N, E, S, W = range(4)


def _verdicts(calls, first, contract, declarer, table, ns_vul=False, ew_vul=False):
    verdicts = judge_auction(calls.split(), first, contract, declarer, DDTable.from_hex(table),
                             ns_vul, ew_vul, 2000)
    return {("NS", "EW")[v.side]: (v.role, v.chosen, v.weight, v.actual) for v in verdicts}


def test_table_reading():
    table = "a3a3" "4949" "5555" "5555" "4444"
    parsed = DDTable.from_hex(table)
    assert parsed.tricks("S", N) == 10 and parsed.tricks("H", E) == 9
    assert parsed.tricks("N", W) == 4
    assert parsed.hex == table


def test_passed_out_with_a_makeable_partscore():
    # NS take 8 tricks in spades: 1S+1 or 2S= is 110, their best; EW make nothing.
    table = "8585" "6666" "6666" "6666" "7575"
    got = _verdicts("P P P P", N, None, None, table)
    assert got["NS"] == ("passed", ("passed_higher_contract",), 110, 0)
    assert got["EW"] == ("passed", (), 0, 0)


def test_declarer_missed_game():
    # 2S by N makes 10: 170. 4S (only N may declare spades: he named them first) is 420.
    table = "a3a3" "7373" "7373" "7373" "8383"
    got = _verdicts("1S P 2S P P P", N, Contract(2, "S", 0), N, table)
    assert got["NS"] == ("declaring", ("declarer_missed_higher_contract",), 250, 170)
    assert got["EW"] == ("defending", (), 0, -170)


def test_defender_missed_the_double():
    # 4S by N takes 7: -150 undoubled, -500 doubled: EW gave away 350. NS could have
    # stopped in 1NT (7 tricks, 90, the best of their contracts): they gave away 240.
    table = "7373" "7373" "7373" "7373" "7373"
    got = _verdicts("1S P 4S P P P", N, Contract(4, "S", 0), N, table)
    assert got["EW"] == ("defending", ("defender_missed_current_double",), 350, 150)
    assert got["NS"] == ("declaring", ("declarer_missed_higher_contract",), 240, -150)


def test_erroneous_double_and_the_missed_redouble():
    # 2SX by N makes 9: 120 + 300 + 50 + 100 = 570; undoubled 2S+1 is 140, so EW's double
    # gave away 430; redoubled, 240 + 300 + 100 + 200 = 840, so NS missed 270.
    table = "9494" "4444" "4444" "4444" "4444"
    got = _verdicts("1S P 2S X P P P", N, Contract(2, "S", 1), N, table)
    assert got["EW"] == ("defending", ("defender_erroneously_doubled",), 430, -570)
    assert got["NS"] == ("declaring",
                         ("declarer_missed_redoubling_opponents_erroneous_double",), 270, 570)


def test_defender_missed_the_sacrifice():
    # 4S by N (NS vulnerable) makes 10: 620. 5HX by E (E named hearts first) takes 9:
    # down 2 non-vulnerable doubled, -300. EW gave away 320.
    table = "a3a3" "4949" "5555" "5555" "4444"
    got = _verdicts("1S 2H 4S P P P", N, Contract(4, "S", 0), N, table, ns_vul=True)
    assert got["EW"] == ("defending", ("defender_missed_higher_contract",), 320, -620)
    assert got["NS"] == ("declaring", (), 0, 620)


def test_declarer_missed_doubling_their_last_bid():
    # 3S by N makes 9: 140. EW's 2H (by E) takes 5: doubled down 3 is +500 for NS (360 more);
    # undoubled +150 is better than 140 too, but only the best type counts.
    table = "9494" "5555" "5555" "5555" "7474"
    got = _verdicts("1S 2H 3S P P P", N, Contract(3, "S", 0), N, table)
    assert got["NS"] == ("declaring", ("declarer_missed_doubling_opponents_last_bid",), 360, 140)
    assert got["EW"] == ("defending", (), 0, -140)


def test_only_the_best_type_counts():
    # 3S by N takes 8: -50. Doubling EW's 2H (E takes 7, down 1) would give +100 (150 better),
    # but stopping in 2S by N, 8 tricks, gives 110 (160 better): the higher-contract type.
    table = "8484" "4747" "4444" "4444" "4444"
    got = _verdicts("1S 2H 3S P P P", N, Contract(3, "S", 0), N, table)
    assert got["NS"] == ("declaring", ("declarer_missed_higher_contract",), 160, -50)


def test_declarer_missed_their_last_bid_when_doubling_would_make_it():
    # 3S by N takes 7: -100. EW's 2H by E takes exactly 8: undoubled -110, doubled -670 for
    # NS. Better than both: 2S by N... made impossible by the table (7 tricks): 2S down 1
    # doubled = -100, a tie with the actual, so no higher contract. Letting 2H stand (-110)
    # is worse than -100: no mistake. Give E 7 tricks: 2H down 1 = +50 undoubled, +100
    # doubled; now take the double away by making EW vulnerable with 2H just making (8):
    table = "7373" "3838" "3333" "3333" "3333"
    got = _verdicts("1S 2H 3S P P P", N, Contract(3, "S", 0), N, table)
    assert got["NS"] == ("declaring", (), 0, -100)
    # 3S by N takes 6 (down 3, -150); EW's 2H makes 8 (-110 for NS): letting it stand is
    # the best (doubling it: -470), weight 40.
    table = "6363" "3838" "3333" "3333" "3333"
    got = _verdicts("1S 2H 3S P P P", N, Contract(3, "S", 0), N, table)
    assert got["NS"] == ("declaring", ("declarer_missed_opponents_last_bid",), 40, -150)


def test_declarer_missed_their_last_redouble():
    # EW's 2H (E named hearts first) was doubled by N and redoubled by E; NS then bid 3S by S
    # making 9: 140. 2HR by E takes 5: down 3 redoubled non-vulnerable is +1000 for NS.
    table = "9494" "5555" "5555" "5555" "7474"
    got = _verdicts("1H P 2H X R 3S P P P", E, Contract(3, "S", 0), S, table)
    assert got["NS"] == ("declaring", ("declarer_missed_opponents_last_redouble",), 860, 140)


def test_erroneous_redouble_ties_with_a_higher_contract():
    # 1NR by N takes 6: -200. Doubled only: -100. Every other NS contract fails by one and
    # would be doubled: -100 too. Two types tie at -100: count and weight split.
    table = "6767" "6767" "6767" "6767" "6767"
    got = _verdicts("1N X R P P P", N, Contract(1, "N", 2), N, table)
    assert got["NS"] == ("declaring", ("declarer_missed_higher_contract",
                                       "declarer_erroneous_redouble"), 100, -200)
    counts = seat_counters(N, [], None, judge_auction(
        "1N X R P P P".split(), N, Contract(1, "N", 2), N, DDTable.from_hex(table), False, False,
        2000))
    assert counts[N]["declarer_missed_higher_contract"] == 0.5
    assert counts[S]["declarer_erroneous_redouble"] == 0.5
    assert counts[N]["weighted_declarer_erroneous_redouble"] == 50
    assert counts[E]["auctions_analyzed"] == 1 and counts[E]["declarer_erroneous_redouble"] == 0


def _play():
    # 3NT by N (dummy S), non-vulnerable; E leads. Trace: 9 before the lead.
    cards = ["HK", "H2", "H3", "H4", "SA", "S2", "S3", "S4"]
    seats = [E, S, W, N, N, E, S, W]
    trace = [9, 10, 10, 9, 8, 8, 8, 7, 8]
    return judge_cards(cards, seats, trace, Contract(3, "N", 0), N, False, 2000)


def test_card_verdicts():
    verdicts = _play()
    assert [v.role for v in verdicts] == ["lead", "dummy", "defender", "declarer",
                                          "declarer", "defender", "dummy", "defender"]
    assert [v.cost_tricks for v in verdicts] == [1, 0, 0, 1, 0, 0, 1, 1]
    # lead: 3NT making 9 (400) -> 10 (430); declarer: 9 (400) -> 8 (-50);
    # dummy's card: 8 (-50) -> 7 (-100); defender: 7 (-100) -> 8 (-50)
    assert [v.cost_points for v in verdicts] == [30, 0, 0, 450, 0, 0, 50, 50]


def test_play_counters_and_claims():
    claim_up = judge_claim(9, 8, Contract(3, "N", 0), False, 2000)
    assert claim_up == (9, 8, "defenders", 450)
    claim_down = judge_claim(7, 8, Contract(3, "N", 0), False, 2000)
    assert claim_down == (7, 8, "declarer", 50)
    assert judge_claim(8, 8, Contract(3, "N", 0), False, 2000).at_fault == "none"
    counts = seat_counters(N, _play(), claim_up, None)
    assert counts[E]["leads"] == 1 and counts[E]["lead_mistakes"] == 1
    assert counts[E]["weighted_lead_mistakes"] == 30
    assert counts[E]["cards_played_as_defender"] == 1
    assert counts[E]["play_mistakes_as_defender"] == 0
    assert counts[W]["cards_played_as_defender"] == 2
    assert counts[W]["play_mistakes_as_defender"] == 1
    assert counts[W]["weighted_play_mistakes_as_defender"] == 50
    assert counts[N]["cards_played_as_declarer"] == 4
    assert counts[N]["play_mistakes_as_declarer"] == 2
    assert counts[N]["weighted_play_mistakes_as_declarer"] == 500
    assert counts[S]["cards_played_as_declarer"] == 0  # dummy's cards are declarer's
    assert [counts[seat]["claims"] for seat in range(4)] == [1, 1, 1, 1]
    assert [counts[seat]["claim_mistakes"] for seat in range(4)] == [0, 1, 0, 1]
    assert counts[W]["weighted_claim_mistakes"] == 450
    counts = seat_counters(N, _play(), claim_down, None)
    assert [counts[seat]["claim_mistakes"] for seat in range(4)] == [1, 0, 0, 0]
    assert counts[N]["auctions_analyzed"] == 0


def test_counter_and_rate_names_are_the_thesis_tables(shared_data):
    import csv

    with open(shared_data("thesis", "results", "dds_final_results.csv")) as handle:
        header = next(csv.reader(handle))
    assert tuple(name.strip() for name in header[3:]) == COUNTERS
    assert len(COUNTERS) == 33 and len(RATES) == 28
    stats = dict.fromkeys(COUNTERS, 0) | {"claims": 4, "claim_mistakes": 1, "leads": 0}
    assert rates(stats)["claim_mistakes_per_claim"] == 0.25
    assert rates(stats)["lead_mistakes_per_lead"] is None


@pytest.mark.parametrize("year,expected", [(1987, 700), (1988, 800)])
def test_card_costs_follow_the_year(year, expected):
    # 4SX by N, non-vulnerable: a declarer's card from 10 tricks (240 + 300 + 50 = 590) to 6
    # (down 4: 700 up to 1987, 800 from 1988).
    verdict = judge_cards(["SA"], [N], [10, 6], Contract(4, "S", 1), N, False, year)[0]
    assert verdict.cost_points == 590 + expected
