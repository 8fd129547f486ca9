"""The stages end to end through the CLI: reruns, settings changes, interruptions, bad input."""

import shutil

from click.testing import CliRunner
from sqlalchemy import func, select

from bridgerank.cleaning.clean import stage as clean_module
from bridgerank.cleaning.clean.audit import exclusion_table
from bridgerank.cleaning.clean.tables import Board, Exclusion
from bridgerank.cleaning.ingest import stage as ingest_module
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.core.store import StageRun, open_engine
from bridgerank.pipeline.cli import main


# The dds stage has tests of its own (tests/dds/test_stage.py); these stop before it to stay fast.
def _invoke(*args):
    """The command, a ``run`` with ``--verbose`` (these tests read every stage's summary)."""
    words = [str(arg) for arg in args]
    if words[:1] == ["run"] and "--dry-run" not in words:
        words.append("--verbose")
    return CliRunner().invoke(main, words, catch_exceptions=False)


def _counts(out):
    engine = open_engine(f"sqlite:///{out / 'bridgerank.db'}")
    with engine.connect() as conn:
        counts = {
            model.__tablename__: conn.execute(select(func.count()).select_from(model)).scalar_one()
            for model in (SourceFile, RawBoard, Board, Exclusion)
        }
        runs = conn.execute(select(StageRun.stage, func.count()).group_by(StageRun.stage)).all()
    engine.dispose()
    counts["runs"] = dict(runs)
    return counts


def test_run_on_the_embedded_sample_then_rerun_does_nothing(tmp_path):
    out = tmp_path / "out"
    first = _invoke("run", "--to", "match", "--out", out)
    assert first.exit_code == 0, first.output
    assert "using the embedded sample" in first.output
    assert "ingest: 886 records from 4 files (4 ingested)" in first.output
    assert "clean: 886 records, 882 boards kept, 4 excluded" in first.output
    assert "claim_inconsistent" in first.output
    counts = _counts(out)
    assert counts["raw_boards"] == 886 and counts["boards"] == 882
    assert counts["runs"] == {"ingest": 1, "clean": 1, "match": 1}

    second = _invoke("run", "--to", "match", "--out", out)
    assert second.exit_code == 0
    assert "clean: up to date, nothing to do" in second.output
    assert "ingest: no sources given" in second.output
    assert _counts(out) == counts


def test_reingesting_the_same_file_adds_nothing(tmp_path, test_data):
    out = tmp_path / "out"
    _invoke("ingest", test_data / "bermuda1955_head.pbn", "--out", out)
    copy = tmp_path / "copy.pbn"
    shutil.copy(test_data / "bermuda1955_head.pbn", copy)
    again = _invoke("ingest", test_data / "bermuda1955_head.pbn", copy, "--out", out)
    assert "2 already stored" in again.output
    assert _counts(out)["raw_boards"] == 12


def test_a_changed_setting_reruns_only_what_depends_on_it(tmp_path):
    out = tmp_path / "out"
    _invoke("run", "--to", "match", "--out", out)
    settings = tmp_path / "settings.toml"
    settings.write_text("[clean]\nfirst_year = 1960\n")
    rerun = _invoke("run", "--to", "match", "--out", out, "--config", settings)
    assert "ingest: no sources given" in rerun.output
    assert "clean: 886 records" in rerun.output
    assert "year_unknown" in rerun.output  # the 1955 boards now have no plausible year
    assert _counts(out)["runs"] == {"ingest": 1, "clean": 2, "match": 2}
    same = _invoke("run", "--to", "match", "--out", out, "--config", settings)
    assert "clean: up to date" in same.output


def test_new_sources_rerun_clean(tmp_path, test_data):
    out = tmp_path / "out"
    _invoke("run", "--to", "match", test_data / "bermuda1955_head.pbn", "--out", out)
    more = _invoke("run", "--to", "match", test_data / "vugraph-00070.lin", "--out", out)
    assert "clean: 44 records" in more.output
    assert _counts(out)["boards"] == 44


