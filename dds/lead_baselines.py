"""Opening leads against the baselines a reader compares them with.

"Leaders found the double dummy best lead 70% of the time" says little alone: on many deals
most cards are best, and on some every card is. So every share of best leads is shown beside
a random lead's share on the same boards (the share of the leader's 13 cards that are best,
averaged over the boards), on all boards with every lead valued, on the boards where the
leads do not all tie, and on those in suit and in notrump contracts apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

__all__ = ["HAND", "LeadBaselines", "LeadShare", "contract_lead_baselines", "lead_baselines"]

# Cards in the opening leader's hand.
HAND = 13


@dataclass
class LeadShare:
    """Best leads found on a set of boards, and a random lead's share on the same boards."""

    boards: int = 0
    best: float = 0.0  # share of the leads made that were a double dummy best lead
    random: float = 0.0  # expected share for a card drawn at random from the leader's hand

    def text(self) -> str:
        """``71.2% (a random lead 64.0%)``; ``none`` without a board."""
        if not self.boards:
            return "none"
        return f"{100 * self.best:.1f}% (a random lead {100 * self.random:.1f}%)"


@dataclass
class LeadBaselines:
    """Shares of double dummy best opening leads, each beside a random lead's."""

    leads: int = 0  # boards with their lead and every lead valued
    all_tied: int = 0  # of them, boards where every card is an equally good lead
    everywhere: LeadShare = field(default_factory=LeadShare)
    untied: LeadShare = field(default_factory=LeadShare)  # all-tie boards left out
    suit: LeadShare = field(default_factory=LeadShare)  # untied, in a suit contract
    notrump: LeadShare = field(default_factory=LeadShare)  # untied, in notrump

    def line(self) -> str:
        """The leads' line of a summary."""
        return (
            f"opening leads: {self.leads:,} valued, double dummy best {self.everywhere.text()}; "
            f"leaving out the {self.all_tied:,} where every lead ties {self.untied.text()}: "
            f"suit {self.suit.text()}, notrump {self.notrump.text()}"
        )


def _share(rows: list[tuple[int, int]]) -> LeadShare:
    """(lead cost in tricks, best cards of the hand) per board -> their share."""
    if not rows:
        return LeadShare()
    return LeadShare(
        boards=len(rows),
        best=sum(1 for cost, _ in rows if cost == 0) / len(rows),
        random=sum(best / HAND for _, best in rows) / len(rows),
    )


def lead_baselines(rows: Iterable[tuple[int, int, bool]]) -> LeadBaselines:
    """The baselines of valued leads.

    Parameters
    ----------
    rows : iterable of (int, int, bool)
        Per board: tricks the lead cost against the best lead, how many of the leader's
        cards are a best lead, and whether the contract is in notrump.

    Returns
    -------
    LeadBaselines
    """
    boards = list(rows)
    untied = [row for row in boards if row[1] < HAND]
    return LeadBaselines(
        leads=len(boards),
        all_tied=len(boards) - len(untied),
        everywhere=_share([(cost, best) for cost, best, _ in boards]),
        untied=_share([(cost, best) for cost, best, _ in untied]),
        suit=_share([(cost, best) for cost, best, notrump in untied if not notrump]),
        notrump=_share([(cost, best) for cost, best, notrump in untied if notrump]),
    )


def contract_lead_baselines(rows: Iterable[tuple[Any, Any, Any]]) -> LeadBaselines:
    """The baselines of the valued leads among ``rows``: per board the tricks its lead cost,
    how many of the leader's cards are a best lead (either None or NaN: the lead was not
    valued, and the board is left out) and its contract (``3N``: notrump)."""
    return lead_baselines(
        (int(cost), int(best), str(contract)[1:2] == "N")
        for cost, best, contract in rows
        if cost is not None and best is not None and cost == cost and best == best
    )
