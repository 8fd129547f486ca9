"""The DD store's exchange file: its CSV header, and how it is opened (gzip, a byte order mark).

The format itself is described in :mod:`bridgerank.dds.exchange` (and docs/dds.md); export
(:mod:`bridgerank.dds.store_export`) and import (:mod:`bridgerank.dds.store_import`) share
what is here, so the two agree on the file.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import IO

__all__ = ["HEADER", "open_text"]

HEADER = ("kind", "solver", "deal", "trump", "leader", "cards", "values")


def open_text(path: Path, mode: str) -> IO[str]:
    """``path`` as text, through gzip when its name ends in ``.gz``. Read as UTF-8 with an
    optional byte order mark: a file saved again by a spreadsheet starts with one."""
    gzipped = path.name.endswith(".gz")
    if mode == "r":
        if gzipped:
            return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
        return open(path, encoding="utf-8-sig", newline="")
    if gzipped:
        return gzip.open(path, "wt", encoding="utf-8", newline="")
    return open(path, "w", encoding="utf-8", newline="")
