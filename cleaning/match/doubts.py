"""The resolutions worth a reader's check first, with their evidence (``bridgerank names``).

A name resolved on weak evidence - a surname given to its one listed namesake, a short name
linked through a partnership, a spelling a typo away, a tie the matcher could not break, a
short name left to its event - is where a wrong identity hides. They are listed most played
first (a wrong one there moves the most results), each with the reason, the WBF player it
went to or the runner-up it did not, and the partners it sat with: what a reader needs to
say "right" or to write a correction (:mod:`cleaning.match.overrides`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Connection, or_, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.match.tables import NameMatch, Player, WbfPlayer

__all__ = ["DOUBTFUL", "Doubt", "doubtful_resolutions"]

# Reasons that rest on weak evidence (a prefix of the reason is enough).
DOUBTFUL = (
    "ambiguous",
    "fuzzy",
    "surname only",
    "tuple, country agrees",
    "partnership",
    "short name, no context",
    "fuller form in event",
    "mononym",
    "linked: partners' names agree",
    "linked: rare surname",
    "linked: shared partner",
)


@dataclass(frozen=True)
class Doubt:
    """One doubtful resolution of a name in an event."""

    raw_name: str
    event: str
    seats: int
    reason: str
    player: str  # the person it was resolved to
    wbf_name: str | None  # the listed player it went to
    runner_up: str | None  # the best listed player it did not go to
    partners: tuple[str, ...]  # the names it sat with, most often first


def _partners(conn: Connection, raw: str, event: str, most: int = 3) -> tuple[str, ...]:
    seen: Counter[str] = Counter()
    pairs = (("north", "south"), ("south", "north"), ("east", "west"), ("west", "east"))
    for seat, partner in pairs:
        column, other = getattr(Board, seat), getattr(Board, partner)
        for (name,) in conn.execute(select(other).where((column == raw) & (Board.event == event))):
            if name:
                seen[name] += 1
    return tuple(name for name, _ in seen.most_common(most))


def doubtful_resolutions(conn: Connection, limit: int = 50) -> list[Doubt]:
    """The ``limit`` most played resolutions resting on weak evidence.

    Parameters
    ----------
    conn : Connection
        A database the match stage has run on.
    limit : int
        How many to list.
    """
    weak = or_(*(NameMatch.reason.startswith(reason) for reason in DOUBTFUL))
    rows = conn.execute(
        select(
            NameMatch.raw_name,
            NameMatch.event,
            NameMatch.seats,
            NameMatch.reason,
            Player.name,
            WbfPlayer.name,
            NameMatch.runner_up,
        )
        .join(Player, Player.id == NameMatch.player_id)
        .outerjoin(WbfPlayer, WbfPlayer.id == NameMatch.wbf_id)
        .where(weak)
        .order_by(NameMatch.seats.desc(), NameMatch.raw_name, NameMatch.event)
        .limit(limit)
    ).all()
    return [
        Doubt(raw, event, seats, reason, player, wbf, runner, _partners(conn, raw, event))
        for raw, event, seats, reason, player, wbf, runner in rows
    ]
