"""A user's database is carried forward: migrated from earlier versions, mended when its
tables differ from the declared ones, never left to give a silently thinner report."""

import gzip
import shutil
import sqlite3
import subprocess

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from click.testing import CliRunner
from sqlalchemy import create_engine

from bridgerank.core.store import Base
from bridgerank.pipeline import schema
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.schema_check import COMMANDS, KERNEL, RECORDS_STAGE, owners
from bridgerank.pipeline.stages import all_stages
from tests.paths import TESTS
from tests.tables import assert_same_tables

ROOT = TESTS.parent
# Databases made by earlier versions from two files of the embedded sample, `bridgerank run
# data/sample/usbf_sf_14502.lin data/sample/acbl/recap_e_20170710.html.gz` (every stage,
# default settings): main 47e544b, the last version before schema revisions, and 88a1843
# (22 November 2026), whose regression and rating tables had other columns and which lacked
# eighteen tables.
OLD_DATABASES = {
    "47e544b": TESTS / "data" / "old_db" / "bridgerank-47e544b.db.gz",
    "88a1843": TESTS / "data" / "old_db" / "bridgerank-88a1843.db.gz",
}
OLD_SOURCES = [
    str(ROOT / "data" / "sample" / "usbf_sf_14502.lin"),
    str(ROOT / "data" / "sample" / "acbl" / "recap_e_20170710.html.gz"),
]
# The rate stage without its costly side studies (what these tests check is elsewhere).
FAST = "[rate]\nbootstrap_resamples = 0\nvalidation_bootstrap = 20\n[rate.cycles]\nseeds = 2\n"


def _run(*arguments: str) -> str:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exit_code == 0, result.output
    return result.output


def _query(database, sql: str) -> list[tuple]:
    with sqlite3.connect(database) as conn:
        return conn.execute(sql).fetchall()


def _named_rows(database, table: str) -> list[dict]:
    """A table's rows by column name: a column a later revision adds comes last in a table
    it alters, wherever the declared table has it."""
    with sqlite3.connect(database) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute(f"select * from {table}")]


def test_every_revision_brings_an_empty_database_to_the_declared_records_and_ledger(tmp_path):
    # only what no stage can rebuild is migrated: the records, the forecasts, the ledger
    owner = owners(all_stages())
    kept = {table for table, found in owner.items() if found in (RECORDS_STAGE, COMMANDS, KERNEL)}
    assert kept == {
        "raw_boards",
        "source_files",
        "skipped_files",
        "pending_ingest",
        "predictions",
        "imp_forecasts",
        "stage_runs",
        "table_versions",
    }
    engine = create_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    with schema._transaction(engine) as conn:
        schema._upgrade(conn)
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert MigrationContext.configure(conn).get_current_revision() == schema.head_revision()
    engine.dispose()
    # every other table is a stage's, made from its declaration with its indexes
    added = {diff[1].name for diff in differences if diff[0] == "add_table"}
    indexed = {diff[1].table.name for diff in differences if diff[0] == "add_index"}
    assert added == set(owner) - kept and indexed <= added
    assert {diff[0] for diff in differences} == {"add_table", "add_index"}


def test_a_retired_revision_is_known_and_upgrades_from_the_kept_one_before_it(tmp_path):
    assert schema.RETIRED["0016"] == "0015" and schema.RETIRED["0009"] == "0005"
    assert all(schema.known_revision(revision) for revision in schema.RETIRED)
    assert not schema.known_revision("0099")
    shipped = {path.name[1:5] for path in (ROOT / "pipeline/migrations/versions").glob("r*.py")}
    assert not shipped & set(schema.RETIRED)  # no new revision takes a retired number


@pytest.fixture(scope="module")
def fast_settings(tmp_path_factory):
    settings = tmp_path_factory.mktemp("settings") / "fast.toml"
    settings.write_text(FAST)
    return settings


@pytest.fixture(scope="module")
def fresh_run(tmp_path_factory, fast_settings):
    """The same sources run by this version into a new database."""
    fresh = tmp_path_factory.mktemp("fresh")
    _run("run", *OLD_SOURCES, "--out", str(fresh), "--config", str(fast_settings))
    return f"sqlite:///{fresh / 'bridgerank.db'}"


