"""The report reads; it runs no query of its own: no SQL text in ``pipeline/report``, every
table read once per run through the one loader (``pipeline/report/reads.py``), the stage's
optional reads the union of what its readers declare, and the CSVs the tables marked for
export."""

from __future__ import annotations

import ast
import re
import shutil
import traceback
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import event
from sqlalchemy.engine import Engine

from bridgerank.core.store import exported_tables
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.report.reads import table_name
from bridgerank.pipeline.report.stage import REPORT_STAGE, report_reads
from tests.paths import TESTS

pytestmark = pytest.mark.dds  # the sample run through the report (tests/pipeline/conftest.py)

REPORT = TESTS.parent / "pipeline" / "report"
# A query's text: a SELECT with its FROM, or a WITH's first common table.
SQL_TEXT = re.compile(r"^\s*(select\b.*\bfrom\b|with\s+\w+\s+as\s*\()", re.IGNORECASE | re.DOTALL)
SELECT = re.compile(r"^\s*select\b", re.IGNORECASE)
TABLE_AFTER = re.compile(r'\b(?:from|join)\s+"?(\w+)"?', re.IGNORECASE)


def _string_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_no_sql_text_in_the_report():
    for path in sorted(REPORT.glob("*.py")):
        sql = [text for text in _string_literals(path) if SQL_TEXT.match(text)]
        assert sql == [], f"{path.name} holds SQL text"
        source = path.read_text()
        assert not re.search(r"\btext\(", source), f"{path.name} builds SQL text"
        if path.name != "reads.py":
            assert "read_sql" not in source, path.name


def test_the_stage_reads_what_its_readers_declare_and_exports_what_is_marked():
    declared = {table_name(read) for read in report_reads()}
    stage = {model.__tablename__ for model in (*REPORT_STAGE.reads, *REPORT_STAGE.optional_reads)}
    assert stage == declared
    exported = {model.__tablename__ for model in exported_tables()}
    assert {"boards", "headline_ratings", "player_rates", "rankings"} <= exported
    assert exported <= declared


def _reads_by_caller(statements: list[tuple[str, list[str]]]) -> tuple[Counter, set[str]]:
    """SELECTs issued from the report's code: each table's count through the loader, and
    the tables any other module of the report read."""
    loaded: Counter = Counter()
    elsewhere: set[str] = set()
    for sql, files in statements:
        if not SELECT.match(sql) or "sqlite_master" in sql:
            continue
        report_files = [file for file in files if f"{Path('pipeline', 'report')}" in file]
        if not report_files:
            continue  # the stage machinery: fingerprints and the ledger row
        tables = set(TABLE_AFTER.findall(sql))
        if report_files[-1].endswith("reads.py"):
            loaded.update(tables)
        else:
            elsewhere |= tables
    return loaded, elsewhere


def test_a_report_reads_each_table_once_through_the_loader(sample_run, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(sample_run, folder)
    statements: list[tuple[str, list[str]]] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        files = [frame.filename for frame in traceback.extract_stack()]
        statements.append((statement, files))

    event.listen(Engine, "before_cursor_execute", record)
    try:
        result = CliRunner().invoke(main, ["report", "--force", "--out", str(folder)])
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert result.exit_code == 0, result.output
    loaded, elsewhere = _reads_by_caller(statements)
    assert elsewhere == set()
    assert [table for table, count in loaded.items() if count > 1] == []
    assert {"boards", "raw_boards", "dd_tables", "stage_runs", "headline_ratings"} <= set(loaded)
