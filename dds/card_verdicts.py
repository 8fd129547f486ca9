"""Card verdicts: every card played judged against the double dummy trace.

The trace holds the tricks declarer's side takes with perfect play from each point on:
one value before the opening lead and one after each card. A card from declarer's or
dummy's hand is declarer's and is a mistake when the value drops; a defender's card is a
mistake when it rises. The opening lead counts as a lead only. The cost in points is the
difference of the declaring side's score for the contract as bid at the two trick counts.

A claim (play stopping before 52 cards, with the claimed total known) is compared with the
last value of the trace: a claim above it is both defenders' mistake, a claim below it
declarer's.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from bridgerank.bridge.auction import Contract
from bridgerank.bridge.cards import SEAT_INDEX, same_side
from bridgerank.bridge.scoring import score


class CardVerdict(NamedTuple):
    """One card: ``role`` is lead, declarer, dummy or defender; costs are >= 0."""

    card_index: int
    seat: int
    role: str
    card: str
    dd_before: int
    dd_after: int
    cost_tricks: int
    cost_points: int


class ClaimVerdict(NamedTuple):
    """A claim: who erred (``declarer``, ``defenders`` or ``none``) and what it cost."""

    claimed: int
    dd_value: int
    at_fault: str
    cost_points: int


def judge_cards(
    cards: Sequence[str],
    seats: Sequence[int],
    trace: Sequence[int],
    contract: Contract,
    declarer: int,
    vulnerable: bool,
    year: int | None,
) -> list[CardVerdict]:
    """Judge each card of a play.

    Parameters
    ----------
    cards, seats : sequences
        Cards in playing order and the seat of each.
    trace : sequence of int
        ``len(cards) + 1`` double dummy values for declarer's side.
    contract : Contract
    declarer : int
    vulnerable : bool
        Whether the declaring side is vulnerable.
    year : int or None

    Returns
    -------
    list of CardVerdict
    """
    if len(trace) != len(cards) + 1:
        raise ValueError(f"trace of {len(trace)} values for {len(cards)} cards")

    def points(taken: int) -> int:
        return score(contract.level, contract.strain, contract.doubled, vulnerable, taken, year)

    verdicts = []
    for index, (card, seat) in enumerate(zip(cards, seats)):
        before, after = trace[index], trace[index + 1]
        if same_side(seat, declarer):
            role = "declarer" if seat == declarer else "dummy"
            lost = max(before - after, 0)
            cost = points(before) - points(after) if lost else 0
        else:
            role = "lead" if index == 0 else "defender"
            lost = max(after - before, 0)
            cost = points(after) - points(before) if lost else 0
        verdicts.append(CardVerdict(index, seat, role, card, before, after, lost, cost))
    return verdicts


def judge_claim(
    claimed: int, final_value: int, contract: Contract, vulnerable: bool, year: int | None
) -> ClaimVerdict:
    """Judge a claim of ``claimed`` total tricks against the last double dummy value."""

    def points(taken: int) -> int:
        return score(contract.level, contract.strain, contract.doubled, vulnerable, taken, year)

    if claimed > final_value:
        return ClaimVerdict(
            claimed, final_value, "defenders", points(claimed) - points(final_value)
        )
    if claimed < final_value:
        return ClaimVerdict(claimed, final_value, "declarer", points(final_value) - points(claimed))
    return ClaimVerdict(claimed, final_value, "none", 0)


def seats_of(play_order: str) -> list[int]:
    """Seat indices from a ``play_order`` string of seat letters."""
    return [SEAT_INDEX[letter] for letter in play_order]
