"""The field a board's calls are matchpointed against: the other tables of its deal.

A call on a board of a matchpointed pair event is judged in shares of a top against the other
tables' scores (:mod:`dds.call_values`), when the event played the deal at ``[dds]
call_min_tables`` tables or more with a score (3 by default, as the ratings' fields,
:mod:`ratings.field`, have ``[rate] min_tables``).
The event's scoring tag decides: a tag that names matchpoints, and nothing else - a pair event
whose records name no scoring (the corpus's Cap Gemini World Top, an IMP pairs) and a team
event whose vugraph header says ``P`` at two tables are judged in IMPs.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, MutableMapping

from bridgerank.bridge.scoring import scored_in_matchpoints, table_score
from bridgerank.core.settings import default_settings

__all__ = ["FIELD_COLUMNS", "attach_fields"]

# The board columns, beyond the analysis's own, that place a board in its field.
FIELD_COLUMNS = ("event", "date", "scoring")


def attach_fields(boards: Iterable[MutableMapping[str, Any]], min_tables: int | None = None) -> int:
    """Set each board's ``field``: the other tables' North-South scores of its deal at its
    event (sorted), on a matchpointed board with a field; None elsewhere.

    Parameters
    ----------
    boards : iterable of mutable mapping
        ``boards`` rows with the analysis's columns and :data:`FIELD_COLUMNS`.
    min_tables : int, optional
        The tables of one deal with a score a field needs, the board's own among them (None:
        ``[dds] call_min_tables`` of the shipped defaults).

    Returns
    -------
    int
        How many boards got a field.
    """
    if min_tables is None:
        min_tables = default_settings().dds.call_min_tables
    groups: dict[tuple[Any, ...], list[MutableMapping[str, Any]]] = defaultdict(list)
    for board in boards:
        board["field"] = None
        if scored_in_matchpoints(board.get("scoring")):
            groups[(board["event"], board["date"], board["board_no"], board["deal_hash"])].append(
                board
            )
    fielded = 0
    for tables in groups.values():
        scores = [table_score(board) for board in tables]
        if sum(score is not None for score in scores) < min_tables:
            continue
        for number, board in enumerate(tables):
            others = [s for k, s in enumerate(scores) if k != number and s is not None]
            board["field"] = sorted(others)
            fielded += 1
    return fielded
