"""Each stage touches only the tables it declares: a stage's reads and writes are the
contract its fingerprint and its dependants rely on."""

import re
from collections import defaultdict

import pytest
from sqlalchemy import event

from bridgerank.core.settings import load_settings
from bridgerank.core.store import Base, open_engine
from bridgerank.pipeline.stages import all_stages, run_stages

pytestmark = pytest.mark.dds  # every stage runs, the solver's included

KERNEL = {"stage_runs", "table_versions"}  # the ledger's own tables, written by the runner
_WRITE = re.compile(
    r"^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|"
    r'CREATE\s+TABLE|DROP\s+TABLE(?:\s+IF\s+EXISTS)?)\s+"?(\w+)"?',
    re.I,
)


def _touched(statement: str, tables: set[str]) -> tuple[set[str], set[str]]:
    """(tables written, tables read) by one SQL statement."""
    write = _WRITE.match(statement)
    if write:
        target = {write.group(1)} & tables  # the ledger's tables are the runner's business
        if statement.lstrip().upper().startswith("INSERT"):
            return target, set()  # an insert's column names are not reads
        words = set(re.findall(r"\w+", statement[write.end() :]))
        return target, (words & tables) - target
    return set(), set(re.findall(r"\w+", statement)) & tables


@pytest.fixture(scope="module")
def touched(tmp_path_factory, test_data):
    """Run every stage on a small real slice; the tables each one wrote and read."""
    folder = tmp_path_factory.mktemp("tables")
    engine = open_engine(f"sqlite:///{folder / 'db.sqlite'}")
    tables = set(Base.metadata.tables) - KERNEL
    written: dict[str, set[str]] = defaultdict(set)
    read: dict[str, set[str]] = defaultdict(set)
    current = {"stage": ""}

    @event.listens_for(engine, "before_cursor_execute")
    def record(conn, cursor, statement, parameters, context, executemany):
        wrote, looked = _touched(statement, tables)
        written[current["stage"]] |= wrote
        read[current["stage"]] |= looked

    settings = load_settings(None, {"store": {"out": str(folder)}})
    sources = [
        str(test_data / "bb1997_sf04_head.pbn"),
        str(test_data / "capgemini1998_round01.pbn"),
    ]
    for stage in all_stages():
        current["stage"] = stage.name
        outcome = run_stages(engine, settings, [stage], sources=sources)[0]
        assert outcome.status == "ran", (stage.name, outcome)
    engine.dispose()
    return written, read


@pytest.mark.parametrize("stage", all_stages(), ids=lambda stage: stage.name)
def test_a_stage_writes_only_what_it_declares(touched, stage):
    written, _ = touched
    declared = {model.__tablename__ for model in stage.writes}
    assert written[stage.name] <= declared, written[stage.name] - declared


@pytest.mark.parametrize("stage", all_stages(), ids=lambda stage: stage.name)
def test_a_stage_reads_only_what_it_declares(touched, stage):
    _, read = touched
    assert read[stage.name] <= stage.tables, read[stage.name] - stage.tables


def test_the_slice_exercises_every_stage_s_outputs(touched):
    written, _ = touched
    for stage in all_stages():
        if stage.name != "report":
            assert written[stage.name], f"{stage.name} wrote nothing"
