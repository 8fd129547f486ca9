"""What is known of a pair when it enters (ratings.headline.entry): its weight fades with its
less experienced player's sessions, a player's own letters are counted where the letter is
his, a forecast of a file not yet rated uses the strata it prints, and newcomers are scored
apart (ratings.headline.experience)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bridgerank.core.settings import default_settings
from bridgerank.ratings.headline.entry import (
    entry_columns,
    entry_profile,
    sessions_before,
)
from bridgerank.ratings.headline.experience import experience_masks
from bridgerank.ratings.headline.fit import fit_headline
from bridgerank.ratings.headline.forecast import StoredRatings, forecast
from bridgerank.ratings.holdout import HeldOut
from tests.ratings.club_tables import club_tables


def _entered(seats, period, entry, codes=("open:A", "open:C")):
    """Tables with each side's entry given as a code index (-1: none)."""
    tables = club_tables(seats, [0.5] * len(seats), list(range(len(seats))), period)
    return replace(tables, entry=np.array(entry), entries=list(codes))


def test_a_pair_s_entry_fades_with_its_less_experienced_player_s_sessions():
    # players 0-1 play dates 0 and 1 together; at date 2, 0 sits with newcomer 8
    tables = _entered(
        [[0, 1, 2, 3], [0, 1, 4, 5], [0, 8, 6, 7]],
        [0, 1, 2],
        [[0, 1], [0, -1], [0, 1]],
    )
    assert sessions_before(tables).tolist() == [[0, 0, 0, 0], [1, 1, 0, 0], [2, 0, 0, 0]]
    columns = entry_columns(tables)
    # weight 1 / (1 + fewer sessions / 1): NS 1 then 1/2 then 1 again (8 is new); EW new
    assert columns.tolist() == [[1.0, -1.0], [0.5, 0.0], [1.0, -1.0]]
    # the training tables count as the past of a forecast
    train, test = tables.subset(tables.period < 2), tables.subset(tables.period == 2)
    assert entry_columns(test, train).tolist() == [[1.0, -1.0]]


def test_a_letter_is_counted_for_the_partner_who_had_played_more():
    # 0 and 1 play together at date 0 (both new: both counted), then 0 with newcomer 2
    tables = _entered([[0, 1, 4, 5], [0, 2, 6, 7]], [0, 1], [[0, 1], [0, 1]])
    profile = entry_profile(tables)
    shrink = default_settings().rate.headline.profile_boards
    assert profile[0].tolist() == pytest.approx([2 / (2 + shrink), 0.0])
    assert profile[1].tolist() == pytest.approx([1 / (1 + shrink), 0.0])
    # 2 played with a partner of more sessions: the A is his partner's, not his
    assert profile[2].tolist() == [0.0, 0.0]
    assert profile[4].tolist() == pytest.approx([0.0, 1 / (1 + shrink)])


def test_the_fit_learns_what_a_stratum_says_and_a_forecast_uses_the_strata_printed():
    """A club whose A pairs are stronger than its C pairs: the fit gives the A entry the
    larger effect, and two pairs of players the ratings never saw are forecast apart by
    their strata alone."""
    rng = np.random.default_rng(5)
    players = 40
    strength = rng.normal(0, 0.04, players)
    letter = np.where(strength > 0, 0, 1)  # strong players enter as A, weak ones as C
    seats, share, group, period, entry = [], [], [], [], []
    for when in range(30):
        order = rng.permutation(players)[:16].reshape(8, 2)
        for deal in range(12):
            ns, ew = order[:4], order[4:]
            d = strength[ns].sum(1) - strength[ew].sum(1) + rng.normal(0, 0.08, 4)
            ranks = (d[:, None] > d[None, :]).sum(1) / 3
            for side_ns, side_ew, value in zip(ns, ew, ranks):
                seats.append([*side_ns, *side_ew])
                share.append(value)
                group.append(when * 12 + deal)
                period.append(when)
                entry.append([letter[side_ns].min(), letter[side_ew].min()])
    tables = replace(
        club_tables(seats, share, group, period),
        entry=np.array(entry),
        entries=["open:A", "open:C"],
    )
    fit = fit_headline(tables)
    assert fit.entry_effects["open:A"] > fit.entry_effects["open:C"]
    ratings = StoredRatings(
        {str(p): (100 * fit.theta[p], 100 * fit.sd[p]) for p in range(players)},
        fit.residual_variance,
        fit.form_variance,
        fit.penalty,
        entry_effects=fit.entry_effects,
    )
    boards = [
        {
            "id": number * 2 + table + 1,
            "event": "club",
            "date": "2030.01.01",
            "board_no": number + 1,
            "deal_hash": str(number),
            "north": f"new {4 * table}",
            "south": f"new {4 * table + 1}",
            "east": f"new {4 * table + 2}",
            "west": f"new {4 * table + 3}",
            "contract": "1NT",
            "declarer": "N",
            "result": 7 + table,
            "ns_vulnerable": False,
            "ew_vulnerable": False,
            # an A pair against a C pair, the other way round, and two C pairs
            "ns_entry": ("open:A", "open:C", "open:C")[table],
            "ew_entry": ("open:C", "open:A", "open:C")[table],
        }
        for number in range(4)
        for table in range(3)
    ]
    rows = {(row["player_a"], row["player_b"]): row for row in forecast(boards, {}, ratings)}
    stratum_a = rows[("new 0", "new 1")]["predicted"]
    stratum_c = rows[("new 2", "new 3")]["predicted"]
    assert stratum_a > 50 > stratum_c
    blind = forecast(boards, {}, replace(ratings, entry_effects={}))
    assert {round(row["predicted"], 6) for row in blind} == {50.0}


def test_newcomer_and_regular_pair_sessions_are_found_from_the_dates_before():
    # 0-1 together at dates 0..5; at date 6 they meet 8-9, and newcomer 10 sits with 2
    seats = [[0, 1, 2, 3]] * 6 + [[0, 1, 8, 9], [2, 10, 4, 5]]
    period = [0, 1, 2, 3, 4, 5, 6, 6]
    tables = club_tables(seats, [0.5] * 8, [0, 1, 2, 3, 4, 5, 6, 6], period)
    run = HeldOut(
        np.zeros(4),
        np.zeros(4, dtype=np.int64),
        np.ones(4),
        np.full(4, 6),
        {},
    )
    newcomer, regular = experience_masks(tables, run)
    # pair-sessions of date 6 in pair order: (0, 1), (2, 10), (4, 5), (8, 9)
    assert newcomer.tolist() == [False, True, True, True]
    assert regular.tolist() == [True, False, False, False]