def test_only_from_to(tmp_path):
    out = tmp_path / "out"
    not_ready = _invoke("run", "--only", "clean", "--out", out)
    assert not_ready.exit_code == 1
    assert "error: stage 'clean' needs 'raw_boards', which has not run yet" in not_ready.output
    assert _invoke("run", "--to", "ingest", "--out", out).exit_code == 0
    assert _counts(out)["runs"] == {"ingest": 1}
    assert (
        "clean: 886 records"
        in _invoke("run", "--from", "clean", "--to", "match", "--out", out).output
    )
    forced = _invoke("clean", "--force", "--out", out)
    assert "clean: 886 records" in forced.output
    assert _invoke("run", "--only", "clean", "--from", "ingest", "--out", out).exit_code == 2


def test_status(tmp_path):
    out = tmp_path / "out"
    before = CliRunner().invoke(main, ["status", "--out", str(out)])
    assert before.exit_code == 3 and "no database at" in before.output
    assert not out.exists()  # status creates nothing
    _invoke("run", "--to", "ingest", "--out", out)
    ingested = _invoke("status", "--out", out).output
    assert "clean    never run" in ingested and "match    not ready" in ingested
    _invoke("run", "--to", "match", "--out", out)
    after = _invoke("status", "--out", out)
    assert "ingest   done" in after.output
    assert "clean    up to date" in after.output and "882 boards kept of 886" in after.output
    assert after.exit_code == 1  # dds and the rest never ran
    # a changed setting: status and a dry run say which stage and why, and change nothing
    config = tmp_path / "stricter.toml"
    config.write_text("[match]\nfuzzy_min_ratio = 95.0\n")
    changed = _invoke("status", "--out", out, "--config", config).output
    assert "match    out of date" in changed and "why: settings changed in [match]" in changed
    plan = _invoke("run", "--dry-run", "--to", "match", "--out", out, "--config", config).output
    assert plan.splitlines() == [
        "would skip ingest   no files named",
        "would skip clean    up to date",
        "would run  match    out of date: settings changed in [match]",
        "1 of 3 stages would run",
    ]
    assert "match    out of date" in _invoke("status", "--out", out, "--config", config).output


def test_interrupted_clean_leaves_nothing_half_written(tmp_path, monkeypatch):
    out = tmp_path / "out"
    _invoke("run", "--to", "ingest", "--out", out)
    real_insert = clean_module._insert
    calls = []

    def insert_then_die(conn, table, rows, chunk=20000):
        real_insert(conn, table, rows, chunk)
        calls.append(table.name)
        raise KeyboardInterrupt  # as Ctrl-C after the boards were written, before commit

    monkeypatch.setattr(clean_module, "_insert", insert_then_die)
    interrupted = _invoke("run", "--to", "match", "--out", out)
    assert interrupted.exit_code == 130
    assert calls == ["boards"]
    assert "interrupted during clean; nothing of it was committed" in interrupted.output
    assert f"Resume with: bridgerank run --from clean --to match --out {out}" in " ".join(
        interrupted.output.split()
    )
    assert _counts(out)["boards"] == 0 and _counts(out)["runs"] == {"ingest": 1}
    monkeypatch.setattr(clean_module, "_insert", real_insert)
    resumed = _invoke("run", "--to", "match", "--out", out)
    assert "clean: 886 records, 882 boards kept" in resumed.output


def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path, monkeypatch):
    """A batch system's stop (SIGTERM, a real signal to this process) ends the run with the
    same word as Ctrl-C: what was kept and how to resume, exit 143, nothing half written."""
    import os
    import signal

    out = tmp_path / "out"
    _invoke("run", "--to", "ingest", "--out", out)
    real_insert = clean_module._insert
    handler = signal.getsignal(signal.SIGTERM)

    def insert_then_terminated(conn, table, rows, chunk=20000):
        real_insert(conn, table, rows, chunk)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(clean_module, "_insert", insert_then_terminated)
    stopped = _invoke("run", "--to", "match", "--out", out)
    assert stopped.exit_code == 143
    assert "interrupted (terminated) during clean; nothing of it was committed" in stopped.output
    assert f"Resume with: bridgerank run --from clean --to match --out {out}" in " ".join(
        stopped.output.split()
    )
    assert _counts(out)["boards"] == 0
    # the run's handler is gone with it: the process's own is back
    assert signal.getsignal(signal.SIGTERM) == handler
    # an option given before the command's name is in the command that resumes
    stopped = _invoke("--out", out, "run", "--to", "match")
    assert stopped.exit_code == 143
    assert f"Resume with: bridgerank run --from clean --to match --out {out}" in " ".join(
        stopped.output.split()
    )


