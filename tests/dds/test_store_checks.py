"""Values from the DD store are checked before they are used (review 4's defects 1, 3, 16):
a poisoned store, a damaged one and a database that took wrong values earlier all end equal
to a run with no store, with one warning naming the store."""

import random
import re
import sqlite3

import pytest
from click.testing import CliRunner

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.store_checks import _moves_right, contradicted, violations
from bridgerank.pipeline.cli import main
from tests.dds.test_stage_store import SOURCES, VERDICTS
from tests.dds.test_stage_store import _dump as _verdicts

pytestmark = pytest.mark.dds

EXTRA = ("dd_tables", "call_analysis")


def _run(out, store, *args):
    result = CliRunner().invoke(
        main,
        ["run", *map(str, SOURCES), "--to", "dds", "--out", str(out), "--verbose", *args],
        env={"BRIDGERANK_DD_STORE": str(store)},
    )
    assert result.exit_code == 0, result.output
    return result


def _dump(out):
    return _verdicts(out, VERDICTS + EXTRA)


def _warnings(result) -> list[str]:
    lines = " ".join(result.stderr.split())
    return re.findall(r"warning: .*?(?= warning: |$)", lines)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The sources analysed with no store (everything solved live), and a healthy store
    filled by a second run."""
    folder = tmp_path_factory.mktemp("reference")
    CliRunner().invoke(
        main,
        ["run", *map(str, SOURCES), "--to", "dds", "--out", str(folder / "live")],
        env={"BRIDGERANK_DD_STORE": "off"},
    )
    store = folder / "healthy.sqlite"
    _run(folder / "filled", store)
    return _dump(folder / "live"), store


def _copy(store, tmp_path):
    copy = tmp_path / "store.sqlite"
    copy.write_bytes(store.read_bytes())
    return copy


def _deals(out) -> list[str]:
    with sqlite3.connect(out / "bridgerank.db") as db:
        return [row[0] for row in db.execute("select distinct deal from boards order by 1")]


def test_a_poisoned_store_changes_nothing_and_says_so(reference, tmp_path):
    """The review's attack 1a: tables (+2 tricks mod 14), play traces (inner values +-1) and
    par scores (+300) of the run's deals changed in the store, all still valid values."""
    live, healthy = reference
    store = _copy(healthy, tmp_path)
    rng = random.Random(5)
    with sqlite3.connect(store) as db:
        deals = [row[0] for row in db.execute("select deal from dd_traces order by rowid")]
        for deal in rng.sample(sorted(set(deals)), 3):
            (tricks,) = db.execute(
                "select tricks from dd_tables where deal = ?", (deal,)
            ).fetchone()
            wrong = "".join(format((int(digit, 16) + 2) % 14, "x") for digit in tricks)
            db.execute("update dd_tables set tricks = ? where deal = ?", (wrong, deal))
        for rowid, trace in rng.sample(
            db.execute("select rowid, trace from dd_traces").fetchall(), 3
        ):
            values = [int(digit, 16) for digit in trace]
            values[1:] = [min(13, max(0, v + rng.choice((-1, 1)))) for v in values[1:]]
            db.execute(
                "update dd_traces set trace = ? where rowid = ?",
                ("".join(format(v, "x") for v in values), rowid),
            )
        db.execute("update dd_pars set par = par + 300 where rowid in (1, 2, 3)")
    poisoned = _run(tmp_path / "out", store)
    assert _dump(tmp_path / "out") == live
    [warning] = _warnings(poisoned)
    assert warning.startswith(f"warning: the DD store at {store} gave ")
    assert "wrong values" in warning and warning.endswith("removed from it and solved live")
    # the store is mended: the next run takes everything from it, and nothing is wrong
    again = _run(tmp_path / "again", store)
    assert _warnings(again) == [] and _dump(tmp_path / "again") == live
    assert "tables: 22 from the DD store, 0 solved" in " ".join(again.output.split())


# a deal of the run (the store holds every shipped table besides)
_RUN_DEAL = "(select deal from dd_traces order by rowid limit 1)"


