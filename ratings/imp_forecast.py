"""Forecasts in IMPs of championship events not yet rated: each team match's margin and each
pair's IMPs against the double dummy par in an event played at one table a deal, from the
team headline's stored strengths (:func:`~bridgerank.ratings.team_matches.team_ratings`),
with 80% intervals; and the results the same sides scored, once the event is stored.

A side is named as the file names its players (the names a later ingest stores), so a
forecast made from files and the result read from the database meet. Its players are looked
up as persons (``player_of``); a player with no strength counts as a newcomer, with a
newcomer's strength and uncertainty.

- **Team match**: the boards of one event and date played in both rooms, joined through
  their players (:func:`~bridgerank.ratings.team_matches.team_boards`). Its margin, oriented
  to the team of its first board's open-room North-South, is the sum over its boards of
  ``sum(theta_A) - sum(theta_B)``; its variance is the boards' luck (the fit's board
  variance each) and the players' rating uncertainty (each player's error is the same on
  every board they play).
- **Pair at one table a deal**: the boards of one event and date played at one table
  (:func:`~bridgerank.ratings.games.single_table_games`). A pair's result is its IMPs against
  par summed over its boards (North-South's score less par, turned to IMPs, from the pair's
  side); the forecast is ``sum(theta_pair) - sum(theta_opponents)`` summed over them, its
  variance the boards' (the fit's one-table variance each) and the ratings'.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from bridgerank.bridge.scoring import imps
from bridgerank.ratings.field import period_of
from bridgerank.ratings.games import single_table_games
from bridgerank.ratings.holdout import Z80
from bridgerank.ratings.team_matches import (
    ImpFit,
    TeamBoards,
    match_forecast,
    match_margins,
    team_boards,
)

__all__ = ["StoredStrengths", "actual_imps", "forecast_imps"]


@dataclass(frozen=True)
class StoredStrengths:
    """What an IMP forecast needs of the team headline's fit.

    Attributes
    ----------
    strength : mapping
        Player -> (IMPs per board added to a side, standard deviation).
    board_variance : float
        A team board's IMPs around the model, squared.
    one_table_variance : float or None
        A one-table board's IMPs against par around the model, squared (None: the fit read
        no such board, and pairs are not forecast).
    newcomer : tuple of float
        The strength and standard deviation of a player the records never saw.
    """

    strength: Mapping[str, tuple[float, float]]
    board_variance: float
    one_table_variance: float | None
    newcomer: tuple[float, float]

    def of(self, players: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Strengths, standard deviations and whether known, of ``players`` (persons)."""
        found = [self.strength.get(str(player), self.newcomer) for player in players]
        known = np.array([str(player) in self.strength for player in players], dtype=bool)
        return (
            np.array([value for value, _ in found], dtype=float),
            np.array([sd for _, sd in found], dtype=float),
            known,
        )


def _side(names: Iterable[Hashable]) -> str:
    """A side as the file names its players: sorted, joined."""
    return " - ".join(sorted({str(name) for name in names}))


def _row(key: tuple[str, str, str], kind: str, opponents: str, **values: Any) -> dict[str, Any]:
    """A forecast row: its key (event, session, side), what it forecasts, and its values
    (``boards``, ``players``, ``rated``, ``predicted``, ``sd``), with the 80% interval."""
    event, session, side = key
    low = values["predicted"] - Z80 * values["sd"]
    high = values["predicted"] + Z80 * values["sd"]
    return {
        "event": event,
        "session": session,
        "side": side,
        "kind": kind,
        "opponents": opponents,
        **values,
        "low_80": low,
        "high_80": high,
    }


def _match_sides(data: TeamBoards) -> list[tuple[str, str, np.ndarray]]:
    """Each match's reference team and its opponents, named (``data.players`` are the names
    as written), and its players' indices; in match order."""
    count = len(data.matches)
    own: list[set[int]] = [set() for _ in range(count)]
    other: list[set[int]] = [set() for _ in range(count)]
    for seats, match, sign in zip(data.seats, data.match, data.sign):
        first, second = (seats[:4], seats[4:]) if sign > 0 else (seats[4:], seats[:4])
        own[match].update(first.tolist())
        other[match].update(second.tolist())
    return [
        (
            _side(data.players[index] for index in own[match]),
            _side(data.players[index] for index in other[match]),
            np.array(sorted(own[match] | other[match]), dtype=np.int64),
        )
        for match in range(count)
    ]


