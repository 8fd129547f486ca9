"""``bridgerank status`` reads the summaries an older version left in the ledger: their keys
are not this version's (some gone, some renamed since), and each stage's line still says
what its last run produced."""

import gzip
import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main
from tests.paths import TESTS

# Made by main 47e544b, before summaries were typed (see test_migrations.py).
OLD_DATABASE = TESTS / "data" / "old_db" / "bridgerank-47e544b.db.gz"
# What status says of each stage's last run there (the rate stage's summary is checked by
# its own tests).
BRIEFS = {
    "ingest": "246 records from 2 files",
    "clean": "245 boards kept of 246, 1 excluded",
    "match": "7 of 44 names matched, 10.7% of board-seats",
    "dds": "245 boards, 0 failed, 44 players",
    "regress": "pp, unweighted: too few players (0) for 0 predictors",
    "report": "/tmp/fixture_small/report/index.html",
}


@pytest.fixture
def old_database(tmp_path):
    with gzip.open(OLD_DATABASE) as packed, open(tmp_path / "bridgerank.db", "wb") as out:
        shutil.copyfileobj(packed, out)
    return tmp_path / "bridgerank.db"


def _briefs(database) -> dict[str, str]:
    """Each stage's summary column in ``bridgerank status`` (which exits 1: stages behind)."""
    result = CliRunner().invoke(main, ["status", "--out", str(database.parent)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("stage "))
    column = header.index("summary")
    return {
        line.split()[0]: line[column:]
        for line in lines
        if line.split() and line.split()[0] in BRIEFS and len(line) >= column
    }


def test_status_reads_the_summaries_of_an_older_version(old_database):
    # their JSON has keys no summary type has (the ledger's own fingerprint_parts)
    assert _briefs(old_database) == BRIEFS


def test_a_summary_lacking_fields_or_with_unknown_keys_still_gives_a_brief(old_database):
    """Keys dropped (fields added since) take the field's default; unknown keys (fields
    renamed or removed since) are ignored."""
    dropped = {
        "ingest": "files",
        "clean": "excluded",
        "match": "seat_share_matched",
        "dds": "players",
        "regress": "datasets",
        "report": "pages",
    }
    with sqlite3.connect(old_database) as conn:
        for stage, key in dropped.items():
            [(run, text)] = conn.execute(
                "select id, summary from stage_runs where stage = ?", (stage,)
            ).fetchall()
            summary = json.loads(text)
            del summary[key]
            summary["a_field_of_another_version"] = {"kept": [1, 2]}
            conn.execute(
                "update stage_runs set summary = ? where id = ?", (json.dumps(summary), run)
            )
    assert _briefs(old_database) == BRIEFS | {
        "ingest": "246 records from 0 files",
        "clean": "245 boards kept of 246, 0 excluded",
        "match": "7 of 44 names matched, 0.0% of board-seats",
        "dds": "245 boards, 0 failed, 0 players",
    }