def test_interrupted_ingest_resumes_with_the_files_not_yet_stored(tmp_path, monkeypatch):
    out = tmp_path / "out"
    real = ingest_module.ingest_file
    seen = []

    def second_file_dies(engine, path, **options):
        if seen:
            raise KeyboardInterrupt
        seen.append(path)
        return real(engine, path, **options)

    monkeypatch.setattr(ingest_module, "ingest_file", second_file_dies)
    assert _invoke("run", "--to", "match", "--out", out).exit_code == 130
    assert _counts(out)["source_files"] == 1 and _counts(out)["runs"] == {}
    monkeypatch.setattr(ingest_module, "ingest_file", real)
    resumed = _invoke("run", "--to", "match", "--out", out)
    assert "resuming the interrupted ingest" in resumed.output
    assert "1 already stored, 3 ingested" in resumed.output
    assert _counts(out)["boards"] == 882


def test_bad_files_are_reported_and_skipped(tmp_path, test_data):
    out = tmp_path / "out"
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(test_data / "bermuda1955_head.pbn", folder / "good.pbn")
    (folder / "notes.txt").write_text("minutes of the club meeting\n")
    (folder / "noise.pbn").write_bytes(bytes(range(256)) * 4)
    named = tmp_path / "letter.txt"
    named.write_text("Dear member, ...\n")
    result = _invoke("ingest", folder, named, "--out", out)
    assert result.exit_code == 1  # a named file that is no bridge data fails the run ...
    assert result.output.strip().splitlines() == [
        f"error: {named}: not a bridge hand-record file (PBN, LIN, SQL dump, Valet "
        "scores or a BridgeComposer recap)",
        "The other files were stored; fix or leave out this one and run again",
    ]
    assert _counts(out)["raw_boards"] == 12  # ... and loses nothing the others gave
    # the folder's files that were skipped are named, with why, by status
    status = _invoke("status", "--out", out).output
    assert f"skipped by ingest: {folder / 'noise.pbn'} (not bridge data)" in status
    assert f"skipped by ingest: {folder / 'notes.txt'} (not bridge data)" in status
    rerun = _invoke("ingest", folder, "--out", out)
    assert rerun.exit_code == 0 and "1 already stored, 2 not bridge data" in rerun.output
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = _invoke("ingest", empty, "--out", out)
    assert nothing.exit_code == 1
    assert nothing.output.startswith(f"error: {empty}: no file to read in this folder")
    assert "Resume" not in nothing.output  # the same command cannot do better
    nothing = _invoke("run", empty, "--out", out)
    assert nothing.exit_code == 1 and len(nothing.output.strip().splitlines()) == 1
    missing = _invoke("ingest", tmp_path / "nowhere.pbn", "--out", out)
    assert missing.exit_code == 1
    assert missing.output.strip().splitlines()[0] == (
        f"error: {tmp_path / 'nowhere.pbn'}: no such file or folder"
    )
    assert _counts(out)["raw_boards"] == 12  # nothing already stored was lost


def test_sql_dump_through_the_stages(tmp_path, test_data):
    out = tmp_path / "out"
    result = _invoke("run", "--to", "match", test_data / "defects_dump.sql", "--out", out)
    assert result.exit_code == 0
    engine = open_engine(f"sqlite:///{out / 'bridgerank.db'}")
    with engine.connect() as conn:
        rows, total, kept = exclusion_table(conn, "board")
        names = conn.execute(select(Board.west).order_by(Board.id)).scalars().all()
        tables = conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'").all()
    engine.dispose()
    counts = {row.code: row.tally for row in rows}
    assert counts["unparseable_record"] == 2
    # rows 2-5 repeat row 1's table result with other names and are kept; row 8 repeats
    # row 4 with the same names, differing only in event and note: a copy
    assert counts["duplicate_record"] == 1
    assert kept == 5 and total == 3
    assert "'); DROP TABLE boards; --" in names
    assert ("boards",) in tables