@pytest.mark.parametrize("version", sorted(OLD_DATABASES))
def test_a_database_of_an_earlier_version_runs_as_a_fresh_one(
    tmp_path, version, fast_settings, fresh_run
):
    old = tmp_path / "old"
    old.mkdir()
    with gzip.open(OLD_DATABASES[version]) as packed, open(old / "bridgerank.db", "wb") as out:
        shutil.copyfileobj(packed, out)
    # the files where that machine read them are here, in this checkout (revision 0015 reads
    # the recap again for its pairs' entries)
    with sqlite3.connect(old / "bridgerank.db") as conn:
        conn.execute("update source_files set path = replace(path, '/work/main', ?)", (str(ROOT),))
    before = _query(old / "bridgerank.db", "select count(*) from raw_boards")
    output = _run("run", "--out", str(old), "--config", str(fast_settings))
    assert f"database schema unversioned brought to revision {schema.head_revision()}" in output
    [copy] = old.glob("bridgerank.db.backup-unversioned-*")
    assert _query(copy, "select count(*) from raw_boards") == before  # the copy is the old one
    compared = assert_same_tables(
        f"sqlite:///{old / 'bridgerank.db'}",
        fresh_run,
        skip=frozenset({"table_versions"}),  # tokens of runs that differ in what ran when
        # what the record says of itself (the vugraph file's alerts explained, commentary):
        # a file's records are not read again, and this version reads what that one skipped
        ignore={"raw_boards": frozenset({"extra"})},
    )
    assert compared > 5_000
    # so the old records show no notes, as docs/usage.md says, and the fresh ones do
    noted = "select count(*) from raw_boards where extra like '%call_notes%'"
    assert _query(old / "bridgerank.db", noted) == [(0,)]
    assert _query(fresh_run.removeprefix("sqlite:///"), noted)[0][0] > 0
    entered = "select count(*) from boards where ns_entry != ''"
    assert _query(old / "bridgerank.db", entered)[0][0] > 100  # compared equal to the fresh run
    again = _run("run", "--out", str(old), "--config", str(fast_settings))
    assert "brought to revision" not in again
    for stage in ("clean", "match", "dds", "rate", "regress", "report"):
        assert f"{stage}: up to date, nothing to do" in again


@pytest.fixture
def analysed(tmp_path, test_data):
    """A database through the dds stage (12 boards of the 1955 Bermuda Bowl)."""
    out = ["--out", str(tmp_path)]
    _run("run", str(test_data / "bermuda1955_head.pbn"), "--to", "dds", *out)
    return tmp_path / "bridgerank.db"


def test_a_dropped_table_or_column_makes_its_stage_rebuild_it(analysed):
    out = ["--out", str(analysed.parent)]
    cards = _query(analysed, "select * from card_analysis order by 1, 2, 3")
    contracts = _query(analysed, "select id, contract from boards order by id")
    with sqlite3.connect(analysed) as conn:
        conn.execute("alter table boards drop column contract")
        conn.execute("drop table card_analysis")
    status = CliRunner().invoke(main, ["status", *out])
    assert status.exit_code == 1
    assert "why: schema: table boards lacks column contract (the next run rebuilds it)" in (
        status.output
    )
    # dds runs again for both: its rows of the boards go when clean rebuilds them
    dds = next(line for line in status.output.splitlines()[3:] if "why:" in line and "card" in line)
    assert "schema: table card_analysis is missing (the next run rebuilds it)" in dds
    assert "boards lacks column contract" in dds
    output = _run("run", "--to", "dds", *out)
    assert "schema: table boards lacks column contract: clean's tables rebuilt" in output
    assert "schema: table card_analysis is missing: dds's tables rebuilt" in output
    assert "dds: 12 boards analysed" in output
    assert _query(analysed, "select * from card_analysis order by 1, 2, 3") == cards
    assert _query(analysed, "select id, contract from boards order by id") == contracts
    assert "up to date" in _run("run", "--to", "dds", *out).splitlines()[-2]


