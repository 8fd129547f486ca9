"""Forecasts of team-event matches not yet rated, from the team events' headline as fitted on
every match (:meth:`~bridgerank.ratings.round_ridge.RoundRidge.current`).

A match's margin, oriented to team A (the open room's North-South, the closed room's
East-West), is the sum over its boards of team A's four players' strengths less team B's
four (a board's own line-up: a team may change it between segments). Its variance is the
boards' count times the fit's squared error a board, measured on the walk-forward's held-out
rounds (the players' rating uncertainty and the boards' luck together), so the 80% interval
and the win probability are those of a normal margin. A player the fit never saw plays with a
newcomer's strength (the experience of no boards) and is counted as unrated.

Two line-ups named (:func:`forecast_line_ups`) are forecast the same way over the boards
given, each team's four players on every board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from bridgerank.cleaning.clean.match_pairing import TeamMatch
from bridgerank.ratings.holdout import Z80
from bridgerank.ratings.imp_forecast import forecast_row, side_name

__all__ = [
    "LineUpForecast",
    "StoredEventStrengths",
    "forecast_event_matches",
    "forecast_line_ups",
    "win_probability",
]

# A line-up's players: team A's (or B's) four, as named.
TEAM_SIZE = 4


@dataclass(frozen=True)
class StoredEventStrengths:
    """What a forecast needs of the stored fit (``event_strengths``, ``event_fit``).

    Attributes
    ----------
    strength : mapping
        Player (person) -> IMPs a board he adds to his side.
    board_variance : float
        A match's squared error a board, IMPs squared.
    newcomer : float
        The strength of a player never seen.
    """

    strength: Mapping[str, float]
    board_variance: float
    newcomer: float

    def of(self, player: str) -> tuple[float, bool]:
        """A player's strength and whether the fit rated him."""
        if player in self.strength:
            return self.strength[player], True
        return self.newcomer, False


@dataclass(frozen=True)
class LineUpForecast:
    """Team A's margin over ``boards`` boards: the forecast, its standard deviation, the 80%
    interval, the chance team A wins (a tie counts half), and the players no fit rated."""

    boards: int
    predicted: float
    sd: float
    unrated: tuple[str, ...]

    @property
    def low_80(self) -> float:
        return self.predicted - Z80 * self.sd

    @property
    def high_80(self) -> float:
        return self.predicted + Z80 * self.sd

    @property
    def win_probability(self) -> float:
        return win_probability(self.predicted, self.sd)


def win_probability(predicted: float, sd: float) -> float:
    """The chance a normal margin of mean ``predicted`` and deviation ``sd`` is above zero."""
    if sd <= 0:
        return 0.5 if predicted == 0 else float(predicted > 0)
    return 0.5 * (1.0 + math.erf(predicted / (sd * math.sqrt(2.0))))


def forecast_line_ups(
    team_a: Sequence[str],
    team_b: Sequence[str],
    boards: int,
    stored: StoredEventStrengths,
    person_of: Callable[[str], str] = str,
) -> LineUpForecast:
    """Team A's margin over ``boards`` boards against team B, each its four players named.

    Raises
    ------
    ValueError
        When a team is not four players, a player is on both teams, or ``boards`` < 1.
    """
    named = [list(team_a), list(team_b)]
    if any(len(team) != TEAM_SIZE or len(set(team)) != TEAM_SIZE for team in named):
        raise ValueError("a line-up is four different players (two pairs), comma-separated")
    if set(team_a) & set(team_b):
        raise ValueError(f"on both teams: {', '.join(sorted(set(team_a) & set(team_b)))}")
    if boards < 1:
        raise ValueError("a match has one board at least")
    strengths = [[stored.of(person_of(name)) for name in team] for team in named]
    per_board = sum(value for value, _ in strengths[0]) - sum(value for value, _ in strengths[1])
    unrated = tuple(
        name
        for team, values in zip(named, strengths)
        for name, (_, known) in zip(team, values)
        if not known
    )
    return LineUpForecast(
        boards, boards * per_board, math.sqrt(boards * stored.board_variance), unrated
    )


def forecast_event_matches(
    matches: Sequence[TeamMatch],
    stored: StoredEventStrengths,
    person_of: Callable[[str, str], str],
) -> list[dict[str, Any]]:
    """The forecast of every match rebuilt from a round file not yet rated.

    Parameters
    ----------
    matches : sequence of TeamMatch
        As :func:`~bridgerank.cleaning.clean.team_matches.build_matches` rebuilds them; their
        results decide only which boards were played, never the forecast.
    stored : StoredEventStrengths
    person_of : callable
        ``person_of(raw name, event)``: the person the stored strengths know him as.

    Returns
    -------
    list of dict
        The rows of ``imp_forecasts`` (kind ``event``): ``event``, ``session`` (the round),
        ``side`` (team A as the file names its first line-up), ``opponents``, ``boards``,
        ``players``, ``rated``, ``predicted``, ``sd``, ``low_80``, ``high_80``.
    """
    rows = []
    for match in matches:
        predicted, players = 0.0, {}
        for board in match.boards:
            team_a = board.open_seats[0::2] + board.closed_seats[1::2]
            team_b = board.open_seats[1::2] + board.closed_seats[0::2]
            for names, sign in ((team_a, 1.0), (team_b, -1.0)):
                for name in names:
                    players[name] = stored.of(person_of(name, match.event))
                    predicted += sign * players[name][0]
        rows.append(
            forecast_row(
                (match.event, match.round, side_name(match.open[0::2] + match.closed[1::2])),
                "event",
                side_name(match.open[1::2] + match.closed[0::2]),
                boards=len(match.boards),
                players=len(players),
                rated=sum(known for _, known in players.values()),
                predicted=predicted,
                sd=math.sqrt(len(match.boards) * stored.board_variance),
            )
        )
    return rows
