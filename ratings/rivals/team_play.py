"""The rivals on team matches: each team board a deal played at two tables.

A team board is one deal played in two rooms: in the open room team A's North-South pair
against team B's East-West pair, in the closed room team B's North-South against team A's
East-West. That is a field of two tables, and every rival of the pair-sessions
(:mod:`~bridgerank.ratings.rivals`) reads it as it reads a club's deal: North-South at the
open table outscored North-South at the closed one (team A won the board: share 1), tied
(1/2) or did not (0), each side's opponents at its table known. Each match is one session
(the NGS's graded unit - the EBU grades each match of a Swiss event separately; for Glicko-2
a rating period and one game, its outcome the share of boards won), the matches taught in
date order.

What the rivals lack beside the headline of team play (:mod:`~bridgerank.ratings.
team_matches`): the size of a board's swing (they learn boards won, tied and lost, as they
learn matchpoints - none of them has a published form for IMPs), the boards played at one
table and every player's covariates (experience, double dummy measures). A rival's forecast
of a match is the sum over its boards of team A's expected share less one half, oriented to
the match's reference team, calibrated to IMPs on the training dates' latest quarter
(:mod:`~bridgerank.ratings.rivals.online`).

TrueSkill Through Time learns a game of teams, not a field of tables: each line-up of a
match (the same eight players, the segments of a match played by them) is one game of two
teams of four, the team that won more of its boards first (a drawn line-up teaches nothing:
the package's draws are not used, as for the sessions).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from bridgerank.ratings.field import FieldTables, deal_rows
from bridgerank.ratings.registry import Method
from bridgerank.ratings.rivals import glicko2, multiplayer_elo, ngs, openskill_pairs, pair_elo, ttt
from bridgerank.ratings.rivals.online import (
    Grid,
    Rival,
    Schedule,
    online_method,
    table_shares,
)
from bridgerank.ratings.team_boards import TeamBoards, match_margins

__all__ = [
    "ELO",
    "ELO_OPPONENTS",
    "GLICKO2",
    "MATCHES",
    "NGS",
    "OPENSKILL",
    "PAIR_ELO",
    "TTT",
    "TTT_YEARLY",
    "board_tables",
    "line_up_games",
]

# A team board's eight seats (team_boards.TeamBoards): team A's open North, South, closed
# East, West, then team B's open East, West, closed North, South. The two tables as North,
# South, East, West:
_OPEN = [0, 1, 4, 5]
_CLOSED = [6, 7, 2, 3]


def board_tables(data: TeamBoards) -> FieldTables:
    """Every team board as a deal at two tables, the open room's first: North-South's share
    1, 1/2 or 0 at the open table as team A won, tied or lost the board (the closed table's
    the rest); a match is a session."""
    count = len(data)
    won = 0.5 + 0.5 * np.sign(data.imps)
    tables = np.empty((2 * count, 4), dtype=np.int64)
    tables[0::2], tables[1::2] = data.seats[:, _OPEN], data.seats[:, _CLOSED]
    share = np.empty(2 * count)
    share[0::2], share[1::2] = won, 1 - won
    board = np.repeat(np.arange(count), 2)
    return FieldTables(
        players=data.players,
        seats=tables,
        share=share,
        group=board,
        session=data.match[board],
        sessions=data.matches,
        period=data.period[board],
        periods=data.periods,
        board=board,
    )


def _forecast(rival: Rival, data: TeamBoards) -> np.ndarray:
    """Each match's sum of team A's expected share of its boards less one half (oriented to
    the match's reference team), in match order."""
    open_tables = table_shares(rival, board_tables(data))[0::2]  # team A's share of each board
    return match_margins(data, open_tables - 0.5)[0]


MATCHES = Schedule(
    tables=board_tables,
    forecast=_forecast,
    actual=lambda data: match_margins(data, data.imps)[0],
    centre=0.0,
)


def line_up_games(tables: FieldTables, rows: np.ndarray) -> list[list[list[int]]]:
    """One match's games for TrueSkill Through Time (:func:`board_tables`' tables): each
    line-up (the same two teams of four) one game, the team that won more of its boards
    first; a drawn line-up is no game."""
    margin: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = defaultdict(float)
    for deal in deal_rows(tables, rows):
        open_room, closed = tables.seats[deal[0]].tolist(), tables.seats[deal[1]].tolist()
        team_a = tuple(sorted(open_room[:2] + closed[2:]))
        team_b = tuple(sorted(open_room[2:] + closed[:2]))
        won = float(tables.share[deal[0]]) - 0.5
        key = (team_a, team_b) if team_a < team_b else (team_b, team_a)
        margin[key] += won if key[0] == team_a else -won
    games = []
    for (first, second), value in margin.items():
        if value:
            teams = [list(first), list(second)]
            games.append(teams if value > 0 else teams[::-1])
    return games


def _on_team_boards(
    name: str,
    what: str,
    make: Callable[[Any], Rival],
    grid: Grid,
) -> Method:
    """A rival of the pair-sessions as a method of the matches registry; ``grid`` reads its
    grid from the ``[rate.rivals]`` settings (the ``team_`` keys: see config/defaults.toml
    for why they reach past the pair-sessions' grids)."""
    return Method(name, what, online_method(make, grid, MATCHES))


_BOARDS = "; each team board its two tables, won, tied or lost"
PAIR_ELO = _on_team_boards(
    "pair_elo",
    "the Common Game's partnership Elo" + _BOARDS,
    pair_elo.PairElo,
    lambda rivals: rivals.team_pair_elo_k,
)
NGS = _on_team_boards(
    "ngs",
    "the EBU's National Grading Scheme, each match graded" + _BOARDS,
    ngs.NationalGrades,
    lambda rivals: rivals.team_ngs_half_lives,
)
GLICKO2 = _on_team_boards(
    "glicko2",
    "Glicko-2, a pair its players' mean, each match one game, its outcome the share of boards won",
    lambda tau: glicko2.Glicko2Pairs(tau, one_game_a_session=True),
    lambda rivals: rivals.glicko2_taus,
)
OPENSKILL = _on_team_boards(
    "openskill",
    "OpenSkill (Plackett-Luce, teams of two)" + _BOARDS,
    openskill_pairs.OpenSkillPairs,
    lambda rivals: rivals.team_openskill_betas,
)
ELO = _on_team_boards(
    "elo",
    "multiplayer Elo (multielo and Elo by ranking probabilities: one model on two tables), "
    "a pair its players' mean" + _BOARDS,
    multiplayer_elo.MultiplayerElo,
    lambda rivals: rivals.team_elo_k,
)
ELO_OPPONENTS = _on_team_boards(
    "elo_opponents",
    "multiplayer Elo, a pair judged by its rating less its opponents' at the table" + _BOARDS,
    lambda k: multiplayer_elo.MultiplayerElo(k, opponents=True),
    lambda rivals: rivals.team_elo_k,
)
TTT = _on_team_boards(
    "ttt",
    "TrueSkill Through Time, each line-up of a match a game of two teams of four, the "
    "winner of more boards first",
    lambda gamma: ttt.ThroughTimePairs(gamma, games=line_up_games),
    lambda rivals: rivals.team_ttt_gammas,
)
TTT_YEARLY = _on_team_boards(
    "ttt",
    "TrueSkill Through Time, each line-up of a match a game of two teams of four, the "
    "history refitted once a year and TrueSkill's one-game update between",
    lambda gamma: ttt.ThroughTimePairs(gamma, games=line_up_games, yearly=True),
    lambda rivals: rivals.team_ttt_gammas,
)