def test_duplicates_across_files_are_excluded_once(tmp_path, test_data):
    out = tmp_path / "out"
    renamed = tmp_path / "renamed.pbn"
    text = (test_data / "bermuda1955_head.pbn").read_text()
    renamed.write_text(text.replace("Bermuda Bowl 1955", "BB55 (second copy)"))
    _invoke("run", "--to", "match", test_data / "bermuda1955_head.pbn", renamed, "--out", out)
    engine = open_engine(f"sqlite:///{out / 'bridgerank.db'}")
    with engine.connect() as conn:
        rows, _, kept = exclusion_table(conn, "board")
        detail = (
            conn.execute(select(Exclusion.detail).where(Exclusion.reason == "duplicate_record"))
            .scalars()
            .first()
        )
    engine.dispose()
    assert {row.code: row.tally for row in rows}["duplicate_record"] == 12
    assert kept == 12
    assert detail.startswith("same as record 1 (") and "bermuda1955_head.pbn:3)" in detail


def test_exclusion_tables_match_the_summary(tmp_path):
    out = tmp_path / "out"
    _invoke("run", "--to", "match", "--out", out)
    engine = open_engine(f"sqlite:///{out / 'bridgerank.db'}")
    with engine.connect() as conn:
        board_rows, board_total, kept = exclusion_table(conn, "board")
        play_rows, play_total, plays = exclusion_table(conn, "play")
    engine.dispose()
    assert board_total == 4 and kept == 882
    assert [row.code for row in board_rows][:3] == [
        "unparseable_record",
        "duplicate_record",
        "all_names_missing",
    ]
    # two Bermuda Bowl boards without play; the club recaps give the lead card alone: 383 of
    # their 401 boards a play of one card, 19 a lead card the leader does not hold
    tally = {row.code: row.tally for row in play_rows}
    assert (tally["play_missing"], tally["play_card_not_held"]) == (2, 19)
    assert plays == 467 + 382


def test_the_same_output_folder_written_two_ways_is_one_report(tmp_path, monkeypatch):
    """``--out out`` from its parent folder and the same folder's absolute path are one
    report: a rerun is up to date; another folder is another report."""
    monkeypatch.chdir(tmp_path)
    first = _invoke("run", "--out", "out")
    assert first.exit_code == 0, first.output
    again = _invoke("run", "--out", tmp_path / "out")
    assert again.exit_code == 0, again.output
    assert "report: up to date, nothing to do" in again.output
    database = f"sqlite:///{tmp_path / 'out' / 'bridgerank.db'}"
    elsewhere = _invoke("run", "--out", "other", "--db", database)
    assert elsewhere.exit_code == 0, elsewhere.output
    assert "report: up to date" not in elsewhere.output
    assert (tmp_path / "other" / "report" / "index.html").is_file()


def test_a_folder_reached_through_a_symbolic_link_is_read(tmp_path, test_data):
    real = tmp_path / "records" / "1955"
    real.mkdir(parents=True)
    shutil.copy(test_data / "bermuda1955_head.pbn", real / "head.pbn")
    given = tmp_path / "given"
    given.mkdir()
    (given / "1955").symlink_to(real, target_is_directory=True)
    (real / "loop").symlink_to(given, target_is_directory=True)  # a link back up: read once
    result = _invoke("ingest", given, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "from 1 file (1 ingested)" in result.output


def test_a_db_that_does_not_exist_without_sources_is_refused_in_one_line(tmp_path):
    typo = tmp_path / "bridgerank.dbb"
    result = _invoke("run", "--db", typo)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: no database at {typo} (to build one there, name what to read: "
        f"bridgerank run SOURCES --db {typo})"
    ]
    assert not typo.exists() and list(tmp_path.iterdir()) == []
