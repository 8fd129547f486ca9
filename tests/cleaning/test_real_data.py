"""Real data from ../shared/data: a slice in the default run, the whole corpus with -m slow."""

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from bridgerank.cleaning.clean.audit import exclusion_table
from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.ingest.tables import RawBoard
from bridgerank.core.store import open_engine
from bridgerank.pipeline.cli import main


def _tables(db):
    engine = open_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        result = {
            level: {row.code: row.tally for row in exclusion_table(conn, level)[0] if row.tally}
            for level in ("board", "auction", "play")
        }
        result["raw"] = conn.execute(select(func.count()).select_from(RawBoard)).scalar_one()
        result["kept"] = conn.execute(select(func.count()).select_from(Board)).scalar_one()
    engine.dispose()
    return result


def test_slice_bermuda_bowl_1997_and_vugraph(tmp_path, shared_data):
    folder = shared_data("pbn", "1997-Orbis_Bermuda_Bowl")
    lin = shared_data("lin")
    result = CliRunner().invoke(
        main, ["run", str(folder), str(lin), "--to", "match", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "1,451 records from 42 files (41 ingested, 1 not bridge data)" in result.output
    tables = _tables(tmp_path / "bridgerank.db")
    assert tables["raw"] == 1451 and tables["kept"] == 1450
    assert tables["board"] == {"declarer_mismatch": 1}
    assert tables["auction"] == {"auction_bad_passes": 2}
    assert tables["play"] == {"play_missing": 32}


@pytest.mark.slow
def test_whole_corpus(tmp_path, shared_data):
    sources = [str(shared_data("pbn")), str(shared_data("lin"))]
    runner = CliRunner()
    ingest = runner.invoke(main, ["ingest", *sources, "--out", str(tmp_path)])
    assert ingest.exit_code == 0, ingest.output
    assert (
        "48,784 records from 1,312 files (1 already stored, 1254 ingested, "
        "57 not bridge data)" in ingest.output
    )
    clean = runner.invoke(main, ["clean", "--out", str(tmp_path)])
    assert clean.exit_code == 0, clean.output
    tables = _tables(tmp_path / "bridgerank.db")
    assert tables["raw"] == 48784
    assert tables["kept"] + sum(tables["board"].values()) == 48784
    assert tables["board"]["duplicate_record"] > 5000  # the 1997 ETC is there twice
    assert tables["board"]["all_names_missing"] > 1000  # deal-only records
    assert set(tables["play"]) >= {"play_missing", "play_revoke", "play_card_not_held"}


@pytest.mark.slow
def test_kill_9_during_ingest_then_rerun_gives_the_same_database(tmp_path, shared_data):
    sources = [str(shared_data("pbn")), str(shared_data("lin"))]
    command = [sys.executable, "-m", "bridgerank", "run", "--to", "clean", *sources]
    killed = tmp_path / "killed"
    process = subprocess.Popen(
        command + ["--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(3)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert _tables(killed / "bridgerank.db")["raw"] < 48784  # it really was cut short
    subprocess.run(
        [sys.executable, "-m", "bridgerank", "run", "--to", "clean", "--out", str(killed)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    whole = tmp_path / "whole"
    subprocess.run(command + ["--out", str(whole)], check=True, stdout=subprocess.DEVNULL)
    assert _tables(killed / "bridgerank.db") == _tables(whole / "bridgerank.db")
