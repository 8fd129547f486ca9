"""CSV exports of every result table, safe to open in a spreadsheet.

- Text cells that a spreadsheet would read as a formula (starting ``=``, ``+``, ``-``, ``@``,
  tab or carriage return) are prefixed with a single quote, as OWASP recommends for CSV
  injection: a player named ``=HYPERLINK(...)`` stays text.
- Control and bidi characters in text cells (a NUL, an ESC, a right-to-left override) are
  written as visible escapes, ``\\x00``, ``\\x1b``, ``\\u202e``
  (:mod:`bridgerank.core.untrusted`); tabs and line breaks stay, in a quoted cell.
- Integer columns are written as integers (a nullable integer column is not turned into
  floats by its missing values).
- Rows about boards carry the board's source file, event and board number, so each row can be
  traced to the record it came from.
"""

from __future__ import annotations

from pathlib import Path, PurePath

import pandas as pd
from sqlalchemy import Boolean, Integer

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.core.store import Base, exported_tables
from bridgerank.core.untrusted import LAYOUT, visible
from bridgerank.pipeline.report.reads import Read, ReportTables

# Characters that make a spreadsheet cell a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Tables keyed by board: exported with the board's source file, event and board number.
BOARD_TABLES = (
    "boards",
    "card_analysis",
    "auction_analysis",
    "call_analysis",
    "table_evidence",
)
# What tracing a board to its file reads, beside the exported tables.
TRACE_READS: tuple[Read, ...] = (RawBoard.id, RawBoard.source_id, SourceFile.id, SourceFile.path)


def csv_reads() -> tuple[Read, ...]:
    """What the CSV export reads: every table marked for export, and the boards' files."""
    return (*exported_tables(), *TRACE_READS)


def neutralise(value: object) -> object:
    """``value`` with its control and bidi characters made visible, and a leading quote if a
    spreadsheet would run it as a formula (checked last: on the text as written)."""
    if not isinstance(value, str):
        return value
    value = visible(value, LAYOUT)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _trace(tables: ReportTables) -> pd.DataFrame:
    """board_id, source_file, event, board_no: each board's file, as the pages name it
    (relative to the folder the user gave; a file stored before names were kept: its own
    name) - never its path on the machine that read it."""
    boards = tables.frame(Board)[["id", "event", "board_no"]]
    raw = tables.frame(RawBoard).rename(columns={"id": "raw_id"})
    files = tables.frame(SourceFile).rename(columns={"id": "file_id"})
    files["source_file"] = [
        name if isinstance(name, str) and name else PurePath(str(path)).name
        for name, path in zip(files["name"], files["path"])
    ]
    files = files[["file_id", "source_file"]]
    trace = boards.merge(raw, left_on="id", right_on="raw_id").merge(
        files, left_on="source_id", right_on="file_id"
    )
    return trace.rename(columns={"id": "board_id"})[
        ["board_id", "source_file", "event", "board_no"]
    ]


def export_table(
    tables: ReportTables, table: type[Base], path: Path, trace: pd.DataFrame | None = None
) -> None:
    """Write ``table`` as CSV at ``path`` (see the module docstring); a board table's rows
    lead with their board's file from ``trace`` (:func:`_trace`, built here when not given)."""
    name = table.__tablename__
    frame = tables.frame(table)
    for declared in table.__table__.columns:
        if declared.name not in frame:
            continue
        if isinstance(declared.type, Integer):
            # columns declared integer stay integers, missing values and all
            frame[declared.name] = frame[declared.name].astype("Int64")
        elif isinstance(declared.type, Boolean):
            # True and False, whatever the database stores them as (SQLite: 1 and 0)
            frame[declared.name] = frame[declared.name].map(
                lambda value: None if pd.isna(value) else bool(value)
            )
    if name in BOARD_TABLES:
        trace = _trace(tables) if trace is None else trace
        key = "id" if name == "boards" else "board_id"
        if name == "boards":
            trace = trace.drop(columns=["event", "board_no"])
        frame = trace.merge(frame, left_on="board_id", right_on=key, how="right")
        if name == "boards":
            frame = frame.drop(columns=["board_id"])
        leading = ["source_file", "event", "board_no"]
        frame = frame[[c for c in leading if c in frame] + [c for c in frame if c not in leading]]
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].map(neutralise)
    frame.to_csv(path, index=False)


def export_all(tables: ReportTables, folder: Path) -> list[Path]:
    """Every table marked for export that the database holds, as ``folder/<table>.csv``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    trace = None  # each board's file, built once for every board table
    for table in exported_tables():
        if tables.present(table):
            if table.__tablename__ in BOARD_TABLES and trace is None:
                trace = _trace(tables)
            path = folder / f"{table.__tablename__}.csv"
            export_table(tables, table, path, trace)
            written.append(path)
    return written
