"""Name fields that hold no one person: robots, team strings, placeholders, nothing.

A rating of a team string ("Daniel Kroll - Kimberly Fanady - Steven Kipperman", a team line
cut into one seat) or of a robot pair ("GIB 2.6.3 & Hervé") is a rating of nobody: such a
field is recognised here, split where it holds several names (so a reader can see who they
were), and never rated.
"""

from __future__ import annotations

import re

from bridgerank.cleaning.match.names import is_robot

__all__ = ["NonPerson", "classify", "parts_of"]

# Between two names in one field: a spaced dash, an ampersand, a spaced slash, " and ", " + ".
_SEPARATOR = re.compile(r"\s+[-–—]\s+|\s*&\s*|\s+/\s+|\s+\+\s+|\s+and\s+", re.IGNORECASE)
# What a comma may introduce without a second name: a suffix or a title ("Smith, M.D.").
_COMMA_SUFFIX = re.compile(r"^(jr|sr|ii|iii|iv|md|m\.d\.|phd|ph\.d\.|esq)\.?$", re.IGNORECASE)
# Seat words and stand-ins that files put where a name is missing.
_PLACEHOLDERS = frozenset(
    {
        "north", "south", "east", "west", "n", "s", "e", "w", "ns", "ew", "?", "??", "-",
        "--", "x", "xx", "nn", "n.n.", "unknown", "player", "players", "bye", "vacant",
        "robot", "robots", "computer", "none", "null", "tbd", "tba",
    }
)  # fmt: skip


class NonPerson:
    """The kinds of field that are not one person (the values ``classify`` returns)."""

    EMPTY = "empty"
    PLACEHOLDER = "placeholder"
    ROBOT = "robot"
    SEVERAL = "several names"


def parts_of(raw: str) -> list[str]:
    """The names a field holds: one for a person's name, several for a team or a pair."""
    pieces = [piece.strip() for piece in _SEPARATOR.split(raw.strip()) if piece.strip()]
    names: list[str] = []
    for piece in pieces:
        head, comma, tail = piece.partition(",")
        if comma and tail.strip() and not _COMMA_SUFFIX.match(tail.strip()) and " " in head.strip():
            # "Anna Smith, Bob Jones": two names; "Smith, Anna" (one, reversed) has no
            # space before its comma
            names.extend(part.strip() for part in piece.split(",") if part.strip())
        else:
            names.append(piece)
    return names


def classify(raw: str) -> str | None:
    """The kind of non-person a name field is (:class:`NonPerson`), or None for a person."""
    text = raw.strip()
    if not text or not any(char.isalpha() for char in text):
        return NonPerson.EMPTY if not text else NonPerson.PLACEHOLDER
    if text.casefold() in _PLACEHOLDERS:
        return NonPerson.PLACEHOLDER
    parts = parts_of(text)
    if len(parts) > 1:
        return NonPerson.SEVERAL
    if is_robot(text):
        return NonPerson.ROBOT
    return None
