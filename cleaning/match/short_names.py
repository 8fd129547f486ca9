"""A short name against the full ones: whether a string is short, and which full names can be it.

A short name holds one name part in full - a surname (with initials or not), a mononym - and
means whoever it meant in its event (:mod:`cleaning.match.persons`). These tests say whether a
full name, a partner's name or a roster's name can be the one a short name stands for.
"""

from __future__ import annotations

from bridgerank.cleaning.match.links import typo_apart
from bridgerank.cleaning.match.names import (
    PARTICLES,
    NameParts,
    forms,
    name_parts,
    surname_words,
)
from bridgerank.cleaning.match.occurrences import Occurrence

__all__ = [
    "agrees_with",
    "is_short",
    "partner_named",
    "same_player",
    "short_word",
    "words_of_partners",
]


def is_short(parts: NameParts) -> bool:
    """One name part in full only: a surname (with initials or not, with its particles or
    not: "Van der Nue"), or a mononym.

    Parameters
    ----------
    parts : NameParts
        The name's parts (:func:`~bridgerank.cleaning.match.names.name_parts`).

    Returns
    -------
    bool
        Whether the name is short.
    """
    return len(_named(parts)) + len(parts.truncated) == 1


def _named(parts: NameParts) -> list[str]:
    """A name's tokens but the particles of a surname ("van", "der")."""
    named = [token for token in parts.tokens if token not in PARTICLES]
    return named if named else list(parts.tokens)


def short_word(parts: NameParts) -> str:
    """The one word a short name holds in full (its surname, or its given name alone).

    Parameters
    ----------
    parts : NameParts
        The short name's parts.

    Returns
    -------
    str
        Its first word but a surname's particles, else its first truncated one.
    """
    return (_named(parts) or parts.truncated)[0]


def agrees_with(short: NameParts, full: str, typo: bool) -> bool:
    """Whether a full name can be the short one: it holds the short one's word (exactly, as
    a nickname's formal name, or - when ``typo`` - a typo away from its surname) and a given
    name for each of its initials.

    Parameters
    ----------
    short : NameParts
        The short name's parts.
    full : str
        The full name, as written.
    typo : bool
        Whether a surname a typo away counts (for a partnership seen elsewhere).

    Returns
    -------
    bool
        Whether the full name can be the short one.
    """
    word = short_word(short)
    parts = name_parts(full)
    rest = list(parts.tokens)
    partner = next((token for token in rest if forms(word) & forms(token)), None)
    if partner is None and typo:  # typo_apart leaves out words under four letters
        partner = next(
            (token for token in surname_words(full) if typo_apart(word, token)),
            None,
        )
    if partner is None:
        return False
    rest.remove(partner)
    letters = [token[:1] for token in rest] + list(parts.initials)
    return all(initial in letters for initial in short.initials)


def partner_named(partner_words: set[str], full: str) -> bool:
    """Whether a full name is the partner's: it holds a word of the partner's name.

    Parameters
    ----------
    partner_words : set of str
        The words of the partner's name (:func:`words_of_partners`).
    full : str
        The full name, as written.

    Returns
    -------
    bool
        Whether the full name holds one of them (as written or as a nickname's form).
    """
    return any(
        forms(word) & forms(token) for word in partner_words for token in name_parts(full).tokens
    )


def same_player(raw: str, written: str) -> bool:
    """Whether a name and a roster's name of a player are one (a typo apart at most, the
    words run together: "Van der Nue" / "Van der Neut"), the roster's initials aside.

    Parameters
    ----------
    raw : str
        The name as the boards give it.
    written : str
        The name as a roster gives it.

    Returns
    -------
    bool
        Whether they are one player's.
    """
    mine, theirs = "".join(name_parts(raw).tokens), "".join(name_parts(written).tokens)
    return bool(mine) and (mine == theirs or typo_apart(mine, theirs))


def words_of_partners(occurrence: Occurrence) -> set[str]:
    """The name parts of the partners an occurrence sat with.

    Parameters
    ----------
    occurrence : Occurrence
        A name as seen in one event.

    Returns
    -------
    set of str
        The words of its partners' names, but those of two letters or fewer.
    """
    words: set[str] = set()
    for partner in occurrence.partners:
        parts = name_parts(partner)
        words.update(token for token in parts.tokens + parts.truncated if len(token) > 2)
    return words
