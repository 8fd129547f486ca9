"""Hand-worked boards for every mistake type: exact counts and weights.

Tables are written by hand as 20 hex digits: strains S H D C N, each for N E S W. All
scores are worked out by hand, in the comments below and in the "why" of each case of
tests/data/dds_verdict_cases.json (non-vulnerable unless said).
"""

import json

import pytest

from bridgerank.bridge.auction import Contract
from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.auction_verdicts import judge_auction
from bridgerank.dds.card_verdicts import judge_cards, judge_claim
from bridgerank.dds.counters import COUNTERS, RATES, rates, seat_counters
from tests.paths import TEST_DATA

N, E, S, W = range(4)
SEATS = {"N": N, "E": E, "S": S, "W": W}
# The auction verdicts of one board each, worked out by hand: see the file's _doc.
CASES = json.loads((TEST_DATA / "dds_verdict_cases.json").read_text())["cases"]


def _verdicts(calls, first, contract, declarer, table, ns_vul=False, ew_vul=False):
    verdicts = judge_auction(
        calls.split(), first, contract, declarer, DDTable.from_hex(table), ns_vul, ew_vul, 2000
    )
    return {("NS", "EW")[v.side]: (v.role, v.chosen, v.weight, v.actual) for v in verdicts}


def test_table_reading():
    table = "a3a34949555555554444"
    parsed = DDTable.from_hex(table)
    assert parsed.tricks("S", N) == 10 and parsed.tricks("H", E) == 9
    assert parsed.tricks("N", W) == 4
    assert parsed.hex == table


@pytest.mark.parametrize("case", CASES, ids=[case["desc"] for case in CASES])
def test_auction_verdicts(case):
    contract = None if case["contract"] is None else Contract(*case["contract"])
    declarer = None if case["declarer"] is None else SEATS[case["declarer"]]
    got = _verdicts(
        case["calls"],
        SEATS[case["first"]],
        contract,
        declarer,
        case["table"].replace(" ", ""),
        case.get("ns_vul", False),
        case.get("ew_vul", False),
    )
    for side, (role, chosen, weight, actual) in case["expected"].items():
        assert got[side] == (role, tuple(chosen), weight, actual), side


def test_erroneous_redouble_ties_with_a_higher_contract():
    # 1NR by N takes 6: -200. Doubled only: -100. Every other NS contract fails by one and
    # would be doubled: -100 too. Two types tie at -100: count and weight split.
    table = "67676767676767676767"
    got = _verdicts("1N X R P P P", N, Contract(1, "N", 2), N, table)
    assert got["NS"] == (
        "declaring",
        ("declarer_missed_higher_contract", "declarer_erroneous_redouble"),
        100,
        -200,
    )
    counts = seat_counters(
        N,
        [],
        None,
        judge_auction(
            "1N X R P P P".split(),
            N,
            Contract(1, "N", 2),
            N,
            DDTable.from_hex(table),
            False,
            False,
            2000,
        ),
    )
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
    assert [v.role for v in verdicts] == [
        "lead",
        "dummy",
        "defender",
        "declarer",
        "declarer",
        "defender",
        "dummy",
        "defender",
    ]
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
