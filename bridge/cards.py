"""Seats, cards and deals: parsing, validation and the canonical deal key.

A card is a two-character string, suit then rank (``"SA"``, ``"HT"``, ``"C2"``). A deal is a
tuple of four hands indexed by seat (0 = North, 1 = East, 2 = South, 3 = West), each hand a
frozenset of cards. Deals arrive in two notations: PBN (``"N:AK75.54.987653.A Q.AT..."``,
hands clockwise from the named seat, suits in the order spades, hearts, diamonds, clubs) and
BBO LIN (``"3S74HK43DQ9532CJ94,SK9...,..."``: dealer digit, then the hands of South, West, North
and East, the last one often omitted).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from bridgerank.core.errors import BadRecord

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"
SEAT_INDEX = {seat: index for index, seat in enumerate(SEATS)}
RANK_VALUE = {rank: 14 - index for index, rank in enumerate(RANKS)}
FULL_DECK = frozenset(suit + rank for suit in SUITS for rank in RANKS)
# How a page prints a suit.
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

# LIN lists hands from South clockwise: South, West, North, East.
_LIN_HAND_SEATS = (2, 3, 0, 1)

Deal = tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]


def seat_after(seat: int, steps: int = 1) -> int:
    """Seat index ``steps`` places clockwise from ``seat``."""
    return (seat + steps) % 4


def same_side(seat_a: int, seat_b: int) -> bool:
    """True when the two seats are partners (or the same seat)."""
    return (seat_a - seat_b) % 2 == 0


def _parse_pbn_hand(text: str) -> list[str]:
    """Cards of one PBN hand (``"AK75.54.987653.A"``); bad characters raise ``BadRecord``."""
    suits = text.split(".")
    if len(suits) != 4:
        raise BadRecord("invalid_card", f"hand {text!r} does not have four suits")
    cards = []
    for suit, ranks in zip(SUITS, suits):
        ranks = ranks.upper().replace("10", "T")
        for rank in ranks:
            if rank not in RANK_VALUE:
                raise BadRecord("invalid_card", f"{suit}{rank} is not a card")
            cards.append(suit + rank)
    return cards


def _parse_lin_hand(text: str) -> list[str]:
    """Cards of one LIN hand (``"S74HK43DQ9532CJ94"``)."""
    cards = []
    suit = ""
    for char in text.upper().replace("10", "T"):
        if char in SUITS:
            suit = char
        elif char in RANK_VALUE and suit:
            cards.append(suit + char)
        else:
            raise BadRecord("invalid_card", f"{suit}{char} is not a card")
    return cards


def _split_pbn(text: str) -> list[list[str] | None]:
    first, _, rest = text.partition(":")
    first = first.strip().upper()
    if first not in SEAT_INDEX:
        raise BadRecord("invalid_card", f"deal does not start with a seat: {text[:20]!r}")
    hands_text = rest.split()
    if len(hands_text) != 4:
        raise BadRecord("hand_not_13_cards", f"deal has {len(hands_text)} hands, not 4")
    start = SEAT_INDEX[first]
    by_seat: list[list[str] | None] = [None] * 4
    for offset, hand_text in enumerate(hands_text):
        hand = None if hand_text == "-" else _parse_pbn_hand(hand_text)
        by_seat[seat_after(start, offset)] = hand
    return by_seat


def _split_lin(text: str) -> list[list[str] | None]:
    body = text[1:] if text[:1].isdigit() else text
    parts = body.split(",")
    if len(parts) > 4 or len(parts) < 3:
        raise BadRecord("hand_not_13_cards", f"LIN deal has {len(parts)} hands")
    by_seat: list[list[str] | None] = [None] * 4
    for seat, hand_text in zip(_LIN_HAND_SEATS, parts):
        by_seat[seat] = _parse_lin_hand(hand_text) if hand_text.strip() else None
    return by_seat


# A deal is read, written and keyed once for all the tables that played it: a traveller file
# gives the same deal on each of a board's twenty tables or more, and these three were a
# third of cleaning Valet's records. (A deal is immutable; an error is not cached.)
@lru_cache(maxsize=4096)
def parse_deal(text: str | None) -> Deal:
    """Parse and validate a deal in PBN or LIN notation.

    Parameters
    ----------
    text : str or None
        ``"N:AK75.54.987653.A Q.AT983.42.JT753 ..."`` (PBN) or ``"3S74HK43...,SK9...,..."``
        (LIN). One hand may be missing (``-`` in PBN, empty in LIN); it is then the 13 cards
        the other three do not hold.

    Returns
    -------
    Deal
        Four frozensets of cards, North, East, South, West.

    Raises
    ------
    BadRecord
        With reason ``missing_deal``, ``hand_not_13_cards`` or ``invalid_card`` (a character
        that is no card, or a card dealt twice).

    Notes
    -----
    Hand sizes are checked before card identity, so a deal with both defects reports the
    wrong hand size, whatever the order of the hands.
    """
    text = (text or "").strip().strip('"')
    if not text or text in {"#", "?"}:
        raise BadRecord("missing_deal", "no deal")
    by_seat = _split_pbn(text) if ":" in text[:3] else _split_lin(text)
    missing = [seat for seat, hand in enumerate(by_seat) if hand is None]
    if len(missing) > 1:
        raise BadRecord("hand_not_13_cards", f"{len(missing)} hands missing")
    for seat, hand in enumerate(by_seat):
        if hand is not None and len(hand) != 13:
            raise BadRecord("hand_not_13_cards", f"{SEATS[seat]} holds {len(hand)} cards")
    seen: set[str] = set()
    for hand in by_seat:
        for card in hand or ():
            if card in seen:
                raise BadRecord("invalid_card", f"{card} dealt twice")
            seen.add(card)
    if missing:
        by_seat[missing[0]] = sorted(FULL_DECK - seen)
    north, east, south, west = (frozenset(hand or ()) for hand in by_seat)
    return north, east, south, west


def hand_to_pbn(hand: frozenset[str]) -> str:
    """One hand in PBN notation, ranks from the ace down."""
    return ".".join("".join(rank for rank in RANKS if suit + rank in hand) for suit in SUITS)


@lru_cache(maxsize=4096)
def deal_to_pbn(deal: Deal) -> str:
    """Canonical PBN text of a deal: North first, ranks sorted."""
    return "N:" + " ".join(hand_to_pbn(hand) for hand in deal)


@lru_cache(maxsize=4096)
def deal_hash(deal: Deal) -> str:
    """Key of a deal that is the same whatever file, notation or hand order it came from."""
    return hashlib.sha1(deal_to_pbn(deal).encode("ascii")).hexdigest()[:16]
