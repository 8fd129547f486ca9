"""Staging folders that killed report runs left behind are removed by the next report run;
those of living runs, and anything not named as a staging folder, are not."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main
from bridgerank.pipeline.report.staging import (
    PREFIX,
    STALE_SECONDS,
    make_staging,
    remove_dead_staging,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="processes are asked on POSIX only")


def _dead_pid() -> int:
    """The process id of a run that was killed (and reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    process.kill()
    process.wait()
    return process.pid


def _leftover(out: Path, pid: int) -> Path:
    """A staging folder as a run of ``pid`` on this host leaves it when killed mid-way."""
    own = make_staging(out)
    folder = out / own.name.replace(f"{PREFIX}{os.getpid()}@", f"{PREFIX}{pid}@", 1)
    own.rename(folder)
    (folder / "report" / "boards").mkdir(parents=True)
    (folder / "report" / "boards" / "1.html").write_text("<p>half a site</p>")
    return folder


def _age(folder: Path, seconds: float) -> None:
    """Make everything in ``folder`` look untouched for ``seconds``."""
    then = time.time() - seconds
    for root, _, files in os.walk(folder):
        for path in (root, *(os.path.join(root, name) for name in files)):
            os.utime(path, (then, then))


def test_a_staging_folder_is_named_after_its_process(tmp_path):
    folder = make_staging(tmp_path)
    assert folder.parent == tmp_path and folder.name.startswith(f"{PREFIX}{os.getpid()}@")
    assert remove_dead_staging(tmp_path) == [] and folder.is_dir()  # this process lives


def test_only_dead_runs_folders_go(tmp_path):
    dead = _leftover(tmp_path, _dead_pid())
    living = _leftover(tmp_path, os.getppid())  # another run on another database, say
    # an earlier version's folder (no process named): removed once untouched for a day
    old, recent = tmp_path / ".report-abcd1234", tmp_path / ".report-efgh5678"
    for folder in (old, recent):
        (folder / "csv").mkdir(parents=True)
        (folder / "csv" / "boards.csv").write_text("x\n")
    _age(old, STALE_SECONDS + 60)
    # a run of another host on a shared drive: its process cannot be asked from here
    other_host = tmp_path / f"{PREFIX}{os.getpid()}@elsewhere.example-abcd1234"
    other_host.mkdir()
    # not staging folders: other names, a file, a link (its target must survive)
    others = [tmp_path / "report", tmp_path / "report-old", tmp_path / ".reports"]
    for folder in others:
        folder.mkdir()
    (tmp_path / ".report-notes.txt").write_text("mine")
    target = tmp_path / "precious"
    target.mkdir()
    (target / "file").write_text("keep")
    (tmp_path / ".report-link").symlink_to(target)

    assert sorted(remove_dead_staging(tmp_path)) == sorted([dead, old])
    assert not dead.exists() and not old.exists()
    assert living.is_dir() and recent.is_dir() and other_host.is_dir()
    assert all(folder.is_dir() for folder in others)
    assert (tmp_path / ".report-notes.txt").read_text() == "mine"
    assert (tmp_path / ".report-link" / "file").read_text() == "keep"


def test_the_next_report_run_removes_a_killed_runs_staging_folder(tmp_path, test_data):
    out = tmp_path / "out"
    database = out / "bridgerank.db"
    common = ["--out", str(out), "--db", str(database)]
    # ingest and clean are all a report needs (boards): no double dummy analysis
    records = (test_data / "bermuda1955_head.pbn").read_text().split("\n\n")[:2]
    (tmp_path / "two.pbn").write_text("\n\n".join(records) + "\n")
    first = CliRunner().invoke(
        main, ["run", str(tmp_path / "two.pbn"), "--only", "ingest", "--only", "clean", *common]
    )
    assert first.exit_code == 0, first.output
    leftover = _leftover(out, _dead_pid())
    unrelated = out / "notes"
    unrelated.mkdir()
    (unrelated / "n.txt").write_text("mine")

    result = CliRunner().invoke(main, ["report", *common])
    assert result.exit_code == 0, result.output
    assert (out / "report" / "index.html").exists() and not leftover.exists()
    assert (unrelated / "n.txt").read_text() == "mine"
    # the run removed its own staging folder too
    assert not [path for path in out.iterdir() if path.name.startswith(PREFIX)]

    # a run whose report is up to date removes what a later killed run left all the same
    again = _leftover(out, _dead_pid())
    result = CliRunner().invoke(main, ["run", "--only", "report", *common])
    assert result.exit_code == 0 and "report: up to date" in result.output, result.output
    assert not again.exists()
