"""Sharing solved deals: the DD store to a CSV file and back (dds/exchange.py, `bridgerank dd`).

Real tables and traces of the Bermuda Bowl 1955 slice, solved once for the module; a store
exported, imported into an empty one, and the bad files a colleague might send: bad rows,
another solver's rows, a wrong header, a poisoned table.
"""

from __future__ import annotations

import gzip
import re

import pytest
from click.testing import CliRunner

from bridgerank.bridge.cards import deal_to_pbn, parse_deal
from bridgerank.bridge.ddtable import DDTable
from bridgerank.cleaning.clean.play import trick_winner
from bridgerank.core.errors import BridgerankError, SourceError
from bridgerank.dds.dd_store import DDStore
from bridgerank.dds.exchange import HEADER, FileRefused, export_store, import_file
from bridgerank.dds.solver import PlayRequest, solve_plays, solve_tables, solver_version
from bridgerank.pipeline.cli import main
from tests.paths import TEST_DATA

SLICE = TEST_DATA / "bermuda1955_head.pbn"
SOLVER = solver_version()


def _deals(count: int) -> list[str]:
    text = SLICE.read_text(encoding="utf-8")
    found = re.findall(r'\[Deal "([^"]+)"\]', text)
    return sorted({deal_to_pbn(parse_deal(deal)) for deal in found})[:count]


def _legal_play(deal: str, leader: int, trump: str, cards: int) -> tuple[str, ...]:
    """A legal play of ``cards`` cards: each seat plays its lowest card of the suit led, or
    its first card when it has none; the trick's winner leads the next."""
    hands = [sorted(hand) for hand in parse_deal(deal)]
    played: list[str] = []
    trick: list[str] = []
    seat = trick_leader = leader
    while len(played) < cards:
        hand = hands[seat]
        follow = [card for card in hand if trick and card[0] == trick[0][0]]
        card = (follow or hand)[0]
        hand.remove(card)
        played.append(card)
        trick.append(card)
        seat = (seat + 1) % 4
        if len(trick) == 4:
            seat = trick_leader = trick_winner(trick, trick_leader, trump)
            trick = []
    return tuple(played)


@pytest.fixture(scope="module")
def solved() -> tuple[dict[str, DDTable], dict[PlayRequest, list[int]]]:
    """Four real tables and three real traces, solved live once for the module."""
    deals = _deals(4)
    tables = {}
    for deal, (table, error) in zip(deals, solve_tables(deals)):
        assert error is None, error
        tables[deal] = table
    requests = [
        PlayRequest(deals[0], 1, "S", _legal_play(deals[0], 1, "S", 5)),
        PlayRequest(deals[1], 2, "N", _legal_play(deals[1], 2, "N", 8)),
        PlayRequest(deals[2], 3, "H", _legal_play(deals[2], 3, "H", 1)),
    ]
    traces = {}
    for request, (trace, error) in zip(requests, solve_plays(requests)):
        assert error is None, error
        traces[request] = trace
    return tables, traces


def _store(path, solved, solver: str = SOLVER) -> DDStore:
    store = DDStore(str(path), solver)
    tables, traces = solved
    store.add_tables(tables)
    store.add_traces(traces)
    return store


