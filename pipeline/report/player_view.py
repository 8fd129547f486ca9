"""A player's game by role, in words: each double dummy mistake rate against the field's, with
an interval and a percentile ("loses a trick on 1 lead in 6; the field: 1 in 5"); and, for
records with a result but no play (travellers, recaps), the tricks taken against double dummy
and the contracts reached against par.

Pure functions of the ``player_stats`` counters and the per-board measures; the site builder
reads them.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from bridgerank.ratings.holdout import Z95

# role -> (what a mistake is, numerator counter, opportunities counter, opportunities in words)
ROLES: dict[str, tuple[str, str, str, str]] = {
    "Opening leads": ("gives away a trick", "lead_mistakes", "leads", "leads"),  # LEADS
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
        "makes a call that gives IMPs away against the par of the auction",
        "auction_mistakes",
        "auctions_analyzed",
        "auctions",
    ),
    "Claims": ("claims a wrong number of tricks", "claim_mistakes", "claims", "claims"),
}
# Fewer opportunities than this and a player takes no part in the percentiles.
MIN_OPPORTUNITIES = 20


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
    denominator = 1 + Z95**2 / chances
    centre = (p + Z95**2 / (2 * chances)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / chances + Z95**2 / (4 * chances**2)) / denominator
    return max(centre - half, 0.0), min(centre + half, 1.0)


def one_in(rate: float | None) -> str:
    """A rate as people say it: ``1 in 6``; ``never`` for zero."""
    if rate is None:
        return "not seen"
    if rate <= 0:
        return "never"
    return f"1 in {max(round(1 / rate), 1):,}"


@dataclass(frozen=True)
class RoleField:
    """The field's side of every player's role rates, computed once for all their pages:
    per role, the field's pooled rate and the sorted rates of the players with
    :data:`MIN_OPPORTUNITIES` chances or more."""

    rates: dict[str, float | None]
    others: dict[str, list[float]]

    @classmethod
    def of(cls, everyone: Sequence[Mapping[str, float]]) -> RoleField:
        """The field of ``everyone``'s ``player_stats`` rows."""
        rates: dict[str, float | None] = {}
        others: dict[str, list[float]] = {}
        for role, (_, numerator, denominator, _) in ROLES.items():
            mistakes = sum(float(row.get(numerator) or 0) for row in everyone)
            chances = sum(float(row.get(denominator) or 0) for row in everyone)
            rates[role] = mistakes / chances if chances else None
            others[role] = sorted(
                float(row.get(numerator) or 0) / float(row[denominator])
                for row in everyone
                if float(row.get(denominator) or 0) >= MIN_OPPORTUNITIES
            )
        return cls(rates, others)

    def share_above(self, role: str, rate: float) -> float | None:
        """The percentage of the field's players whose rate is above ``rate``."""
        others = self.others[role]
        if not others:
            return None
        return (len(others) - bisect.bisect_right(others, rate)) / len(others) * 100


# The role whose rate has a random baseline: a card drawn at random from the same hands.
LEADS = "Opening leads"


def role_rates(
    player: Mapping[str, float],
    everyone: Sequence[Mapping[str, float]] | RoleField,
    random_lead: float | None = None,
) -> list[RoleRate]:
    """The player's rate per role (see :data:`ROLES`) beside the field's (``everyone``'s
    rows, or their :class:`RoleField` made once for many players) and, for his opening
    leads, beside ``random_lead``: the chance that a card drawn at random from the hands he
    led from gives away a trick, where every lead of them was valued."""
    field = everyone if isinstance(everyone, RoleField) else RoleField.of(everyone)
    out = []
    for role, (mistake, numerator, denominator, chance) in ROLES.items():
        mistakes, chances = int(player.get(numerator) or 0), int(player.get(denominator) or 0)
        field_rate = field.rates[role]
        if not chances:
            out.append(
                RoleRate(role, 0, 0, None, None, None, field_rate, None, f"no {chance} seen")
            )
            continue
        rate = mistakes / chances
        low, high = wilson(mistakes, chances)
        percentile = field.share_above(role, rate) if chances >= MIN_OPPORTUNITIES else None
        words = (
            f"{mistake} on {one_in(rate)} {chance}"
            if rate > 0
            else f"never {mistake.replace('gives', 'gave').replace('claims', 'claimed')}"
        )
        words += f" ({mistakes:,} of {chances:,}); the field: {one_in(field_rate)}"
        if role == LEADS and random_lead is not None:
            words += f"; a random card from the same hands: {one_in(random_lead)}"
        out.append(
            RoleRate(role, mistakes, chances, rate, low, high, field_rate, percentile, words)
        )
    return out


@dataclass
class ResultMeasure:
    """A per-board measure against double dummy, from the contract and result alone (no play
    needed), for one player beside the field."""

    role: str
    boards: int
    mean: float
    low: float
    high: float
    field_mean: float
    percentile: float | None  # share of the field below (worse); None: too few boards
    words: str


# role -> (column of :func:`result_measures`, unit in words)
RESULT_ROLES = {
    "As declarer": ("declaring", "tricks per board against double dummy"),
    "In defence": ("defending", "tricks per board against double dummy (for the defence)"),
    "Contracts reached": ("bidding", "IMPs per board against par"),
}


class FieldMeasures:
    """Every player's per-board measures against double dummy, summarised once: mean, spread
    and count per player and role, and the field's."""

    def __init__(self, table: pd.DataFrame) -> None:
        """``table``: rows ``player, role, value``, one per player and board."""
        self.roles: dict[str, tuple[pd.DataFrame, np.ndarray, float, str]] = {}
        for role, (column, unit) in RESULT_ROLES.items():
            rows = table[table["role"] == column]
            if rows.empty:
                continue
            stats = rows.groupby("player")["value"].agg(["mean", "std", "size"])
            regulars = np.sort(stats.loc[stats["size"] >= MIN_OPPORTUNITIES, "mean"].to_numpy())
            self.roles[role] = (stats, regulars, float(rows["value"].mean()), unit)

    def of(self, player: str) -> list[ResultMeasure]:
        """The player's measures beside the field's: mean with a 95% interval, the field's
        mean, the percentile (share of regulars with a lower mean)."""
        out = []
        for role, (stats, regulars, field_mean, unit) in self.roles.items():
            if player not in stats.index:
                continue
            mean, spread, boards = stats.loc[player]
            boards = int(boards)
            half = Z95 * spread / math.sqrt(boards) if boards > 1 else math.inf
            percentile = (
                float(np.searchsorted(regulars, mean) / len(regulars) * 100)
                if boards >= MIN_OPPORTUNITIES and len(regulars)
                else None
            )
            shown = round(field_mean, 2) + 0.0  # no "-0.00"
            words = f"{mean:+.2f} {unit} ({boards:,} boards); the field: {shown:+.2f}"
            out.append(
                ResultMeasure(
                    role, boards, mean, mean - half, mean + half, field_mean, percentile, words
                )
            )
        return out
