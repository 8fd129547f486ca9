"""Which failures inside a run become one-line database errors, and which stay bugs."""

from __future__ import annotations

import pytest

from bridgerank.core.errors import StoreError
from bridgerank.core.store import store_errors


def test_a_missing_database_driver_is_one_line_with_what_to_install() -> None:
    with pytest.raises(StoreError) as caught:
        with store_errors("postgresql+psycopg://user@host/db"):
            raise ModuleNotFoundError("No module named 'psycopg'", name="psycopg")
    assert str(caught.value).startswith("the database driver for postgresql is not installed")
    assert caught.value.hint == "Install it: pip install 'psycopg[binary]'"


def test_an_import_failing_in_our_own_code_is_not_called_a_missing_driver() -> None:
    # a half-installed or broken bridgerank module inside a stage: a bug, with its traceback
    with pytest.raises(ModuleNotFoundError, match="bridgerank.ratings.nowhere"):
        with store_errors("sqlite:///out/bridgerank.db"):
            raise ModuleNotFoundError(
                "No module named 'bridgerank.ratings.nowhere'", name="bridgerank.ratings.nowhere"
            )


@pytest.mark.parametrize("command", [["status"], ["run", "--to", "ingest"]])
def test_a_database_password_is_never_printed(command, tmp_path) -> None:
    """Review 4's defect 8: the URL under an error (and in status and the run's last line,
    through the same shown_url) has its password masked."""
    from click.testing import CliRunner

    from bridgerank.pipeline.cli import main

    url = "postgresql+psycopg://br:WRONGsecret@127.0.0.1:1/brdb"  # nothing listens on port 1
    result = CliRunner().invoke(main, [*command, "--db", url, "--out", str(tmp_path)])
    assert result.exit_code == 3
    assert "WRONGsecret" not in result.output
    assert "Database: postgresql+psycopg://br:***@127.0.0.1:1/brdb" in result.output


def test_a_shown_url_hides_the_password_alone() -> None:
    from bridgerank.core.store import shown_url

    assert shown_url("postgresql://u:p%40ss@h:5432/d") == "postgresql://u:***@h:5432/d"
    assert shown_url("postgresql://u@h/d") == "postgresql://u@h/d"
    assert shown_url("sqlite:///a:b@c/db.sqlite") == "sqlite:///a:b@c/db.sqlite"


@pytest.mark.parametrize(
    "tables",
    [
        ["create table invoices (a)", "insert into invoices values (1)"],  # someone else's
        ["create table players (a)", "create table ratings (b)"],  # names like ours
        ["create table dd_tables (deal)", "create table store_info (key, value)"],  # a DD store
    ],
)
def test_a_database_that_is_not_bridgerank_s_is_refused_untouched(tables, tmp_path) -> None:
    """Review 4's defect 9: --db at a SQLite file with tables, none of them bridgerank's, is
    refused in one line (exit 3) and left byte for byte; an empty file is taken."""
    import sqlite3

    from click.testing import CliRunner

    from bridgerank.pipeline.cli import main

    theirs = tmp_path / "theirs.sqlite"
    with sqlite3.connect(theirs) as conn:
        for statement in tables:
            conn.execute(statement)
    before = theirs.read_bytes()
    result = CliRunner().invoke(main, ["run", "--db", str(theirs), "--out", str(tmp_path)])
    assert result.exit_code == 3
    error, hint = result.output.strip().splitlines()
    assert error.startswith("error: the database is not a bridgerank database (it holds other")
    assert hint == "give --db a new file or an empty database"
    assert theirs.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["theirs.sqlite"]
    empty = tmp_path / "empty.db"
    empty.touch()
    taken = CliRunner().invoke(main, ["clean", "--db", str(empty), "--out", str(tmp_path)])
    assert "needs 'raw_boards', which has not run yet" in taken.output  # a new database
    assert "stage_runs" in {
        row[0] for row in sqlite3.connect(empty).execute("select name from sqlite_master")
    }