def _write(path, rows, header=HEADER) -> None:
    lines = [",".join(header), *(",".join(row) for row in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _fake_table(seed: int) -> DDTable:
    """A table of valid numbers (not a real deal's): for tests that trust the file."""
    return DDTable.from_hex("".join(format((seed + i) % 14, "x") for i in range(20)))


# -- the library -------------------------------------------------------------------------


@pytest.mark.dds
@pytest.mark.parametrize("name", ["solved.csv", "solved.csv.gz"])
def test_round_trip_then_reimport_adds_nothing(tmp_path, solved, name):
    a = _store(tmp_path / "a.sqlite", solved)
    path = tmp_path / name
    exported = export_store(a, path)
    assert (exported.tables, exported.traces, exported.solver) == (4, 3, SOLVER)
    assert exported.line() == f"exported 4 tables and 3 play traces ({SOLVER}) to {path}"
    assert (path.read_bytes()[:2] == b"\x1f\x8b") == name.endswith(".gz")

    b = DDStore(str(tmp_path / "b.sqlite"), SOLVER)
    imported = import_file(b, path, check=2, seed=1)
    assert (imported.tables, imported.traces, imported.checked) == (4, 3, 4)  # 2 of each
    assert (imported.rejected, imported.other_solver) == (0, 0)
    assert list(b.all_tables()) == list(a.all_tables())
    assert list(b.all_traces()) == list(a.all_traces())
    tables, traces = solved
    assert b.tables(tables) == tables and b.traces(traces) == traces

    again = import_file(b, path, check=2, seed=1)
    assert (again.tables, again.traces) == (0, 0)
    assert (again.tables_present, again.traces_present, again.checked) == (4, 3, 0)
    assert "imported 0 tables and 0 play traces" in again.line()


@pytest.mark.dds
def test_tables_only_and_another_solvers_export(tmp_path, solved):
    a = _store(tmp_path / "a.sqlite", solved)
    path = tmp_path / "tables.csv"
    assert export_store(a, path, traces=False).traces == 0
    rows = path.read_text().splitlines()
    assert rows[0] == ",".join(HEADER) and len(rows) == 5
    assert all(row.startswith(f"table,{SOLVER},N:") and ",,,," in row for row in rows[1:])
    # another version's rows, asked for by name: none here
    assert export_store(a, tmp_path / "old.csv", solver="endplay 0.0.1").tables == 0


def test_another_solvers_rows_are_skipped_and_counted(tmp_path):
    old = DDStore(str(tmp_path / "old.sqlite"), "endplay 0.0.1")
    deals = [deal_to_pbn(parse_deal(deal)) for deal in _deals(2)]
    old.add_tables({deal: _fake_table(i) for i, deal in enumerate(deals)})
    path = tmp_path / "old.csv.gz"
    export_store(old, path)
    ours = DDStore(str(tmp_path / "ours.sqlite"), SOLVER)
    counts = import_file(ours, path, check=5)
    assert counts.other_solvers == {"endplay 0.0.1": 2}
    assert (counts.tables, counts.checked, counts.rejected) == (0, 0, 0)
    assert "2 rows of other solvers skipped (endplay 0.0.1)" in counts.line()
    assert ours.counts().tables == 0
    # the old store's rows stay apart: kept, and handed to the old version only
    assert old.counts().tables == 2


def test_bad_rows_are_counted_with_their_line_numbers(tmp_path):
    deals = _deals(3)
    good = _fake_table(0).hex
    lead = _legal_play(deals[0], 1, "S", 2)
    rows = [
        ("table", SOLVER, deals[0], "", "", "", good),  # line 2: kept
        ("tabel", SOLVER, deals[1], "", "", "", good),  # 3: unknown kind
        ("table", SOLVER, "N:AKQ.xx", "", "", "", good),  # 4: no deal
        ("table", SOLVER, deals[1], "", "", "", "e" * 20),  # 5: 14 tricks
        ("table", SOLVER, deals[1], "", "", "", good[:19]),  # 6: 19 digits
        ("trace", SOLVER, deals[0], "S", "E", "SZ", "99"),  # 7: no card
        ("trace", SOLVER, deals[0], "S", "E", " ".join(lead), "9"),  # 8: 1 value for 2 cards
        ("table", SOLVER, deals[1]),  # 9: 3 columns
        ("trace", SOLVER, deals[0], "S", "N", lead[0], "99"),  # 10: North does not hold it
        ("trace", SOLVER, deals[0], "X", "E", lead[0], "99"),  # 11: no trump
        ("table", "", deals[2], "", "", "", good),  # 12: no solver
        ("table", SOLVER, deals[2], "S", "", "", good),  # 13: a table with a trump
    ]
    path = tmp_path / "bad.csv"
    _write(path, rows)
    store = DDStore(str(tmp_path / "store.sqlite"), SOLVER)
    counts = import_file(store, path, check=0)
    assert (counts.rows, counts.rejected, counts.tables, counts.checked) == (12, 11, 1, 0)
    assert [reason.split(":")[0] for reason in counts.reasons] == [
        "line 3",
        "line 4",
        "line 5",
        "line 6",
        "line 7",
    ]
    assert "unknown kind 'tabel'" in counts.reasons[0]
    assert "11 rows rejected" in counts.line()
    assert list(store.all_tables()) == [(deals[0], good)]


def test_two_values_for_one_key_reject_both_lines(tmp_path):
    deal = _deals(1)[0]
    rows = [
        ("table", SOLVER, deal, "", "", "", _fake_table(0).hex),
        ("table", SOLVER, deal, "", "", "", _fake_table(0).hex),  # the same again: harmless
        ("table", SOLVER, deal, "", "", "", _fake_table(1).hex),
    ]
    path = tmp_path / "twice.csv"
    _write(path, rows)
    store = DDStore(str(tmp_path / "store.sqlite"), SOLVER)
    counts = import_file(store, path, check=0)
    assert (counts.rejected, counts.tables) == (2, 0)
    assert counts.reasons[0].startswith("line 4: deal N:") and "on line 2" in counts.reasons[0]


@pytest.mark.parametrize(
    "name, content, problem",
    [
        ("header.csv", b"deal,tricks\nN:...,1234\n", "not a DD store export"),
        ("empty.csv", b"", "not a DD store export"),
        ("plain.csv.gz", ",".join(HEADER).encode() + b"\n", "Not a gzipped file"),
        (
            "cut.csv.gz",
            gzip.compress(b"kind,solver,deal,trump,leader,cards,values\n" * 50)[:30],
            "cannot be read",
        ),
        ("binary.csv", b"\xff\xfe\x00garbage", "cannot be read"),
    ],
)
def test_a_file_that_is_no_export_is_one_error_naming_it(tmp_path, name, content, problem):
    path = tmp_path / name
    path.write_bytes(content)
    store = DDStore(str(tmp_path / "store.sqlite"), SOLVER)
    with pytest.raises(SourceError) as raised:
        import_file(store, path)
    message = str(raised.value)
    assert message.startswith(f"{path}: ") and problem in message and "\n" not in message
    assert store.counts().tables == 0
    with pytest.raises(SourceError, match="No such file"):
        import_file(store, tmp_path / "missing.csv")


@pytest.mark.dds
def test_a_poisoned_table_refuses_the_whole_file(tmp_path, solved):
    a = _store(tmp_path / "a.sqlite", solved)
    path = tmp_path / "solved.csv"
    export_store(a, path)
    lines = path.read_text().splitlines()
    # one number of one table, one trick off
    poisoned_line = 3
    row = lines[poisoned_line - 1].split(",")
    digit = int(row[-1][7], 16)
    row[-1] = row[-1][:7] + format(digit + 1 if digit < 13 else digit - 1, "x") + row[-1][8:]
    lines[poisoned_line - 1] = ",".join(row)
    path.write_text("\n".join(lines) + "\n")

    b = DDStore(str(tmp_path / "b.sqlite"), SOLVER)
    with pytest.raises(FileRefused) as raised:
        import_file(b, path, check=4)
    message = str(raised.value)
    assert isinstance(raised.value, BridgerankError) and "\n" not in message
    assert f"line {poisoned_line}: the table of {row[2]} is {row[-1]}" in message
    assert "nothing imported" in message
    assert (b.counts().tables, b.counts().traces) == (0, 0)

    # a store that already holds the deal refuses the poisoned value without the solver
    c = _store(tmp_path / "c.sqlite", solved)
    with pytest.raises(FileRefused, match="the store's is"):
        import_file(c, path, check=0)


@pytest.mark.dds
def test_altered_traces_refuse_the_whole_file(tmp_path, solved):
    """Review 4's attack 2a: every trace's first value kept, the others one trick off - they
    pass every row check; the traces solved again by default find them."""
    path = tmp_path / "solved.csv"
    export_store(_store(tmp_path / "a.sqlite", solved), path)
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines):
        row = line.split(",")
        if row[0] == "trace":
            values = [int(digit, 16) for digit in row[-1]]
            values[1:] = [value - 1 if value else value + 1 for value in values[1:]]
            row[-1] = "".join(format(value, "x") for value in values)
            lines[number] = ",".join(row)
    path.write_text("\n".join(lines) + "\n")
    b = DDStore(str(tmp_path / "b.sqlite"), SOLVER)
    with pytest.raises(FileRefused, match="the trace of this play is .*, the solver's is"):
        import_file(b, path)
    assert (b.counts().tables, b.counts().traces) == (0, 0)


@pytest.mark.dds
def test_a_trace_that_contradicts_its_deals_table_is_rejected(tmp_path, solved):
    tables, traces = solved
    request, trace = next(iter(traces.items()))
    wrong = [(trace[0] + 1) % 14, *trace[1:]]
    path = tmp_path / "trace.csv"
    _write(
        path,
        [
            ("table", SOLVER, request.deal, "", "", "", tables[request.deal].hex),
            (
                "trace",
                SOLVER,
                request.deal,
                request.trump,
                "NESW"[request.leader],
                " ".join(request.cards),
                "".join(format(value, "x") for value in wrong),
            ),
        ],
    )
    store = DDStore(str(tmp_path / "store.sqlite"), SOLVER)
    counts = import_file(store, path, check=0)
    assert (counts.tables, counts.traces, counts.rejected) == (1, 0, 1)
    assert counts.reasons == [
        f"line 3: the trace starts at {wrong[0]} tricks, the deal's table gives {trace[0]}"
    ]


# -- the commands ------------------------------------------------------------------------


def _invoke(*arguments):
    return CliRunner().invoke(main, list(arguments))


@pytest.mark.dds
def test_dd_info_export_and_import(tmp_path, monkeypatch, solved):
    _store(tmp_path / "a.sqlite", solved).close()
    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(tmp_path / "a.sqlite"))
    info = _invoke("dd", "info")
    assert info.exit_code == 0, info.output
    assert info.output == (
        f"DD store {tmp_path / 'a.sqlite'}: 4 tables, 0 par scores and 3 play traces of {SOLVER}\n"
    )
    shared = tmp_path / "solved.csv.gz"
    export = _invoke("dd", "export", str(shared))
    assert export.exit_code == 0, export.output
    assert export.output == f"exported 4 tables and 3 play traces ({SOLVER}) to {shared}\n"
    tables_only = _invoke("dd", "export", str(tmp_path / "tables.csv"), "--no-traces")
    assert tables_only.exit_code == 0, tables_only.output
    assert tables_only.output.startswith("exported 4 tables and 0 play traces")

    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(tmp_path / "b.sqlite"))
    fresh = _invoke("dd", "info")
    assert fresh.exit_code == 0 and "not created yet" in fresh.output
    assert not (tmp_path / "b.sqlite").exists()  # looking made nothing
    imported = _invoke("dd", "import", str(shared), "--check", "2")
    assert imported.exit_code == 0, imported.output
    assert imported.output == (
        "dd import: solving 2 of the file's new tables and 2 of its new play traces again "
        "to check them\n"
        f"imported 4 tables and 3 play traces ({SOLVER}) from {shared}; 0 tables and 0 "
        "traces already stored, 4 tables and traces solved again to check\n"
    )
    again = _invoke("dd", "import", str(shared), "--check", "2")
    assert "imported 0 tables and 0 play traces" in again.output
    assert "4 tables and 3 traces already stored" in again.output
    assert "4 tables, 0 par scores and 3 play traces" in _invoke("dd", "info").output


