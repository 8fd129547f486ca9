"""The rate stage reruns only the study that changed: a ``[rate.cycles]`` setting reruns who
beats whom alone, an edit to one method's module reruns the studies that validate it, and
neither touches the other studies' tables (their versions stay, so regress stays up to date)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, select

from bridgerank.core import codehash, ledger, studies
from bridgerank.core.store import StageRun
from bridgerank.pipeline.cli import main
from bridgerank.ratings.stage import RATE_STAGE


@pytest.fixture
def run_folder(sample_run, tmp_path):
    """A copy of the sample's run folder, to change."""
    folder = tmp_path / "run"
    shutil.copytree(sample_run, folder)
    return folder


def _cli(*args):
    result = CliRunner().invoke(main, [*map(str, args)])
    assert result.exit_code == 0, result.output
    return result.output


def _versions(folder):
    engine = create_engine(f"sqlite:///{folder / 'bridgerank.db'}")
    with engine.connect() as conn:
        names = [model.__tablename__ for model in RATE_STAGE.writes]
        found = ledger.table_versions(conn, names)
        last = conn.execute(
            select(StageRun.summary)
            .where(StageRun.stage == "rate")
            .order_by(StageRun.id.desc())
            .limit(1)
        ).scalar_one_or_none()
    engine.dispose()
    return found, json.loads(last)


def _tables_of(study_name):
    study = next(study for study in RATE_STAGE.studies if study.name == study_name)
    return {model.__tablename__ for model in study.writes}


def test_a_cycles_setting_reruns_the_cycles_study_alone(run_folder):
    config = run_folder / "cycles.toml"
    config.write_text("[rate.cycles]\ntop_pairs = 20\n")
    common = ("--out", run_folder, "--config", config)
    planned = _cli("run", "--dry-run", *common)
    rate = next(line for line in planned.splitlines() if " rate " in line)
    assert rate.split() == [
        *"would run rate out of date: study cycles: settings changed in [rate.cycles]".split(),
        *"(only the study cycles)".split(),
    ]
    assert "would skip regress" in planned  # it reads no table of who beats whom
    before, _ = _versions(run_folder)
    output = " ".join(_cli("run", *common).split())  # the CLI wraps lines at 80 columns
    assert "ran only the study that changed: cycles" in output
    assert "regress: up to date" in output
    after, summary = _versions(run_folder)
    changed = {table for table in before if before[table] != after[table]}
    assert changed == _tables_of("cycles")
    assert summary["studies_run"] == ["cycles"]
    # the other studies' summaries are their last run's: the closing lines still print them
    assert summary["headline"]["tables"] > 0 and summary["team_games"] == 238
    assert "would skip rate" in _cli("run", "--dry-run", *common)


def test_an_edit_to_a_team_method_reruns_the_team_study_alone(run_folder, monkeypatch):
    # as the code fingerprint sees an edit to rivals/team_play.py: every closure holding it
    # hashes differently
    edited = "bridgerank.ratings.rivals.team_play"

    def fingerprint(module: str) -> str:
        found = codehash.code_fingerprint(module)
        return found + "-edited" if edited in codehash.project_closure(module) else found

    monkeypatch.setattr(studies, "code_fingerprint", fingerprint)
    planned = _cli("run", "--dry-run", "--out", run_folder)
    assert "study teams: its code changed (only the study teams)" in planned
    before, _ = _versions(run_folder)
    ceiling = _ceiling(run_folder)
    _cli("run", "--out", run_folder)
    after, summary = _versions(run_folder)
    assert summary["studies_run"] == ["teams"]
    assert {table for table in before if before[table] != after[table]} == _tables_of("teams")
    # validation_ceiling is written by the headline and the team study: the headline's rows
    # are kept as they were, the team study's written again
    assert _ceiling(run_folder) == ceiling
    assert {"team_match_split_half", "team_match_ceiling", "split_half"} <= set(ceiling)


def _ceiling(folder):
    engine = create_engine(f"sqlite:///{folder / 'bridgerank.db'}")
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT measure, value, n FROM validation_ceiling").all()
    engine.dispose()
    return {measure: (value, n) for measure, value, n in rows}


def test_a_long_study_is_announced_with_the_time_its_last_run_took(run_folder, monkeypatch):
    """Each study's seconds are kept in the ledger; a forced rerun announces each study that
    took long enough with the time left, from those seconds."""
    _, summary = _versions(run_folder)
    kept = summary[studies.STUDY_SECONDS]
    assert set(kept) == {study.name for study in RATE_STAGE.studies}
    monkeypatch.setattr(studies, "SAY_AFTER", 0.0)  # the sample's studies take a second
    output = _cli("run", "--only", "rate", "--force", "--out", run_folder)
    lines = [line for line in output.splitlines() if line.startswith("rate: study")]
    names = [study.name for study in RATE_STAGE.studies]
    assert [line.split("(")[1].split(")")[0] for line in lines] == names
    first_left = sum(kept.values())
    from bridgerank.core.durations import duration

    assert lines[0] == (
        f"rate: study 1 of 4 (results); about {duration(first_left)} left, as at the last run"
    )


