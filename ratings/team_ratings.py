"""The team headline fitted on every team board: the rate stage's team ratings.

The fit's choices are made as in the walk-forward (:func:`~bridgerank.ratings.team_fit.
choose_joint`), on every team board; every other player of the records is fitted beside
the team boards' players, so that a forecast of a side not yet seen in a team match
(:mod:`~bridgerank.ratings.imp_forecast`) reads a strength for each of its players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bridgerank.ratings.holdout import Z95
from bridgerank.ratings.team_boards import TeamBoards
from bridgerank.ratings.team_evidence import TeamEvidence
from bridgerank.ratings.team_fit import choose_joint, joint_system, team_settings

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings

__all__ = ["TeamRatings", "team_ratings"]


# After every period: what a fit on all the boards reads its covariates before.
_AFTER_ALL = "\U0010ffff"


@dataclass
class TeamRatings:
    """The team headline fitted on every board: ``ratings`` rows (method ``team_imps``, the
    team boards' players), ``strengths`` rows (every player of the records) and the
    ``team_fit`` row (empty lists: no team board)."""

    ratings: list[dict[str, Any]]
    strengths: list[dict[str, Any]]
    fit: list[dict[str, Any]]


# The player no record has seen, as a column of the fit: its strength is a newcomer's.
_NEWCOMER = ("a player never seen",)


def team_ratings(
    data: TeamBoards, evidence: TeamEvidence, settings: RateSettings | None = None
) -> TeamRatings:
    """The team headline fitted on every team board (its choices made as in the
    walk-forward, on the grids of ``settings``' ``[rate.teams]``, None: the shipped
    defaults), with every other player of the records beside them (their strength is
    what their covariates and one-table boards say): the team boards' players' ``ratings``
    rows - the IMPs per board they add to a team, a 95% interval, their team boards - and
    what a forecast reads (:mod:`~bridgerank.ratings.imp_forecast`)."""
    if not len(data):
        return TeamRatings([], [], [])
    teams = team_settings(None if settings is None else settings.teams)
    penalty, weight = choose_joint(
        data, evidence, one_table_weights=teams.one_table_weights, penalties=teams.joint_penalties
    )
    others = [] if evidence.records is None else list(evidence.records.players)
    players, system = joint_system(data, evidence, _AFTER_ALL, weight, extra=[*others, _NEWCOMER])
    fit = system.fit(penalty)
    team = len(data.players)
    boards = np.bincount(data.seats.ravel(), minlength=team)
    rated = [
        {
            "player": str(player),
            "method": "team_imps",
            "rating": float(fit.theta[index]),
            "low": float(fit.theta[index] - Z95 * fit.sd[index]),
            "high": float(fit.theta[index] + Z95 * fit.sd[index]),
            "games": int(boards[index]),
        }
        for index, player in enumerate(data.players)
        if boards[index]
    ]
    strengths = [
        {
            "player": str(player),
            "strength": float(fit.theta[index]),
            "sd": float(fit.sd[index]),
            "team_boards": int(boards[index]) if index < team else 0,
        }
        for index, player in enumerate(players)
        if player is not _NEWCOMER
    ]
    newcomer = players.index(_NEWCOMER)
    strength = dict(zip(players, fit.theta))
    one_table = evidence.one_table
    one_table_variance = None
    if one_table is not None and len(one_table):
        expected = np.array(
            [
                sum(strength[player] for player in north_south)
                - sum(strength[player] for player in east_west)
                for north_south, east_west in one_table.pairs
            ]
        )
        one_table_variance = float(np.mean((one_table.imps - expected) ** 2))
    fitted = {
        "id": 1,
        "penalty": penalty,
        "one_table_weight": weight,
        "board_variance": fit.residual_variance,
        "one_table_variance": one_table_variance,
        "newcomer": float(fit.theta[newcomer]),
        "newcomer_sd": float(fit.sd[newcomer]),
        "newcomer_own_sd": None if fit.own_sd is None else float(fit.own_sd[newcomer]),
        "team_boards": len(data),
        "one_table_boards": 0 if one_table is None else len(one_table),
    }
    return TeamRatings(rated, strengths, [fitted])
