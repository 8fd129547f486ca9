"""A player's game by role, in words: each double dummy mistake rate against the field's, with
an interval and a percentile ("loses a trick on 1 lead in 6; the field: 1 in 5").

Pure functions of the ``player_stats`` counters; the site builder reads them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

# role -> (what a mistake is, numerator counter, opportunities counter, opportunities in words)
ROLES: dict[str, tuple[str, str, str, str]] = {
    "Opening leads": ("gives away a trick", "lead_mistakes", "leads", "leads"),
    "Declarer play": (
        "gives away a trick",
        "play_mistakes_as_declarer",
        "cards_played_as_declarer",
        "cards as declarer",
    ),
    "Defence": (
        "gives away a trick",
        "play_mistakes_as_defender",
        "cards_played_as_defender",
        "cards in defence",
    ),
    "Bidding": (
        "reaches a contract worse than double dummy allowed",
        "auction_mistakes",
        "auctions_analyzed",
        "auctions",
    ),
    "Claims": ("claims a wrong number of tricks", "claim_mistakes", "claims", "claims"),
}
# Fewer opportunities than this and a player takes no part in the percentiles.
MIN_OPPORTUNITIES = 20
_Z95 = 1.959963984540054


@dataclass
class RoleRate:
    """One role of one player, against the field."""

    role: str
    mistakes: int
    chances: int
    rate: float | None
    low: float | None
    high: float | None
    field_rate: float | None
    percentile: float | None  # share of the field with a higher (worse) rate; None: too few
    words: str


def wilson(mistakes: int, chances: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if chances <= 0:
        return 0.0, 1.0
    p = mistakes / chances
    denominator = 1 + _Z95**2 / chances
    centre = (p + _Z95**2 / (2 * chances)) / denominator
    half = _Z95 * math.sqrt(p * (1 - p) / chances + _Z95**2 / (4 * chances**2)) / denominator
    return max(centre - half, 0.0), min(centre + half, 1.0)


def one_in(rate: float | None) -> str:
    """A rate as people say it: ``1 in 6``; ``never`` for zero."""
    if rate is None:
        return "not seen"
    if rate <= 0:
        return "never"
    return f"1 in {max(round(1 / rate), 1):,}"


def role_rates(
    player: Mapping[str, float], everyone: Sequence[Mapping[str, float]]
) -> list[RoleRate]:
    """The player's rate per role (see :data:`ROLES`) beside the field's."""
    out = []
    for role, (mistake, numerator, denominator, chance) in ROLES.items():
        mistakes, chances = int(player.get(numerator) or 0), int(player.get(denominator) or 0)
        field_mistakes = sum(float(row.get(numerator) or 0) for row in everyone)
        field_chances = sum(float(row.get(denominator) or 0) for row in everyone)
        field_rate = field_mistakes / field_chances if field_chances else None
        if not chances:
            out.append(
                RoleRate(role, 0, 0, None, None, None, field_rate, None, f"no {chance} seen")
            )
            continue
        rate = mistakes / chances
        low, high = wilson(mistakes, chances)
        others = [
            float(row.get(numerator) or 0) / float(row[denominator])
            for row in everyone
            if float(row.get(denominator) or 0) >= MIN_OPPORTUNITIES
        ]
        percentile = (
            sum(1 for other in others if other > rate) / len(others) * 100
            if chances >= MIN_OPPORTUNITIES and others
            else None
        )
        words = (
            f"{mistake} on {one_in(rate)} {chance}"
            if rate > 0
            else f"never {mistake.replace('gives', 'gave').replace('claims', 'claimed')}"
        )
        words += f" ({mistakes:,} of {chances:,}); the field: {one_in(field_rate)}"
        out.append(
            RoleRate(role, mistakes, chances, rate, low, high, field_rate, percentile, words)
        )
    return out
