"""The report's staging folders: where a run builds its site and CSVs before publishing them,
and the removal of those that killed runs left behind.

A staging folder is ``<out>/.report-<pid>@<host>-<random>``: the process id and host name of
the run that made it. A run removes its own folder when it ends, even on an error; a run that
is killed (``kill -9``, a power cut, the machine's out-of-memory killer) cannot, and its
folder holds a whole half-written site. So each report run first removes, among the folders
named ``.report-*`` in its out folder:

- those of this host whose process is gone: no run can still be writing there;
- the others (another host's, on a shared drive, whose processes cannot be asked from here,
  and those of versions that named no process, ``.report-<random>``) once nothing in them has
  changed for :data:`STALE_SECONDS`: a report writes a page or a CSV far more often.

A folder whose process lives is left alone: two databases may share one out folder, and the
writer lock (:mod:`bridgerank.core.lock`) keeps one writer per database, not per folder.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path

# Every staging folder's name starts so; nothing else in the out folder is ever removed.
PREFIX = ".report-"
# A folder of no known living process is a dead run's once untouched for this long.
STALE_SECONDS = 24 * 3600


def make_staging(out: Path) -> Path:
    """A new, empty staging folder in ``out``, named after this process and host.

    Parameters
    ----------
    out : Path
        The out folder, where the report and the CSV folder are published.

    Returns
    -------
    Path
        The folder, readable by its owner only (as :func:`tempfile.mkdtemp` makes it).
    """
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}@{_host()}-", dir=out))


def remove_dead_staging(out: Path) -> list[Path]:
    """Remove the staging folders in ``out`` that killed runs left (see the module docstring).

    Parameters
    ----------
    out : Path
        The out folder.

    Returns
    -------
    list of Path
        The folders removed.
    """
    removed = []
    for folder in _staging_folders(out):
        if _dead(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _host() -> str:
    """This host's name, with any character unfit for a file name replaced."""
    return re.sub(r"[^A-Za-z0-9.-]", "_", socket.gethostname()) or "host"


def _staging_folders(out: Path) -> list[Path]:
    """The folders in ``out`` named as staging folders (not links: a link named so is not
    one of ours, and removing through it would reach elsewhere)."""
    if not out.is_dir():
        return []
    return [
        entry
        for entry in out.iterdir()
        if entry.name.startswith(PREFIX) and entry.is_dir() and not entry.is_symlink()
    ]


def _owner(name: str) -> tuple[int, str] | None:
    """(process id, host) of the run that named a staging folder so, or None for a name
    without them (an earlier version's)."""
    pid, at, host = name[len(PREFIX) :].rpartition("-")[0].partition("@")
    return (int(pid), host) if at and pid.isdigit() else None


def _dead(folder: Path) -> bool:
    """Whether no running report can be writing into ``folder``."""
    owner = _owner(folder.name)
    # only a POSIX system can be asked whether a process lives (Windows' os.kill kills it)
    if owner is not None and owner[1] == _host() and os.name == "posix":
        return not _alive(owner[0])
    return _untouched_since(folder, time.time() - STALE_SECONDS)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (signal 0 asks without signalling)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it lives, under another user
        return True
    return True


def _untouched_since(folder: Path, limit: float) -> bool:
    """Whether nothing in ``folder``, the folder included, changed after ``limit`` (seconds
    since the epoch); a file vanishing as it is looked at counts as a change."""
    for root, _, files in os.walk(folder):
        for path in (root, *(os.path.join(root, name) for name in files)):
            if _mtime(path) >= limit:
                return False
    return True


def _mtime(path: str) -> float:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return math.inf
