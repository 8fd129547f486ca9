"""What the team headline reads beyond the team boards (ratings.team_evidence): players'
experience and double dummy measures from earlier periods only, boards played at one table
against par; and the joint fit that reads them (ratings.team_fit.fit_joint)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bridgerank.core.settings import default_settings
from bridgerank.ratings.card_evidence import CardCounts
from bridgerank.ratings.dd_prior import BoardEvidence
from bridgerank.ratings.field import field_tables
from bridgerank.ratings.holdout import walk_forward
from bridgerank.ratings.team_evidence import (
    CARD_COVARIATES,
    COVARIATES,
    OneTableBoards,
    PlayerRecords,
    TeamEvidence,
)
from bridgerank.ratings.team_fit import fit_imps, fit_joint
from bridgerank.ratings.team_matches import (
    headline_imps,
    joint_headline_method,
    match_metrics,
    match_target,
)
from bridgerank.ratings.uncertainty import rank_standing
from tests.ratings.test_matches import simulated_teams

# [rate.teams]: the shrinkage of the players' covariates (the shipped defaults)
TEAMS = default_settings().rate.teams
SHRINK, CARD_SHRINK, FIELD_SHRINK = TEAMS.dd_shrinks, TEAMS.card_shrinks, TEAMS.field_shrink


def _board(board_id, date, north, south, east, west, **result):
    return {
        "id": board_id,
        "event": "Open",
        "date": date,
        "year": int(date[:4]),
        "board_no": board_id,
        "deal_hash": f"deal{board_id}",
        "room": "",
        "north": north,
        "south": south,
        "east": east,
        "west": west,
        "home_team": "",
        "visit_team": "",
        "contract": result.get("contract", "4S"),
        "declarer": result.get("declarer", "N"),
        "result": result.get("result", 10),
        "ns_vulnerable": False,
        "ew_vulnerable": False,
    }


def test_a_players_covariates_are_read_from_earlier_periods_only():
    boards = [
        _board(1, "2001.01.01", "Ann", "Bob", "Cy", "Di"),
        _board(2, "2001.01.01", "Ann", "Bob", "Cy", "Di"),
        _board(3, "2001.02.01", "Ann", "Ed", "Cy", "Di"),
    ]
    # North declared each: one trick over double dummy, then one under, then two over; the
    # contracts 3 and 1 IMPs above par for North-South, then unknown
    evidence = BoardEvidence(
        board=np.array([1, 2, 3]),
        declarer=np.array([0, 0, 0]),
        tricks_vs_dd=np.array([1.0, -1.0, 2.0]),
        bidding_imps=np.array([3.0, 1.0, np.nan]),
    )
    records = PlayerRecords.of(boards, {"Ann": "Ann Smith"}, evidence)
    before_february = records.covariates(["Ann Smith", "Cy", "Ed", "Nobody"], "2001.02.01")
    ann, cy, ed, nobody = before_february
    assert ann == pytest.approx([np.log1p(2), 0 / (2 + SHRINK[0]), 0.0, 4 / (2 + SHRINK[2])])
    # Cy defended both boards (declarer's tricks count against the defence)
    assert cy == pytest.approx([np.log1p(2), 0.0, 0 / (2 + SHRINK[1]), -4 / (2 + SHRINK[2])])
    assert ed.tolist() == nobody.tolist() == [0.0, 0.0, 0.0, 0.0]  # Ed's first board is later
    # the later board counts from the period after it, and changing it changes nothing before
    ed, ann = records.covariates(["Ed", "Ann Smith"], "2001.03.01")
    assert ed[0] == pytest.approx(np.log1p(1)) and ann[1] == pytest.approx(2 / (3 + SHRINK[0]))
    # without the measures (the question whether they add anything): experience alone
    alone = records.experience_only().covariates(["Ann Smith", "Cy"], "2001.02.01")
    assert alone[:, 0].tolist() == before_february[:2, 0].tolist()
    assert not alone[:, 1:].any()
    evidence.tricks_vs_dd[2] = -5.0
    again = PlayerRecords.of(boards, {"Ann": "Ann Smith"}, evidence)
    assert np.array_equal(again.covariates(["Ann Smith", "Cy"], "2001.02.01"), before_february[:2])
    # the shrinkage is [rate.teams] dd_shrinks, the records' settings
    teams = replace(TEAMS, dd_shrinks=(1.0, 1.0, 1.0))
    other = PlayerRecords.of(boards, {"Ann": "Ann Smith"}, evidence, teams)
    assert other.covariates(["Ann Smith"], "2001.02.01")[0, 3] == pytest.approx(4 / 3)
    assert other.experience_only().settings is teams


def test_a_board_played_at_one_table_is_imps_against_par():
    boards = [
        _board(1, "2001.01.01", "Ann", "Bob", "Cy", "Di"),  # 4S= by North: +420
        _board(2, "2001.01.01", "Ann", "Bob", "Cy", "Di", result=9),  # one down: -50
        _board(3, "2001.01.01", "Ed", "Fay", "Gus", "Hal"),  # the same deal twice: a field
        _board(4, "2001.01.01", "Ann", "Bob", "Cy", "Di"),
    ]
    boards[3]["deal_hash"] = boards[2]["deal_hash"]
    par = {1: 620, 2: -100}  # par of board 1 is 4H by North-South made with an overtrick
    one_table = OneTableBoards.of(boards, {}, lambda board: par.get(board["id"]))
    assert one_table.pairs == [(("Ann", "Bob"), ("Cy", "Di"))] * 2
    assert one_table.imps.tolist() == [-5.0, 2.0]  # -200 against par; +50 against par
    assert one_table.before("2001.01.01") == 0 and one_table.before("2001.01.02") == 2


def _teams_with_regulars(seed=3, players=120):
    """Team boards where the regulars - the players who play most - are the strong ones, and
    newcomers keep arriving: what experience tells a fit before their boards do."""

    def weight(truth):
        return np.linspace(3.0, 0.2, len(truth))[np.argsort(np.argsort(-truth))]

    _, data = simulated_teams(players, 8, seed=seed, spread=0.5, noise=5.0, weight=weight)
    periods = data.periods
    # the players' records: each team board's two tables, no double dummy measures
    tables = np.concatenate([data.seats[:, [0, 1, 4, 5]], data.seats[:, [6, 7, 2, 3]]])
    when = np.concatenate([np.array(periods, dtype=object)[data.period]] * 2)
    order = np.argsort(when, kind="stable")
    records = PlayerRecords(
        {player: player for player in range(players)},
        when[order],
        tables[order],
        np.full(len(order), -1),
        np.full(len(order), np.nan),
        np.full(len(order), np.nan),
    )
    return data, TeamEvidence(records)


def test_without_evidence_the_joint_fit_is_the_team_boards_ridge():
    data, _ = _teams_with_regulars()
    plain = fit_imps(data, 30.0)
    joint = fit_joint(data, 30.0, TeamEvidence(), before="999")
    assert np.allclose(joint.theta, plain.theta) and np.allclose(joint.sd, plain.sd)


def test_experience_predicts_held_out_matches_where_regulars_are_stronger():
    data, evidence = _teams_with_regulars()
    methods = {"joint": joint_headline_method(evidence), "plain": headline_imps}
    run = walk_forward(data, methods, match_target)
    joint = match_metrics(run.predicted("joint"), run.actual, run.variance("joint"))
    plain = match_metrics(run.predicted("plain"), run.actual, run.variance("plain"))
    assert joint["rmse"] < plain["rmse"] and joint["pearson"] > plain["pearson"] + 0.05
    assert 0.7 <= joint["coverage_80"] <= 0.9


def test_rank_intervals_widen_with_a_ratings_uncertainty_in_rank_standing():
    rating = np.array([3.0, 2.0, 1.0, 0.0])
    low, high, _ = rank_standing(rating, np.array([0.01, 0.01, 5.0, 0.01]), 0.9, 1)
    # the sure ones keep their places but for the unsure one, who may be anywhere
    assert low.tolist() == [1, 2, 1, 3] and high.tolist() == [2, 3, 4, 4]
    same = rank_standing(rating, np.full(4, 1e-6), 0.9, 1)[:2]
    assert same[0].tolist() == same[1].tolist() == [1, 2, 3, 4]


def test_card_counters_are_shrunk_rates_from_earlier_periods_only():
    boards = [
        _board(1, "2001.01.01", "Ann", "Bob", "Cy", "Di"),
        _board(2, "2001.01.01", "Ann", "Bob", "Cy", "Di"),
        _board(3, "2001.02.01", "Ann", "Ed", "Cy", "Di"),
    ]
    # board 1: North declares; East leads a costly card; dummy (South) gives one away, which
    # is North's, declarer's; board 2: West's lead is right, West's later card costs one
    rows = [
        {"board_id": 1, "seat": "E", "role": "lead", "cards": 1, "costly": 1},
        {"board_id": 1, "seat": "N", "role": "declarer", "cards": 12, "costly": 0},
        {"board_id": 1, "seat": "S", "role": "dummy", "cards": 13, "costly": 1},
        {"board_id": 1, "seat": "W", "role": "defender", "cards": 13, "costly": 0},
        {"board_id": 2, "seat": "W", "role": "lead", "cards": 1, "costly": 0},
        {"board_id": 2, "seat": "W", "role": "defender", "cards": 13, "costly": 1},
        {"board_id": 3, "seat": "E", "role": "lead", "cards": 1, "costly": 1},
    ]
    counts = CardCounts.of(rows)
    assert counts.played[0, 0, 1] == 25 and counts.costly[0, 0, 1] == 1  # North: 12 + 13
    records = PlayerRecords.of(boards, {}).with_cards(counts)
    before_february = records.covariates(["Ann", "Cy", "Di", "Ed"], "2001.02.01")
    assert before_february.shape == (4, len(COVARIATES) + len(CARD_COVARIATES))
    lead_shrink, declarer_shrink, defender_shrink = CARD_SHRINK
    # leads: Cy (East) 1 costly of 1, Di (West) 0 of 1: everyone's rate 1 in 2
    assert before_february[1, 4] == pytest.approx((1 - 0.5) / (1 + lead_shrink))
    assert before_february[2, 4] == pytest.approx((0 - 0.5) / (1 + lead_shrink))
    # declarer's cards: Ann 1 costly of 25, and hers are all there were
    assert before_february[0, 5] == pytest.approx(0.0)
    # defenders' cards: Di (West) 1 of 26, everyone 1 of 26: level; Ed never seen
    assert before_february[2, 6] == pytest.approx(0.0)
    assert before_february[3].tolist() == [0.0] * 7
    # board 3's costly lead counts only after its period: Cy 2 of 2, everyone 2 of 3
    later = records.covariates(["Cy"], "2001.03.01")
    assert later[0, 4] == pytest.approx((2 - 2 / 3 * 2) / (2 + lead_shrink))
    # without counters, the four covariates as before
    assert PlayerRecords.of(boards, {}).covariates(["Ann"], "2001.03.01").shape == (1, 4)


def test_a_players_field_results_are_a_shrunk_share_above_half_from_earlier_periods():
    boards = [
        _board(1, "2001.01.01", "Ann", "Bob", "Cy", "Di"),
        _board(2, "2001.01.01", "Ed", "Fay", "Gus", "Hal"),
        _board(3, "2001.02.01", "Ann", "Bob", "Gus", "Hal"),
    ]
    # boards 1 and 2 are one deal's two tables of a field (min_tables 2); 3 is played alone
    for board in boards[:2]:
        board |= {"board_no": 1, "deal_hash": "field deal"}
    boards[0] |= {"contract": "4S", "result": 10}  # +420 for Ann-Bob
    boards[1] |= {"contract": "4S", "result": 9}  # -50 for Ed-Fay
    tables = field_tables(boards, {}, min_tables=2)
    records = PlayerRecords.of(boards, {}).with_fields(tables)
    found = records.covariates(["Ann", "Cy", "Ed", "Gus", "Zed"], "2001.02.01")
    assert found.shape == (5, len(COVARIATES) + 1)
    # Ann-Bob beat the other table: a share of 1, half above half; Cy, their opponent, below
    assert found[:, -1].tolist() == pytest.approx(
        [0.5 / (1 + FIELD_SHRINK), -0.5 / (1 + FIELD_SHRINK), -0.5 / (1 + FIELD_SHRINK),
         0.5 / (1 + FIELD_SHRINK), 0.0]
    )  # fmt: skip
    # nothing of the field is known before it was played
    assert records.covariates(["Ann"], "2001.01.01")[0, -1] == 0.0
    # the evidence with fields, or none to add
    assert TeamEvidence(records=PlayerRecords.of(boards, {}), fields=tables).with_fields()
    assert TeamEvidence(records=PlayerRecords.of(boards, {})).with_fields() is None
