"""Where each name was seen: its occurrences, with the context that tells who it is.

A raw name string alone does not say who played: "Moss" is Brad Moss in one event and Mike
Moss in another. An occurrence is a string in one event, with what surrounds it there - the
partners it sat with, the team names of its boards, the years - which the resolution of
persons (:mod:`cleaning.match.persons`) weighs.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile

__all__ = ["Occurrence", "event_scope", "event_series", "gather_occurrences", "is_womens_event"]

# A part of an event a file names after the event itself: "Bermuda Bowl 1955 - Seg 1".
_EVENT_PART = re.compile(
    r"[\s,:;\-–]+(seg(ment)?|sess(ion)?|round|rd|stanza|set|match|part|day|qtr|quarter|half|"
    r"board|bd)\.?\s*#?\d+[a-z]?$",
    re.IGNORECASE,
)


def event_scope(event: str) -> str:
    """The event a short name is resolved in: the event's name without the segment, session
    or round a file adds to it ("Bermuda Bowl 1955 - Seg 1" -> "Bermuda Bowl 1955")."""
    scope = event.strip()
    while True:
        shorter = _EVENT_PART.sub("", scope).strip()
        if shorter == scope or not shorter:
            return scope
        scope = shorter


# A session's date at the end of its event's name: "... Eve Session March 6, 2017", "... 2017-03-06"
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_DATE_AT_END = re.compile(
    rf"[\s,]+(?:(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|"
    r"\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4})$",
    re.IGNORECASE,
)


def event_series(event: str) -> str | None:
    """The recurring game a dated session belongs to - its event's name without the date, case
    folded ("MONDAY STRATIFIED PAIRS Monday Eve Session March 6, 2017" and "Monday Stratified
    Pairs Monday Eve Session August 14, 2017": one club's Monday game) - or None for an event
    whose name carries no date (a championship is its own scope)."""
    scope = event_scope(event)
    undated = _DATE_AT_END.sub("", scope)
    if undated == scope or not undated.strip():
        return None
    return " ".join(undated.casefold().split())


# Events for women only: the WBF lists this project reads are the open ones.
_WOMENS_EVENT = re.compile(
    r"venice cup|\bwomen|\bladies|\bwagar\b|\bdamen|\bdames\b|\bfemmes?\b|/women",
    re.IGNORECASE,
)


def is_womens_event(event: str) -> bool:
    """Whether an event is for women only (the Venice Cup, a Wagar Women's KO, ...)."""
    return bool(_WOMENS_EVENT.search(event))


# Each seat and its partner's.
_PARTNER = {"north": "south", "south": "north", "east": "west", "west": "east"}


@dataclass
class Occurrence:
    """One raw name in one event."""

    raw: str
    event: str
    seats: int = 0
    partners: Counter[str] = field(default_factory=Counter)  # partner's raw name -> seats
    teams: Counter[str] = field(default_factory=Counter)  # team names of its boards
    folders: set[str] = field(default_factory=set)  # where its boards' files are

    @property
    def scope(self) -> str:
        """The event without its segment or round (:func:`event_scope`)."""
        return event_scope(self.event)

    @property
    def series(self) -> str | None:
        """The recurring game of a dated session (:func:`event_series`), or None."""
        return event_series(self.event)

    @property
    def key(self) -> tuple[str, str]:
        """``(raw, event)``: how ``name_matches`` and the boards find it."""
        return self.raw, self.event


def gather_occurrences(conn: Connection) -> dict[tuple[str, str], Occurrence]:
    """Every (raw name, event) of ``boards`` with its seats, partners, team names and the
    folders of the files its boards came from.

    Empty names are left out: an empty seat has no one to resolve.
    """
    found: dict[tuple[str, str], Occurrence] = {}
    columns = (Board.event, Board.home_team, Board.visit_team, SourceFile.path) + tuple(
        getattr(Board, seat) for seat in _PARTNER
    )
    query = (
        select(*columns)
        .join(RawBoard, RawBoard.id == Board.id)
        .join(SourceFile, SourceFile.id == RawBoard.source_id)
    )
    for event, home, visit, path, *names in conn.execute(query):
        by_seat = dict(zip(_PARTNER, names))
        folder = str(Path(path).parent)
        for seat, raw in by_seat.items():
            if not raw:
                continue
            occurrence = found.get((raw, event))
            if occurrence is None:
                occurrence = found[(raw, event)] = Occurrence(raw, event)
            occurrence.seats += 1
            occurrence.folders.add(folder)
            partner = by_seat[_PARTNER[seat]]
            if partner:
                occurrence.partners[partner] += 1
            for team in (home, visit):
                if team:
                    occurrence.teams[team] += 1
    return found
