"""The team boards and their evidence, for the two studies that fit on them (results' team
ratings and the team matches), gathered once a run when both run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bridgerank.ratings.inputs import RateData

if TYPE_CHECKING:
    from bridgerank.ratings.team_boards import TeamBoards
    from bridgerank.ratings.team_evidence import TeamEvidence

__all__ = ["team_data"]


def team_data(data: RateData) -> tuple[TeamBoards, TeamEvidence]:
    """:func:`~bridgerank.ratings.team_inputs.team_inputs` of the rate stage's inputs
    (through :meth:`~bridgerank.ratings.inputs.RateData.derived`: computed once a run)."""
    from bridgerank.ratings.team_inputs import team_inputs  # numpy, only when rating

    return team_inputs(
        data.boards,
        data.names,
        data.evidence,
        data.par_of,
        data.cards,
        data.min_tables,
        data.teams,
    )
