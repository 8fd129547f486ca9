"""Bridge results as games for the rating models.

Team boards: a deal played in both rooms of a match is one game between {open-room North-South,
closed-room East-West} and {open-room East-West, closed-room North-South}, decided by the net
score of the first team, ``NS score(open) - NS score(closed)``; a zero net is a tie (half a win
each way). The weight is 1 per board, or the IMPs of the net score.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from bridgerank.bridge.scoring import imps, table_score

# Board-a-match: a team game even where a field plays each deal (a club's BAM); its tables
# are team games (rooms of a match), never pair rankings or matchpointed pairs.
TEAM_SCORING = "BAM"


def deal_key(board: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """One deal at one event: its boards are the tables that played it (a board number alone
    repeats across an event's sessions, a deal alone across events)."""
    return (board["event"], board["board_no"], board["deal_hash"])


# North-South's score at the table, or None when the result is unknown
ns_score = table_score
SEATS = ("north", "south", "east", "west")


def seated(
    board: Mapping[str, Any], seats: Sequence[str], player_of: Mapping[str, Hashable]
) -> tuple:
    """The player keys at ``seats`` of ``board`` (an unknown name stands for itself)."""
    return tuple(player_of.get(board[seat], board[seat]) for seat in seats)


def scored_tables(tables: Iterable[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], int]]:
    """The tables with four named seats and a known score, each with North-South's score."""
    return [
        (board, score)
        for board in tables
        if all(board[seat] for seat in SEATS) and (score := ns_score(board)) is not None
    ]


@dataclass
class TeamGame:
    """One board of a team match as a game; ``net`` is team A's score difference."""

    team_a: tuple[Hashable, ...]
    team_b: tuple[Hashable, ...]
    net: int
    when: tuple
    board_ids: tuple[int, int]

    def hyperedges(self, weighting: str = "board") -> list[tuple[tuple, tuple, float]]:
        """The game as (winners, losers, weight) entries; a tie gives two half entries."""
        weight = 1.0 if weighting == "board" else float(abs(imps(self.net)))
        if self.net > 0:
            return [(self.team_a, self.team_b, weight)]
        if self.net < 0:
            return [(self.team_b, self.team_a, weight)]
        half = 0.5 if weighting == "board" else 0.0
        return [(self.team_a, self.team_b, half), (self.team_b, self.team_a, half)] if half else []


def room_pairs(
    opens: list[Mapping[str, Any]], closeds: list[Mapping[str, Any]]
) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """The open and closed rooms of one board that belong to the same match: the two rooms
    when there is one of each; when several matches of a round played the board, the rooms
    whose records name the same two teams (no names, no pairs: an open room set against
    another match's closed room would be no game)."""
    if len(opens) == 1 and len(closeds) == 1:
        return [(opens[0], closeds[0])]

    def teams(board: Mapping[str, Any]) -> tuple[str, str]:
        return (board.get("home_team") or "", board.get("visit_team") or "")

    named_closed: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for board in closeds:
        named_closed[teams(board)].append(board)
    named_open: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for board in opens:
        named_open[teams(board)].append(board)
    return [
        (rooms[0], named_closed[name][0])
        for name, rooms in named_open.items()
        if all(name) and len(rooms) == 1 and len(named_closed[name]) == 1
    ]


def team_games(
    boards: Iterable[Mapping[str, Any]], player_of: Mapping[str, Hashable]
) -> list[TeamGame]:
    """Pair the open and closed room of every team board into games, in date order.

    ``boards`` are rows of the ``boards`` table; ``player_of`` maps a raw name to a player key
    (unknown names stand for themselves). A board whose pair of rooms is incomplete, or whose
    seats or results are missing, is not a game.
    """
    rooms: dict[tuple, dict[str, list[Mapping[str, Any]]]] = defaultdict(
        lambda: {"open": [], "closed": []}
    )
    for board in boards:
        room = (board["room"] or "").strip().lower()
        if room in ("open", "closed"):
            rooms[deal_key(board)][room].append(board)
    games = []
    for both in rooms.values():
        for open_room, closed in room_pairs(both["open"], both["closed"]):
            both_rooms = scored_tables([open_room, closed])
            if len(both_rooms) < 2:
                continue
            (_, first), (_, second) = both_rooms
            keys = seated(open_room, SEATS, player_of) + seated(closed, SEATS, player_of)
            team_a = (keys[0], keys[1], keys[6], keys[7])  # open NS + closed EW
            team_b = (keys[2], keys[3], keys[4], keys[5])  # open EW + closed NS
            if set(team_a) & set(team_b):
                continue  # a name on both teams: a data error, not a game
            when = (open_room["date"] or "", open_room["id"])
            games.append(
                TeamGame(team_a, team_b, first - second, when, (open_room["id"], closed["id"]))
            )
    games.sort(key=lambda game: game.when)
    return games


