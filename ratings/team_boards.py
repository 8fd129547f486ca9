"""Team boards as arrays: every board played in both rooms, grouped into matches.

Every team board played in both rooms (:func:`games.team_games`) is one row: team A (the
open room's North-South pair and the closed room's East-West pair) against team B, the
outcome team A's IMPs. A *match* is every board of one event and date between the same two
teams: boards join when they share a player on each side (a match's segments, whatever
line-ups each fields), never a team's other match that day. Its margin is team A's IMPs summed
over its boards, each board oriented to the same team (:func:`match_margins`).

What every team method reads: the headline's fit (:mod:`~bridgerank.ratings.team_fit`), the
baselines (:mod:`~bridgerank.ratings.team_baselines`), the rivals and the team events' matches
(:mod:`~bridgerank.ratings.event_matches`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Mapping

import numpy as np
from scipy import sparse

from bridgerank.bridge.scoring import imps
from bridgerank.core.disjoint import DisjointSets
from bridgerank.ratings.field import period_of, rows_where
from bridgerank.ratings.games import team_games

__all__ = ["TeamBoards", "board_design", "match_margins", "team_boards"]


@dataclass
class TeamBoards:
    """Team boards as arrays: ``players[g]`` are the 8 player indices of board ``g`` (team A's
    four, then team B's), ``imps`` team A's IMPs, ``match`` and ``period`` indices, and
    ``sign`` +1 when team A is the match's reference team, -1 when it is the other;
    ``matches[m]`` is match ``m``'s event and period."""

    players: list[Hashable]
    seats: np.ndarray
    imps: np.ndarray
    match: np.ndarray
    sign: np.ndarray
    period: np.ndarray
    periods: list[str]
    matches: list[tuple[str, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.imps)

    def subset(self, mask: np.ndarray) -> TeamBoards:
        """The boards where ``mask`` holds (player and match numbering kept)."""
        return rows_where(self, mask)


def team_boards(
    boards: Iterable[Mapping[str, Any]], player_of: Mapping[str, Hashable]
) -> TeamBoards:
    """Every team board played in both rooms, grouped into matches (see the module
    docstring), in date order."""
    boards = list(boards)
    by_id = {board["id"]: board for board in boards}
    games = team_games(boards, player_of)
    index: dict[Hashable, int] = {}
    rows = []
    for game in games:
        board = by_id[game.board_ids[0]]
        seats = [index.setdefault(player, len(index)) for player in game.team_a + game.team_b]
        rows.append(((board["event"], period_of(board)), seats, imps(game.net)))
    # matches: within one event and date, boards joined when they share a player on each
    # side - the segments of one match between two teams, but never a team's match against
    # another team that day (whose opponents are others)
    joined: DisjointSets[int] = DisjointSets()
    seen: dict[tuple, int] = {}
    for number, (when, seats, _) in enumerate(rows):
        for first in seats[:4]:
            for second in seats[4:]:
                key = (when, min(first, second), max(first, second))
                joined.union(seen.setdefault(key, number), number)
    root = joined.find
    match_of: dict[int, int] = {}
    reference: dict[int, set[int]] = {}
    match, sign, matches = [], [], []
    for number, (when, seats, _) in enumerate(rows):
        if root(number) not in match_of:
            matches.append(when)
        group = match_of.setdefault(root(number), len(match_of))
        side = reference.setdefault(group, set(seats[:4]))
        same = len(side & set(seats[:4])) >= len(side & set(seats[4:]))
        side.update(seats[:4] if same else seats[4:])
        match.append(group)
        sign.append(1 if same else -1)
    periods = sorted({when[1] for when, _, _ in rows})
    period_index = {period: number for number, period in enumerate(periods)}
    return TeamBoards(
        players=sorted(index, key=index.__getitem__),
        seats=np.array([seats for _, seats, _ in rows], dtype=np.int64).reshape(-1, 8),
        imps=np.array([value for _, _, value in rows], dtype=float),
        match=np.array(match, dtype=np.int64),
        sign=np.array(sign, dtype=float),
        period=np.array([period_index[when[1]] for when, _, _ in rows], dtype=np.int64),
        periods=periods,
        matches=matches,
    )


def board_design(data: TeamBoards) -> sparse.csr_matrix:
    """Boards by players: +1 for each of team A's four players on a board, -1 for team B's
    (a board's expected IMPs are this row times the players' strengths)."""
    return signed_rows(data.seats, 4, len(data.players))


def signed_rows(seated: np.ndarray, side: int, players: int) -> sparse.csr_matrix:
    """Rows of ``seated`` players (one row each, player indices) by players: +1 for each of
    the first ``side`` seats, -1 for the others."""
    count, seats = seated.shape
    signs = np.tile(np.r_[np.ones(side), -np.ones(seats - side)], count)
    return sparse.csr_matrix(
        (signs, (np.repeat(np.arange(count), seats), seated.ravel())), shape=(count, players)
    )


def match_margins(data: TeamBoards, board_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each match's sum of ``board_values`` oriented to its reference team, and its boards;
    indexed by the matches present, in match order."""
    present, inverse = np.unique(data.match, return_inverse=True)
    margin = np.bincount(inverse, weights=data.sign * board_values, minlength=len(present))
    return margin, np.bincount(inverse, minlength=len(present))
