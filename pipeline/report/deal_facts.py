"""What a deal page shows beside the tables, as BBO's and Bridge Solver Online's pages do: the
double dummy table of tricks by declarer and strain with the makeable contracts (each table's
score, matchpoints and IMPs are the rate stage's: :mod:`bridgerank.ratings.table_scores`)."""

from __future__ import annotations

from typing import Any

from bridgerank.bridge.ddtable import DDTable

__all__ = ["DD_STRAINS_SHOWN", "dd_grid"]

# Notrump first, then the suits from the top, as players read a makeable-contracts table.
DD_STRAINS_SHOWN = (("N", "NT"), ("S", "\u2660"), ("H", "\u2665"), ("D", "\u2666"), ("C", "\u2663"))
_SEATS = (("N", 0), ("S", 2), ("E", 1), ("W", 3))


def dd_grid(tricks_hex: str | None) -> list[dict[str, Any]] | None:
    """One row per declarer (North, South, East, West): the tricks in each strain and whether
    a contract makes (seven tricks or more); None when the deal has no stored table."""
    if not tricks_hex:
        return None
    table = DDTable.from_hex(tricks_hex)
    return [
        {
            "seat": seat,
            "tricks": [
                (table.tricks(strain, index), table.tricks(strain, index) >= 7)
                for strain, _ in DD_STRAINS_SHOWN
            ],
        }
        for seat, index in _SEATS
    ]
