"""What one run of the ``clean`` stage did: :class:`CleanSummary`."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from bridgerank.cleaning.clean.reasons import REASON_BY_CODE, reasons_of_level
from bridgerank.core.summary import WIDTH, StageSummary

__all__ = ["BoardChanges", "CleanSummary"]

# The levels of reasons, in the order printed, each with the title of its block.
_TITLES = {
    "board": "boards excluded",
    "auction": "auctions blanked",
    "play": "plays blanked",
    "note": "notes (nothing dropped)",
    "match": "team-event tables in no match",
}
# A reason's line is wrapped here rather than by the CLI: its description continues under
# the description's column, not under the line's indent.
_DESCRIPTION_COLUMN = 46


@dataclass
class BoardChanges:
    """How the stored ``boards`` changed: rows added, rewritten and removed (a board whose
    row is unchanged is not written, so later stages keep their results for it).

    Attributes
    ----------
    added, changed, removed : int
        Boards of each kind.
    """

    added: int = 0
    changed: int = 0
    removed: int = 0


@dataclass
class CleanSummary(StageSummary):
    """The records a clean run read, what it kept, and why it dropped or blanked the rest.

    Attributes
    ----------
    records : int
        Raw records read (every stored one: the stage recomputes from all of them).
    kept : int
        Records kept as boards.
    excluded : int
        Records dropped whole (``records - kept``).
    auctions_kept, plays_kept : int
        Kept boards with a usable auction, with a usable play.
    reasons : dict of str to dict of str to int
        Level (``board``, ``auction``, ``play``, ``note``) -> reason code -> records, most
        frequent first (:mod:`bridgerank.cleaning.clean.reasons`).
    boards_changed : BoardChanges
        What the run wrote to ``boards``.
    team_matches, match_boards : int
        Team matches rebuilt from traveller files, and their boards (each played at both
        tables); ``reasons["match"]`` says why the other tables are in none.
    teams_against_themselves : int
        Matches whose two teams are one once every match's teammates are joined (a check of
        the pairing, :func:`~bridgerank.cleaning.clean.team_matches.teams_against_themselves`).
    """

    records: int = 0
    kept: int = 0
    excluded: int = 0
    auctions_kept: int = 0
    plays_kept: int = 0
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)
    boards_changed: BoardChanges = field(default_factory=BoardChanges)
    team_matches: int = 0
    match_boards: int = 0
    teams_against_themselves: int = 0

    def paired_share(self) -> float:
        """The share of the team events' table records paired into matches, of those of the
        events kept: copies, board-a-match events and tables with an unknown player left
        out (each has its reason, and is no table of a match to be found)."""
        outside = ("match_copy", "match_board_a_match", "match_unknown_player")
        left = sum(n for code, n in self.reasons.get("match", {}).items() if code not in outside)
        paired = 2 * self.match_boards
        return paired / (paired + left) if paired else 0.0

    def lines(self) -> list[str]:
        """The counts, then a block per level of reason: each reason with its description."""
        found = [
            f"clean: {self.records:,} records, {self.kept:,} boards kept, "
            f"{self.excluded:,} excluded, in {self.seconds:.1f} s",
            f"  auctions usable: {self.auctions_kept:,}   plays usable: {self.plays_kept:,}",
        ]
        if self.team_matches:
            found.append(
                f"  team matches rebuilt from travellers: {self.team_matches:,} "
                f"({self.match_boards:,} boards played at both tables; "
                f"{100 * self.paired_share():.1f}% of the kept events' tables paired; "
                f"{self.teams_against_themselves:,} a team against itself once teammates "
                "are joined)"
            )
        for level, title in _TITLES.items():
            counts = self.reasons.get(level, {})
            if not counts:
                continue
            found.append(f"  {title}: {sum(counts.values()):,}")
            for reason in reasons_of_level(level):
                if reason.code in counts:
                    line = f"    {counts[reason.code]:>8,}  {reason.code:<30} {reason.description}"
                    found += textwrap.wrap(
                        line,
                        WIDTH,
                        subsequent_indent=" " * _DESCRIPTION_COLUMN,
                        break_long_words=False,
                    )
            # a code the reasons table does not describe is still counted
            for code in sorted(counts.keys() - REASON_BY_CODE.keys()):
                found.append(f"    {counts[code]:>8,}  {code}")
        return found

    def brief(self) -> str:
        """``882 boards kept of 886, 4 excluded``."""
        return f"{self.kept:,} boards kept of {self.records:,}, {self.excluded:,} excluded"
