"""The DD store's values as its rows keep them: written as text, read back and verified.

A row of the store may be damaged, or written by hand: every reader here refuses a value that
is not one (a ValueError), so the store can count the row, remove it and solve the value live
again (:meth:`bridgerank.dds.dd_store.DDStore.tables` and the other lookups).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.solver import LeadRequest, LeadValues, PlayRequest

__all__ = [
    "MAX_PAR",
    "SEATS",
    "ParKey",
    "lead_key",
    "lead_text",
    "leads_from_text",
    "leads_of",
    "par_of",
    "parse_table",
    "trace_from_text",
    "trace_key",
    "trace_of",
    "trace_text",
]

# The store's letter of each seat, North (0) first.
SEATS = "NESW"


@dataclass(frozen=True)
class ParKey:
    """What a par score depends on besides the table: deal, dealer, vulnerability."""

    deal: str
    dealer: int  # 0 = North
    ns_vulnerable: bool
    ew_vulnerable: bool

    @property
    def vulnerable(self) -> str:
        """``""``, ``NS``, ``EW`` or ``B`` (both): the store's column."""
        return {(False, False): "", (True, False): "NS", (False, True): "EW", (True, True): "B"}[
            (bool(self.ns_vulnerable), bool(self.ew_vulnerable))
        ]


def trace_text(trace: Sequence[int]) -> str:
    """A play trace as the store keeps it: one hex digit a value (each is 0 to 13)."""
    return "".join(format(value, "x") for value in trace)


def trace_from_text(text: str) -> list[int]:
    """The values of a stored trace.

    Raises
    ------
    ValueError
        When it is not hex digits, each 0 to 13 (a damaged row).
    """
    values = [int(digit, 16) for digit in text]
    if not values or max(values) > 13:
        raise ValueError(f"a trace is values of 0 to 13, not {text[:60]!r}")
    return values


def lead_text(values: LeadValues) -> str:
    """Opening-lead values as the store keeps them: card then a hex digit, in card order."""
    return " ".join(card + format(tricks, "x") for card, tricks in sorted(values.items()))


def leads_from_text(text: str) -> LeadValues:
    """The values of stored opening leads (card -> declarer side's tricks).

    Raises
    ------
    ValueError
        When it is not 13 cards, each with a value of 0 to 13 (a damaged row).
    """
    values = {item[:2]: int(item[2:], 16) for item in text.split()}
    if len(values) != 13 or any(len(card) != 2 or not 0 <= v <= 13 for card, v in values.items()):
        raise ValueError(f"opening-lead values are 13 cards valued 0 to 13, not {text[:60]!r}")
    return values


def parse_table(text: str) -> DDTable:
    """A stored table, every entry 0 to 13.

    Raises
    ------
    BridgerankError, ValueError
        When it is not 20 hex digits of 0 to 13 (a damaged row).
    """
    table = DDTable.from_hex(text)
    if max(max(row) for row in table.rows) > 13:
        raise ValueError(f"a table's tricks are 0 to 13, not {text!r}")
    return table


# The largest par score in absolute value: seven notrump, vulnerable (2,220), or a sacrifice
# doubled down thirteen, vulnerable (3,800): a stored par beyond it is a damaged row.
MAX_PAR = 3800


def par_of(row: tuple[Any, ...]) -> int:
    """A stored par row's score (its fourth column), a whole number of at most MAX_PAR."""
    par = row[3]
    if isinstance(par, bool) or not isinstance(par, int) or abs(par) > MAX_PAR:
        raise ValueError(f"a par score is a whole number of at most {MAX_PAR}, not {par!r}")
    return par


def trace_of(row: tuple[Any, ...]) -> list[int]:
    """A stored trace row's values: one more than the cards it plays."""
    trace = trace_from_text(str(row[4]))
    if len(trace) != len(str(row[3]).split()) + 1:
        raise ValueError(f"a trace of {len(trace)} values for {len(str(row[3]).split())} cards")
    return trace


def leads_of(row: tuple[Any, ...]) -> LeadValues:
    """A stored opening-lead row's values (:func:`leads_from_text`)."""
    return leads_from_text(str(row[3]))


def trace_key(request: PlayRequest) -> tuple[str, str, str, str]:
    """The key columns after ``solver`` of a trace row: deal, trump, leader, cards."""
    return (request.deal, request.trump, SEATS[request.leader], " ".join(request.cards))


def lead_key(request: LeadRequest) -> tuple[str, str, str]:
    """The key columns after ``solver`` of an opening-lead row: deal, trump, leader."""
    return (request.deal, request.trump, SEATS[request.leader])