def test_a_column_lost_from_the_records_is_added_back_and_the_stages_after_rerun(analysed):
    out = ["--out", str(analysed.parent)]
    with sqlite3.connect(analysed) as conn:
        conn.execute("alter table raw_boards drop column scoring")
    output = _run("run", "--to", "clean", *out)
    assert "schema: table raw_boards lacks column scoring: mended in place" in output
    assert "clean: 12 records, 12 boards kept" in output
    assert "scoring" in {row[1] for row in _query(analysed, "pragma table_info(raw_boards)")}
    assert _query(analysed, "select count(*) from raw_boards") == [(12,)]


def test_a_later_revision_reruns_only_the_stages_whose_tables_it_changed(
    analysed, tmp_path_factory, monkeypatch
):
    # A revision after the head, in a copy of the shipped ones: a column added to the dds
    # stage's table of player counts.
    head = schema.head_revision()
    folder = tmp_path_factory.mktemp("migrations")
    shipped = ROOT / "pipeline" / "migrations"
    shutil.copytree(shipped, folder / "migrations", ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "migrations" / "versions" / "r9999_test.py").write_text(
        f'''"""A test's revision."""
import sqlalchemy as sa
from alembic import op

revision = "9999"
down_revision = "{head}"
branch_labels = None
depends_on = None
rerun = ("dds",)


def upgrade():
    op.add_column("player_stats", sa.Column("note", sa.Text(), nullable=True))
'''
    )
    configure = schema._config

    def moved(connection=None):
        config = configure(connection)
        config.set_main_option("script_location", str(folder / "migrations"))
        return config

    monkeypatch.setattr(schema, "_config", moved)
    output = _run("run", "--to", "dds", "--out", str(analysed.parent))
    assert f"database schema {head} brought to revision 9999" in output
    assert "clean: up to date" in output and "match: up to date" in output
    # dds ran again (its boards already analysed are kept: it rebuilds its per-player tables)
    assert "dds: 0 boards analysed" in output and "12 done before" in output
    assert "note" in {row[1] for row in _query(analysed, "pragma table_info(player_stats)")}


def test_a_database_at_revision_0001_gets_the_rate_tables_and_rates_again(analysed, fast_settings):
    # Revision 0002: what predict and the report read of a rate run became tables.
    out = ["--out", str(analysed.parent), "--config", str(fast_settings)]
    _run("run", "--only", "rate", *out)
    fitted = _named_rows(analysed, "headline_fit")
    inputs = _query(analysed, "select * from rate_inputs")
    assert len(fitted) == 1 and inputs == [(1, 6, 0, 0, 8)]  # six boards in both rooms
    with sqlite3.connect(analysed) as conn:  # as revision 0001 left it
        for table in ("headline_fit", "rate_inputs", "skill_o_meter"):
            conn.execute(f"drop table {table}")
        conn.execute("update alembic_version set version_num = '0001'")
    output = _run("run", *out)
    assert f"database schema 0001 brought to revision {schema.head_revision()}" in output
    assert "dds: up to date" in output and "rate: up to date" not in output
    assert _named_rows(analysed, "headline_fit") == fitted
    assert _query(analysed, "select * from rate_inputs") == inputs
    assert _query(analysed, "select count(*) from skill_o_meter") == [(0,)]


def test_status_only_reads_even_in_a_read_only_folder(analysed, tmp_path_factory):
    view = tmp_path_factory.mktemp("read-only-view")
    mounted = subprocess.run(["mount", "--bind", str(analysed.parent), str(view)]).returncode == 0
    if not mounted:
        pytest.skip("a read-only folder needs a bind mount, which this machine refuses")
    try:
        assert subprocess.run(["mount", "-o", "remount,ro,bind", str(view)]).returncode == 0
        files = sorted(path.name for path in view.iterdir())
        result = CliRunner().invoke(main, ["status", "--out", str(view)])
        assert result.exit_code == 1, result.output  # the stages after dds never ran
        assert f"(schema revision {schema.head_revision()}; quick_check ok)" in result.output
        assert "not up to date: rate, regress, report" in result.output
        assert sorted(path.name for path in view.iterdir()) == files
    finally:
        subprocess.run(["umount", str(view)])


