"""The rate stage on real team boards: games from both rooms, ratings, validation, report."""

import sqlite3

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main
from bridgerank.ratings.games import TeamGame, imps, ns_score, team_games


def test_imps_scale():
    assert [imps(d) for d in (0, 10, 20, 50, 420, 430, 4000, -4500, -620)] == [
        0,
        0,
        1,
        2,
        9,
        10,
        24,
        -24,
        -12,
    ]


def test_ns_score_signs():
    board = {
        "contract": "3N",
        "declarer": "E",
        "result": 9,
        "ns_vulnerable": False,
        "ew_vulnerable": True,
        "year": 2000,
    }
    assert ns_score(board) == -600
    assert ns_score(dict(board, contract="Pass")) == 0
    assert ns_score(dict(board, result=None)) is None


def test_team_games_from_the_1955_rooms():
    rows = [
        {
            "id": 1,
            "event": "BB",
            "board_no": 1,
            "deal_hash": "d",
            "room": "Open",
            "date": "1955",
            "north": "N1",
            "south": "S1",
            "east": "E1",
            "west": "W1",
            "contract": "3D",
            "declarer": "N",
            "result": 9,
            "ns_vulnerable": False,
            "ew_vulnerable": False,
            "year": 1955,
        },
        {
            "id": 2,
            "event": "BB",
            "board_no": 1,
            "deal_hash": "d",
            "room": "Closed",
            "date": "1955",
            "north": "N2",
            "south": "S2",
            "east": "E2",
            "west": "W2",
            "contract": "3N",
            "declarer": "S",
            "result": 8,
            "ns_vulnerable": False,
            "ew_vulnerable": False,
            "year": 1955,
        },
    ]
    games = team_games(rows, {"N1": "Schapiro"})
    assert games == [
        TeamGame(
            ("Schapiro", "S1", "E2", "W2"),
            ("E1", "W1", "N2", "S2"),
            110 - (-50),
            ("1955", 1),
            (1, 2),
        )
    ]
    assert games[0].hyperedges() == [(games[0].team_a, games[0].team_b, 1.0)]
    assert games[0].hyperedges("imps") == [(games[0].team_a, games[0].team_b, 4.0)]  # 160
    tie = TeamGame(("a",), ("b",), 0, (), (0, 0))
    assert tie.hyperedges() == [(("a",), ("b",), 0.5), (("b",), ("a",), 0.5)]


def test_rate_stage_and_report_on_the_sample_slice(tmp_path, test_data):
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "run",
            str(test_data / "bermuda1955_head.pbn"),
            str(test_data / "vugraph-00070.lin"),
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "from 22 team boards" in result.output
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        methods = dict(db.execute("select method, count(*) from ratings group by method"))
        validation = dict(db.execute("select method, log_loss from rating_validation"))
        lauria = db.execute(
            "select low, rating, high from ratings where method = 'hbt' "
            "and player = 'Lorenzo Lauria'"
        ).fetchone()
    # the team headline's ratings beside them (every player of the team boards)
    assert set(methods) == {"hbt", "gbt", "bt", "win_rate", "team_imps"}
    assert len(set(methods.values())) == 1
    assert set(validation) == {"hbt", "gbt", "bt", "win_rate", "wbf_points"}
    assert all(0 < loss < 5 for loss in validation.values())
    assert lauria[0] <= lauria[1] <= lauria[2]
    html = (tmp_path / "report" / "methods.html").read_text()
    assert "Ratings from results" in html and "Rank correlations (Spearman)" in html
    assert "Predicting results not seen" in html and "log-strengths" in html
    assert "22 team boards played in both rooms" in html
    # the team headline's top 20: boards, intervals, rank intervals, and the words on them
    assert "Team play: the strongest 16 of 16 players" in html
    assert "<th>rank interval</th>" in html and "<th>team boards</th>" in html
    # two matches say next to nothing: every interval is wider than the top's spread
    assert "the intervals of 16 of them are wider than that whole spread" in html
    # who beats whom: no bridge matrix in two matches, and the synthetic games are no part of
    # a run (benchmarks/bench_gamematrix_synthetic.py): nothing to show
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        games = db.execute("select count(*) from game_structure").fetchone()[0]
        inputs = db.execute("select team_games, players from rate_inputs").fetchall()
        rated = db.execute("select count(distinct player) from ratings").fetchone()[0]
    assert games == 0 and inputs == [(22, rated)]
    assert "Who beats whom" not in html


