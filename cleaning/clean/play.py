"""Card play: true playing order, legality, and the tricks each side has won.

Two layouts reach this module:

``seat``
    PBN and the SQL dump: every trick is written in seat order starting with the *opening*
    leader, whoever led that trick; ``-`` fills the places of cards not played after a claim.
``played``
    LIN: cards in the order they were played; a claim may stop the play mid-trick.
"""

from __future__ import annotations

from typing import NamedTuple

from bridgerank.bridge.cards import RANK_VALUE, SEATS, Deal, same_side, seat_after
from bridgerank.core.errors import BadRecord

DASH = "-"


class PlayResult(NamedTuple):
    """A legal play: cards and seats in playing order, tricks completed, declarer's tricks."""

    cards: tuple[str, ...]
    seats: tuple[int, ...]
    tricks_played: int
    declarer_tricks: int

    @property
    def complete(self) -> bool:
        """True when all 52 cards were played (no claim)."""
        return len(self.cards) == 52


def trick_winner(trick: list[str], leader: int, trump: str) -> int:
    """Seat that wins a complete trick of four cards in playing order, led by ``leader``."""
    best = 0
    for position in range(1, 4):
        card, top = trick[position], trick[best]
        if card[0] == top[0]:
            if RANK_VALUE[card[1]] > RANK_VALUE[top[1]]:
                best = position
        elif card[0] == trump:
            best = position
    return seat_after(leader, best)


def _tricks_in_listed_order(cards: list[str], layout: str) -> list[list[str]]:
    if len(cards) % 4:
        if layout == "seat":
            raise BadRecord("play_count_not_multiple_of_4", f"{len(cards)} plays")
        cards = cards + [DASH] * (4 - len(cards) % 4)
    return [cards[i : i + 4] for i in range(0, len(cards), 4)]


def replay(
    cards: list[str], layout: str, opening_leader: int, deal: Deal, trump: str
) -> PlayResult:
    """Put a raw play in playing order and check it against the laws.

    Parameters
    ----------
    cards : list of str
        Canonical cards and ``-`` fillers, as written in the record.
    layout : {"seat", "played"}
        How tricks are written (see the module docstring).
    opening_leader : int
        Seat of the opening lead (left of declarer).
    deal : Deal
        The four hands.
    trump : str
        Trump suit letter, or ``N`` for no trump.

    Returns
    -------
    PlayResult

    Raises
    ------
    BadRecord
        With a ``play_*`` reason: missing play, a count not a multiple of 4 (seat layout),
        dashes in more than one trick, a card played twice or not held, a trick starting
        with a dash, a card after a dash, a revoke.
    """
    if not cards or all(card == DASH for card in cards):
        raise BadRecord("play_missing", "no cards")
    hands = [set(hand) for hand in deal]
    declarer = seat_after(opening_leader, 3)
    leader = opening_leader
    played: list[str] = []
    seats: list[int] = []
    tricks = declarer_tricks = 0
    dashed_trick = False
    for number, listed in enumerate(_tricks_in_listed_order(cards, layout), start=1):
        if dashed_trick:
            raise BadRecord("play_dashes_in_several_tricks", f"trick {number} follows a dash")
        # In seat layout position 0 is always the opening leader; rotate to this trick's leader.
        shift = (leader - opening_leader) % 4 if layout == "seat" else 0
        trick = listed[shift:] + listed[:shift]
        for position, card in enumerate(trick):
            seat = seat_after(leader, position)
            if card != DASH and card not in hands[seat]:
                raise BadRecord(
                    "play_card_not_held", f"{SEATS[seat]} played {card} in trick {number}"
                )
            if card != DASH:
                hands[seat].discard(card)
        if trick[0] == DASH:
            if all(card == DASH for card in trick):
                dashed_trick = True
                continue
            raise BadRecord("play_trick_starts_with_dash", f"trick {number}")
        dashes = 0
        for card in trick:
            if card == DASH:
                dashes += 1
            elif dashes:
                raise BadRecord("play_card_after_dash", f"trick {number}")
        led = trick[0][0]
        for position in range(1, 4 - dashes):
            seat = seat_after(leader, position)
            if trick[position][0] != led and any(held[0] == led for held in hands[seat]):
                raise BadRecord("play_revoke", f"{SEATS[seat]} in trick {number}")
        for position in range(4 - dashes):
            played.append(trick[position])
            seats.append(seat_after(leader, position))
        if dashes:
            dashed_trick = True
            continue
        leader = trick_winner(trick, leader, trump)
        tricks += 1
        if same_side(leader, declarer):
            declarer_tricks += 1
    return PlayResult(tuple(played), tuple(seats), tricks, declarer_tricks)
