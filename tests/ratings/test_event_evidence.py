"""Double dummy measures of the team events' own tables (ratings/event_evidence.py): read
from earlier periods only, each against the mean of those periods, shrunk, worked by hand;
and the walk-forward's variant that fits them beside experience."""

import numpy as np
import pytest

from bridgerank.core.settings import default_settings
from bridgerank.ratings.dd_prior import BoardEvidence
from bridgerank.ratings.event_evidence import (
    dd_covariates,
    dd_coverage,
    dd_measures,
    tables_with_evidence,
)
from bridgerank.ratings.event_match_data import FieldRows, event_matches
from bridgerank.ratings.event_matches import WITH_DEALS, event_methods, study_event_matches
from tests.ratings.test_event_matches import _simulated

# the team studies' shrinkage of the double dummy measures (the shipped defaults)
SHRINK = default_settings().rate.teams.dd_shrinks


def _tables():
    """Three tables of players 0-3 (N, S against E, W), periods 0, 1, 2; boards 10, 11, 12,
    and a table of period 1 with no evidence (board 99)."""
    return FieldRows(
        north_south=np.array([[0, 1], [0, 1], [0, 1], [2, 3]]),
        east_west=np.array([[2, 3], [2, 3], [2, 3], [0, 1]]),
        cross=np.zeros(4),
        period=np.array([0, 1, 2, 1]),
        board=np.array([10, 11, 12, 99]),
    )


def _evidence():
    # North declares each: +1 trick on board 10, -1 on 11, 0 on 12; contracts 2, 0, 4 IMPs
    # against par for North-South
    return BoardEvidence.of(
        {"board_id": board, "declarer": "N", "tricks_vs_dd": tricks, "bidding_imps": bid}
        for board, tricks, bid in ((10, 1, 2), (11, -1, 0), (12, 0, 4))
    )


def test_a_players_measures_come_from_earlier_periods_against_their_mean():
    play, defence, bidding, leads = dd_covariates(_tables(), _evidence(), players=4, periods=3)
    # period 0: nothing before it
    assert play[:, 0].tolist() == [0.0] * 4 and bidding[:, 0].tolist() == [0.0] * 4
    # period 1 reads board 10 alone: North is the only declarer, so he is the mean: 0
    assert play[0, 1] == 0.0 and play[1, 1] == 0.0
    # period 2 reads boards 10 and 11 (mean 0): North +1 - 1 = 0 over 2 + shrink
    assert play[0, 2] == 0.0
    # defence: East and West defended both, -(1) and -(-1): mean 0
    assert defence[2, 2] == 0.0
    # bidding before period 2: North-South +2, 0; East-West -2, 0 - mean 0 over the eight terms
    assert bidding[0, 2] == pytest.approx(2 / (2 + SHRINK[2]))
    assert bidding[3, 2] == pytest.approx(-2 / (2 + SHRINK[2]))
    # the evidence of period 2 itself is never read (board 12's 4 IMPs)
    assert bidding[0, 1] == pytest.approx(2 / (1 + SHRINK[2]))
    assert not leads.any()  # no lead valued


def test_the_opening_leader_is_declarers_left_hand_opponent():
    # North declares board 10 (East leads, losing a trick), East board 11 (South leads, best)
    evidence = BoardEvidence.of(
        {
            "board_id": board,
            "declarer": declarer,
            "tricks_vs_dd": 0,
            "bidding_imps": 0,
            "lead_cost": cost,
        }
        for board, declarer, cost in ((10, "N", 1), (11, "E", 0))
    )
    leads = dd_covariates(_tables(), evidence, players=4, periods=3)[3]
    # before period 2: East (player 2) -1, South (player 1) 0; mean -0.5 over the two leads
    assert leads[2, 2] == pytest.approx((-1 + 0.5) / (1 + SHRINK[1]))
    assert leads[1, 2] == pytest.approx((0 + 0.5) / (1 + SHRINK[1]))
    assert leads[0, 2] == 0.0 and leads[3, 2] == 0.0  # North and West never led


def test_measures_are_centred_on_the_earlier_mean():
    evidence = BoardEvidence.of(
        {"board_id": board, "declarer": declarer, "tricks_vs_dd": tricks, "bidding_imps": 0}
        for board, declarer, tricks in ((10, "N", 1), (11, "E", 0))
    )
    play = dd_covariates(_tables(), evidence, players=4, periods=3)[0]
    # before period 2: North +1 (board 10), East (player 2) 0 at board 11; mean 0.5
    assert play[0, 2] == pytest.approx((1 - 0.5) / (1 + SHRINK[0]))
    assert play[2, 2] == pytest.approx((0 - 0.5) / (1 + SHRINK[0]))
    assert play[1, 2] == 0.0  # South never declared


def test_coverage_counts_the_tables_with_evidence():
    assert tables_with_evidence(_tables(), _evidence()).tolist() == [True, True, True, False]
    assert dd_coverage(_tables(), _evidence()) == 0.75
    assert dd_coverage(_tables(), BoardEvidence.of([])) == 0.0


def test_the_study_asks_the_double_dummy_question_on_the_events_with_deals():
    matches, rows, _ = _simulated(years=3)
    # the tables' board ids, and evidence for the first two years' events only
    for number, row in enumerate(rows):
        row["open_id"], row["closed_id"] = 2 * number, 2 * number + 1
    data = event_matches(matches, rows)
    known = [
        number
        for number, row in enumerate(rows)
        if next(m for m in matches if m["id"] == row["match_id"])["year"] < 2012
    ]
    rng = np.random.default_rng(1)
    evidence = BoardEvidence.of(
        {
            "board_id": board,
            "declarer": "NESW"[rng.integers(4)],
            "tricks_vs_dd": int(rng.integers(-1, 2)),
            "bidding_imps": int(rng.integers(-3, 4)),
        }
        for number in known
        for board in (2 * number, 2 * number + 1)
    )
    dd = dd_measures(data, evidence)
    assert dd is not None and dd.events_with_deals.tolist() == [True, True, False]
    assert dd_measures(data, BoardEvidence.of([])) is None
    assert "headline_dd" in event_methods(data, None, rivals=False, dd=dd)
    assert "headline_dd" not in event_methods(data, None, rivals=False)
    found = study_event_matches(data, bootstrap=0, rivals=False, dd=dd)
    subsets = {(row["subset"], row["method"]): row for row in found.rows}
    # held out: 2011's event (with deals) and 2012's (without)
    assert subsets[(WITH_DEALS, "headline")]["matches"] == subsets[("all", "headline")][
        "matches"
    ] - sum(1 for m in matches if m["year"] == 2012)
    assert (WITH_DEALS, "headline_dd") in subsets


def test_every_method_and_subset_name_fits_its_column():
    # PostgreSQL refuses a name longer than the column (SQLite would keep it)
    from bridgerank.ratings.event_match_data import EVENT_KINDS
    from bridgerank.ratings.event_matches import METHOD_DESCRIPTIONS
    from bridgerank.ratings.tables import EventMatchValidation

    columns = EventMatchValidation.__table__.c
    assert all(len(name) <= columns.method.type.length for name in METHOD_DESCRIPTIONS)
    subsets = ("all", *EVENT_KINDS, WITH_DEALS)
    assert all(len(name) <= columns.subset.type.length for name in subsets)
