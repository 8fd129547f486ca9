"""Who beats whom on bridge results (spec 7(d)): game matrices of pairs and teams, the noise
reference, the paper's protocol on synthetic games, and the real 1997 Bermuda Bowl."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.special import expit
from sqlalchemy import create_engine

from bridgerank.core.settings import default_settings
from bridgerank.pipeline.cli import main
from bridgerank.ratings.gamematrix.bridge_games import pair_game, team_game_matrices
from bridgerank.ratings.gamematrix.from_boards import bridge_games
from bridgerank.ratings.gamematrix.game_study import game_study, synthetic_study
from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.gamematrix.noise import noise_reference
from bridgerank.ratings.gamematrix.protocol import markdown_tables, run_protocol
from bridgerank.ratings.gamematrix.synthetic import synthetic_game
from bridgerank.ratings.inputs import load_inputs
from bridgerank.ratings.summaries import CycleSummary, GameSummary

_id = iter(range(1, 10_000))


def table(event, deal, seats, contract, declarer, result, room=None, teams=("", "")):
    """One board row as the rate stage reads it (non-vulnerable)."""
    north, south, east, west = seats
    return {
        "id": next(_id),
        "event": event,
        "board_no": deal,
        "deal_hash": f"deal-{deal}",
        "room": room,
        "date": "2001-01-01",
        "north": north,
        "south": south,
        "east": east,
        "west": west,
        "contract": contract,
        "declarer": declarer,
        "result": result,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
        "year": 2001,
        "bidstart": "N",
        "home_team": teams[0],
        "visit_team": teams[1],
    }


def test_pairs_holding_the_same_cards_are_compared_by_score():
    # one deal at three tables: NS pairs AB (+420), CD (+170), EF (+420); EW the reverse
    boards = [
        table("Pairs", 1, ("A", "B", "U", "V"), "4S", "N", 10),
        table("Pairs", 1, ("C", "D", "W", "X"), "2S", "N", 10),
        table("Pairs", 1, ("F", "E", "Y", "Z"), "4S", "S", 10),
    ]
    found = pair_game(boards, {}, "p", top=10, min_boards=1, min_common=1, alpha=0.0)
    game = found.game
    index = {label: number for number, label in enumerate(game.labels)}
    ab, cd, ef = index["A & B"], index["C & D"], index["E & F"]  # partners in name order
    assert game.p[ab, cd] == 1.0 and game.p[cd, ef] == 0.0 and game.p[ab, ef] == 0.5
    wx, uv = index["W & X"], index["U & V"]
    assert game.p[wx, uv] == 1.0  # East-West: -170 beats -420
    assert not game.mask[ab, uv]  # never held the same cards
    assert found.comparisons == 6
    with_alpha = pair_game(boards, {}, "p", top=10, min_boards=1, min_common=1, alpha=0.5)
    assert with_alpha.game.p[ab, cd] == pytest.approx(1.5 / 2)


def test_teams_are_the_players_who_sit_together_named_by_the_records():
    def match(home, visit, players_home, players_visit, nets):
        rows = []
        for deal, (open_contract, closed_contract) in enumerate(nets, start=1):
            h1, h2, h3, h4 = players_home
            v1, v2, v3, v4 = players_visit
            event = "Teams"
            rows.append(table(event, deal, (h1, h2, v1, v2), *open_contract, "Open", (home, visit)))
            rows.append(
                table(event, deal, (v3, v4, h3, h4), *closed_contract, "Closed", (home, visit))
            )
        return rows

    game_4s, part_2s = ("4S", "N", 10), ("2S", "N", 10)
    boards = match(
        "Reds", "Blues", "abcd", "efgh", [(game_4s, part_2s), (game_4s, game_4s)]
    ) + match("Blues", "Greens", "efgh", "ijkl", [(part_2s, game_4s)])
    for number, row in enumerate(boards):  # deals of the second match are other deals
        row["deal_hash"] += "-second" if number >= 4 else ""
    [found] = team_game_matrices(boards, {}, min_teams=3, alpha=0.0)
    game = found.game
    index = {label: number for number, label in enumerate(game.labels)}
    assert set(index) == {"Reds", "Blues", "Greens"}
    # Reds won board 1 by 250 (+6 IMPs), tied board 2; Greens won their only board
    assert game.p[index["Reds"], index["Blues"]] == pytest.approx(0.75)
    assert game.p[index["Greens"], index["Blues"]] == 1.0
    assert not game.mask[index["Reds"], index["Greens"]]
    assert found.comparisons == 3


def test_noise_reference_tells_noise_from_a_real_cycle():
    rng = np.random.default_rng(3)
    strengths = np.linspace(-1, 1, 8)
    transitive = expit(strengths[:, None] - strengths[None, :])
    boards = np.full((8, 8), 12.0)
    wins = np.triu(rng.binomial(12, transitive), 1)
    wins = wins + np.tril(12 - wins.T, -1)
    game = GameMatrix.from_counts(wins.astype(float), np.zeros((8, 8)), min_games=1)
    assert np.allclose(game.counts[game.mask], boards[game.mask])
    reference = noise_reference(game, np.random.default_rng(0))
    assert reference.low < reference.mean < reference.high < 1
    from bridgerank.ratings.gamematrix.structure import transitive_share

    assert reference.explains(transitive_share(game))
    # a rock-paper-scissors of three blocks, won 11 boards of 12 round the circle
    block = np.repeat(np.arange(3), [3, 3, 2])
    beats = ((block[None, :] - block[:, None]) % 3 == 1).astype(float)
    cyclic_wins = 11 * beats + 1 * beats.T + 6 * (block[:, None] == block[None, :])
    np.fill_diagonal(cyclic_wins, 0)
    cyclic = GameMatrix.from_counts(cyclic_wins, np.zeros((8, 8)), min_games=1)
    cyclic_reference = noise_reference(cyclic, np.random.default_rng(0))
    assert not cyclic_reference.explains(transitive_share(cyclic))


def test_the_papers_ordering_on_a_synthetic_hybrid_game():
    rows = run_protocol("hybrid", lambda rng: synthetic_game(40, 2, rng), seeds=range(2), k=2)
    accuracy = {row.method: row.overall for row in rows}
    assert accuracy["elo"] < accuracy["melo"] - 0.1
    assert accuracy["elo"] < accuracy["normal"] - 0.1
    assert accuracy["hyperbolic"] == pytest.approx(accuracy["elo"], abs=0.05)
    text = markdown_tables(rows)
    assert text.count("| hybrid |") == 2 and "(train, test)" in text


def test_a_synthetic_transitive_game_is_found_transitive_and_elo_gets_it_right():
    findings = synthetic_study(players=30, disc_counts=(0,), seeds=2)
    [row] = findings.structure
    assert (row["kind"], row["transitive_share"], row["noise_low"]) == (
        "transitive",
        pytest.approx(1.0),
        None,
    )
    elo = next(score for score in findings.scores if score["method"] == "elo")
    assert elo["overall"] == 1.0


def test_the_synthetic_study_describes_each_game_and_summarises_it_typed():
    # the paper's protocol, small: its full size runs in benchmarks/bench_gamematrix_synthetic.py
    findings = synthetic_study(players=20, disc_counts=(0, 2), seeds=1)
    kinds = {row["game"]: row["kind"] for row in findings.structure}
    assert kinds == {
        "Synthetic: transitive + 0 discs": "transitive",
        "Synthetic: transitive + 2 discs": "cyclic",
    }
    assert len(findings.scores) == 2 * 6
    summary = findings.summary()
    assert isinstance(summary, CycleSummary)
    [transitive, cyclic] = summary.games
    assert transitive == GameSummary(
        game="Synthetic: transitive + 0 discs",
        entity="synthetic",
        kind="transitive",
        players=20,
        transitive_share=1.0,
        best_method=transitive.best_method,
    )
    assert cyclic.transitive_share < 1 and cyclic.noise_low is None


def test_the_1997_bermuda_bowl(tmp_path, shared_data):
    folder = shared_data("pbn", "1997-Orbis_Bermuda_Bowl")
    result = CliRunner().invoke(main, ["run", str(folder), "--to", "match", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    engine = create_engine(f"sqlite:///{tmp_path / 'bridgerank.db'}")
    with engine.connect() as conn:
        boards, names, _ = load_inputs(conn)
    games = {
        found.name: found for found in bridge_games(boards, names, default_settings().rate.cycles)
    }
    teams = games["Teams: Bermuda Bowl 1997"]
    # Canada's one recorded match names "Rothfield" in both East and West: two people under
    # one name, no one to rate, so those boards are no games and Canada is no team here
    assert teams.game.n == 13 and {"USA 1", "France", "Italy", "Ch.Taipei"} <= set(
        teams.game.labels
    )
    assert "Canada" not in teams.game.labels
    # the vugraph records hold 19 of the 91 matches, 554 boards; 18 and 534 without Canada's
    assert (int(teams.game.mask.sum()) // 2, teams.comparisons) == (18, 534)
    findings = game_study([teams], discs=1, seeds=5)
    [row] = findings.structure
    assert row["kind"] == "hybrid"
    assert row["noise_low"] < row["transitive_share"]  # sampling noise explains the cycles
    assert "sampling noise" in row["sentence"]
    assert {score["method"] for score in findings.scores} == {
        "elo",
        "melo",
        "melo_online",
        "normal",
        "disc_rating",
        "hyperbolic",
    }
    assert len(findings.points) == 13


def test_line_ups_under_one_team_name_are_one_team_through_rate(tmp_path, shared_data):
    # The 1997 European Team Championships: several line-ups of one country never sit
    # together in the vugraph records (three called "Italy"); the rate stage once died on
    # their equal labels (UNIQUE constraint failed: disc_points.game, disc_points.label).
    folder = shared_data("pbn", "1997-European_Team_Championship")
    settings = tmp_path / "fast.toml"
    settings.write_text(
        "[rate]\nbootstrap_resamples = 0\nvalidation_bootstrap = 20\n[rate.cycles]\nseeds = 2\n"
    )
    out = ["--out", str(tmp_path), "--config", str(settings)]
    assert CliRunner().invoke(main, ["run", str(folder), "--to", "match", *out]).exit_code == 0
    result = CliRunner().invoke(main, ["run", "--only", "rate", *out])
    assert result.exit_code == 0, result.output
    engine = create_engine(f"sqlite:///{tmp_path / 'bridgerank.db'}")
    with engine.connect() as conn:
        labels = [
            label
            for (label,) in conn.exec_driver_sql(
                "select label from disc_points where game like 'Teams:%'"
            )
        ]
    assert len(labels) == 27 and labels.count("Italy") == 1
    assert {"Italy", "Poland", "France", "Netherlnd"} <= set(labels)


def test_robots_are_not_among_the_strongest_pairs():
    boards = [
        table("Pairs", deal, seats, "4S", "N", tricks)
        for deal in range(1, 4)
        for seats, tricks in (
            (("GIB 2.6.3", "Herve", "U", "V"), 11),
            (("C", "D", "W", "X"), 10),
            (("E", "F", "Y", "Z"), 9),
            (("G", "H", "S", "T"), 8),
        )
    ]
    found = pair_game(boards, {}, "p", top=10, min_boards=1, min_common=1)
    assert found is not None
    assert not any("GIB" in label for label in found.game.labels)
    assert "C & D" in found.game.labels