def test_rerun_is_up_to_date(tmp_path, test_data):
    runner = CliRunner()
    runner.invoke(
        main, ["run", str(test_data / "vugraph-00070.lin"), "--to", "match", "--out", str(tmp_path)]
    )
    first = runner.invoke(main, ["rate", "--out", str(tmp_path)])
    assert "from 16 team boards" in first.output
    assert "rate: up to date" in runner.invoke(main, ["rate", "--out", str(tmp_path)]).output


@pytest.mark.parametrize("weighting", ["imps"])
def test_imp_weighting_setting(tmp_path, weighting, test_data):
    settings = tmp_path / "rate.toml"
    settings.write_text(f'[rate]\nweighting = "{weighting}"\nbootstrap_resamples = 0\n')
    runner = CliRunner()
    runner.invoke(
        main, ["run", str(test_data / "vugraph-00070.lin"), "--to", "match", "--out", str(tmp_path)]
    )
    result = runner.invoke(main, ["rate", "--out", str(tmp_path), "--config", str(settings)])
    assert result.exit_code == 0 and "from 16 team boards" in result.output


def test_pair_rankings_and_team_elo():
    from bridgerank.ratings.games import pair_rankings, pairwise_scores
    from bridgerank.ratings.replay import Games, calibrate, replay

    base = {
        "event": "E",
        "board_no": 1,
        "deal_hash": "d",
        "date": "2000.01.01",
        "declarer": "N",
        "contract": "4S",
        "ns_vulnerable": False,
        "ew_vulnerable": False,
        "year": 2000,
    }
    tables = [
        dict(base, id=i, north=f"n{i}", south=f"s{i}", east=f"e{i}", west=f"w{i}", result=tricks)
        for i, tricks in enumerate([10, 11, 9, 10], start=1)
    ]
    rankings = pair_rankings(tables, {})
    assert [r.places for r in rankings] == [[2, 1, 4, 2], [2, 4, 1, 2]]
    assert rankings[0].teams[1] == ("n2", "s2") and rankings[1].teams[1] == ("e2", "w2")
    games = Games.from_rankings(rankings)
    outcome = replay(games, "dlo", 32, keep_history=True)
    ratings, history = outcome.by_player(games), outcome.history_by_player(games)
    assert ratings["n2"] > ratings["n1"] > ratings["n3"] and ratings["n1"] == ratings["s1"]
    assert sum(ratings.values()) == pytest.approx(0)  # zero-sum from 0
    assert len(history["n1"]) == 1
    assert 0 <= calibrate(Games.from_rankings(rankings * 5), "elo")[0] <= 200
    scores = pairwise_scores(rankings, lambda team: ratings[team[0]])
    assert scores["test_games"] == 10 and scores["accuracy"] == 1.0


def test_rate_stage_on_a_pairs_event(tmp_path, test_data):
    result = CliRunner().invoke(
        main,
        ["run", str(test_data / "capgemini1998_round01.pbn"), "--out", str(tmp_path), "-v"],
    )
    assert result.exit_code == 0, result.output
    assert "pair rankings" in result.output and "skill-o-meter" in result.output
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        methods = {m for (m,) in db.execute("select distinct method from ratings")}
        tasks = {t for (t,) in db.execute("select distinct task from rating_validation")}
        history = db.execute("select count(*) from rating_history").fetchone()[0]
    assert {"elo", "dlo"} <= methods and "pair rankings" in tasks and history > 0
    html = (tmp_path / "report" / "methods.html").read_text()
    assert "The skill-o-meter" in html and "rating histories" in html


def test_single_table_boards_play_against_par():
    from bridgerank.ratings.games import single_table_games

    board = {
        "id": 7,
        "event": "Pairs",
        "board_no": 3,
        "deal_hash": "x",
        "date": "2001",
        "north": "N",
        "south": "S",
        "east": "E",
        "west": "W",
        "contract": "4S",
        "declarer": "N",
        "result": 10,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
        "year": 2001,
    }
    games = single_table_games([board], {}, lambda b: 450)  # par: 4S+1 by North
    assert [(g.team_a, g.team_b, g.net) for g in games] == [(("N", "S"), ("E", "W"), -30)]
    assert games[0].hyperedges() == [(("E", "W"), ("N", "S"), 1.0)]
    assert single_table_games([board], {}, lambda b: None) == []
    assert single_table_games([board, dict(board, id=8)], {}, lambda b: 0) == []  # two tables
