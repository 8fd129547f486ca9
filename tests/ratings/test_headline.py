"""The headline rating: matchpointing across the field, the ridge fit against a dense
solve, the ceiling's readings, and on the real ACBL club sessions the walk-forward result
docs/ratings.md (and the README) report."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import sparse
from sqlalchemy import select

from bridgerank.pipeline.cli import main
from bridgerank.pipeline.stages import open_store
from bridgerank.ratings.field import (
    FieldTables,
    field_tables,
    matchpoint_shares,
    pair_sessions,
)
from bridgerank.ratings.gains import simultaneous_gains
from bridgerank.ratings.headline.ceiling import icc, retest_correlation
from bridgerank.ratings.headline.design import Design
from bridgerank.ratings.headline.fit import fit_headline, fit_strengths
from bridgerank.ratings.headline.sessions import SESSIONS
from bridgerank.ratings.holdout import LEVELS, score
from bridgerank.ratings.tables import (
    HeadlineRating,
    RatingCheck,
    SessionPrediction,
    SessionValidation,
    ValidationCeiling,
)


def session_metrics(predicted, actual, session, variance=None):
    """The session table's measures (:data:`walkforward.SESSIONS`) of one method."""
    return score(predicted, actual, session, variance, SESSIONS.measures, LEVELS)


def _board(table: int, contract: str, declarer: str, result: int, date="2017.01.02", board=1):
    names = [f"{seat}{table}" for seat in "NSEW"]
    return {
        "id": table,
        "event": "Club pairs",
        "date": date,
        "year": 2017,
        "board_no": board,
        "deal_hash": f"deal{board}",
        "north": names[0],
        "south": names[1],
        "east": names[2],
        "west": names[3],
        "contract": contract,
        "declarer": declarer,
        "result": result,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
    }


def test_matchpoints_are_shares_of_the_other_tables_beaten():
    # NS scores 420, 420, 450, -50: ties share the point
    assert matchpoint_shares([420, 420, 450, -50]) == [1.5 / 3, 1.5 / 3, 1.0, 0.0]


def test_field_tables_score_the_field_and_the_sessions():
    boards = [
        _board(1, "4S", "N", 10),  # +420
        _board(2, "4S", "N", 11),  # +450
        _board(3, "4S", "N", 9),  # -50
        _board(4, "4S", "N", 10, board=2),  # a deal at one table: not matchpointed
    ]
    tables = field_tables(boards, {})
    assert len(tables) == 3 and len(tables.players) == 12
    assert sorted(tables.share.tolist()) == [0.0, 0.5, 1.0]
    sessions = pair_sessions(tables)
    assert sorted(sessions.percent.tolist()) == [0.0, 0.0, 50.0, 50.0, 100.0, 100.0]
    assert sessions.boards.tolist() == [1] * 6


