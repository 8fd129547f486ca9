"""The thesis's 33 counters (Table 3) per board-seat, and the 28 rates (Table 4)."""

from __future__ import annotations

from typing import Iterable, Mapping

from bridgerank.dds.auction_verdicts import AUCTION_TYPES, SideVerdict
from bridgerank.dds.call_values import CallJudgement
from bridgerank.dds.card_verdicts import CardVerdict, ClaimVerdict

# In the column order of the thesis's dds_final_results.csv.
COUNTERS: tuple[str, ...] = (
    "claims",
    "claim_mistakes",
    "weighted_claim_mistakes",
    "leads",
    "lead_mistakes",
    "weighted_lead_mistakes",
    "cards_played_as_declarer",
    "play_mistakes_as_declarer",
    "weighted_play_mistakes_as_declarer",
    "cards_played_as_defender",
    "play_mistakes_as_defender",
    "weighted_play_mistakes_as_defender",
    "auctions_analyzed",
) + tuple(name for kind in AUCTION_TYPES for name in (kind, f"weighted_{kind}"))

_RATE_BASE = (
    ("claim_mistakes_per_claim", "claim_mistakes", "claims"),
    ("lead_mistakes_per_lead", "lead_mistakes", "leads"),
    (
        "defender_mistakes_per_card_played_as_defender",
        "play_mistakes_as_defender",
        "cards_played_as_defender",
    ),
    (
        "declarer_mistakes_per_card_played_as_declarer",
        "play_mistakes_as_declarer",
        "cards_played_as_declarer",
    ),
) + tuple((f"{kind}_per_auction", kind, "auctions_analyzed") for kind in AUCTION_TYPES)

# rate name -> (numerator counter, denominator counter); 14 unweighted and 14 weighted.
RATES: dict[str, tuple[str, str]] = {}
for _name, _numerator, _denominator in _RATE_BASE:
    RATES[_name] = (_numerator, _denominator)
    RATES[f"weighted_{_name}"] = (f"weighted_{_numerator}", _denominator)

OPPORTUNITIES = (
    "claims",
    "leads",
    "cards_played_as_declarer",
    "cards_played_as_defender",
    "auctions_analyzed",
)


def seat_counters(
    declarer: int | None,
    cards: Iterable[CardVerdict],
    claim: ClaimVerdict | None,
    auction: Iterable[SideVerdict] | None,
    calls: Iterable[CallJudgement] | None = None,
    variant: str = "thesis",
) -> dict[int, dict[str, float]]:
    """Counters each seat of one board earns.

    Parameters
    ----------
    declarer : int or None
        Declarer's seat (dummy's cards are credited to declarer).
    cards : iterable of CardVerdict
        Empty when the play was not analysed.
    claim : ClaimVerdict or None
        The claim verdict when the board ended in a claim.
    auction : iterable of SideVerdict or None
        The thesis's verdicts on each side's auction; None when the auction was not analysed.
    calls : iterable of CallJudgement, optional
        Every call judged by the par after it (:mod:`dds.call_values`).
    variant : str
        What the auction counters count: ``par``, each mistaken call, counted for the player
        who made it and weighted by the IMPs it gave away; ``thesis``, each side's verdict,
        counted for both players of the side and weighted by the points (thesis Table 3).

    Returns
    -------
    dict
        ``seat -> {counter: value}``, every counter of :data:`COUNTERS` present.
    """
    counts: dict[int, dict[str, float]] = {seat: dict.fromkeys(COUNTERS, 0) for seat in range(4)}
    for card in cards:
        if card.role == "lead":
            row, prefix = counts[card.seat], ("leads", "lead_mistakes", "weighted_lead_mistakes")
        elif card.role == "defender":
            row, prefix = (
                counts[card.seat],
                (
                    "cards_played_as_defender",
                    "play_mistakes_as_defender",
                    "weighted_play_mistakes_as_defender",
                ),
            )
        else:
            assert declarer is not None, "declarer's and dummy's cards need a declarer"
            row, prefix = (
                counts[declarer],
                (
                    "cards_played_as_declarer",
                    "play_mistakes_as_declarer",
                    "weighted_play_mistakes_as_declarer",
                ),
            )
        row[prefix[0]] += 1
        if card.cost_tricks:
            row[prefix[1]] += 1
            row[prefix[2]] += card.cost_points
    if claim is not None and declarer is not None:
        for seat in range(4):
            counts[seat]["claims"] += 1
        at_fault = {
            "declarer": (declarer,),
            "defenders": ((declarer + 1) % 4, (declarer + 3) % 4),
        }.get(claim.at_fault, ())
        for seat in at_fault:
            counts[seat]["claim_mistakes"] += 1
            counts[seat]["weighted_claim_mistakes"] += claim.cost_points
    if auction is not None:
        for seat in range(4):
            counts[seat]["auctions_analyzed"] += 1
    if auction is not None and variant == "par":
        for call in calls or ():
            if call.red and call.kind is not None:
                counts[call.seat][call.kind] += 1
                counts[call.seat][f"weighted_{call.kind}"] += call.cost_imps
    elif auction is not None:
        for verdict in auction:
            share = len(verdict.chosen)
            for kind in verdict.chosen:
                for seat in (verdict.side, verdict.side + 2):
                    counts[seat][kind] += 1 / share
                    counts[seat][f"weighted_{kind}"] += verdict.weight / share
    return counts


def rates(stats: Mapping[str, float]) -> dict[str, float | None]:
    """The 28 rates of one player's counters; None where the opportunity count is 0."""
    return {
        name: (stats[numerator] / stats[denominator] if stats[denominator] else None)
        for name, (numerator, denominator) in RATES.items()
    }
