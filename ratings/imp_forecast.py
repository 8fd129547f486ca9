"""Forecasts in IMPs of championship events not yet rated: each team match's margin and each
pair's IMPs against the double dummy par in an event played at one table a deal, from the
team headline's stored strengths (:func:`~bridgerank.ratings.team_ratings.team_ratings`),
with 80% intervals; and the results the same sides scored, once the event is stored.

A side is named as the file names its players (the names a later ingest stores), so a
forecast made from files and the result read from the database meet. Its players are looked
up as persons (``player_of``); a player with no strength counts as a newcomer, with a
newcomer's strength and uncertainty. A newcomer's strength is what the covariates say of a
player with no records (one value for every newcomer), so most of its uncertainty is the
covariates' coefficients', one error every newcomer shares: two newcomers on opposite sides
cancel it, and only each one's own part adds (:meth:`StoredStrengths.of`,
:meth:`StoredStrengths.shared_newcomer_variance`). Counting it once per newcomer gave a
20-board match of eight newcomers an 80% interval of some 100 IMPs where its luck is 30.

- **Team match**: the boards of one event and date played in both rooms, joined through
  their players (:func:`~bridgerank.ratings.team_boards.team_boards`). Its margin, oriented
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

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from bridgerank.ratings.holdout import Z80
from bridgerank.ratings.one_table_pairs import PairBoards, PairUnits, pair_forecast, pair_units
from bridgerank.ratings.team_boards import TeamBoards, board_design, match_margins, team_boards
from bridgerank.ratings.team_evidence import OneTableBoards
from bridgerank.ratings.team_fit import ImpFit, match_forecast

__all__ = ["StoredStrengths", "actual_imps", "forecast_imps", "forecast_row", "side_name"]


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
    newcomer_own_sd : float or None
        Of that deviation, each newcomer's own part; the rest is one error every newcomer
        shares (the covariates' coefficients, from which a newcomer's strength comes), so
        that two newcomers facing each other cancel it (None: unknown, each newcomer's
        whole deviation his own).
    """

    strength: Mapping[str, tuple[float, float]]
    board_variance: float
    one_table_variance: float | None
    newcomer: tuple[float, float]
    newcomer_own_sd: float | None = None

    def of(self, players: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Strengths, standard deviations (a newcomer's own part,
        :meth:`shared_newcomer_variance` aside) and whether known, of ``players`` (persons)."""
        value, sd = self.newcomer
        unknown = (value, sd if self.newcomer_own_sd is None else self.newcomer_own_sd)
        found = [self.strength.get(str(player), unknown) for player in players]
        known = np.array([str(player) in self.strength for player in players], dtype=bool)
        return (
            np.array([value for value, _ in found], dtype=float),
            np.array([sd for _, sd in found], dtype=float),
            known,
        )

    def shared_newcomer_variance(self, newcomer_boards: np.ndarray) -> np.ndarray:
        """The variance the newcomers' shared error adds to each forecast, from its newcomers'
        boards counted with their side's sign (team A's less team B's; a pair's less its
        opponents')."""
        if self.newcomer_own_sd is None:
            return np.zeros(len(newcomer_boards))
        shared = max(self.newcomer[1] ** 2 - self.newcomer_own_sd**2, 0.0)
        return newcomer_boards**2 * shared


def side_name(names: Iterable[Hashable]) -> str:
    """A side as the file names its players: sorted, joined."""
    return " - ".join(sorted({str(name) for name in names}))


def forecast_row(
    key: tuple[str, str, str], kind: str, opponents: str, **values: Any
) -> dict[str, Any]:
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
            side_name(data.players[index] for index in own[match]),
            side_name(data.players[index] for index in other[match]),
            np.array(sorted(own[match] | other[match]), dtype=np.int64),
        )
        for match in range(count)
    ]


def _match_forecasts(
    data: TeamBoards, player_of: Mapping[str, Hashable], stored: StoredStrengths
) -> list[dict[str, Any]]:
    """The forecast of every match of ``data`` (team boards with the names as written)."""
    if not len(data):
        return []
    theta, sd, known = stored.of([player_of.get(str(name), name) for name in data.players])
    forecast = match_forecast(ImpFit(theta, sd, 0.0, stored.board_variance), data)
    assert forecast.variance is not None  # strengths with deviations: it has its variance
    newcomers, _ = match_margins(data, board_design(data) @ (~known).astype(float))
    variance = forecast.variance + stored.shared_newcomer_variance(newcomers)
    _, played = match_margins(data, data.imps)
    return [
        forecast_row(
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


def _pair_sessions(
    boards: Sequence[Mapping[str, Any]], par_of: Callable[[Mapping[str, Any]], int | None]
) -> tuple[PairBoards, PairUnits]:
    """The boards played at one table a deal, with the players as written, and their
    pair-sessions (:func:`~bridgerank.ratings.one_table_pairs.pair_units`: what the study of
    held-out pairs scores)."""
    data = PairBoards.of(OneTableBoards.of(boards, {}, par_of))
    return data, pair_units(data)


def _pair_key(data: PairBoards, units: PairUnits, unit: int) -> tuple[str, str, str]:
    """A pair-session's event, period and pair as written."""
    event, period = data.sessions[int(units.session[unit])]
    return event, period, side_name(data.players[player] for player in units.pairs[unit])


def _pair_forecasts(
    boards: Sequence[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    stored: StoredStrengths,
) -> list[dict[str, Any]]:
    if stored.one_table_variance is None:
        return []
    # the result does not enter the forecast: any par serves to find the boards
    data, units = _pair_sessions(boards, lambda board: 0)
    theta, sd, known = stored.of([player_of.get(str(name), name) for name in data.players])
    forecast = pair_forecast(units, theta, sd, stored.one_table_variance)
    assert forecast.variance is not None  # strengths with deviations: it has its variance
    newcomers = units.weights @ (~known).astype(float)
    variance = forecast.variance + stored.shared_newcomer_variance(newcomers)
    rows = [
        forecast_row(
            _pair_key(data, units, unit),
            "pair",
            "",
            boards=int(units.boards[unit]),
            players=int((units.weights[unit] != 0).sum()),
            rated=int(known[list(units.pairs[unit])].sum()),
            predicted=float(forecast.value[unit]),
            sd=float(np.sqrt(variance[unit])),
        )
        for unit in range(len(units.boards))
    ]
    return sorted(rows, key=lambda row: (row["event"], row["session"], row["side"]))


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
    teams = team_boards(boards, {})
    matches = _match_forecasts(teams, player_of, stored)
    # a board of a team event recorded in one room only is no pairs event
    team_events = set(teams.matches)
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
    teams = team_boards(boards, {})
    if len(teams):
        margin, _ = match_margins(teams, teams.imps)
        for match, (side, opponents, _) in enumerate(_match_sides(teams)):
            event, period = teams.matches[match]
            actual[(event, period, side, opponents)] = float(margin[match])
    pairs, units = _pair_sessions(boards, par_of)
    for unit, result in enumerate(units.actual):
        event, period, side = _pair_key(pairs, units, unit)
        actual.setdefault((event, period, side, ""), float(result))
    return actual
