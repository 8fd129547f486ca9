"""The team events' headline: a ridge over players refitted round by round.

**The forecast** (:class:`RoundRidge`): each player's strength is the IMPs a board he adds to
his team, fitted on the evidence before the round, a match's margin the sum over its boards of
team A's four strengths less team B's. The evidence, beside each match board's IMPs:

- *each table against its field*: every board of a round is played at every match's two
  tables, so each table's score is compared with all the others' (its cross-IMPs, the mean of
  the IMPs it gains on each other table); a row of its North-South pair against its East-West
  pair. A match board compares two tables; the field compares each with twenty or more.
- *teammates*: players who sat in one team (the earlier matches' and the forecast round's own
  line-ups, which are known before play) are drawn towards each other - a penalty on the
  squared difference of their strengths, beside the ridge's pull towards zero. A newcomer
  fielded beside known players is expected near them, not at the average.
- *experience*: a player's boards before the round (``log(1 + boards)``) and whether he has
  none, two practically free coefficients: a championship's newcomers are weaker than its
  regulars.

The normal equations are summed as the rounds go by and solved by conjugate gradients from the
previous round's strengths, so the walk-forward costs one pass. The two penalties are chosen
prequentially: each round by the setting whose forecasts of the earlier held-out rounds had the
least squared error. A forecast's variance is its boards times the mean squared error a board
of the earlier held-out matches (the first test round: the training boards' variance).

The matches it reads are :mod:`~bridgerank.ratings.event_match_data`'s; the study that
holds it out round by round beside the other methods is
:mod:`~bridgerank.ratings.event_matches`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import LinearOperator, cg

from bridgerank.ratings.event_match_data import EventMatches
from bridgerank.ratings.holdout import Forecast, Target
from bridgerank.ratings.team_boards import TeamBoards, match_margins, signed_rows

__all__ = [
    "HEADLINE_SETTINGS",
    "PLAIN_SETTINGS",
    "EventStrengths",
    "RoundRidge",
    "RoundSetting",
    "experience_covariates",
    "experience_now",
]


@dataclass(frozen=True)
class RoundSetting:
    """One setting of :class:`RoundRidge`: the pull towards zero, towards teammates, the
    weight of a table-against-field row (a match board's is 1) and whether the players'
    covariates (experience, and whatever else the forecast is given) are fitted."""

    ridge: float
    teammates: float = 0.0
    field_weight: float = 0.0
    covariates: bool = False


# The headline's settings, among which it chooses round by round; the plain ridge's.
HEADLINE_SETTINGS = (
    RoundSetting(30.0, 30.0, 1.0, covariates=True),
    RoundSetting(100.0, 100.0, 1.0, covariates=True),
    RoundSetting(300.0, 300.0, 1.0, covariates=True),
    RoundSetting(1000.0, 300.0, 1.0, covariates=True),
)
PLAIN_SETTINGS = (RoundSetting(10.0), RoundSetting(30.0), RoundSetting(100.0), RoundSetting(300.0))


class _NormalEquations:
    """``X'X`` and ``X'y`` of the rows of one design, summed period by period as the rounds go
    by (rows of ``period`` before the one asked for, each added once)."""

    def __init__(self, design: sparse.csr_matrix, outcome: np.ndarray, period: np.ndarray) -> None:
        self.design, self.outcome, self.period = design, outcome, period
        self.order = np.argsort(period, kind="stable")
        self.seen = 0
        self.gram = sparse.csr_matrix((design.shape[1], design.shape[1]))
        self.right = np.zeros(design.shape[1])

    def add_before(self, period: int) -> None:
        """Add every row of a period before ``period`` not yet added."""
        end = int(np.searchsorted(self.period[self.order], period))
        rows = self.order[self.seen : end]
        if len(rows):
            design = self.design[rows]
            self.gram = self.gram + design.T @ design
            self.right += design.T @ self.outcome[rows]
            self.seen = end

    def seen_outcomes(self) -> np.ndarray:
        """The outcomes of the rows added so far."""
        return self.outcome[self.order[: self.seen]]


class RoundRidge:
    """The forecast of :mod:`this module <bridgerank.ratings.round_ridge>` as a walk-forward
    method (``predict(train, test, target)``): it keeps its normal equations between calls and
    adds the rounds it has not seen, so the test rounds must come in time order.

    Parameters
    ----------
    data : EventMatches
        The matches and their tables.
    settings : sequence of RoundSetting
        The settings it chooses among, round by round, by their earlier held-out errors.
    covariates : sequence of ndarray, optional
        The players' covariates, each players by periods, a value known before the period
        (default: :func:`experience_covariates`); a player's strength is his own term plus
        their coefficients' sum.
    """

    def __init__(
        self,
        data: EventMatches,
        settings: Sequence[RoundSetting],
        covariates: Sequence[np.ndarray] | None = None,
    ) -> None:
        self.data = data
        self.settings = tuple(settings)
        boards = data.boards
        self.players = len(boards.players)
        if covariates is None:
            covariates = experience_covariates(boards)
        size = self.players + len(covariates)
        tables = data.tables
        seated = np.hstack([tables.north_south, tables.east_west])
        self.size = size
        self.match_boards = _NormalEquations(
            _signed_design(boards.seats, 4, self.players, covariates, boards.period),
            boards.imps,
            boards.period,
        )
        self.tables = _NormalEquations(
            _signed_design(seated, 2, self.players, covariates, tables.period),
            tables.cross,
            tables.period,
        )
        self.links = sparse.csr_matrix((size, size))
        self.links_through = -1
        self.solutions = [np.zeros(size) for _ in self.settings]
        self.pending: list[tuple[np.ndarray, list[np.ndarray]]] = []
        self.squared_errors = np.zeros(len(self.settings))
        self.board_errors = [0.0, 0]  # squared match errors, boards of those matches

    def __call__(
        self, train: TeamBoards, test: TeamBoards, target: Target | None = None
    ) -> Forecast:
        period = int(test.period[0])
        laplacian = self._advance(period)
        # the test round's rows, in the order of the data (as the harness's subset keeps them)
        design = self.match_boards.design[np.flatnonzero(self.data.boards.period == period)]
        forecasts = []
        shared: dict[tuple[float, float], sparse.csr_matrix] = {}
        for number, setting in enumerate(self.settings):
            self.solutions[number] = self._solve(setting, laplacian, self.solutions[number], shared)
            forecasts.append(match_margins(test, design @ self.solutions[number])[0])
        present = np.unique(test.match)
        self.pending.append((present, forecasts))
        best = (
            int(np.argmin(self.squared_errors))
            if self.squared_errors.any()
            else len(self.settings) // 2
        )
        boards = match_margins(test, test.imps)[1]
        return Forecast(forecasts[best], boards * self._board_variance())

    def _board_variance(self) -> float:
        """A match's squared error a board: the earlier held-out rounds' (before the first:
        the training boards' variance)."""
        if self.board_errors[1]:
            return self.board_errors[0] / self.board_errors[1]
        return float(np.var(self.match_boards.seen_outcomes()))

    def current(self) -> EventStrengths:
        """Every player's strength after the last round: the setting the walk-forward chose
        (the least squared error of its held-out rounds), fitted on every match, a player's
        covariates his experience now (:func:`experience_now`; a player never seen has played
        none). Call it after the walk-forward: its errors choose the setting and give a
        match's noise."""
        boards = self.data.boards
        laplacian = self._advance(int(boards.period.max()) + 1)
        best = int(np.argmin(self.squared_errors)) if self.squared_errors.any() else 0
        solution = self._solve(self.settings[best], laplacian, self.solutions[best])
        terms, coefficients = solution[: self.players], solution[self.players :]
        played = np.bincount(boards.seats.ravel(), minlength=self.players)

        def from_covariates(counts: np.ndarray) -> np.ndarray:
            if not len(coefficients):
                return np.zeros(len(counts))
            return np.column_stack(experience_now(counts)) @ coefficients

        strength = terms + from_covariates(played)
        # a player never seen: no term of his own, the covariates of no boards
        newcomer = float(from_covariates(np.zeros(1))[0])
        return EventStrengths(
            {str(name): float(value) for name, value in zip(boards.players, strength)},
            {str(name): int(count) for name, count in zip(boards.players, played)},
            self._board_variance(),
            newcomer,
            len(boards.matches),
            str(boards.periods[-1]),
        )

    def _advance(self, period: int) -> sparse.spmatrix:
        """Add the rows and links before ``period``, score the forecasts now known, and
        return the teammates' Laplacian."""
        self.match_boards.add_before(period)
        self.tables.add_before(period)
        self._link(period)
        self._score_pending()
        return sparse.diags(np.asarray(self.links.sum(axis=1)).ravel()) - self.links

    def _link(self, period: int) -> None:
        """Link the teammates of every match up to ``period``, its own line-ups included."""
        boards = self.data.boards
        new = (boards.period > self.links_through) & (boards.period <= period)
        if not new.any():
            return
        first, second = [], []
        for side in (boards.seats[new, :4], boards.seats[new, 4:]):
            for a in range(4):
                for b in range(a + 1, 4):
                    first.append(side[:, a])
                    second.append(side[:, b])
        rows, columns = np.concatenate(first), np.concatenate(second)
        keep = rows != columns
        pairs = sparse.csr_matrix(
            (np.ones(int(keep.sum())), (rows[keep], columns[keep])), (self.size, self.size)
        )
        links = self.links + pairs + pairs.T
        links.data = np.minimum(links.data, 1.0)  # a link, however many boards
        self.links = links
        self.links_through = period

    def _solve(
        self,
        setting: RoundSetting,
        laplacian: sparse.spmatrix,
        start: np.ndarray,
        shared: dict[tuple[float, float], sparse.csr_matrix] | None = None,
    ) -> np.ndarray:
        # the rows' and the links' part of the system is the same for settings of one field
        # weight and one teammates' pull: summed once a round (``shared``), the ridge added
        # to it setting by setting
        shared = {} if shared is None else shared
        key = (setting.field_weight, setting.teammates)
        if key not in shared:
            rows = self.match_boards.gram
            if setting.field_weight:
                rows = rows + setting.field_weight * self.tables.gram
            shared[key] = rows + setting.teammates * laplacian if setting.teammates else rows
        right = self.match_boards.right
        if setting.field_weight:
            right = right + setting.field_weight * self.tables.right
        # the covariates' coefficients are penalised as a player's strength: negligible beside
        # their columns' weight in a folder of events, but a few newcomers cannot swing them
        diagonal = np.full(self.size, setting.ridge)
        if not setting.covariates:
            diagonal[self.players :] = 1e12  # the covariates held at zero
        system = (shared[key] + sparse.diags(diagonal)).tocsr()
        # Jacobi: the diagonal spans a player's few boards to the covariates' held 1e12
        inverse = 1.0 / system.diagonal()
        preconditioner = LinearOperator(system.shape, matvec=lambda r: r * inverse, dtype=float)
        solution, _ = cg(system, right, x0=start, M=preconditioner, rtol=1e-7, maxiter=2000)
        return solution

    def _score_pending(self) -> None:
        """The errors of the earlier test rounds' forecasts, whose results are now known."""
        boards = self.data.boards
        for present, forecasts in self.pending:
            mask = np.isin(boards.match, present)
            actual, count = match_margins(boards.subset(mask), boards.imps[mask])
            for number, forecast in enumerate(forecasts):
                self.squared_errors[number] += float(np.sum((forecast - actual) ** 2))
            best = int(np.argmin(self.squared_errors))
            self.board_errors[0] += float(np.sum((forecasts[best] - actual) ** 2))
            self.board_errors[1] += int(count.sum())
        self.pending = []


def _signed_design(
    seated: np.ndarray,
    side: int,
    players: int,
    covariates: Sequence[np.ndarray],
    period: np.ndarray,
) -> sparse.csr_matrix:
    """Rows of ``seated`` players (:func:`~bridgerank.ratings.team_boards.signed_rows`), then
    the rows' covariates as columns (each array players by periods): the first ``side``
    players' values at the row's period summed, less the others'."""
    signs = np.r_[np.ones(side), -np.ones(seated.shape[1] - side)]
    columns = [(values[seated, period[:, None]] * signs).sum(axis=1) for values in covariates]
    row_values = np.column_stack(columns) if columns else np.zeros((len(seated), 0))
    incidence = signed_rows(seated, side, players)
    return sparse.hstack([incidence, sparse.csr_matrix(row_values)]).tocsr()


def experience_covariates(boards: TeamBoards) -> list[np.ndarray]:
    """A player's experience before each period (players by periods, two arrays):
    ``log(1 + match boards before)`` and whether that is none."""
    players, periods = len(boards.players), len(boards.periods)
    played = np.zeros((players, periods))
    np.add.at(played, (boards.seats.ravel(), np.repeat(boards.period, 8)), 1.0)
    return experience_now(np.cumsum(played, axis=1) - played)


def experience_now(boards_played: np.ndarray) -> list[np.ndarray]:
    """The experience of players who have played ``boards_played`` match boards (any
    shape): ``log(1 + boards)`` and whether that is none."""
    played = np.asarray(boards_played, dtype=float)
    return [np.log1p(played), (played == 0).astype(float)]


@dataclass
class EventStrengths:
    """The headline of the team events fitted on every match: what a forecast of a match
    not yet rated needs (``bridgerank predict``).

    Attributes
    ----------
    strength : dict
        Player (person) -> IMPs a board he adds to his side now, his experience counted.
    boards : dict
        Player -> match boards he played.
    board_variance : float
        A match's squared error a board, from the walk-forward's held-out rounds (the
        players' rating uncertainty and the boards' luck together).
    newcomer : float
        The strength of a player never seen.
    matches : int
        Matches fitted.
    through : str
        The last round fitted (its year and round).
    """

    strength: dict[str, float]
    boards: dict[str, int]
    board_variance: float
    newcomer: float
    matches: int
    through: str

    def rows(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The rows of ``event_strengths`` and ``event_fit``."""
        players = [
            {"player": name, "strength": value, "boards": self.boards[name]}
            for name, value in self.strength.items()
        ]
        fit = {
            "id": 1,
            "board_variance": self.board_variance,
            "newcomer": self.newcomer,
            "matches": self.matches,
            "players": len(players),
            "through": self.through,
        }
        return players, [fit]