def test_a_first_run_says_its_time_left_is_not_known_yet():
    due = RATE_STAGE.studies
    line = studies._announcement("rate", due, 1, {"results": 3.0, "headline": 4.0})
    assert line == "rate: study 2 of 4 (headline); time left not known on a first run"
    every = {study.name: 30.0 for study in due}
    line = studies._announcement("rate", due, 2, every)
    assert line == "rate: study 3 of 4 (teams); about 60 s left, as at the last run"


def test_status_names_the_library_whose_version_changed(run_folder, monkeypatch):
    """A library upgraded under the rate stage (pip install of an extra): status says which
    and from what version, not that the code or the files changed."""
    import numpy

    def libraries(module: str) -> dict[str, str]:
        found = dict(codehash.imported_libraries(module))
        return found | {"numpy": "9.9"} if "numpy" in found else found

    def fingerprint(module: str) -> str:
        return codehash.code_fingerprint(module) + str(libraries(module).get("numpy"))

    monkeypatch.setattr(studies, "imported_libraries", libraries)
    monkeypatch.setattr(studies, "code_fingerprint", fingerprint)
    result = CliRunner().invoke(main, ["status", "--out", str(run_folder)])
    assert result.exit_code == 1, result.output
    why = " ".join(
        line.split("why: ", 1)[1] for line in result.output.splitlines() if "why: " in line
    )
    assert f"study results: libraries changed: numpy {numpy.__version__} -> 9.9" in why


def _rate_tables(folder):
    """Every table the rate stage writes, its rows sorted (the stage's own order of writing
    is not a result)."""
    engine = create_engine(f"sqlite:///{folder / 'bridgerank.db'}")
    with engine.connect() as conn:
        found = {
            model.__tablename__: sorted(
                conn.execute(select(model.__table__)).all(), key=lambda row: tuple(map(repr, row))
            )
            for model in RATE_STAGE.writes
        }
    engine.dispose()
    return found


def test_two_jobs_run_the_studies_side_by_side_and_store_the_same_tables(run_folder, monkeypatch):
    """``--jobs 2``: the studies run in two worker processes, announced as they start and
    end, and every table the stage writes holds what one process wrote, to the last bit."""
    one = _rate_tables(run_folder)
    _, one_summary = _versions(run_folder)
    # the sample's studies are short: one by one, unless any length is worth workers
    short = _cli("run", "--only", "rate", "--force", "--jobs", "2", "--out", run_folder)
    assert "processes" not in short
    monkeypatch.setattr(studies, "WORKERS_AFTER", 0.0)
    output = _cli("run", "--only", "rate", "--force", "--jobs", "2", "--out", run_folder)
    lines = " ".join(output.split())
    assert "rate: 4 studies in 2 processes (" in lines
    for study in RATE_STAGE.studies:
        assert f"rate: study {study.name} done in" in lines
    _, summary = _versions(run_folder)
    assert summary["studies_run"] == [study.name for study in RATE_STAGE.studies]
    assert set(summary[studies.STUDY_SECONDS]) == {study.name for study in RATE_STAGE.studies}
    assert _rate_tables(run_folder) == one
    # the stage's summary too, its run's seconds aside
    timing = {"seconds", studies.STUDY_SECONDS, "fingerprint_parts"}
    assert {k: v for k, v in summary.items() if k not in timing} == {
        k: v for k, v in one_summary.items() if k not in timing
    }


def test_the_workers_get_the_longest_study_first_and_the_estimate_of_their_wall_time():
    from bridgerank.core.studies import wall_estimate

    # longest first, each to the worker free first: 10 | 6 + 3 + 1
    assert wall_estimate([1.0, 10.0, 3.0, 6.0], 2) == 10.0
    assert wall_estimate([4.0, 4.0, 4.0], 2) == 8.0
    assert wall_estimate([4.0, 4.0, 4.0], 1) == 12.0


def test_a_database_in_memory_is_not_shared_with_workers():
    from bridgerank.core.studies import shared_url

    assert shared_url(create_engine("sqlite://")) is None
    # a reused worker may have started in another folder: the file by its absolute path
    assert shared_url(create_engine("sqlite:///x.db")) == f"sqlite:///{Path('x.db').resolve()}"
    url = "postgresql+psycopg://user:secret@localhost:5432/db"
    assert shared_url(create_engine(url)) == url
