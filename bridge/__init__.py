"""The game of bridge: seats, cards, deals, calls, contracts, scoring, double dummy tables.

Pure functions and small types: no database, no files, no stage.
"""

from bridgerank.bridge.auction import (
    PASSED_OUT,
    Contract,
    final_contract,
    parse_contract,
    validate_auction,
)
from bridgerank.bridge.calls import BID_RANK, CANONICAL_CALLS, CONTRACT_BIDS, STRAINS
from bridgerank.bridge.cards import (
    SEATS,
    SUITS,
    deal_hash,
    deal_to_pbn,
    parse_deal,
    same_side,
    seat_after,
)
from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable
from bridgerank.bridge.scoring import contract_score, north_south_score, score

__all__ = [
    "BID_RANK",
    "CANONICAL_CALLS",
    "CONTRACT_BIDS",
    "DDS_STRAINS",
    "PASSED_OUT",
    "SEATS",
    "STRAINS",
    "SUITS",
    "Contract",
    "DDTable",
    "contract_score",
    "deal_hash",
    "deal_to_pbn",
    "final_contract",
    "north_south_score",
    "parse_contract",
    "parse_deal",
    "same_side",
    "score",
    "seat_after",
    "validate_auction",
]