def test_dd_commands_exit_codes(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGERANK_DD_STORE", "off")
    for arguments in (["info"], ["export", str(tmp_path / "x.csv")], ["import", "x.csv"]):
        off = CliRunner().invoke(main, ["dd", *arguments])
        assert off.exit_code == 2, off.output
        assert off.output.startswith("error: the DD store is off")
        assert "BRIDGERANK_DD_STORE" in off.output

    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"this is no database " * 100)
    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(broken))
    for arguments in (["info"], ["export", str(tmp_path / "x.csv")], ["import", "x.csv"]):
        unreadable = CliRunner().invoke(main, ["dd", *arguments])
        assert unreadable.exit_code == 3, unreadable.output
        assert unreadable.output.startswith(f"error: the DD store at {broken} cannot be opened")
        assert "solving without it" not in unreadable.output
    assert not (tmp_path / "x.csv").exists()

    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(tmp_path / "store.sqlite"))
    not_csv = tmp_path / "notes.txt"
    not_csv.write_text("hello\n")
    refused = _invoke("dd", "import", str(not_csv))
    assert refused.exit_code == 1
    assert refused.output == f"error: {not_csv}: not a DD store export (the header is not " + (
        ",".join(HEADER) + ")\n"
    )

    bad = tmp_path / "bad.csv"
    _write(bad, [("table", SOLVER, "N:AKQ", "", "", "", "0" * 20)])
    rejected = _invoke("dd", "import", str(bad), "--check", "0")
    assert rejected.exit_code == 0, rejected.output
    assert "1 rows rejected" in rejected.output
    assert "  rejected: line 2: hand_not_13_cards" in rejected.output


def test_an_export_writes_through_a_link_and_into_a_pipe(tmp_path, solved):
    """Review 4's defect 17: a link keeps pointing at the file, which gets the export; a pipe's
    reader gets the rows (so `dd export /dev/stdout` works)."""
    import os
    import threading

    store = _store(tmp_path / "a.sqlite", solved)
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    export_store(store, link)
    assert link.is_symlink() and real.read_text().startswith(",".join(HEADER))
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()))
    reader.start()
    counts = export_store(store, pipe)
    reader.join(timeout=30)
    assert received and received[0].count("\n") == 1 + counts.tables + counts.traces
    assert not list(tmp_path.glob(".partial-*"))