def _match_forecasts(
    boards: Sequence[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    stored: StoredStrengths,
) -> list[dict[str, Any]]:
    data = team_boards(boards, {})
    if not len(data):
        return []
    theta, sd, known = stored.of([player_of.get(str(name), name) for name in data.players])
    forecast = match_forecast(ImpFit(theta, sd, 0.0, stored.board_variance), data)
    variance = forecast.variance if forecast.variance is not None else np.zeros(len(theta))
    _, played = match_margins(data, data.imps)
    return [
        _row(
            (*data.matches[match], side),
            "match",
            opponents,
            boards=int(played[match]),
            players=len(players),
            rated=int(known[players].sum()),
            predicted=float(forecast.value[match]),
            sd=float(np.sqrt(variance[match])),
        )
        for match, (side, opponents, players) in enumerate(_match_sides(data))
    ]


def _pair_boards(
    boards: Sequence[Mapping[str, Any]], par_of: Callable[[Mapping[str, Any]], int | None]
) -> dict[tuple[str, str, str], list[tuple[tuple[str, ...], tuple[str, ...], float]]]:
    """Each pair's boards played at one table a deal, by (event, period, pair as written):
    the pair, its opponents and its IMPs against par (``par_of``), from its side."""
    by_id = {board["id"]: board for board in boards}
    found: dict[tuple[str, str, str], list] = defaultdict(list)
    for game in single_table_games(boards, {}, par_of):
        board = by_id[game.board_ids[0]]
        when = (board["event"], period_of(board))
        result = float(imps(game.net))
        found[(*when, _side(game.team_a))].append((game.team_a, game.team_b, result))
        found[(*when, _side(game.team_b))].append((game.team_b, game.team_a, -result))
    return found


def _pair_forecasts(
    boards: Sequence[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    stored: StoredStrengths,
) -> list[dict[str, Any]]:
    if stored.one_table_variance is None:
        return []
    rows = []
    # the result does not enter the forecast: any par serves to find the boards
    for key, played in sorted(_pair_boards(boards, lambda board: 0).items()):
        weight: dict[Hashable, float] = defaultdict(float)
        for pair, others, _ in played:
            for name in pair:
                weight[name] += 1.0
            for name in others:
                weight[name] -= 1.0
        names = list(weight)
        theta, sd, known = stored.of([player_of.get(str(name), name) for name in names])
        signs = np.array([weight[name] for name in names])
        own = np.array([name in played[0][0] for name in names])
        rows.append(
            _row(
                key,
                "pair",
                "",
                boards=len(played),
                players=len(names),
                rated=int(known[own].sum()),
                predicted=float(signs @ theta),
                sd=float(np.sqrt(len(played) * stored.one_table_variance + (signs**2) @ sd**2)),
            )
        )
    return rows


def forecast_imps(
    boards: Sequence[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    stored: StoredStrengths,
) -> list[dict[str, Any]]:
    """The IMP forecast of every team match and of every pair of the one-table events in
    ``boards`` (see the module docstring).

    Parameters
    ----------
    boards : sequence of mapping
        Board rows with the names as written; their results decide only which boards were
        played where, never the forecast.
    player_of : mapping
        Raw name -> person, as the strengths know players.
    stored : StoredStrengths

    Returns
    -------
    list of dict
        ``event``, ``session`` (the date), ``side``, ``kind`` ("match" or "pair"),
        ``opponents`` (a match's other team; a pair: empty),
        ``boards``, ``players``, ``rated`` (a match: of all its players; a pair: of its two),
        ``predicted`` (IMPs), ``sd``, ``low_80``, ``high_80``.
    """
    matches = _match_forecasts(boards, player_of, stored)
    # a board of a team event recorded in one room only is no pairs event
    team_events = set(team_boards(boards, {}).matches)
    pairs = [
        row
        for row in _pair_forecasts(boards, player_of, stored)
        if (row["event"], row["session"]) not in team_events
    ]
    return matches + pairs


def actual_imps(
    boards: Sequence[Mapping[str, Any]], par_of: Callable[[Mapping[str, Any]], int | None]
) -> dict[tuple[str, str, str, str], float]:
    """What each side of :func:`forecast_imps` scored, keyed ``(event, session, side,
    opponents)``: a match's margin, a pair's IMPs against par (over its boards with a par)."""
    actual: dict[tuple[str, str, str, str], float] = {}
    data = team_boards(boards, {})
    if len(data):
        margin, _ = match_margins(data, data.imps)
        for match, (side, opponents, _) in enumerate(_match_sides(data)):
            actual[(*data.matches[match], side, opponents)] = float(margin[match])
    for key, played in _pair_boards(boards, par_of).items():
        actual.setdefault((*key, ""), sum(result for _, _, result in played))
    return actual