def _simulated(players=60, deals=400, tables=6, seed=3):
    """Pairs of random players at random tables; shares from true strengths plus noise."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 0.05, players)
    seats, share, group = [], [], []
    for deal in range(deals):
        chosen = rng.choice(players, 4 * tables, replace=False).reshape(tables, 4)
        d = truth[chosen] @ np.array([1, 1, -1, -1])
        scores = d + rng.normal(0, 0.1, tables)
        share.extend((scores[:, None] > scores[None, :]).sum(axis=1) / (tables - 1))
        seats.extend(chosen.tolist())
        group.extend([deal] * tables)
    count = len(share)
    return (
        truth,
        FieldTables(
            players=list(range(players)),
            seats=np.array(seats),
            share=np.array(share, dtype=float),
            group=np.array(group),
            session=np.array(group) // 20,
            sessions=[("sim", str(i)) for i in range(deals // 20)],
            period=np.array(group) // 20,
            periods=[str(i) for i in range(deals // 20)],
            board=np.arange(count),
        ),
        count,
    )


def test_the_sparse_fit_is_the_dense_ridge_solution():
    _, tables, count = _simulated()
    design = Design.of(tables, 60)
    # the model written out: each table's row centred on its deal, scaled by k/(k-1)
    dense = np.zeros((count, 60))
    for row, seat_row in enumerate(tables.seats):
        dense[row, seat_row] = [1, 1, -1, -1]
    for group in np.unique(tables.group):
        rows = tables.group == group
        k = rows.sum()
        dense[rows] = (dense[rows] - dense[rows].mean(axis=0)) * k / (k - 1)
    target = tables.share - 0.5
    expected = np.linalg.solve(dense.T @ dense + 30 * np.eye(60), dense.T @ target)
    assert np.allclose(fit_strengths(design, tables.share, 30.0), expected, atol=1e-9)
    assert np.allclose(design.normal_diagonal(), np.diag(dense.T @ dense))


def test_the_fit_recovers_simulated_strengths_with_honest_intervals():
    truth, tables, _ = _simulated()
    # rank-based shares: the strengths come back in matchpoint units, in the same order
    assert np.corrcoef(fit_headline(tables).theta, truth)[0, 1] > 0.9
    # shares drawn from the model itself: the posterior intervals cover at about their rate
    design = Design.of(tables, len(truth))
    rng = np.random.default_rng(5)
    # noise centred on each deal, as matchpoint shares are (they sum to k/2 over a deal)
    tables.share = design.predict(truth) + design.centre(rng.normal(0, 0.1, len(tables)))
    fit = fit_headline(tables)
    inside = np.abs(fit.theta - truth) <= 1.96 * fit.sd
    assert 0.88 <= inside.mean() <= 1.0
    # the noise's variance before centring, the centring's lost degrees of freedom restored
    assert fit.residual_variance == pytest.approx(0.01, rel=0.1)


def test_icc_and_test_retest_by_hand():
    from bridgerank.ratings.field import SessionScores

    # two pairs, three sessions each: pair A 60, 62, 58; pair B 40, 44, 42
    sessions = SessionScores(
        session=np.array([0, 1, 2, 0, 1, 2]),
        pair=np.array([[0, 1]] * 3 + [[2, 3]] * 3),
        boards=np.full(6, 24),
        percent=np.array([60.0, 62, 58, 40, 44, 42]),
        period=np.array([0, 1, 2, 0, 1, 2]),
    )
    # between mean square 3 * (60 - 51)^2 * 2 / 1 = 486; within (4 + 4 + 0 + 4 + 4) / 4 = 4
    value, pairs = icc(sessions)
    assert pairs == 2
    assert value == pytest.approx((486 - 4) / (486 + 2 * 4))
    assert retest_correlation(sessions) == (None, 4)  # too few consecutive pairs to say


def test_metrics_count_orders_and_interval_coverage():
    predicted = np.array([55.0, 50.0, 45.0, 60.0])
    actual = np.array([60.0, 40.0, 50.0, 70.0])
    metrics = session_metrics(predicted, actual, np.array([0, 0, 0, 1]), np.full(4, 25.0))
    assert metrics["orders_right"] == pytest.approx(2 / 3)  # session 0: 2 of its 3 orders
    assert metrics["rmse"] == pytest.approx(np.sqrt((25 + 100 + 25 + 100) / 4))
    # 50% interval is +-3.37 points: none inside; 95% is +-9.8: the two 5-point misses
    assert metrics["coverage_50"] == 0.0 and metrics["coverage_95"] == 0.5


def test_forecasts_a_rounding_apart_tie_in_the_rank_measures():
    # two pairs the model cannot tell apart, their forecasts a few bits apart by the order
    # of a sum: a tie (half right), not a wrong order
    predicted = np.array([50.0, 50.0 + 1e-12, 60.0])
    actual = np.array([55.0, 45.0, 70.0])
    metrics = session_metrics(predicted, actual, np.zeros(3, dtype=int), None)
    assert metrics["orders_right"] == pytest.approx(2.5 / 3)
    assert metrics["within_session_spearman"] == pytest.approx(
        session_metrics(np.array([50.0, 50.0, 60.0]), actual, np.zeros(3, dtype=int), None)[
            "within_session_spearman"
        ]
    )


# Slow: the whole ACBL folder through the solver (about 4 minutes of a quiet 2-core machine,
# most of the default suite's budget); CI runs it by name (.ci/run).
@pytest.mark.slow
def test_on_the_acbl_sessions_the_headline_against_every_rival(shared_data, tmp_path):
    """The headline against every rival on real data, with 95% intervals simultaneous over
    the whole table, the same to 0.002 whatever the bootstrap's seed; 80% intervals that
    cover 78-82% of held-out sessions; the reference a rating knowing the true strengths
    would reach."""
    # the rate stage's other sections (who beats whom, HBT intervals) are tested elsewhere:
    # left out here, they cost CI a minute and change none of the headline's numbers
    settings = tmp_path / "settings.toml"
    settings.write_text("[rate]\nbootstrap_resamples = 0\n[rate.cycles]\nseeds = 2\n")
    result = CliRunner().invoke(
        main,
        [
            "run",
            str(shared_data("acbl", "results")),
            "--out",
            str(tmp_path),
            "--to",
            "rate",
            "--config",
            str(settings),
            "--jobs",
            "2",  # the solver on both cores: the same tables, in half the time
            "--verbose",  # the rate stage's whole summary
        ],
    )
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())  # the summary's lines, unwrapped
    assert "held-out sessions (1,424 pair-sessions, walk-forward)" in shown
    engine = open_store(f"sqlite:///{tmp_path / 'bridgerank.db'}", create=False)
    with engine.connect() as conn:
        rows = {row.method: row for row in conn.execute(select(SessionValidation.__table__))}
        ceiling = dict(
            conn.execute(select(ValidationCeiling.measure, ValidationCeiling.value)).all()
        )
        rated = conn.execute(select(HeadlineRating.__table__)).all()
    headline = rows["headline"]
    # issue 48's goals: 0.50 on these sessions, 0.35 on those with a player never seen before
    assert round(headline.pearson, 3) == 0.503 and headline.rmse < 6.45
    assert headline.newcomer_sessions == 78 and round(headline.newcomer_pearson, 3) == 0.388
    assert headline.regular_sessions == 940 and round(headline.regular_pearson, 3) == 0.564
    # the ratings players know, the multiplayer Elos among them, and ours: beaten with the
    # whole table's intervals clear of 0
    for rival in (
        "win_rate",
        "shrunk_mean",
        "pair_elo",
        "ngs",
        "glicko2",
        "openskill",
        "ttt",
        "elo",
        "dlo",
        "elo_opponents",
        "dlo_opponents",
    ):
        assert rows[rival].pearson_gain_low > 0, rival
        assert rows[rival].rmse_gain_low > 0, rival
    for rival in ("elo_opponents", "dlo_opponents"):
        assert rows[rival].pearson > rows[rival.split("_")[0]].pearson, rival
    # each rival's setting chosen on its first training dates, its grid grown past an end
    assert rows["openskill"].setting == "8.333 of 2.083, 4.167, 8.333, 16.67"
    assert rows["glicko2"].setting == "2.4 of 0.3, 0.6, 1.2, 2.4, 4.8"
    assert rows["ngs"].setting.startswith("125 of 62.5, 125,")
    # where the recaps print the strata, the newcomer prior is not offered (no such row)
    assert "headline_plain" not in rows
    # the strata: +0.025 overall, within chance of the whole table; newcomers 0.19 -> 0.39
    blind = rows["headline_noentry"]
    assert round(blind.pearson_gain, 3) == 0.025 and blind.pearson_gain_low < 0
    assert round(blind.newcomer_pearson, 3) == 0.188
    # the familiarity term, kept for fairness to partners, costs 0.002: within chance
    without = rows["headline_no_fam"]
    assert round(without.pearson_gain, 3) == -0.002
    assert without.pearson_gain_low < 0 < without.pearson_gain_high
    assert 0.78 <= headline.coverage_80 <= 0.82
    # the thesis's question, answered on held-out sessions: the players' past double dummy
    # measures add 0.015, within chance of the whole table
    without_dd = rows["headline_no_dd"]
    assert round(without_dd.pearson_gain, 3) == 0.015
    assert without_dd.pearson_gain_low < 0 < without_dd.pearson_gain_high
    assert 0.25 < ceiling["icc"] < 0.31
    # what a rating knowing every true strength would reach here, counting the opponents
    assert 0.52 < ceiling["known_strengths_r"] < 0.58  # docs: about 0.55
    # a results-only rating of the headline's form, if its model were true (docs: about
    # 0.47, 0.43 to 0.51 for eight data sets in ten): no bound - the headline passes it
    assert round(ceiling["relearned_r"], 3) == 0.472
    assert headline.pearson > ceiling["relearned_r"] + 0.02
    assert 0.41 < ceiling["relearned_r_p10"] < ceiling["relearned_r"] < 0.52
    assert ceiling["relearned_r"] < ceiling["relearned_r_p90"] < 0.54
    # docs/ratings.md's selector checks: reliability by band, the partner-fairness checks
    with engine.connect() as conn:
        checks = {
            (row.measure, row.band): row for row in conn.execute(select(RatingCheck.__table__))
        }
    reliability = [
        checks[("reliability", band)] for band in ("0-99", "100-299", "300-999", "1000+")
    ]
    assert [row.n for row in reliability] == [64, 85, 115, 30]
    assert [round(row.value, 2) for row in reliability] == [0.58, 0.72, 0.85, 0.95]
    assert [
        checks[("coverage_80", band)].n for band in ("0-99", "100-299", "300-999", "1000+")
    ] == [
        170,
        234,
        968,
        52,
    ]
    # the EBU's checks of fairness to partners (docs/ratings.md reads them): the stronger
    # player's rating rose after 45% of 101 sessions with a weaker partner (half is fair; a
    # 95% interval of 35-55%), and regular partnerships score 1.1 points above their ratings
    strong = checks[("strong_partner_rose", "all")]
    assert (strong.n, round(strong.value, 3)) == (101, 0.446)
    gap = checks[("regular_gap", "all")]
    assert gap.n == 144 and [round(v, 2) for v in (gap.value, gap.low, gap.high)] == [
        1.14,
        0.44,
        1.84,
    ]
    # a partnership's own term: 4 of 79 clear of zero at 95%, what chance alone gives
    synergy = [row for key, row in checks.items() if key[0] == "synergy"]
    assert len(synergy) == 79 and sum(not row.low < 0 < row.high for row in synergy) == 4
    assert len(rated) == 450
    assert all(row.sd > 0 for row in rated)
    # the gains again from the stored held-out forecasts (the headline's, and a coin's 50%),
    # with two seeds: the points are the stage's, and the bounds move by no more than the
    # Monte Carlo error of 10,000 resamples (the RMSE's bounds, in points of a session,
    # by about 0.006: the second decimal printed)
    with engine.connect() as conn:
        stored = conn.execute(
            select(SessionPrediction.session, SessionPrediction.predicted, SessionPrediction.actual)
        ).all()
    session, predicted, actual = (np.array(column) for column in zip(*stored))
    forecasts = {"headline": predicted, "coin": np.full(len(actual), 50.0)}
    seeds = [simultaneous_gains(forecasts, actual, session, "headline", seed=s) for s in (0, 1)]
    for gain in ("pearson", "rmse"):
        assert seeds[0]["coin"][gain][0] == pytest.approx(getattr(rows["coin"], f"{gain}_gain"))
        tolerance = {"pearson": 0.002, "rmse": 0.01}[gain]
        assert np.allclose(seeds[0]["coin"][gain], seeds[1]["coin"][gain], atol=tolerance), gain


def test_players_dd_measures_by_hand():
    from bridgerank.ratings.dd_prior import BoardEvidence

    tables = FieldTables(
        players=list(range(8)),
        seats=np.array([[0, 1, 2, 3], [4, 5, 6, 7]]),  # North, South, East, West
        share=np.array([0.5, 0.5]),
        group=np.array([0, 1]),
        session=np.array([0, 0]),
        sessions=[("e", "1")],
        period=np.array([0, 0]),
        periods=["1"],
        board=np.array([10, 11]),
    )
    evidence = BoardEvidence.of(
        [
            {"board_id": 12, "declarer": "S", "tricks_vs_dd": -5, "bidding_imps": 9},  # unseen
            {"board_id": 11, "declarer": "W", "tricks_vs_dd": 1, "bidding_imps": None},
            {"board_id": 10, "declarer": "N", "tricks_vs_dd": -1, "bidding_imps": 3},
        ]
    )
    assert evidence.coverage(tables) == 1.0
    measures = evidence.player_measures(tables)
    # declarer play shrunk by 10 pseudo-boards, defence and bidding by 20
    declaring = np.zeros(8)
    declaring[[0, 7]] = [-1 / 11, 1 / 11]
    defending = np.zeros(8)
    defending[[2, 3, 4, 5]] = [1 / 21, 1 / 21, -1 / 21, -1 / 21]
    bidding = np.zeros(8)
    bidding[[0, 1, 2, 3]] = [3 / 21, 3 / 21, -3 / 21, -3 / 21]
    assert np.allclose(measures, np.column_stack([declaring, defending, bidding]))


def test_a_covariate_moves_the_prior_centre_only_as_far_as_it_predicts():
    truth, tables, _ = _simulated(deals=200)

    def correlation(fit):
        return np.corrcoef(fit.theta, truth)[0, 1]

    plain = fit_headline(tables, penalty=300.0)
    # the true strengths (in score units, not shares: the coefficient rescales them)
    informed = fit_headline(tables, penalty=300.0, covariates=lambda t: truth[:, None])
    assert correlation(informed) > 0.99 > correlation(plain)
    assert informed.coefficients[0] > 1.0
    # noise: a coefficient near zero, and the ratings as without it
    noise = np.random.default_rng(1).normal(size=len(truth))[:, None]
    blind = fit_headline(tables, penalty=300.0, covariates=lambda t: noise)
    assert abs(blind.coefficients[0]) < 0.01
    assert correlation(blind) == pytest.approx(correlation(plain), abs=0.002)


def test_wbf_points_baseline_follows_the_points():
    from bridgerank.ratings.baselines import WBF_SESSIONS
    from bridgerank.ratings.headline.sessions import coin, session_target
    from bridgerank.ratings.holdout import walk_forward
    from bridgerank.ratings.registry import StudyInputs

    truth, tables, _ = _simulated(deals=400)
    # masterpoints that grow with true strength; a third of the players are not on the lists
    points = {
        str(player): float(np.exp(8 + 40 * truth[player]))
        for player in tables.players
        if player % 3
    }
    wbf = WBF_SESSIONS.make(tables, StudyInputs(points=points))
    run = walk_forward(tables, {"wbf_points": wbf, "coin": coin}, session_target)
    informed = session_metrics(run.predicted("wbf_points"), run.actual, run.group)
    assert informed["pearson"] > 0.1  # pairs change every deal here: sessions are noisy
    assert informed["rmse"] < session_metrics(run.predicted("coin"), run.actual, run.group)["rmse"]
    # the line is fitted on the training sessions: its variance is theirs, not zero
    assert np.all(run.variance("wbf_points") > 0)


def test_a_table_sees_its_players_covariates_from_earlier_periods_only():
    from bridgerank.ratings.headline.covariates import experience
    from bridgerank.ratings.headline.past import past_columns

    # three periods, one table each; player 0 sits North every time, 1 South, 2 and 3 East
    # and West in the first two, 4 and 5 in the last
    tables = FieldTables(
        players=list(range(6)),
        seats=np.array([[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 4, 5]]),
        share=np.array([0.9, 0.1, 0.5]),
        group=np.array([0, 1, 2]),
        session=np.array([0, 1, 2]),
        sessions=[("e", "1"), ("e", "2"), ("e", "3")],
        period=np.array([0, 1, 2]),
        periods=["1", "2", "3"],
        board=np.array([10, 11, 12]),
    )
    columns = past_columns(tables, experience)
    # log(1 + sessions before): N + S - E - W
    assert np.allclose(columns[:, 0], [0.0, 0.0, 2 * np.log(3) - 0.0])

    # a covariate made of the players' own shares (the leak): a table's column never moves
    # with its own result or a later one
    def own_share(given):
        total = np.zeros(6)
        for seats, share in zip(given.seats, given.share):
            np.add.at(total, seats, [share, share, -share, -share])
        return total[:, None]

    before = past_columns(tables, own_share)
    changed = tables.subset(np.ones(3, bool))
    changed.share = np.array([0.9, 0.7, 0.0])
    after = past_columns(changed, own_share)
    assert np.allclose(before[:2], after[:2])
    assert before[2, 0] == pytest.approx(2 * (0.9 + 0.1) - (-0.0) - 0.0)


def test_experience_counts_sessions_not_boards():
    from bridgerank.ratings.headline.covariates import experience, joined

    tables = FieldTables(
        players=list(range(5)),
        seats=np.array([[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 4, 3]]),
        share=np.array([0.5, 0.5, 0.5]),
        group=np.array([0, 1, 2]),
        session=np.array([0, 0, 1]),
        sessions=[("e", "1"), ("e", "2")],
        period=np.array([0, 0, 1]),
        periods=["1", "2"],
        board=np.array([10, 11, 12]),
    )
    assert np.allclose(experience(tables)[:, 0], np.log1p([2, 2, 1, 2, 1]))
    both = joined(experience, lambda given: np.ones((5, 2)))(tables)
    assert both.shape == (5, 3) and np.allclose(both[:, 1:], 1.0)


def test_form_variance_puts_80_percent_of_sessions_inside_their_intervals():
    from bridgerank.ratings.headline.fit import form_variance

    rng = np.random.default_rng(5)
    expected = rng.uniform(10, 30, 1000)
    # errors twice as spread as expected: a form variance is needed
    errors = rng.normal(0, 2 * np.sqrt(expected))
    form = form_variance(errors, expected)
    inside = np.abs(errors) <= 1.2815515655446004 * np.sqrt(expected + form)
    assert inside.mean() == pytest.approx(0.8, abs=0.002)
    # errors smaller than expected: nothing to add
    assert form_variance(errors / 3, expected) == 0.0


def test_an_undated_championship_has_its_rounds_as_sessions():
    from bridgerank.ratings.field import session_of

    # Valet's travellers: no date, a year and a round; a club's recap: a date (its sections
    # are one session); a record with neither: the event in its year
    assert session_of(
        {"event": "2009-World/Men", "date": "", "year": 2009, "round": "round 7"}
    ) == (
        "2009-World/Men",
        "2009 round 7",
    )
    assert session_of(
        {"event": "Club", "date": "2017.01.02", "year": 2017, "round": "Section A"}
    ) == ("Club", "2017.01.02")
    assert session_of({"event": "Old", "date": "?", "year": 1955}) == ("Old", "1955")
    boards = [
        _board(1, "4S", "N", 10, date="") | {"round": "round 1"},
        _board(2, "4S", "N", 11, date="") | {"round": "round 1"},
        _board(3, "4S", "N", 9, date="") | {"round": "round 1"},
        _board(4, "3N", "N", 9, date="", board=2) | {"round": "round 2"},
        _board(5, "3N", "N", 8, date="", board=2) | {"round": "round 2"},
        _board(6, "3N", "N", 10, date="", board=2) | {"round": "round 2"},
    ]
    tables = field_tables(boards, {})
    assert tables.sessions == [("Club pairs", "2017 round 1"), ("Club pairs", "2017 round 2")]
    assert tables.periods == ["2017"]  # one year: the walk-forward refits by year
    assert sorted(set(pair_sessions(tables).session.tolist())) == [0, 1]


def _with_newcomers(weaker: float, seed: int = 4):
    """Simulated sessions where players join over time; a newcomer's first sessions are
    ``weaker`` below the strength they settle at (shares from the model plus noise)."""
    rng = np.random.default_rng(seed)
    players, periods, tables_per_deal = 120, 24, 8
    truth = rng.normal(0, 0.04, players)
    joined_at = rng.integers(0, periods, players)
    joined_at[:40] = 0  # enough players for the first deals
    played = np.zeros(players)
    seats, share, group, period = [], [], [], []
    deal = 0
    for when in range(periods):
        present = np.flatnonzero(joined_at <= when)
        for _ in range(12):
            chosen = rng.choice(present, 4 * tables_per_deal, replace=False).reshape(-1, 4)
            strength = truth[chosen] - weaker * np.exp(-played[chosen] / 2)
            d = strength @ np.array([1, 1, -1, -1])
            scores = d + rng.normal(0, 0.1, tables_per_deal)
            ranks = (scores[:, None] > scores[None, :]).sum(axis=1) / (tables_per_deal - 1)
            seats.extend(chosen.tolist())
            share.extend(ranks)
            group.extend([deal] * tables_per_deal)
            period.extend([when] * tables_per_deal)
            deal += 1
        played[present] += 1
    count = len(share)
    return FieldTables(
        players=list(range(players)),
        seats=np.array(seats),
        share=np.array(share, dtype=float),
        group=np.array(group),
        session=np.array(period),
        sessions=[("sim", str(i)) for i in range(periods)],
        period=np.array(period),
        periods=[f"{i:02d}" for i in range(periods)],
        board=np.arange(count),
    )


def test_the_newcomer_prior_is_chosen_where_newcomers_are_weaker():
    from bridgerank.ratings.headline.covariates import experience, newcomer_choice
    from bridgerank.ratings.headline.fit import choose_model

    def regular_edge(fit):
        """What a regular of 20 sessions starts above a newcomer, in shares."""
        return 0.0 if fit.coefficients is None else fit.coefficients[0] * np.log1p(20)

    weaker = _with_newcomers(weaker=0.08)
    chosen, _, _ = choose_model(weaker, newcomer_choice())
    assert chosen is experience
    assert regular_edge(fit_headline(weaker, candidates=newcomer_choice())) > 0.1
    # where newcomers are as strong as they will be, the latest quarter picks the prior only
    # by chance, and then it moves nobody far
    for seed in (4, 5, 6):
        fit = fit_headline(_with_newcomers(weaker=0.0, seed=seed), candidates=newcomer_choice())
        assert abs(regular_edge(fit)) < 0.02, seed


def test_elo_with_opponents_counts_who_sat_opposite():
    from bridgerank.ratings.baselines import expected_beaten as _expected_beaten

    # one deal at two tables: the same North-South strength, East-West 0 at table 1 and
    # 400 at table 2. Alone, both North-South pairs expect half; with the opponents, the
    # pair that met the weaker East-West expects to beat the other by 10:1.
    tables = FieldTables(
        players=list(range(8)),
        seats=np.array([[0, 1, 2, 3], [4, 5, 6, 7]]),
        share=np.array([0.5, 0.5]),
        group=np.array([0, 0]),
        session=np.array([0, 0]),
        sessions=[("e", "1")],
        period=np.array([0, 0]),
        periods=["1"],
        board=np.array([1, 2]),
    )
    ratings = np.array([0, 0, 0, 0, 0, 0, 400, 400], dtype=float)
    assert _expected_beaten(tables, ratings, (0, 1)).tolist() == [0.5, 0.5]
    ns = _expected_beaten(tables, ratings, (0, 1), (2, 3))
    assert ns.tolist() == pytest.approx([10 / 11, 1 / 11])


@pytest.mark.parametrize("repeated", [False, True])
def test_the_normal_matrix_of_a_design_with_dense_covariates_is_the_plain_product(repeated):
    _, tables, count = _simulated()
    if repeated:
        # a session's deals at the same seats, and one table short on some (the fit counts
        # each distinct pattern of seats once: both the tables' and the deals')
        seats = tables.seats.reshape(-1, 20 * 6, 4)[:, :6].repeat(20, axis=0).reshape(-1, 4)
        tables = replace(tables, seats=seats[:count])
        tables = tables.subset(np.arange(count) % 50 != 7)
        count = len(tables)
    rng = np.random.default_rng(11)
    covariates = rng.normal(size=(count, 3))
    covariates[rng.random((count, 3)) < 0.2] = 0.0
    design = Design.of(tables, 60, covariates)
    if repeated:  # a partnership's column between the players' and the covariates'
        partnership = sparse.csr_matrix((tables.seats[:, 0] == 1).astype(float)[:, None])
        design = design.with_penalised(partnership, 3.0)
    dense = design.a.toarray()
    for group in np.unique(tables.group):
        rows = tables.group == group
        k = rows.sum()
        dense[rows] = (dense[rows] - dense[rows].mean(axis=0)) * k / (k - 1)
    assert np.allclose(design.normal_matrix(), dense.T @ dense, atol=1e-9)
