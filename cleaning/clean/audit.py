"""The cleaning audit: the thesis's Tables 5-7 as counts from the ``exclusions`` table."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from bridgerank.cleaning.clean.reasons import ReasonCount, reason_counts
from bridgerank.cleaning.clean.tables import Board, Exclusion
from bridgerank.cleaning.ingest.tables import RawBoard

__all__ = ["ReasonCount", "exclusion_table", "records_read"]


def exclusion_table(conn: Connection, level: str) -> tuple[list[ReasonCount], int, int]:
    """Counts of one level's reasons, every reason listed (zeros too), in check order.

    Parameters
    ----------
    conn : Connection
    level : {"board", "auction", "play", "note"}

    Returns
    -------
    rows : list of ReasonCount
    total : int
        Records affected at this level.
    no_error : int
        For ``board``: records kept; for ``auction``/``play``: kept boards whose auction or
        play is usable; for ``note``: kept boards.
    """
    counts = dict(
        conn.execute(
            select(Exclusion.reason, func.count())
            .where(Exclusion.level == level)
            .group_by(Exclusion.reason)
        ).all()
    )
    rows = reason_counts(level, counts)
    total = sum(row.tally for row in rows)
    column = {"auction": Board.auction, "play": Board.play}.get(level)
    query = select(func.count()).select_from(Board)
    if column is not None:
        query = query.where(column != "")
    no_error = conn.execute(query).scalar_one()
    return rows, total, no_error


def records_read(conn: Connection) -> int:
    """Number of raw records stored."""
    return conn.execute(select(func.count()).select_from(RawBoard)).scalar_one()
