"""The persons the match stage finds, and its verdict on each occurrence of a name.

:func:`cleaning.match.persons.resolve_persons` gives one :class:`Person` per person (or
non-person field) and one :class:`Resolution` per ``(raw, event)`` occurrence.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Hashable

from bridgerank.cleaning.match.matcher import Match

__all__ = ["Person", "Resolution"]


@dataclass
class Person:
    """One person (or one non-person field), with every string and event it was seen under."""

    key: Hashable
    kind: str  # wbf | raw | handle | robot | nobody
    wbf_index: int | None
    name: str = ""  # the WBF list's name, for a listed player
    scope: str = ""  # the one event a short name is known in, when that is all it is
    names: Counter[str] = field(default_factory=Counter)  # raw string -> board-seats
    events: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Resolution:
    """The verdict on one occurrence: its person, its WBF entry, and why."""

    person: int  # index into the persons
    wbf_index: int | None
    reason: str
    match: Match | None  # the matcher's verdict on the string alone
