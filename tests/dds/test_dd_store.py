"""The DD store on its own: keys, solver versions, several writers, and a store in trouble."""

import multiprocessing
import sqlite3

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.dd_store import DDStore, ParKey, open_dd_store
from bridgerank.dds.solver import PlayRequest

DEAL = "N:AKQJ.AKQ.AK.AK32 T987.JT9.QJT.QJT 6543.876.987.987 2.5432.65432.654"
OTHER = "N:2.5432.65432.654 AKQJ.AKQ.AK.AK32 T987.JT9.QJT.QJT 6543.876.987.987"
TABLE = DDTable.from_hex("d0d0d0d0d0d0d0d0d0d0")
PLAY = PlayRequest(DEAL, 1, "N", ("S7", "S2", "S4", "SA"))


def test_tables_traces_and_pars_come_back_as_kept(tmp_path):
    store = DDStore(str(tmp_path / "s.sqlite"), "endplay 0.5.12")
    assert store.add_tables({DEAL: TABLE}) == 1
    store.add_traces({PLAY: [13, 13, 13, 13, 13]})
    key = ParKey(DEAL, 0, True, False)
    store.add_pars({key: 2220})
    assert store.tables([DEAL, OTHER]) == {DEAL: TABLE}
    assert store.traces([PLAY, PLAY._replace(leader=2)]) == {PLAY: [13, 13, 13, 13, 13]}
    assert store.pars([key, ParKey(DEAL, 0, False, False)]) == {key: 2220}
    assert store.warning is None


def test_another_solver_version_finds_nothing(tmp_path):
    path = str(tmp_path / "s.sqlite")
    DDStore(path, "endplay 0.5.12").add_tables({DEAL: TABLE})
    newer = DDStore(path, "endplay 0.6.0")
    assert newer.tables([DEAL]) == {}
    assert newer.counts().tables == 0 and newer.counts("endplay 0.5.12").tables == 1


def test_a_key_written_twice_is_kept_once(tmp_path):
    path = str(tmp_path / "s.sqlite")
    first, second = DDStore(path, "v"), DDStore(path, "v")
    first.add_tables({DEAL: TABLE})
    second.add_tables({DEAL: TABLE, OTHER: TABLE})
    assert first.counts().tables == 2
    assert sqlite3.connect(path).execute("select count(*) from dd_tables").fetchone() == (2,)


def _write(path: str, start: int) -> None:
    store = DDStore(path, "v")
    for index in range(start, start + 60):
        # overlapping keys between the writers: the primary key keeps one of each
        store.add_tables({f"deal {index % 90}": TABLE})
    if store.warning is not None:  # the parent sees the exit code; this says why
        raise SystemExit(store.warning)


def test_writers_in_several_processes_leave_each_key_once(tmp_path):
    """Three processes race to create a new store, then to write overlapping keys."""
    path = str(tmp_path / "s.sqlite")
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write, args=(path, start)) for start in (0, 30, 60)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(60)
        assert writer.exitcode == 0
    rows = sqlite3.connect(path).execute("select deal from dd_tables").fetchall()
    assert len(rows) == len(set(rows)) == 90


def test_a_corrupt_store_is_a_warning_and_finds_nothing(tmp_path):
    path = tmp_path / "s.sqlite"
    path.write_bytes(b"this is not a database " * 200)
    store = DDStore(str(path), "v")
    assert store.tables([DEAL]) == {}
    assert store.add_tables({DEAL: TABLE}) == 0
    assert store.warning is not None
    assert store.warning.startswith(f"the DD store at {path} cannot be opened (")
    assert store.warning.endswith("; solving without it")
    assert "\n" not in store.warning


def test_a_read_only_store_is_read_and_its_refusal_is_a_warning(tmp_path):
    """Whoever runs the tests: a store that refuses writes (here: a SQLite file opened
    read-only through its URL) is read, and its refusal is one warning."""
    path = tmp_path / "s.sqlite"
    DDStore(str(path), "v").add_tables({DEAL: TABLE})
    store = DDStore(f"sqlite:///file:{path}?mode=ro&uri=true", "v")
    assert store.tables([DEAL]) == {DEAL: TABLE}
    assert store.add_tables({OTHER: TABLE}) == 0
    assert "cannot be written" in (store.warning or ""), store.warning
    assert DDStore(str(path), "v").counts().tables == 1


def test_off_is_no_store_and_empty_is_the_cache_file(tmp_path, monkeypatch):
    assert open_dd_store("off", "v") is None
    assert open_dd_store(" OFF ", "v") is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    store = open_dd_store("", "v")
    assert store is not None
    assert store.location == str(tmp_path / "cache" / "bridgerank" / "dd-store.sqlite")
    store.add_tables({DEAL: TABLE})
    assert (tmp_path / "cache" / "bridgerank" / "dd-store.sqlite").exists()


def test_a_postgresql_store_keeps_what_a_team_solved(postgres_url):
    """``[dds] store`` as a URL: a team's server, written by two stores at once."""
    first, second = DDStore(postgres_url, "v"), DDStore(postgres_url, "v")
    first.add_tables({DEAL: TABLE})
    second.add_tables({DEAL: TABLE, OTHER: TABLE})
    first.add_traces({PLAY: [13, 13, 13, 13, 13]})
    first.add_pars({ParKey(DEAL, 3, True, True): 2220})
    assert second.tables([DEAL, OTHER]) == {DEAL: TABLE, OTHER: TABLE}
    assert second.traces([PLAY]) == {PLAY: [13, 13, 13, 13, 13]}
    assert second.pars([ParKey(DEAL, 3, True, True)]) == {ParKey(DEAL, 3, True, True): 2220}
    assert (second.counts().tables, first.warning, second.warning) == (2, None, None)
    first.close()
    second.close()


def test_a_store_on_a_read_only_mount_is_read(tmp_path, tmp_path_factory):
    """Review 4's defect 12: a WAL store on a read-only mount cannot make its -shm file; it is
    read as immutable instead of solving every deal live, with one warning."""
    import subprocess

    import pytest

    folder = tmp_path / "store"
    folder.mkdir()
    writer = DDStore(str(folder / "s.sqlite"), "v")  # WAL, as every store
    writer.add_tables({DEAL: TABLE})
    writer.close()
    view = tmp_path_factory.mktemp("read-only-view")
    if subprocess.run(["mount", "--bind", str(folder), str(view)]).returncode != 0:
        pytest.skip("a read-only folder needs a bind mount, which this machine refuses")
    store = None
    try:
        assert subprocess.run(["mount", "-o", "remount,ro,bind", str(view)]).returncode == 0
        store = DDStore(str(view / "s.sqlite"), "v")
        assert store.tables([DEAL]) == {DEAL: TABLE}
        assert store.add_tables({OTHER: TABLE}) == 0
        assert store.warning == (
            f"the DD store at {view / 's.sqlite'} cannot be written (its folder is read-only); "
            "reading it, solving the rest without keeping it"
        )
    finally:
        if store is not None:
            store.close()  # an open file keeps the mount busy
        subprocess.run(["umount", "-l", str(view)])
