"""What one run of the ``match`` stage did: :class:`MatchSummary`."""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgerank.core.summary import StageSummary, plural
from bridgerank.core.untrusted import visible

__all__ = ["MatchSummary"]


@dataclass
class MatchSummary(StageSummary):
    """How many raw names a match run matched to the WBF lists, and how many board-seats
    they cover.

    Attributes
    ----------
    raw_names : int
        Distinct raw names in ``boards``.
    matched : int
        Raw names matched to a WBF player.
    ambiguous : int
        Raw names left unmatched because two WBF players fit them equally well.
    unmatched : int
        Raw names matched to no WBF player (the ambiguous, robots and handles included).
    robots, handles : int
        Unmatched names recognised as a robot, as an online handle.
    nobodies : int
        Names that are no one person: team strings, placeholders, empty (never rated).
    reasons : dict of str to int
        Occurrences (a raw name in an event) by the resolution's reason (``exact``,
        ``fuller form in event``, ``short name, no context`` ...), most frequent first.
    wbf_players : int
        Players of the WBF lists read (copies dropped).
    players : int
        Rows of ``players``: one per WBF player matched, one per other folded raw name.
    seats : int
        Board-seats with a name.
    seats_matched : int
        Board-seats whose name was matched.
    seat_share_matched : float
        ``seats_matched / seats`` (0 without seats).
    wbf_problems : list of str
        Lines of the WBF lists that could not be read, naming file and line (untrusted text).
    """

    raw_names: int = 0
    matched: int = 0
    ambiguous: int = 0
    unmatched: int = 0
    robots: int = 0
    handles: int = 0
    nobodies: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    wbf_players: int = 0
    players: int = 0
    seats: int = 0
    seats_matched: int = 0
    seat_share_matched: float = 0.0
    wbf_problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The names matched, the board-seats they cover, the reasons, unread WBF lines."""
        unread = [f"  WBF list line not read: {visible(str(line))}" for line in self.wbf_problems]
        return [
            f"match: {self.matched:,} of {plural(self.raw_names, 'raw name')} matched to the "
            f"{self.wbf_players:,} WBF players in {self.seconds:.1f} s ({self.ambiguous:,} "
            f"ambiguous, {self.unmatched:,} unmatched: {plural(self.robots, 'robot')}, "
            f"{plural(self.handles, 'handle')}, {self.nobodies:,} naming no one person)",
            f"  board-seats covered: {self.seats_matched:,} of {self.seats:,} "
            f"({100 * self.seat_share_matched:.1f}%); players: {self.players:,}",
            "  occurrences (a name in an event) by reason: "
            + ", ".join(f"{reason} {count:,}" for reason, count in self.reasons.items()),
            *unread,
        ]

    def brief(self) -> str:
        """``7 of 44 names matched, 10.7% of board-seats``."""
        return (
            f"{self.matched:,} of {self.raw_names:,} names matched, "
            f"{100 * self.seat_share_matched:.1f}% of board-seats"
        )
