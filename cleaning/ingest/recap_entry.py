"""What a club recap says of a pair before play: its entry.

An ACBL club game is stratified: each pair is placed, when it enters, in a stratum (``A``,
``B``, ``C``, sometimes ``D``/``E``) from its players' masterpoint holdings, and the game
itself may be open to a population only (a "299er" game admits players under 300
masterpoints, a newcomer game beginners). A recap prints both: the game's title, and beside
each pair of its pair list the letter of its stratum, ``NE`` for a pair not eligible for the
game's awards (over its limit). Neither depends on the session's results, so a rating may use
them as evidence before the session starts.

The pair's entry is written ``population:letter`` (``open:A``, ``299:C``, ``299:NE``,
``newcomer:B``); a list that offers no strata gives no entry.
"""

from __future__ import annotations

import re

__all__ = ["game_population", "offered_strata", "pair_entry"]

# "299er", "299'ER", "0-750", "Quicktricks 299": a population bounded by masterpoints.
_LIMIT = re.compile(r"\b(\d{2,4})\s*'?\s*er\b|\b0\s*-\s*(\d{2,4})\b|\b(\d{3})\b", re.IGNORECASE)
_NEWCOMER = re.compile(r"\b(newcomer|novice|beginner|intermediate)s?\b", re.IGNORECASE)
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_STRATUM = re.compile(r"^[A-Z]$")
NOT_ELIGIBLE = "NE"
# A regional game's qualifying marks, printed before the stratum: not a stratum.
_QUALIFIED = "Q"


def game_population(title: str) -> str:
    """The population a game admits, from its title: a masterpoint limit (``"299"``),
    ``"newcomer"``, or ``"open"``."""
    limit = _LIMIT.search(title)
    if limit:
        return next(group for group in limit.groups() if group)
    return "newcomer" if _NEWCOMER.search(title) else "open"


def offered_strata(line: str) -> frozenset[str]:
    """The strata a pair list's column header offers (its line of letters, ``A B C A B C``),
    empty when the line is anything else."""
    tokens = line.split()
    if tokens and all(_STRATUM.match(token) for token in tokens):
        return frozenset(tokens)
    return frozenset()


def pair_entry(line: str, population: str, offered: frozenset[str]) -> str | None:
    """A pair line's entry ``population:letter`` (see the module), or None when the line
    prints no stratum the list offers.

    The line reads: pair number, then numbers (percentage, score, adjustment), then
    possibly qualifying marks, then the stratum letter and ``NE`` - before the ranks and
    the names."""
    if not offered:
        return None
    tokens = line.split()
    position = 0
    while position < len(tokens) and _NUMBER.match(tokens[position]):
        position += 1
    letter = None
    not_eligible = False
    for token in tokens[position:]:
        if token == NOT_ELIGIBLE:
            not_eligible = True
        elif token in offered:
            letter = token
        elif token != _QUALIFIED:
            break
    if not_eligible:
        return f"{population}:{NOT_ELIGIBLE}"
    return None if letter is None else f"{population}:{letter}"
