"""Normalisation of raw bid and card tokens.

Hand records spell calls and cards in many ways (``PASS``, ``Pas``, ``p``, ``AP``, ``DBL``,
``REDBL``, ``1NT``, ``1N``, ``2H!`` with an alert, ``=1=`` note references, glued tokens such
as ``1CPASS`` or ``X2H``; cards as ``SK``, ``sk``, ``S10``, ``--``, glued ``HTHQ``). Each raw
token is mapped to zero or more canonical tokens and a status:

``valid``
    already canonical;
``normalised``
    recognised and rewritten;
``ignored``
    not recognisable (a note reference, a NAG, an end marker, garbage): dropped and counted.

Canonical calls: ``P`` (pass), ``X`` (double), ``R`` (redouble) and contract bids ``1C`` ...
``7N``. Canonical cards: suit then rank (``SK``, ``HT``) and ``-`` for a card not played
after a claim.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bridgerank.bridge.calls import CANONICAL_CALLS, STRAINS
from bridgerank.bridge.cards import RANK_VALUE, SUITS

_CALL_SYNONYMS = {
    "PASS": ("P",),
    "PAS": ("P",),
    "P": ("P",),
    "AP": ("P", "P", "P"),
    "X": ("X",),
    "D": ("X",),
    "DBL": ("X",),
    "DOUBLE": ("X",),
    "XX": ("R",),
    "R": ("R",),
    "RDBL": ("R",),
    "REDBL": ("R",),
    "REDOUBLE": ("R",),
    "XXX": ("X", "R"),
}
# A glued token must be covered end to end by these pieces, or it is ignored.
_GLUED_PIECE = re.compile(r"PASS|XX|X|[1-7](?:NT|[CDHSN])")
_NOTE_PREFIX = re.compile(r"^=\d+=")
_NOTE_SUFFIX = re.compile(r"=\d+=$")


def _contract_bid(token: str) -> str | None:
    """``"1NT"``/``"1N"``/``"S3"`` style single bids in canonical form, else None."""
    if len(token) >= 2 and token[0] in "1234567":
        strain = token[1:]
        if strain == "NT":
            return token[0] + "N"
        if len(strain) == 1 and strain in STRAINS:
            return token
    if len(token) == 2 and token[0] in "CDHS" and token[1] in "1234567":
        return token[1] + token[0]
    return None


@lru_cache(maxsize=4096)
def normalise_call(raw: str) -> tuple[tuple[str, ...], str]:
    """Map one raw auction token to canonical calls.

    Parameters
    ----------
    raw : str
        One whitespace-free token of a raw auction.

    Returns
    -------
    calls : tuple of str
        Canonical calls, possibly several (``AP`` is three passes, ``1CPASS`` two calls) or
        none (an ignored token).
    status : str
        ``valid``, ``normalised`` or ``ignored``.
    """
    if raw in CANONICAL_CALLS:
        return (raw,), "valid"
    token = _NOTE_SUFFIX.sub("", _NOTE_PREFIX.sub("", raw.upper())).rstrip("!")
    if token in _CALL_SYNONYMS:
        return _CALL_SYNONYMS[token], "normalised"
    bid = _contract_bid(token)
    if bid is not None:
        return (bid,), "normalised"
    pieces = _GLUED_PIECE.findall(token)
    if pieces and "".join(pieces) == token and len(pieces) > 1:
        calls: list[str] = []
        for piece in pieces:
            calls.extend(_CALL_SYNONYMS.get(piece) or (_contract_bid(piece) or piece,))
        return tuple(calls), "normalised"
    return (), "ignored"


def _card(token: str) -> str | None:
    token = token.replace("10", "T")
    if len(token) != 2:
        return None
    if token[0] in SUITS and token[1] in RANK_VALUE:
        return token
    if token[1] in SUITS and token[0] in RANK_VALUE:
        return token[1] + token[0]
    return None


@lru_cache(maxsize=1024)
def normalise_card(raw: str) -> tuple[tuple[str, ...], str]:
    """Map one raw play token to canonical cards (or ``-``), like :func:`normalise_call`."""
    if len(raw) == 2 and raw[0] in SUITS and raw[1] in RANK_VALUE:
        return (raw,), "valid"
    if raw == "-":
        return ("-",), "valid"
    token = raw.upper()
    if token and set(token) == {"-"}:
        return ("-",), "normalised"
    card = _card(token)
    if card is not None:
        return (card,), "normalised"
    token = token.replace("10", "T")
    if len(token) % 2 == 0 and len(token) > 2:
        cards = tuple(_card(token[i : i + 2]) for i in range(0, len(token), 2))
        if all(cards):
            return cards, "normalised"  # type: ignore[return-value]
    return (), "ignored"
