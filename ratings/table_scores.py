"""What each table of a deal scored, as the deal pages show it: North-South's score, its share
of the matchpoints among the event's tables of the deal (three or more scored tables), and a
team board's IMPs (its open room against the closed room of the same match).

The rate stage stores these (``table_scores``) beside the ratings built from the same scores,
so that the report reads them rather than scoring every table again.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from bridgerank.bridge.scoring import imps
from bridgerank.ratings.field import matchpoint_shares
from bridgerank.ratings.games import ns_score, room_pairs

__all__ = ["table_scores", "team_imps"]

# Fewer scored tables of a deal than this: no matchpoints (two tables are a match, not a field).
MIN_MATCHPOINTED = 3


def team_imps(
    tables: Sequence[Mapping[str, Any]], scores: Mapping[int, int | None]
) -> dict[int, int]:
    """For each team board's open room (its board id): the IMPs its North-South won against
    the closed room of the same match (negative: lost).

    Parameters
    ----------
    tables : sequence of mapping
        A deal's boards of one event (``id``, ``room``, ``home_team``, ``visit_team``).
    scores : mapping of int to int or None
        North-South's score of each board id (None: unknown).

    Returns
    -------
    dict of int to int
    """
    rooms: dict[str, list[Mapping[str, Any]]] = {"open": [], "closed": []}
    for board in tables:
        room = str(board.get("room") or "").strip().lower()
        if room in rooms:
            rooms[room].append(board)
    found = {}
    for open_room, closed in room_pairs(rooms["open"], rooms["closed"]):
        first, second = scores[int(open_room["id"])], scores[int(closed["id"])]
        if first is not None and second is not None:
            found[int(open_room["id"])] = imps(first - second)
    return found


def table_scores(boards: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per board: ``board_id``, ``ns_score``, ``ns_percent`` and ``imps``.

    Parameters
    ----------
    boards : iterable of mapping
        The boards in id order, with what scoring reads (contract, declarer, result,
        vulnerability), ``event``, ``deal_hash`` and what pairs a match's rooms.

    Returns
    -------
    list of dict
        ``ns_percent`` is None for a deal with fewer than three scored tables in its event,
        ``imps`` None but for a team board's open room with both rooms scored.
    """
    deals: dict[tuple[Any, Any], list[Mapping[str, Any]]] = {}
    for board in boards:
        deals.setdefault((board["event"], board["deal_hash"]), []).append(board)
    rows = []
    for tables in deals.values():
        scores = {int(board["id"]): ns_score(board) for board in tables}
        scored = [board_id for board_id, score in scores.items() if score is not None]
        percent: dict[int, float] = {}
        if len(scored) >= MIN_MATCHPOINTED:
            shares = matchpoint_shares([int(scores[board_id] or 0) for board_id in scored])
            percent = {board_id: 100 * share for board_id, share in zip(scored, shares)}
        won = team_imps(tables, scores)
        rows += [
            {
                "board_id": board_id,
                "ns_score": score,
                "ns_percent": percent.get(board_id),
                "imps": won.get(board_id),
            }
            for board_id, score in scores.items()
        ]
    return rows