def test_status_says_when_the_database_pages_are_damaged(analysed):
    data = bytearray(analysed.read_bytes())
    page = 4096
    data[5 * page : 9 * page] = b"\xa5" * (4 * page)  # pages of tables, overwritten
    analysed.write_bytes(bytes(data))
    result = CliRunner().invoke(main, ["status", "--out", str(analysed.parent)])
    assert result.exit_code == 3, result.output
    error, hint = result.output.strip().splitlines()[-2:]
    assert error.startswith("error: ") and ("damaged" in error or "malformed" in error)
    assert "copy" in hint


def test_a_repair_killed_half_way_leaves_the_database_as_it_was(analysed, monkeypatch):
    out = ["--out", str(analysed.parent)]
    with sqlite3.connect(analysed) as conn:
        conn.execute("alter table boards drop column contract")
        conn.execute("drop table card_analysis")
    rebuild = schema._rebuild_table

    def rebuild_then_die(conn, problem):
        rebuild(conn, problem)
        if problem.table == "card_analysis":
            raise KeyboardInterrupt  # after boards was reshaped and emptied, in the same BEGIN

    monkeypatch.setattr(schema, "_rebuild_table", rebuild_then_die)
    assert CliRunner().invoke(main, ["run", "--to", "dds", *out]).exit_code != 0
    columns = {row[1] for row in _query(analysed, "pragma table_info(boards)")}
    assert "contract" not in columns and _query(analysed, "select count(*) from boards") == [(12,)]
    monkeypatch.undo()
    output = _run("run", "--to", "dds", *out)
    assert "dds: 12 boards analysed" in output


def test_a_database_at_revision_0003_gets_its_relative_source_paths_resolved(
    analysed, test_data, monkeypatch
):
    # Revision 0004: paths stored as typed (relative) are resolved where the upgrade runs.
    out = ["--out", str(analysed.parent)]
    source = (test_data / "bermuda1955_head.pbn").resolve()
    with sqlite3.connect(analysed) as conn:  # as revision 0003 left it
        conn.execute("alter table source_files drop column name")
        conn.execute("update source_files set path = ?", (f"data/{source.name}",))
        conn.execute("update alembic_version set version_num = '0003'")
    monkeypatch.chdir(source.parent.parent)
    output = _run("run", "--to", "dds", *out)
    assert f"database schema 0003 brought to revision {schema.head_revision()}" in output
    # revision 0015 (the recaps read again) reruns the clean stage, whose boards are
    # unchanged: the stages after it have nothing to do
    assert "clean: 12 records, 12 boards kept" in output
    assert "match: up to date" in output and "dds: up to date" in output
    stored = _query(analysed, "select path, name from source_files")
    assert stored == [(str(source), source.name)]


def test_a_database_at_revision_0007_gets_the_familiarity_term_and_rates_again(
    tmp_path, fast_settings
):
    # Revision 0008: the headline's fit keeps the familiarity term's coefficient.
    out = ["--out", str(tmp_path), "--config", str(fast_settings)]
    _run("run", OLD_SOURCES[1], "--to", "rate", *out)
    database = tmp_path / "bridgerank.db"
    fitted = _named_rows(database, "headline_fit")
    assert fitted[0]["tables"] > 0  # a field was rated
    with sqlite3.connect(database) as conn:  # as revision 0007 left it
        conn.execute("alter table headline_fit drop column familiarity")
        conn.execute("update alembic_version set version_num = '0007'")
    output = _run("run", "--to", "rate", *out)
    assert f"database schema 0007 brought to revision {schema.head_revision()}" in output
    assert "dds: up to date" in output and "rate: up to date" not in output
    assert _named_rows(database, "headline_fit") == fitted
    # one session: no pair had played together before, so no bonus to learn
    assert fitted[0]["familiarity"] is None