def index_players(games: Iterable[TeamGame]) -> dict[Hashable, int]:
    """A dense index of every player appearing in the games, in first-seen order."""
    index: dict[Hashable, int] = {}
    for game in games:
        for player in game.team_a + game.team_b:
            index.setdefault(player, len(index))
    return index


def log_loss(probabilities: np.ndarray, outcomes: np.ndarray) -> float:
    """Mean log-loss of P(team A wins) against outcomes 1, 0 or 0.5 (a tie)."""
    p = np.clip(probabilities, 1e-12, 1 - 1e-12)
    return float(-np.mean(outcomes * np.log(p) + (1 - outcomes) * np.log(1 - p)))


@dataclass
class Ranking:
    """One deal at many tables: the pairs sitting one direction, and their places (1 = best)."""

    teams: list[tuple[Hashable, ...]]
    places: list[int]
    when: tuple


def _places(scores: list[int]) -> list[int]:
    """Competition ranking of scores, higher first: 1, 2, 2, 4."""
    return [1 + sum(1 for other in scores if other > value) for value in scores]


def pair_rankings(
    boards: Iterable[Mapping[str, Any]], player_of: Mapping[str, Hashable], min_tables: int = 3
) -> list[Ranking]:
    """Rankings of the North-South pairs and of the East-West pairs of every deal played at
    ``min_tables`` tables or more of one event, by their score, in date order."""
    groups: dict[tuple, list[Mapping[str, Any]]] = defaultdict(list)
    for board in boards:
        if board.get("scoring") != TEAM_SCORING:  # a team game: rated as teams, never pairs
            groups[deal_key(board)].append(board)
    rankings = []
    for tables in groups.values():
        scored = scored_tables(tables)
        if len(scored) < min_tables:
            continue
        when = min((board["date"] or "", board["id"]) for board, _ in scored)
        for seats, sign in ((("north", "south"), 1), (("east", "west"), -1)):
            teams = [seated(board, seats, player_of) for board, _ in scored]
            if len(set(teams)) != len(teams):
                continue  # the same pair twice: a copy, not a field
            rankings.append(Ranking(teams, _places([sign * value for _, value in scored]), when))
    rankings.sort(key=lambda ranking: ranking.when)
    return rankings


def single_table_games(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    par_of: Callable[[Mapping[str, Any]], int | None],
) -> list[TeamGame]:
    """Boards played at one table only: North-South against East-West, decided by North-South's
    score against the double dummy par (``par_of(board)``, None when unknown)."""
    groups: dict[tuple, list[Mapping[str, Any]]] = defaultdict(list)
    for board in boards:
        groups[deal_key(board)].append(board)
    games = []
    for tables in groups.values():
        if len(tables) != 1 or not (scored := scored_tables(tables)):
            continue
        (board, score), par = scored[0], par_of(tables[0])
        ns, ew = seated(board, SEATS[:2], player_of), seated(board, SEATS[2:], player_of)
        if par is None or set(ns) & set(ew):
            continue
        games.append(
            TeamGame(
                ns, ew, score - par, (board["date"] or "", board["id"]), (board["id"], board["id"])
            )
        )
    games.sort(key=lambda game: game.when)
    return games


def pairwise_scores(
    rankings: Sequence[Ranking], strength: Callable[[tuple], float]
) -> dict[str, float | None]:
    """Log-loss and accuracy of P(team i ahead of team j) over every decided pair of teams.

    ``strength`` maps a team to a rating on the Elo scale (400 points = factor 10 in odds).
    """
    losses, hits = [], []
    for ranking in rankings:
        values = [strength(team) for team in ranking.teams]
        for i in range(len(values)):
            for j in range(i + 1, len(values)):
                if ranking.places[i] == ranking.places[j]:
                    continue
                p = 1 / (1 + 10 ** ((values[j] - values[i]) / 400))
                ahead = ranking.places[i] < ranking.places[j]
                p_true = min(max(p if ahead else 1 - p, 1e-12), 1 - 1e-12)
                losses.append(-np.log(p_true))
                hits.append(p_true > 0.5)
    return {
        "log_loss": float(np.mean(losses)) if losses else None,
        "accuracy": float(np.mean(hits)) if hits else None,
        "test_games": len(losses),
    }
