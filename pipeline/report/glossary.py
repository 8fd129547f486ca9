"""Words for every counter and rate the report and the CSVs carry, with its unit."""

from __future__ import annotations

from bridgerank.dds.auction_verdicts import AUCTION_TYPES
from bridgerank.dds.counters import COUNTERS, RATES

# counter -> (what it counts, unit)
_BASE = {
    "claims": ("claims made as declarer", "claims"),
    "claim_mistakes": ("claims that gave away tricks against double dummy", "claims"),
    "leads": ("opening leads", "leads"),
    "lead_mistakes": ("opening leads that gave away a trick against double dummy", "leads"),
    "cards_played_as_declarer": ("cards played as declarer (dummy's included)", "cards"),
    "play_mistakes_as_declarer": ("declarer's cards that gave away a trick", "cards"),
    "cards_played_as_defender": ("cards played in defence after the lead", "cards"),
    "play_mistakes_as_defender": ("defenders' cards that gave away a trick", "cards"),
    "auctions_analyzed": ("auctions judged against double dummy", "auctions"),
    "passed_higher_contract": ("passed out when a contract would have scored", "auctions"),
    "defender_missed_current_double": (
        "defending, did not double a contract that fails",
        "auctions",
    ),
    "defender_erroneously_doubled": ("defending, doubled a contract that makes", "auctions"),
    "defender_missed_higher_contract": (
        "defending, other bidding of their own (a contract, or stopping lower) would have "
        "scored more",
        "auctions",
    ),
    "declarer_missed_higher_contract": (
        "declaring, another contract of their own (higher or lower) would have scored more",
        "auctions",
    ),
    "declarer_missed_doubling_opponents_last_bid": (
        "declaring side, should have doubled the opponents' last bid",
        "auctions",
    ),
    "declarer_missed_opponents_last_redouble": (
        "declaring side, should have stopped at the opponents' last redoubled bid",
        "auctions",
    ),
    "declarer_missed_redoubling_opponents_erroneous_double": (
        "declaring side, should have redoubled the opponents' wrong double",
        "auctions",
    ),
    "declarer_missed_opponents_last_bid": (
        "declaring side, should have let the opponents play their last bid",
        "auctions",
    ),
    "declarer_erroneous_redouble": ("declaring side, redoubled a contract that fails", "auctions"),
}


# What happened, in a player's words, for a footnote on a call that gave IMPs away: the
# better call is named beside it, so the words say what kind of call it was.
MISTAKE_WORDS = {
    "passed_higher_contract": "a contract was there to be bid",
    "defender_missed_current_double": "doubling the contract would have scored more",
    "defender_erroneously_doubled": "the double let the opponents score more",
    "defender_missed_higher_contract": "other bidding by the defenders would have scored more",
    "declarer_missed_higher_contract": "a better contract was available",
    "declarer_missed_doubling_opponents_last_bid": (
        "doubling the opponents' bid would have scored more"
    ),
    "declarer_missed_opponents_last_redouble": (
        "leaving the opponents in their redoubled bid would have scored more"
    ),
    "declarer_missed_redoubling_opponents_erroneous_double": (
        "redoubling the opponents' double would have scored more"
    ),
    "declarer_missed_opponents_last_bid": (
        "passing, and leaving the opponents their bid, would have scored more"
    ),
    "declarer_erroneous_redouble": "the redouble let the opponents score more",
}


def mistake_words(kinds: str) -> str:
    """A call's mistake type(s) (comma-separated, as stored) in a player's words."""
    return " and ".join(
        MISTAKE_WORDS.get(kind, kind.replace("_", " ")) for kind in kinds.split(",")
    )


def glossary(variant: str = "par") -> list[tuple[str, str, str]]:
    """(name, meaning, unit) of every counter, then every rate.

    ``variant`` is what the auction counters count (``[dds] auction_counters``): ``par``,
    the calls that gave IMPs away against the par of the auction, each counted for the
    player who made it and weighted in IMPs; ``thesis``, each side's one-step verdict,
    counted for both players and weighted in points.
    """
    rows = []
    for name in COUNTERS:
        kind = name.removeprefix("weighted_")
        auction = kind in AUCTION_TYPES
        if name.startswith("weighted_"):
            base, _ = _BASE[kind]
            unit = "IMPs" if auction and variant == "par" else "points"
            rows.append((name, f"{base}, each weighted by the {unit} it gave away", unit))
        elif auction and variant == "par":
            meaning = f"the player's calls that gave IMPs away against par: {_BASE[name][0]}"
            rows.append((name, meaning, "calls"))
        else:
            meaning, unit = _BASE[name]
            rows.append((name, meaning, unit))
    for name, (numerator, denominator) in RATES.items():
        unit = _BASE[denominator][1]
        per = unit[:-1] if unit.endswith("s") else unit
        if numerator.startswith("weighted_"):
            kind = numerator.removeprefix("weighted_")
            weight = "IMPs" if kind in AUCTION_TYPES and variant == "par" else "points"
            rows.append((name, f"{numerator} / {denominator}", f"{weight} per {per}"))
        else:
            rows.append((name, f"{numerator} / {denominator}", f"share of {unit}"))
    return rows
