"""The whole pipeline on PostgreSQL gives the tables it gives on SQLite.

Runs the quick start (``bridgerank run`` on the embedded sample) once into SQLite and once
into a fresh PostgreSQL database, then compares every table row by row (floats to 1e-9).
"""

import pytest
from click.testing import CliRunner

from bridgerank.core.store import Base
from bridgerank.pipeline.cli import main
from tests.tables import assert_same_tables, rows

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def sqlite_run(tmp_path_factory) -> str:
    """The reference, up to regress: the report writes files, no table, and its ledger row is
    not compared."""
    out = tmp_path_factory.mktemp("sqlite")
    result = CliRunner().invoke(main, ["run", "--to", "regress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return f"sqlite:///{out / 'bridgerank.db'}"


def test_the_quick_start_on_postgresql_equals_sqlite(
    sqlite_run, postgres_url, tmp_path, monkeypatch
):
    result = CliRunner().invoke(main, ["run", "--db", postgres_url, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "report" / "methods.html").stat().st_size > 10_000
    # the ledger of runs: when and how long, compared by stage below
    compared = assert_same_tables(postgres_url, sqlite_run)
    assert compared > 10_000
    # the same stages ran, with the same fingerprints (the report's holds the database's URL)
    runs = Base.metadata.tables["stage_runs"]
    assert {row for row in rows(postgres_url, runs) if row[0] != "report"} == {
        row for row in rows(sqlite_run, runs) if row[0] != "report"
    }
    # the rate stage's studies in two worker processes, each opening PostgreSQL itself (its
    # URL with the password): the same tables (their versions bumped by the forced rerun)
    from bridgerank.core import studies

    monkeypatch.setattr(studies, "WORKERS_AFTER", 0.0)  # the sample's studies are short
    again = ["run", "--only", "rate", "--force", "--jobs", "2", "--db", postgres_url]
    result = CliRunner().invoke(main, [*again, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "rate: 4 studies in 2 processes" in result.output
    # (PostgreSQL's sequences go on where the rewritten tables' rows were deleted: new ids)
    from bridgerank.ratings.stage import RATE_STAGE

    ids = {model.__tablename__: frozenset({"id"}) for model in RATE_STAGE.writes}
    assert_same_tables(postgres_url, sqlite_run, skip=frozenset({"table_versions"}), ignore=ids)


def test_a_second_run_on_postgresql_is_up_to_date(postgres_url, tmp_path, test_data):
    source = str(test_data / "bb1997_sf04_head.pbn")
    arguments = ["run", source, "--to", "dds", "--db", postgres_url, "--out", str(tmp_path)]
    assert CliRunner().invoke(main, arguments).exit_code == 0
    again = CliRunner().invoke(main, arguments)
    assert again.exit_code == 0
    for stage in ("clean", "match", "dds"):
        assert f"{stage}: up to date, nothing to do" in again.output
    # a dropped table and a dropped column: their stages rebuild them, on PostgreSQL too
    from sqlalchemy import create_engine

    engine = create_engine(postgres_url)
    with engine.begin() as conn:
        before = conn.exec_driver_sql("select count(*) from card_analysis").scalar()
        conn.exec_driver_sql("drop table card_analysis")
        conn.exec_driver_sql("alter table boards drop column contract")
    mended = CliRunner().invoke(main, arguments)
    assert mended.exit_code == 0, mended.output
    assert "schema: table boards lacks column contract: clean's tables rebuilt" in mended.output
    assert "schema: table card_analysis is missing: dds's tables rebuilt" in mended.output
    with engine.connect() as conn:
        assert conn.exec_driver_sql("select count(*) from card_analysis").scalar() == before > 0
        assert conn.exec_driver_sql("select count(contract) from boards").scalar() > 0
    engine.dispose()