def test_a_database_of_a_newer_bridgerank_is_refused_untouched_by_every_command(analysed):
    """Review 4's defect 6: a revision this version does not know is a newer bridgerank's;
    `status` says so instead of promising an upgrade, and every command that writes refuses
    in one line, exit 3, no traceback and no copy taken."""
    out = ["--out", str(analysed.parent)]
    with sqlite3.connect(analysed) as conn:
        conn.execute("update alembic_version set version_num = '0099'")
    before = analysed.read_bytes()
    status = CliRunner().invoke(main, ["status", *out])
    assert "schema 0099: made by a newer bridgerank" in status.output
    assert "upgrades" not in status.output
    for command in (["run", "--to", "dds"], ["ingest", str(TESTS / "data")], ["rate"]):
        result = CliRunner().invoke(main, [*command, *out])
        assert result.exit_code == 3, result.output
        lines = result.output.strip().splitlines()
        assert lines == [
            "error: the database was made by a newer bridgerank (schema revision 0099; this "
            f"version knows up to {schema.head_revision()})",
            "upgrade bridgerank (pip install -U bridgerank), or give --db another database",
        ]
    assert analysed.read_bytes() == before
    assert not list(analysed.parent.glob("*backup*"))


def test_copies_before_a_schema_change_are_whole_and_the_oldest_go(analysed, tmp_path):
    """Review 4's defect 15: a copy is written under a temporary name and renamed when whole
    (a leftover of a killed copy is removed), and only the newest ``[store] backups`` stay."""
    import os

    out = ["--out", str(analysed.parent)]
    settings = tmp_path / "two.toml"
    settings.write_text("[store]\nbackups = 2\n")
    torn = analysed.parent / f".partial-{analysed.name}.backup-0001-20000101-000000"
    torn.write_bytes(b"half a copy")
    old = [
        analysed.parent / f"{analysed.name}.backup-0001-2000010{day}-000000" for day in (1, 2, 3)
    ]
    for day, copy in enumerate(old, start=1):
        shutil.copy(analysed, copy)
        os.utime(copy, (946_684_800 + day * 86_400,) * 2)
    with sqlite3.connect(analysed) as conn:
        conn.execute("alter table boards drop column contract")
    output = _run("run", "--to", "dds", *out, "--config", str(settings))
    assert "a copy of it before" in output
    copies = set(analysed.parent.glob(f"{analysed.name}.backup-*"))
    [new] = copies - set(old)
    assert copies == {old[2], new} and new.name.startswith(
        f"{analysed.name}.backup-{schema.head_revision()}-"
    )
    assert not torn.exists()
    # the new copy is whole: the database before the run, its boards without a contract
    assert "contract" not in {row[1] for row in _query(new, "pragma table_info(boards)")}
    assert _query(new, "select count(*) from boards") == [(12,)]


def test_a_database_at_revision_0014_reads_its_recaps_again_for_the_pairs_entries(
    tmp_path, fast_settings, caplog
):
    # Revision 0015: each pair's entry (its stratum) read again from the stored recap; one
    # no longer where it was read keeps its records, its pairs' entries unknown, with a word.
    gone = tmp_path / "gone.html.gz"
    shutil.copy(OLD_SOURCES[1], gone)
    out = ["--out", str(tmp_path), "--config", str(fast_settings)]
    _run("run", OLD_SOURCES[1], str(gone), "--to", "clean", *out)
    database = tmp_path / "bridgerank.db"
    entered = "select count(*) from boards where ns_entry != ''"
    assert _query(database, entered)[0][0] > 100
    with sqlite3.connect(database) as conn:  # as revision 0014 left it
        conn.execute("update raw_boards set extra = null")
        conn.execute("alter table boards drop column ns_entry")
        conn.execute("alter table boards drop column ew_entry")
        conn.execute("update alembic_version set version_num = '0014'")
    gone.unlink()
    output = _run("run", "--to", "clean", *out)
    assert f"database schema 0014 brought to revision {schema.head_revision()}" in output
    assert "clean: up to date" not in output
    # the recap still at its path: its entries are back; the same bytes as the one gone,
    # so it was the only one stored, and nothing is lost
    assert _query(database, entered)[0][0] > 100
    assert _query(database, "select count(*) from source_files") == [(1,)]
