"""A player's game in words, by hand: rates against the field, the Wilson interval, the
measures from results alone, and board views (auction rows, trick winners)."""

import pandas as pd
import pytest

from bridgerank.pipeline.report.board_view import auction_rows, board_view, tricks_of
from bridgerank.pipeline.report.player_view import FieldMeasures, one_in, role_rates, wilson
from bridgerank.pipeline.report.site import scorecards


def test_rates_in_words_against_the_field():
    me = {"leads": 30, "lead_mistakes": 5}
    others = [me, {"leads": 20, "lead_mistakes": 10}, {"leads": 50, "lead_mistakes": 5}]
    leads = role_rates(me, others)[0]
    assert leads.role == "Opening leads"
    # 5 of 30 = 1 in 6; the field 20 of 100 = 1 in 5; one regular of the three is worse
    assert leads.words == "gives away a trick on 1 in 6 leads (5 of 30); the field: 1 in 5"
    assert leads.percentile == pytest.approx(100 / 3)
    assert one_in(0.0) == "never" and one_in(None) == "not seen"
    # beside a random card from the hands he led from (where every lead was valued)
    leads = role_rates(me, others, random_lead=0.34)[0]
    assert leads.words.endswith("the field: 1 in 5; a random card from the same hands: 1 in 3")
    low, high = wilson(5, 30)
    assert low == pytest.approx(0.0734, abs=1e-4) and high == pytest.approx(0.3356, abs=1e-4)


def test_measures_from_results_alone():
    table = pd.DataFrame(
        {
            "player": ["a"] * 20 + ["b"] * 20 + ["c"] * 2,
            "role": "declaring",
            "value": [1.0] * 10 + [0.0] * 10 + [-1.0] * 20 + [3.0, 3.0],
        }
    )
    measures = FieldMeasures(table)
    (a,) = measures.of("a")
    assert a.role == "As declarer" and a.boards == 20 and a.mean == pytest.approx(0.5)
    # field mean (10 - 20 + 6) / 42; of the two regulars, one is below a
    assert a.field_mean == pytest.approx(-4 / 42) and a.percentile == 50.0
    assert a.words.startswith("+0.50 tricks per board against double dummy (20 boards)")
    assert measures.of("c")[0].percentile is None  # two boards: too few
    assert measures.of("nobody") == []


def test_auction_rows_start_at_the_dealer_and_tricks_know_their_winner():
    rows = auction_rows("1S P 2S P P P", "E")
    assert [[cell.text if cell else "" for cell in row] for row in rows] == [
        ["", "", "1\u2660", "Pass"],
        ["2\u2660", "Pass", "Pass", "Pass"],
    ]
    assert [cell.seat for cell in rows[1]] == ["W", "N", "E", "S"]
    # a heart contract: the ruff wins the club trick; at no trumps the ace of clubs would
    ruffed = tricks_of("CA CK H2 C3", "WNES", [], trump="H")[0]
    assert [card.wins for card in ruffed] == [False, False, True, False]
    plain = tricks_of("CA CK H2 C3", "WNES", [])[0]
    assert [card.wins for card in plain] == [True, False, False, False]


def test_each_call_shows_its_double_dummy_value_and_the_costly_one_says_why():
    # the dds stage's rows for 1S (N) P 4S P P P with 6S making (tests/dds/test_call_values)
    standing = [230, 230, 480, 480, 480, 480]
    analysed = [
        {"call_index": i, "ns_dd_score": v, "mistake_types": "", "cost": 0.0}
        for i, v in enumerate(standing)
    ]
    analysed[4] |= {
        "mistake_types": "declarer_missed_higher_contract",
        "alternative": "6S",
        "alternative_declarer": "N",
        "alternative_score": 980,
        "actual_score": 480,
        "cost": 500.0,
        "cost_imps": 11,
    }
    board = {"auction": "1S P 4S P P P", "bidstart": "N", "contract": "4S", "deal": ""}
    view = board_view(board, [], [], analysed)
    assert view.auction_analysed
    assert [c.ns_dd_score for row in view.auction_rows for c in row if c] == standing
    (costly,) = view.costly_calls
    assert (costly.number, costly.seat, costly.text) == (5, "N", "Pass")
    assert costly.mistake == (
        "North's Pass (call 5): a better contract was available. After 6\u2660 by North the "
        "par was +980 for N-S, after Pass +480: 500 points (11 IMPs) given away."
    )
    # not analysed (no dds run): calls without readings, and a redouble reads as one
    plain = board_view(board | {"auction": "1S X R P P P", "contract": "1SR"}, [], [])
    assert not plain.auction_analysed and not plain.costly_calls
    assert [c.text for c in plain.auction_rows[0] if c] == ["1\u2660", "Dbl", "Rdbl"]


