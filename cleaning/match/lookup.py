"""Who sat in a seat: a raw name in its event, looked up as the person it was resolved to.

Everything after the match stage - the dds stage's counters, the ratings, the report - works
on persons, not on strings: a seat is read as ``(raw name, event)`` and becomes the person's
name (distinct per person, :mod:`cleaning.match.stage`), or nothing for a field that is no
one to rate (a robot, a team string, a placeholder).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, MutableMapping

from sqlalchemy import Connection, inspect, select

from bridgerank.cleaning.match.tables import UNRATED_KINDS, SeatPerson

__all__ = ["SEATS", "PersonLookup", "person_lookup", "seat_persons"]

SEATS = ("north", "east", "south", "west")


@dataclass(frozen=True)
class PersonLookup:
    """``(raw name, event)`` -> (player id, player name), ``None`` as the name of a field
    never rated. Empty when the match stage has not run: every name is then its own."""

    persons: dict[tuple[str, str], tuple[int, str | None]]

    def name(self, raw: str, event: str) -> str:
        """The person's name of a seat; ``""`` for no one to rate, the raw name if unknown."""
        return self.player(raw, event)[0]

    def player(self, raw: str, event: str) -> tuple[str, int | None]:
        """(name, player id) of a seat, as :meth:`name` reads it (id None when unknown)."""
        found = self.persons.get((raw, event))
        if found is None:
            return raw, None
        return found[1] or "", found[0]

    def global_names(self) -> dict[str, str]:
        """Raw name -> person name, for the names that are the same person in every event
        they were seen in (a full name; for forecasting boards of events not yet seen)."""
        seen: dict[str, str | None] = {}
        for (raw, _), (_, name) in self.persons.items():
            if name and seen.get(raw, name) == name:
                seen[raw] = name
            else:
                seen[raw] = None
        return {raw: name for raw, name in seen.items() if name}

    def rename(self, boards: Iterable[MutableMapping[str, object]]) -> None:
        """Write each board's seats as persons (boards need ``event`` and the four seats)."""
        if not self.persons:
            return
        for board in boards:
            event = str(board["event"])
            for seat in SEATS:
                raw = board[seat]
                if raw:
                    board[seat] = self.name(str(raw), event)


def person_lookup(conn: Connection) -> PersonLookup:
    """The persons the match stage resolved, for every (raw name, event) it saw
    (``seat_persons``; empty before it runs)."""
    if SeatPerson.__tablename__ not in inspect(conn).get_table_names():
        return PersonLookup({})
    rows = conn.execute(
        select(SeatPerson.raw_name, SeatPerson.event, SeatPerson.player_id, SeatPerson.person)
    )
    return PersonLookup(
        {(raw, event): (player_id, person or None) for raw, event, player_id, person in rows}
    )


def seat_persons(
    matches: Iterable[Mapping[str, Any]], players: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The ``seat_persons`` rows: each raw name and event of ``matches`` (``name_matches``
    rows) with its person of ``players`` (``players`` rows), named ``""`` when the person
    is no one to rate (:data:`~bridgerank.cleaning.match.tables.UNRATED_KINDS`)."""
    person = {row["id"]: "" if row["kind"] in UNRATED_KINDS else row["name"] for row in players}
    return [
        {
            "raw_name": row["raw_name"],
            "event": row["event"],
            "player_id": row["player_id"],
            "person": person[row["player_id"]],
        }
        for row in matches
    ]
