"""How often an auction is called a mistake: the thesis's side verdicts against the calls
judged by the par after them, for the whole field and for each player.

Issue 47 asked for the two side by side: a verdict that fails every world champion on half
his auctions says nothing of anyone. Per player, the thesis marks a side-auction (both
players of the side share it); the par verdicts mark the player's own red call.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import Connection, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.match.lookup import person_lookup
from bridgerank.dds.tables import AuctionAnalysis, CallAnalysis

__all__ = ["MistakeShares", "PlayerShares", "mistake_shares"]


@dataclass(frozen=True)
class PlayerShares:
    """One player's auctions and the share of them each verdict calls a mistake."""

    player: str
    auctions: int
    thesis: float  # the side's auction marked by the thesis's verdict
    par: float  # the player's own call red by the par of the auction after it


@dataclass
class MistakeShares:
    """The field's side-auctions, those each verdict marks, and the players' shares."""

    side_auctions: int = 0
    thesis_marked: int = 0
    par_marked: int = 0  # side-auctions with a red call
    players: list[PlayerShares] = field(default_factory=list)

    def share(self, marked: int) -> float:
        """``marked`` as a share of the side-auctions (0 with none)."""
        return marked / self.side_auctions if self.side_auctions else 0.0


def mistake_shares(conn: Connection) -> MistakeShares:
    """The thesis's and the par verdicts' mistakes, for the field and for each player.

    Parameters
    ----------
    conn : Connection
        A database the dds stage has run on (the match stage's persons, when it has run,
        name the players; else their raw names).

    Returns
    -------
    MistakeShares
        Players in the order of their auctions, most first.
    """
    lookup = person_lookup(conn)
    seats: dict[int, dict[str, str]] = {}
    for row in conn.execute(
        select(Board.id, Board.event, Board.north, Board.east, Board.south, Board.west)
    ):
        seats[row.id] = {
            seat: lookup.name(raw, row.event) if raw else "" for seat, raw in zip("NESW", row[2:])
        }
    red = {
        (board_id, seat)
        for board_id, seat in conn.execute(
            select(CallAnalysis.board_id, CallAnalysis.seat).where(CallAnalysis.mistake_types != "")
        )
    }
    shares = MistakeShares()
    auctions: dict[str, int] = defaultdict(int)
    thesis: dict[str, int] = defaultdict(int)
    par: dict[str, int] = defaultdict(int)
    for board_id, side, mistake in conn.execute(
        select(AuctionAnalysis.board_id, AuctionAnalysis.side, AuctionAnalysis.mistake)
    ):
        shares.side_auctions += 1
        shares.thesis_marked += bool(mistake)
        own = [(seat, (board_id, seat) in red) for seat in side]
        shares.par_marked += any(is_red for _, is_red in own)
        for seat, is_red in own:
            player = seats.get(board_id, {}).get(seat, "")
            if not player:
                continue
            auctions[player] += 1
            thesis[player] += bool(mistake)
            par[player] += is_red
    shares.players = sorted(
        (
            PlayerShares(player, count, thesis[player] / count, par[player] / count)
            for player, count in auctions.items()
        ),
        key=lambda row: (-row.auctions, row.player),
    )
    return shares
