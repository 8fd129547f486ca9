"""What a deal page shows beside the tables, as BBO's and Bridge Solver Online's pages do: the
double dummy table of tricks by declarer and strain with the makeable contracts, and the IMPs
of each team board (its two rooms set side by side)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.scoring import imps
from bridgerank.ratings.games import room_pairs

__all__ = ["DD_STRAINS_SHOWN", "dd_grid", "team_imps"]

# Notrump first, then the suits from the top, as players read a makeable-contracts table.
DD_STRAINS_SHOWN = (("N", "NT"), ("S", "\u2660"), ("H", "\u2665"), ("D", "\u2666"), ("C", "\u2663"))
_SEATS = (("N", 0), ("S", 2), ("E", 1), ("W", 3))


def dd_grid(tricks_hex: str | None) -> list[dict[str, Any]] | None:
    """One row per declarer (North, South, East, West): the tricks in each strain and whether
    a contract makes (seven tricks or more); None when the deal has no stored table."""
    if not tricks_hex:
        return None
    table = DDTable.from_hex(tricks_hex)
    return [
        {
            "seat": seat,
            "tricks": [
                (table.tricks(strain, index), table.tricks(strain, index) >= 7)
                for strain, _ in DD_STRAINS_SHOWN
            ],
        }
        for seat, index in _SEATS
    ]


def team_imps(tables: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """For each team board's open room (its board id): the IMPs its North-South won against
    the closed room of the same match (negative: lost). ``tables`` are a deal's tables of one
    event, each with ``values`` (the boards row, None for a missing value) and ``ns_score``
    (None: unknown)."""
    rooms: dict[str, list[Mapping[str, Any]]] = {"open": [], "closed": []}
    score_of: dict[int, int | None] = {}
    for table in tables:
        board = table["values"]
        room = str(board.get("room") or "").strip().lower()
        if room in rooms:
            rooms[room].append(board)
            score_of[int(board["id"])] = table["ns_score"]
    found = {}
    for open_room, closed in room_pairs(rooms["open"], rooms["closed"]):
        first, second = score_of[int(open_room["id"])], score_of[int(closed["id"])]
        if first is not None and second is not None:
            found[int(open_room["id"])] = imps(first - second)
    return found
