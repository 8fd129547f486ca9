"""Game matrices from bridge results (spec 7(d)).

**Pairs.** Two pairs that held the same cards - the same deal, in the same direction, in one
event - are compared by their scores: the better score wins, equal scores tie. A pair is a
partnership (the two players, whoever sat North). The strongest pairs are those with the
highest share of such comparisons won over at least ``min_boards`` boards; among them the
entry ``P[i, j]`` is ``(wins + ties/2 + alpha) / (games + 2 alpha)`` and observed when they
held the same cards on at least ``min_common`` boards.

**Teams.** In a team event, each board played in both rooms is won by the team whose net score
is positive (a board worth 0 IMPs is a tie). Teams are the groups of players who sit together
on one side of a match within the event, named by the team names the records carry.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping

import numpy as np

from bridgerank.bridge.scoring import imps
from bridgerank.cleaning.match.names import is_robot
from bridgerank.core.disjoint import DisjointSets
from bridgerank.ratings.gamematrix.matrix import GameMatrix
from bridgerank.ratings.games import deal_key, scored_tables, seated, team_games

# Marks a team name among the players of :func:`_team_of`'s union-find.
_NAMED = "team name"


@dataclass
class BridgeGame:
    """A game matrix built from results, with what it is made of."""

    name: str
    entity: str  # "pair" or "team"
    game: GameMatrix
    comparisons: int  # boards compared among the entities kept


def _fields(
    boards: Iterable[Mapping[str, Any]], player_of: Mapping[str, Hashable]
) -> list[tuple[list[tuple[str, ...]], np.ndarray]]:
    """Per deal of an event and direction: the pairs that held those cards and their scores
    (their own side's score, so higher is better)."""
    deals: dict[tuple, list[Mapping[str, Any]]] = defaultdict(list)
    for board in boards:
        deals[deal_key(board)].append(board)
    fields = []
    for tables in deals.values():
        if len(tables) < 2:
            continue
        scored = scored_tables(tables)
        for seats, sign in ((("north", "south"), 1), (("east", "west"), -1)):
            pairs = [
                tuple(sorted(map(str, seated(board, seats, player_of)))) for board, _ in scored
            ]
            if len(pairs) >= 2 and len(set(pairs)) == len(pairs):
                fields.append((pairs, sign * np.array([score for _, score in scored], float)))
    return fields


def pair_game(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    name: str,
    top: int = 30,
    min_boards: int = 50,
    min_common: int = 8,
    alpha: float = 0.5,
) -> BridgeGame | None:
    """The game matrix of the ``top`` strongest pairs (module docstring); None when fewer than
    three pairs qualify."""
    fields = _fields(boards, player_of)
    won: Counter[tuple] = Counter()
    compared: Counter[tuple] = Counter()
    played: Counter[tuple] = Counter()
    for pairs, scores in fields:
        beaten = (scores[:, None] > scores[None, :]).sum(axis=1)
        equal = (scores[:, None] == scores[None, :]).sum(axis=1) - 1
        for pair, wins, ties in zip(pairs, beaten, equal):
            won[pair] += wins + ties / 2
            compared[pair] += len(pairs) - 1
            played[pair] += 1
    # a robot is no player to rank: "GIB 2.6.3 & Hervé" is not one of the strongest pairs
    qualified = [
        pair
        for pair in played
        if played[pair] >= min_boards and not any(is_robot(player) for player in pair)
    ]
    qualified.sort(key=lambda pair: (-won[pair] / compared[pair], pair))
    chosen = qualified[:top]
    if len(chosen) < 3:
        return None
    index = {pair: number for number, pair in enumerate(chosen)}
    wins = np.zeros((len(chosen), len(chosen)))
    ties = np.zeros_like(wins)
    comparisons = 0
    for pairs, scores in fields:
        members = [(index[pair], score) for pair, score in zip(pairs, scores) if pair in index]
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                (i, x), (j, y) = members[a], members[b]
                comparisons += 1
                if x > y:
                    wins[i, j] += 1
                elif y > x:
                    wins[j, i] += 1
                else:
                    ties[i, j] += 1
                    ties[j, i] += 1
    labels = [" & ".join(pair) for pair in chosen]
    game = GameMatrix.from_counts(wins, ties, labels, alpha, min_common)
    return BridgeGame(name, "pair", game, comparisons)


def _team_of(games: list, by_id: Mapping[int, Mapping[str, Any]]) -> dict[tuple, int]:
    """Within each event, the players who sat on one side of a match together, joined, and
    the line-ups that carry the same team name."""
    teams: DisjointSets[tuple] = DisjointSets()
    for game in games:
        open_room = by_id[game.board_ids[0]]
        event = open_room["event"]
        names = (open_room.get("home_team"), open_room.get("visit_team"))
        for side, name in zip((game.team_a, game.team_b), names):
            first = teams.union((event, side[0]), *((event, player) for player in side[1:]))
            if name:  # line-ups of one event under one team name are one team
                teams.union(first, (event, (_NAMED, name)))
    roots: dict[tuple, int] = {}
    return {item: roots.setdefault(teams.find(item), len(roots)) for item in teams.items()}


def team_game_matrices(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    min_teams: int = 6,
    alpha: float = 0.5,
) -> list[BridgeGame]:
    """One game matrix per team event with at least ``min_teams`` teams (module docstring),
    the one with most pairs of teams that met first."""
    boards = list(boards)
    by_id = {board["id"]: board for board in boards}
    games = team_games(boards, player_of)
    team_of = _team_of(games, by_id)
    results: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    names: dict[int, Counter[str]] = defaultdict(Counter)
    for game in games:
        open_room = by_id[game.board_ids[0]]
        event = open_room["event"]
        a, b = team_of[(event, game.team_a[0])], team_of[(event, game.team_b[0])]
        if a == b:
            continue  # the same people on both sides: a data error
        results[event].append((a, b, game.net))
        # the open room's North-South is the home team (BBO's vugraph convention)
        names[a][open_room.get("home_team") or ""] += 1
        names[b][open_room.get("visit_team") or ""] += 1
    matrices = []
    for event, rows in results.items():
        teams = sorted({team for a, b, _ in rows for team in (a, b)})
        if len(teams) < min_teams:
            continue
        index = {team: number for number, team in enumerate(teams)}
        wins = np.zeros((len(teams), len(teams)))
        ties = np.zeros_like(wins)
        for a, b, net in rows:
            i, j = index[a], index[b]
            value = imps(net)
            if value > 0:
                wins[i, j] += 1
            elif value < 0:
                wins[j, i] += 1
            else:
                ties[i, j] += 1
                ties[j, i] += 1
        labels = _team_labels([names[team] for team in teams])
        matrix = GameMatrix.from_counts(wins, ties, labels, alpha, 1)
        matrices.append(BridgeGame(f"Teams: {event}", "team", matrix, len(rows)))
    # the events with the most pairs of teams that met first (vugraph covers few matches)
    matrices.sort(key=lambda found: (-int(found.game.mask.sum()), found.name))
    return matrices


def _team_labels(votes: list[Counter[str]]) -> list[str]:
    """Each team's label: the team name most of its boards carry, or a number; a name that
    several line-ups carry (three line-ups called "Italy" in one event) is numbered, so every
    label of a game is distinct."""
    labels = []
    for number, counts in enumerate(votes):
        named = [(count, name) for name, count in counts.items() if name]
        labels.append(max(named)[1] if named else f"team {number + 1}")
    repeated = {label for label, count in Counter(labels).items() if count > 1}
    seen: Counter[str] = Counter()
    for number, label in enumerate(labels):
        if label in repeated:
            seen[label] += 1
            labels[number] = f"{label} ({seen[label]})"
    return labels
