"""The double dummy table of a deal: tricks for every strain and declarer.

DDS orders a table's rows spades, hearts, diamonds, clubs, no trump (:data:`DDS_STRAINS`),
each row by declarer North, East, South, West. The database stores a table as 20 hex
digits in that order (the format of DDS's own test files); this type reads and writes it,
so that no other module indexes into the string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridgerank.core.errors import BridgerankError

__all__ = ["DDS_STRAINS", "DDTable"]

DDS_STRAINS = "SHDCN"
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


@dataclass(frozen=True)
class DDTable:
    """Double dummy tricks, ``rows[strain][seat]`` in DDS's strain order and seats N E S W.

    Build one with :meth:`from_hex` (a stored table) or :meth:`from_rows` (DDS's result).
    """

    rows: tuple[tuple[int, int, int, int], ...]

    def __post_init__(self) -> None:
        if len(self.rows) != 5 or any(len(row) != 4 for row in self.rows):
            raise BridgerankError("a double dummy table has 5 strains of 4 declarers")
        if any(not 0 <= tricks <= 13 for row in self.rows for tricks in row):
            raise BridgerankError(f"double dummy tricks out of range 0-13: {self.rows}")

    @classmethod
    def from_rows(cls, rows: Any) -> DDTable:
        """A table from any 5 x 4 nested sequence of trick counts (e.g. DDS's ``resTable``)."""
        strains = (rows[strain] for strain in range(5))
        return cls(tuple((int(row[0]), int(row[1]), int(row[2]), int(row[3])) for row in strains))

    @classmethod
    def from_hex(cls, text: str) -> DDTable:
        """A table from its 20 stored hex digits."""
        if len(text) != 20 or not set(text) <= _HEX_DIGITS:
            raise BridgerankError(f"a stored double dummy table is 20 hex digits, not {text!r}")
        tricks = [int(digit, 16) for digit in text]
        return cls(
            tuple((tricks[i], tricks[i + 1], tricks[i + 2], tricks[i + 3]) for i in range(0, 20, 4))
        )

    @property
    def hex(self) -> str:
        """The 20 hex digits the database stores."""
        return "".join(format(tricks, "x") for row in self.rows for tricks in row)

    def tricks(self, strain: str, seat: int) -> int:
        """Tricks ``seat`` (0 = North) takes as declarer in ``strain`` (``S H D C N``)."""
        return self.rows[DDS_STRAINS.index(strain)][seat]
