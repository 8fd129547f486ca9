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

from pathlib import Path

import pandas as pd
from sqlalchemy import Integer, inspect, text
from sqlalchemy.engine import Connection

from bridgerank.core.untrusted import LAYOUT, visible

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
_TRACE = (
    "select b.id as board_id, f.path as source_file, b.event as event, b.board_no as board_no "
    "from boards b join raw_boards r on r.id = b.id join source_files f on f.id = r.source_id"
)


def neutralise(value: object) -> object:
    """``value`` with its control and bidi characters made visible, and a leading quote if a
    spreadsheet would run it as a formula (checked last: on the text as written)."""
    if not isinstance(value, str):
        return value
    value = visible(value, LAYOUT)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def export_table(conn: Connection, table: str, path: Path) -> None:
    """Write ``table`` as CSV at ``path`` (see the module docstring)."""
    frame = pd.read_sql_table(table, conn)
    # columns declared integer stay integers, missing values and all
    for declared in inspect(conn).get_columns(table):
        if isinstance(declared["type"], Integer) and declared["name"] in frame:
            frame[declared["name"]] = frame[declared["name"]].astype("Int64")
    if table in BOARD_TABLES:
        trace = pd.read_sql(text(_TRACE), conn)
        key = "id" if table == "boards" else "board_id"
        if table == "boards":
            trace = trace.drop(columns=["event", "board_no"])
        frame = trace.merge(frame, left_on="board_id", right_on=key, how="right")
        if table == "boards":
            frame = frame.drop(columns=["board_id"])
        leading = ["source_file", "event", "board_no"]
        frame = frame[[c for c in leading if c in frame] + [c for c in frame if c not in leading]]
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].map(neutralise)
    frame.to_csv(path, index=False)


def export_all(conn: Connection, tables: tuple[str, ...], folder: Path) -> list[Path]:
    """Every table of ``tables`` present in the database, as ``folder/<table>.csv``."""
    folder.mkdir(parents=True, exist_ok=True)
    present = set(inspect(conn).get_table_names())
    written = []
    for table in tables:
        if table in present:
            path = folder / f"{table}.csv"
            export_table(conn, table, path)
            written.append(path)
    return written