def test_a_claim_is_judged_against_the_last_double_dummy_value():
    from bridgerank.pipeline.report.board_view import claim_words

    cards = [{"card_index": i, "dd_after": 9} for i in range(40)]
    assert claim_words(10, cards) == (
        "Declarer claimed 10 tricks after 40 cards; with the best defence from there "
        "declarer's side takes 9: the defenders conceded 1 too many."
    )
    assert claim_words(8, cards).endswith("double dummy takes 9 from there: declarer gave away 1.")
    assert claim_words(9, cards).endswith(": exactly what double dummy gives from there.")
    # no claim, a play not analysed, or all 52 cards played: nothing to judge
    assert claim_words(None, cards) is None and claim_words(float("nan"), cards) is None
    assert claim_words(9, []) is None
    assert claim_words(9, [{"card_index": i, "dd_after": 9} for i in range(52)]) is None


def test_the_glossary_names_every_counter_and_rate_with_a_unit():
    from bridgerank.dds.counters import COUNTERS, RATES
    from bridgerank.pipeline.report.glossary import glossary

    rows = glossary()
    assert [name for name, _, _ in rows] == list(COUNTERS) + list(RATES)
    units = {name: unit for name, _, unit in rows}
    assert units["lead_mistakes"] == "leads" and units["weighted_lead_mistakes"] == "points"
    assert units["lead_mistakes_per_lead"] == "share of leads"
    assert units["weighted_lead_mistakes_per_lead"] == "points per lead"


def test_the_matchers_score_in_words():
    from bridgerank.pipeline.report.match_words import score_words

    assert score_words("2,0,0,0,0,0") == "2 name parts matched"
    assert score_words("1,1,-1,0,1,0") == (
        "1 name part matched, 1 initial, 1 WBF part left over, 1 by spelling"
    )
    assert score_words(None) == ""


def test_calibration_groups_forecasts_by_size():
    from bridgerank.pipeline.report.site import calibration

    # forecasts that come true on average: the groups' points lie on the diagonal
    predicted = [40.0 + i for i in range(20)]
    frame = pd.DataFrame({"predicted": predicted, "actual": predicted})
    plot = str(calibration(frame, groups=4))
    assert "held-out sessions" in plot and plot.count("<circle") == 4 + 2
    assert calibration(frame.head(5), groups=4) == ""  # too few to say anything


def test_a_rating_without_an_interval_is_drawn_as_a_dot():
    # bootstrap_resamples = 0 leaves the ratings' intervals empty
    from bridgerank.pipeline.report.svg import forest

    plot = str(forest(["Ann", "Bob"], [1.5, -0.5], [None, -1.0], [float("nan"), 0.2], "points"))
    assert plot.count("<circle") == 2
    assert 'x1="' in plot and "nan" not in plot


def test_a_scorecard_row_carries_its_80_percent_interval_and_whether_it_held():
    table = pd.DataFrame(
        {
            "event": ["club"] * 3,
            "session": ["2017.01.02", "2017.01.09", "2017.01.16"],
            "player_a": ["Ann"] * 3,
            "player_b": ["Bo"] * 3,
            "boards": [24] * 3,
            "percent": [55.0, 60.0, 50.0],
            "place": [1, 1, 4],
            "pairs": [8] * 3,
            "direction": ["NS"] * 3,
            "forecast": [50.0, 50.0, None],
            "forecast_sd": [4.0, 4.0, None],
        }
    )
    newest, middle, oldest = scorecards(table)["Bo"]
    assert [row["session"] for row in (newest, middle, oldest)] == [
        "2017.01.16",
        "2017.01.09",
        "2017.01.02",
    ]
    # 50 +- 1.2816 x 4 = 44.87 to 55.13: 55 inside, 60 outside; no forecast, no interval
    assert (oldest["low_80"], oldest["high_80"]) == pytest.approx((44.874, 55.126), abs=1e-3)
    assert oldest["held"] is True and middle["held"] is False and newest["held"] is None
    assert oldest["partner"] == "Ann"


def test_a_leaders_random_lead_baseline_from_the_boards_he_led_by_hand():
    from bridgerank.pipeline.report.site_data import _measures

    # board 1: 4S by West, North leads, 4 of his 13 cards best; board 2: 3N by North, East
    # leads, every card best; board 3: no lead valued
    evidence = pd.DataFrame(
        {
            "board_id": [1, 2, 3],
            "declarer": ["W", "N", "S"],
            "tricks_vs_dd": [0, -1, 0],
            "bidding_imps": [0, 0, 0],
            "lead_best_cards": [4, 13, None],
        }
    )
    seats = pd.DataFrame(
        {
            "board_id": [1, 1, 2, 2, 3],
            "seat": ["N", "W", "E", "N", "W"],
            "player": ["nina", "walt", "eve", "nina", "walt"],
        }
    )
    random = _measures(evidence, seats).query("role == 'random_lead'")
    assert sorted(zip(random["player"], random["value"])) == [("eve", 0.0), ("nina", 9 / 13)]
