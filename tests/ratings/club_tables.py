"""Field tables for tests: a session a period, periods named in order."""

from __future__ import annotations

import numpy as np

from bridgerank.ratings.field import FieldTables


def club_tables(seats, share, group, period) -> FieldTables:
    """The tables of ``seats`` (North, South, East, West) with North-South's ``share``, the
    deal (``group``) and date (``period``, also the session) of each; players numbered from
    0 to the largest seat."""
    periods = sorted(set(np.asarray(period).tolist()))
    count = len(share)
    return FieldTables(
        players=list(range(int(np.max(seats)) + 1)),
        seats=np.array(seats),
        share=np.array(share, dtype=float),
        group=np.array(group),
        session=np.array(period),
        sessions=[("club", str(p)) for p in range(max(periods) + 1)],
        period=np.array(period),
        periods=[f"{p:03d}" for p in range(max(periods) + 1)],
        board=np.arange(count),
    )
