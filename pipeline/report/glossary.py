"""Words for every counter and rate the report and the CSVs carry, with its unit."""

from __future__ import annotations

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
        "defending, a higher contract of their own would have scored more",
        "auctions",
    ),
    "declarer_missed_higher_contract": (
        "declaring, a higher contract would have scored more",
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


# What happened, in a player's words, for a footnote on the call a mistake is pinned to. A
# "higher contract" of the counters is one above the opponents' last bid: it can be lower than
# the contract reached, so the words say "better", never "higher".
MISTAKE_WORDS = {
    "passed_higher_contract": "a contract was there to be bid",
    "defender_missed_current_double": "the final contract could have been doubled",
    "defender_erroneously_doubled": "the double let the contract score more",
    "defender_missed_higher_contract": "a contract of their own was better",
    "declarer_missed_higher_contract": "a better contract was available",
    "declarer_missed_doubling_opponents_last_bid": (
        "the opponents' last bid, doubled, would have scored more"
    ),
    "declarer_missed_opponents_last_redouble": (
        "the opponents' last bid, redoubled, would have scored more"
    ),
    "declarer_missed_redoubling_opponents_erroneous_double": (
        "the opponents' double could have been played redoubled"
    ),
    "declarer_missed_opponents_last_bid": (
        "letting the opponents play their last bid would have scored more"
    ),
    "declarer_erroneous_redouble": "the redouble let the opponents score more",
}


def mistake_words(kinds: str) -> str:
    """A call's mistake type(s) (comma-separated, as stored) in a player's words."""
    return " and ".join(
        MISTAKE_WORDS.get(kind, kind.replace("_", " ")) for kind in kinds.split(",")
    )


def glossary() -> list[tuple[str, str, str]]:
    """(name, meaning, unit) of every counter, then every rate."""
    rows = []
    for name in COUNTERS:
        if name.startswith("weighted_"):
            base, unit = _BASE[name.removeprefix("weighted_")]
            rows.append((name, f"{base}, each weighted by the points it gave away", "points"))
        else:
            meaning, unit = _BASE[name]
            rows.append((name, meaning, unit))
    for name, (numerator, denominator) in RATES.items():
        unit = _BASE[denominator][1]
        per = unit[:-1] if unit.endswith("s") else unit
        if numerator.startswith("weighted_"):
            rows.append((name, f"{numerator} / {denominator}", f"points per {per}"))
        else:
            rows.append((name, f"{numerator} / {denominator}", f"share of {unit}"))
    return rows
