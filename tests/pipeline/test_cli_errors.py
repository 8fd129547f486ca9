"""Every database, driver and file failure is one ``error:`` line, a hint and an exit code."""

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main


def _fails(*arguments: str) -> list[str]:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exit_code == 3, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 2, lines  # the error and its hint: no traceback
    return lines


@pytest.mark.parametrize(
    "db,message,hint",
    [
        ("foo://somewhere", "error: unknown database URL scheme 'foo'", "Use a file path"),
        (
            "mysql://user@localhost/x",
            "error: the database driver for mysql is not installed",
            "Install it: pip install pymysql",
        ),
        ("::not a url::/x://", "error: not a database URL", "Give a file path"),
    ],
)
def test_a_bad_database_url(tmp_path, db, message, hint):
    error, advice = _fails("status", "--db", db, "--out", str(tmp_path))
    assert error.startswith(message)
    assert advice.startswith(hint)


def test_a_folder_or_a_file_that_is_no_database(tmp_path):
    error, advice = _fails("clean", "--db", str(tmp_path), "--out", str(tmp_path))
    assert error.startswith("error: cannot open the database") and "--db" not in error
    error, advice = _fails("status", "--db", str(tmp_path), "--out", str(tmp_path))
    assert error == f"error: no database at {tmp_path}"
    picture = tmp_path / "picture.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    error, advice = _fails("status", "--db", str(picture), "--out", str(tmp_path))
    assert error.startswith("error: ") and "is not a usable bridgerank database" in error
    assert advice == "Pass --db to a new file, or restore the database from a copy"


def test_a_read_only_database(tmp_path, test_data):
    path = tmp_path / "db.sqlite"
    assert (
        CliRunner()
        .invoke(
            main,
            ["run", str(test_data / "bb1997_sf04_head.pbn"), "--to", "ingest", "--db", str(path)],
        )
        .exit_code
        == 0
    )
    read_only = f"sqlite:///file:{path}?mode=ro&uri=true"
    error, advice = _fails("run", "--only", "clean", "--db", read_only, "--out", str(tmp_path))
    assert error.startswith("error: the database cannot be written")
    assert "permissions" in advice


def test_a_report_that_cannot_be_written(tmp_path, test_data):
    out = tmp_path / "out"
    out.mkdir()
    (out / "csv").write_text("a file where the CSV folder goes")
    # ingest and clean are all a report needs: the run skips the solver and the ratings
    source = str(test_data / "bb1997_sf04_head.pbn")
    only = ["--only", "ingest", "--only", "clean", "--only", "report"]
    result = CliRunner().invoke(main, ["run", source, *only, "--out", str(out)])
    assert result.exit_code == 3
    error, advice = result.output.strip().splitlines()[-2:]
    assert error == f"error: cannot write {out / 'csv'}: File exists"
    assert advice.startswith("Check the folder's permissions")


def test_status_creates_nothing(tmp_path):
    typo = tmp_path / "no" / "such" / "bridgerank.db"
    result = CliRunner().invoke(main, ["status", "--db", str(typo)])
    assert result.exit_code == 3
    assert result.output.splitlines() == [
        f"error: no database at {typo} (to build one there, name what to read: "
        f"bridgerank run SOURCES --db {typo})"
    ]
    assert not (tmp_path / "no").exists()
    empty = tmp_path / "empty.db"
    empty.touch()  # a database no run has written to: status reads it, and leaves it empty
    result = CliRunner().invoke(main, ["status", "--db", str(empty)])
    # nothing has run: every stage is behind, and status says so by its exit code
    assert result.exit_code == 1 and result.output.count("never run") == 7
    assert empty.stat().st_size == 0


def test_a_database_error_inside_a_stage_is_one_line_and_keeps_what_was_stored(
    tmp_path, test_data, monkeypatch
):
    from sqlalchemy import create_engine

    from bridgerank.core import ledger

    source = str(test_data / "bermuda1955_head.pbn")
    out = ["--out", str(tmp_path)]
    assert CliRunner().invoke(main, ["run", source, "--to", "ingest", *out]).exit_code == 0

    def broken_record(conn, *_args, **_kwargs):  # a bug: a row that breaks a constraint
        conn.exec_driver_sql("insert into table_versions values ('twice', '1'), ('twice', '2')")

    monkeypatch.setattr(ledger, "record_run", broken_record)
    error, hint = _fails("clean", *out)
    assert error.startswith("error: database error (a bug in bridgerank; please report it): ")
    assert "UNIQUE constraint failed: table_versions.name" in error
    assert hint.startswith("Nothing of the failed stage was stored")
    engine = create_engine(f"sqlite:///{tmp_path / 'bridgerank.db'}")
    with engine.connect() as conn:
        stored = conn.exec_driver_sql("select stage from stage_runs").scalars().all()
        boards = conn.exec_driver_sql("select count(*) from boards").scalar()
    engine.dispose()
    assert stored == ["ingest"] and boards == 0


COMMANDS_ON_A_DATABASE = ["predict", "report", "rate", "dds", "clean", "match", "regress"]


@pytest.mark.parametrize("command", COMMANDS_ON_A_DATABASE)
def test_a_mistyped_db_creates_nothing_and_says_how_to_build_one(tmp_path, command):
    """A stage or a forecast on a database that is not there: one line naming it and the
    command that builds one, exit 3, no file (no database, no lock) anywhere."""
    typo = tmp_path / "bridgerank.dbb"
    result = CliRunner().invoke(main, [command, "--db", str(typo)])
    assert result.exit_code == 3, result.output
    assert result.output.splitlines() == [
        f"error: no database at {typo} (to build one there, name what to read: "
        f"bridgerank run SOURCES --db {typo})"
    ]
    assert list(tmp_path.iterdir()) == []


def test_without_db_a_stage_names_the_default_database_and_the_sample(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["rate", "--out", "here"])
    assert result.exit_code == 3
    assert result.output.splitlines() == [
        "error: no database at here/bridgerank.db (to build one: bridgerank run SOURCES "
        "--out here, or bridgerank run --out here alone for the embedded sample)"
    ]
    assert list(tmp_path.iterdir()) == []


def test_a_missing_source_leaves_no_database(tmp_path):
    new = tmp_path / "NEW"
    result = CliRunner().invoke(main, ["run", "--out", str(new), str(tmp_path / "missing.pbn")])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"error: {tmp_path / 'missing.pbn'}: no such file or folder"
    ]
    assert not new.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["ingest", "--out", str(new), str(empty)])
    assert result.exit_code == 1 and "no file to read in this folder" in result.output
    assert not new.exists()


def test_the_common_options_may_come_before_the_command(sample_run):
    database = sample_run / "bridgerank.db"
    common = ["--out", str(sample_run)]  # the report's folder is part of its fingerprint
    result = CliRunner().invoke(main, ["--db", str(database), *common, "status"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith(f"database: sqlite:///{database} ")
    # the command's own wins over the one before it
    result = CliRunner().invoke(
        main, ["--db", "elsewhere.db", *common, "status", "--db", str(database)]
    )
    assert result.exit_code == 0, result.output
