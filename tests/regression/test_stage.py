"""The regress stage's data path and the regress command on files."""

import numpy as np
import pandas as pd
from click.testing import CliRunner
from sqlalchemy import insert

from bridgerank.cleaning.match.tables import Player, WbfPlayer
from bridgerank.core.settings import load_settings
from bridgerank.core.store import TableVersion
from bridgerank.dds.counters import OPPORTUNITIES, RATES
from bridgerank.dds.tables import PlayerRates
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.stages import get_stage, open_store, run_stages
from bridgerank.ratings.tables import HeadlineRating
from bridgerank.regression.data import read_rates_csv


def _thesis_players(engine, shared_data):
    """The thesis's 200 players, their rates and WBF points, stored as the stages would."""
    results = shared_data("thesis", "results")
    rates = pd.concat(
        [
            read_rates_csv(results / f"200_{w}_results.csv").drop(columns=["mp", "pp"])
            for w in ("unweighted", "weighted")
        ],
        axis=1,
    )
    points = pd.read_csv(results / "dds_final_results.csv").set_index("name")
    with engine.begin() as conn:
        for number, (name, row) in enumerate(rates.iterrows(), start=1):
            conn.execute(
                insert(WbfPlayer).values(
                    id=number,
                    name=name,
                    country="",
                    mp=points.loc[name, "mp"],
                    pp=points.loc[name, "pp"],
                    source="thesis",
                )
            )
            conn.execute(
                insert(Player).values(id=number, name=name, kind="wbf", wbf_id=number, seats=1)
            )
            values = {rate: float(row[rate]) for rate in RATES if rate in row}
            opportunities = {name: 10_000 for name in OPPORTUNITIES}
            conn.execute(
                insert(PlayerRates).values(player=name, player_id=number, **opportunities, **values)
            )
        for table in ("player_rates", "players"):
            conn.execute(insert(TableVersion).values(name=table, version="thesis"))


def test_stage_reproduces_table_16_from_the_database(tmp_path, shared_data):
    engine = open_store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    _thesis_players(engine, shared_data)
    settings = load_settings(
        overrides={"regress": {"bootstrap_resamples": 10, "sweep_factors": [1.0]}}
    )
    outcome = run_stages(engine, settings, [get_stage("regress")])[0]
    assert outcome.summary.chosen == (
        "pp, unweighted, predictors negative and significant in all three"
    )
    assert round(outcome.summary.chosen_adj_r2, 4) == 0.0693
    with engine.connect() as conn:
        ranking = pd.read_sql("select * from rankings", conn)
        models = pd.read_sql("select * from regression_models", conn)
        plots = pd.read_sql("select name from regression_plots", conn)
    assert len(ranking) == 200 and ranking["rank"].tolist() == list(range(1, 201))
    assert models["chosen"].sum() == 0  # the chosen model is the derived one, not a selected one
    # 12 models of pp and mp; the headline response has no rated player here: a row each
    # for its two weightings with n = 0
    by_response = models.groupby("response")["n"]
    assert by_response.size().to_dict() == {"headline": 2, "mp": 6, "pp": 6}
    assert by_response.max()["headline"] == 0
    assert set(plots["name"]) == {"residuals", "qq"}
    engine.dispose()


def test_the_headline_rating_is_a_response(tmp_path, shared_data):
    """Players rated by the rate stage are regressed on their mistake rates, joined by name;
    here a strength that the defence's mistakes set (plus noise) is found as such."""
    engine = open_store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    _thesis_players(engine, shared_data)
    rates = pd.read_sql("select * from player_rates", engine).set_index("player")
    defence = rates["defender_mistakes_per_card_played_as_defender"]
    noise = np.random.default_rng(0).normal(0, defence.std(), len(defence))
    strength = -(defence - defence.mean()) / defence.std() + 0.5 * noise / defence.std()
    with engine.begin() as conn:
        conn.execute(
            insert(HeadlineRating),
            [
                {"player": name, "rating": float(value), "sd": 1.0, "boards": 100, "sessions": 4}
                for name, value in strength.items()
            ],
        )
        conn.execute(insert(TableVersion).values(name="headline_ratings", version="x"))
    settings = load_settings(
        overrides={
            "regress": {
                "responses": ["headline"],
                "bootstrap_resamples": 10,
                "sweep_factors": [1.0],
            }
        }
    )
    outcome = run_stages(engine, settings, [get_stage("regress")])[0]
    engine.dispose()
    assert outcome.summary.players_with_points == 200
    assert outcome.summary.chosen.startswith("headline")
    assert outcome.summary.chosen_adj_r2 > 0.6
    with open_store(f"sqlite:///{tmp_path / 'db.sqlite'}").connect() as conn:
        chosen = pd.read_sql("select * from chosen_model", conn).iloc[0]
    assert "defender_mistakes_per_card_played_as_defender" in chosen["variables"]


def test_stage_without_enough_players_says_so(tmp_path):
    result = CliRunner().invoke(main, ["run", "--to", "match", "--out", str(tmp_path)])
    assert result.exit_code == 0
    engine = open_store(f"sqlite:///{tmp_path / 'bridgerank.db'}")
    with engine.begin() as conn:  # a dds stage that found 3 players
        for number, name in enumerate(["Terence Reese", "Boris Schapiro", "Adam Meredith"], 1):
            conn.execute(
                insert(PlayerRates).values(
                    player=name, player_id=number, **dict.fromkeys(OPPORTUNITIES, 5000)
                )
            )
        conn.execute(insert(TableVersion).values(name="player_rates", version="x"))
    outcome = run_stages(engine, load_settings(), [get_stage("regress")])[0]
    engine.dispose()
    assert outcome.summary.players_with_rates == 3
    assert outcome.summary.notes


def test_regress_command_on_files(tmp_path, shared_data):
    results = shared_data("thesis", "results")
    settings = tmp_path / "quick.toml"
    settings.write_text("[regress]\nbootstrap_resamples = 5\n")
    result = CliRunner().invoke(
        main,
        [
            "regress",
            "--rates",
            str(results / "200_unweighted_results.csv"),
            "--responses",
            str(results / "dds_final_results.csv"),
            "--response",
            "pp",
            "--out",
            str(tmp_path),
            "--config",
            str(settings),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "pp, unweighted   backward   0.0877  0.0807  FLAG" in result.output
    assert "defender_mistakes_per_card_played_as_defender (<0.0001)" in result.output
    assert (
        "pp = 35.43033 -1028.60322 x defender_mistakes_per_card_played_as_defender" in result.output
    )
    assert "Breusch-Pagan" in result.output and "errors not normal" in result.output
    written = {path.name for path in (tmp_path / "regression").iterdir()}
    assert {"regression_models.csv", "rankings.csv", "regression_vif.csv"} <= written
    missing = CliRunner().invoke(main, ["regress", "--rates", str(tmp_path / "none.csv")])
    assert missing.exit_code == 2  # click: the file does not exist