@pytest.mark.parametrize(
    "damage",
    [
        "update dd_tables set tricks = 'zzzzzzzzzzzzzzzzzzzz' where deal = " + _RUN_DEAL,
        "update dd_tables set tricks = 'ffffffffffffffffffff' where deal = " + _RUN_DEAL,
        "update dd_traces set trace = 'zz' where rowid = 1",
        "update dd_traces set trace = '7' where rowid = 2",
        "update dd_traces set trace = '' where rowid = 3",
        "update dd_pars set par = 'abc' where rowid = 1",
        "update dd_pars set par = 99999999999 where rowid = 2",
        "update dd_leads set leads = 'SA1 nonsense'",
        "update store_info set value = 'x' where key = 'schema'",
    ],
)
def test_a_damaged_store_row_is_one_warning_and_the_run_solves_it(reference, tmp_path, damage):
    """The review's attack 1c: never a traceback, never a run stopped, never a value used."""
    live, healthy = reference
    store = _copy(healthy, tmp_path)
    with sqlite3.connect(store) as db:
        db.execute(damage)
    result = _run(tmp_path / "out", store)
    assert _dump(tmp_path / "out") == live
    [warning] = _warnings(result)
    assert warning.startswith(f"warning: the DD store at {store} ")


def test_force_solves_again_what_the_database_took_from_a_store(reference, tmp_path):
    """The review's attacks 1b and 3i: wrong tables kept in the database's own copy and half
    the card verdicts deleted by hand; `run --force` with the store off mends both."""
    live, _ = reference
    out = tmp_path / "out"
    CliRunner().invoke(
        main,
        ["run", *map(str, SOURCES), "--to", "dds", "--out", str(out)],
        env={"BRIDGERANK_DD_STORE": "off"},
    )
    with sqlite3.connect(out / "bridgerank.db") as db:
        db.execute("update dd_tables set tricks = '00000000000000000000' where rowid <= 3")
        db.execute("delete from card_analysis where board_id % 2 = 0")
    result = CliRunner().invoke(
        main,
        ["run", "--force", "--from", "dds", "--to", "dds", "--out", str(out)],
        env={"BRIDGERANK_DD_STORE": "off"},
    )
    assert result.exit_code == 0, result.output
    assert "44 boards analysed" in result.output
    assert _dump(out) == live


def test_a_card_may_cost_several_tricks_but_never_moves_the_count_the_wrong_way():
    declarer = 0  # North; East leads
    seats = [1, 2, 3, 0]
    # a blocked suit: South's card costs three tricks at once (a real trace can)
    assert _moves_right([10, 10, 7, 7, 7], seats, declarer)
    assert not _moves_right([10, 9, 9, 9, 9], seats, declarer)  # East's card lowered it
    assert not _moves_right([10, 10, 11, 11, 11], seats, declarer)  # South's card raised it


DEAL = "N:AKQJ.AKQ.AK.AK32 T987.JT9.QJT.QJT 6543.876.987.987 2.5432.65432.654"


def test_a_trace_that_starts_off_its_table_is_settled_by_the_solver():
    """The table is right (the solver says so): the trace that disagrees with it is wrong;
    with the table wrong instead, the table is."""
    from bridgerank.dds.solver import solve_tables

    [(table, _)] = solve_tables([DEAL])
    board = {
        "id": 1,
        "deal": DEAL,
        "deal_hash": "h",
        "contract": "7NT",
        "declarer": "N",
        "lead": "E",
        "play": "S7 S3 S2 SA",
        "play_order": "ESWN",
        "auction": "",
        "bidstart": "",
        "board_no": 1,
        "ns_vulnerable": 0,
        "ew_vulnerable": 0,
        "result": None,
        "score": None,
    }
    north = table.tricks("N", 0)
    right = [north] * 5
    wrong_start = [north - 1] * 5
    found = violations({"h": table}, {1: wrong_start}, {}, {}, {1: board}, {})
    assert found.traces == {1} and found.tables == set()
    rows = [list(row) for row in table.rows]
    rows[4][0] = north - 2
    bad_table = DDTable(tuple(tuple(row) for row in rows))
    found = violations({"h": bad_table}, {1: right}, {}, {}, {1: board}, {})
    assert found.tables == {"h"} and found.traces == set()
    # a consistent wrong trace passes the invariants; solving it again catches it
    quiet = [north] + [north - 1] * 4
    assert contradicted({}, {1: quiet}, {}, {1: board}, 10).traces == {1}
