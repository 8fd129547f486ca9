"""The country a team name stands for, in the spellings hand records use.

Championship files name a team by its country, cut or abbreviated to fit a column
("Netherlnd", "G.Britain", "Ch.Taipei"), marked as a junior or senior team ("J-russia",
"S-poland") or numbered ("USA 2"). Sponsors' and captains' names ("Nickell", "Janssens") are
no country. A player's country in the WBF lists, set against the countries of the teams their
boards were played between, tells a namesake from the listed player (``Kaplan A`` of Belgium is
not the American Adam Kaplan).
"""

from __future__ import annotations

import re
from typing import Collection

from bridgerank.cleaning.match.names import fold

__all__ = ["country_key", "plays_for", "team_country"]

# Abbreviations a file's narrow column forces, to the lists' country.
_ABBREVIATIONS = {
    "netherlnd": "netherlands",
    "net lnds": "netherlands",
    "holland": "netherlands",
    "g britain": "great britain",
    "gr britain": "great britain",
    "gr brit": "great britain",
    "gb": "great britain",
    "usa": "usa",
    "us": "usa",
    "switzlnd": "switzerland",
    "nwzealand": "new zealand",
    "ch taipei": "chinese taipei",
    "czech": "czech republic",
    "yugoslav": "yugoslavia",
}
_ABBREVIATED = frozenset(_ABBREVIATIONS.values())
# A list country and the team countries it plays for (Great Britain's players are listed
# under their home nations).
_PLAYS_FOR = {
    "england": {"england", "great britain"},
    "scotland": {"scotland", "great britain"},
    "wales": {"wales", "great britain"},
    "usa": {"usa"},
}
_NOT_LETTER = re.compile(r"[^a-z]+")
_MARKED = re.compile(r"^[js] ")  # J-russia, S-poland: junior and senior teams
_NUMBERED = re.compile(r" \d+$")


def country_key(name: str) -> str:
    """A country as compared: folded, letters and single spaces (``U.S.A.`` -> ``usa``)."""
    key = _NOT_LETTER.sub(" ", fold(name)).strip()
    return key.replace(" ", "") if len(key.replace(" ", "")) <= 3 else key


def team_country(team: str, countries: Collection[str]) -> str | None:
    """The country (a :func:`country_key`) a team name stands for, or None.

    Parameters
    ----------
    team : str
        A team name of a board.
    countries : collection of str
        The known countries' keys (the lists' countries), a set for speed.
    """
    key = _NUMBERED.sub("", _MARKED.sub("", _NOT_LETTER.sub(" ", fold(team)).strip()))
    key = _ABBREVIATIONS.get(key, key)
    short = key.replace(" ", "")
    if len(short) <= 3:
        key = _ABBREVIATIONS.get(short, short)
    return key if key in countries or key in _ABBREVIATED else None


def plays_for(country: str) -> set[str]:
    """The team countries a player of a list country may play for."""
    return _PLAYS_FOR.get(country, {country})
