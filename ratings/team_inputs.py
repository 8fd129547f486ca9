"""What the team studies fit on: the team boards and what every other board says of their
players, gathered once for the held-out matches, the one-table pairs and the team ratings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Mapping

from bridgerank.ratings.field import field_tables
from bridgerank.ratings.team_boards import TeamBoards, team_boards
from bridgerank.ratings.team_evidence import OneTableBoards, PlayerRecords, TeamEvidence

if TYPE_CHECKING:
    from bridgerank.core.sections import TeamSettings
    from bridgerank.ratings.card_evidence import CardCounts
    from bridgerank.ratings.dd_prior import BoardEvidence

__all__ = ["team_inputs"]


def team_inputs(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    evidence: BoardEvidence | None = None,
    par_of: Callable[[Mapping[str, Any]], int | None] | None = None,
    cards: CardCounts | None = None,
    min_tables: int = 3,
    settings: TeamSettings | None = None,
) -> tuple[TeamBoards, TeamEvidence]:
    """The team boards of ``boards`` and what the rest of them says of their players (the dds
    stage's ``evidence`` per board, the boards' par by ``par_of`` and the card counters per
    board and seat, where it has run; the boards played in a field of ``min_tables``
    tables or more, matchpointed); ``settings``: ``[rate.teams]``, the shrinkage of the
    players' covariates (None: the shipped defaults)."""
    boards = list(boards)
    data = team_boards(boards, player_of)
    if not len(data):
        return data, TeamEvidence()  # no team player to say anything of
    return data, TeamEvidence(
        PlayerRecords.of(boards, player_of, evidence, settings),
        OneTableBoards.of(boards, player_of, par_of) if par_of is not None else None,
        cards,
        field_tables(boards, player_of, min_tables),
    )
