"""Calls: the 35 contract bids in rank order, pass, double and redouble.

Canonical calls are ``P`` (pass), ``X`` (double), ``R`` (redouble) and the bids ``1C`` ...
``7N``, strains in the auction's order: clubs, diamonds, hearts, spades, notrump.
"""

from __future__ import annotations

__all__ = ["BID_RANK", "CANONICAL_CALLS", "CONTRACT_BIDS", "STRAINS"]

STRAINS = "CDHSN"
CONTRACT_BIDS: tuple[str, ...] = tuple(
    f"{level}{strain}" for level in range(1, 8) for strain in STRAINS
)
BID_RANK = {bid: index for index, bid in enumerate(CONTRACT_BIDS)}
CANONICAL_CALLS = frozenset(CONTRACT_BIDS) | {"P", "X", "R"}
