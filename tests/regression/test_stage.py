"""The regress stage's data path and the regress command on files."""

import pandas as pd
from click.testing import CliRunner
from sqlalchemy import insert

from bridgerank.cleaning.match.tables import Player, WbfPlayer
from bridgerank.core.settings import load_settings
from bridgerank.core.store import TableVersion, open_engine
from bridgerank.dds.counters import OPPORTUNITIES, RATES
from bridgerank.dds.tables import PlayerRates
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.stages import get_stage, run_stages
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
    engine = open_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    _thesis_players(engine, shared_data)
    settings = load_settings(
        overrides={"regress": {"bootstrap_resamples": 10, "sweep_factors": [1.0]}}
    )
    outcome = run_stages(engine, settings, [get_stage("regress")])[0]
    assert outcome.summary["chosen"] == (
        "pp, unweighted, predictors negative and significant in all three"
    )
    assert round(outcome.summary["chosen_adj_r2"], 4) == 0.0693
    with engine.connect() as conn:
        ranking = pd.read_sql("select * from rankings", conn)
        models = pd.read_sql("select * from regression_models", conn)
        plots = pd.read_sql("select name from regression_plots", conn)
    assert len(ranking) == 200 and ranking["rank"].tolist() == list(range(1, 201))
    assert models["chosen"].sum() == 0  # the chosen model is the derived one, not a selected one
    assert len(models) == 12 and set(plots["name"]) == {"residuals", "qq"}
    engine.dispose()


def test_stage_without_enough_players_says_so(tmp_path):
    result = CliRunner().invoke(main, ["run", "--to", "match", "--out", str(tmp_path)])
    assert result.exit_code == 0
    engine = open_engine(f"sqlite:///{tmp_path / 'bridgerank.db'}")
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
    assert outcome.summary["players_with_rates"] == 3
    assert outcome.summary["notes"]


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
