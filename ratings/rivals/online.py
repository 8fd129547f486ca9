"""The driver every online rival of the headline shares.

An online rating learns one session at a time, in date order, and forecasts from what it
has learned. In the walk-forward each training set holds the one before it (every date before
the test date), so the driver keeps the rival's state and teaches it only the sessions it has
not seen: the whole walk-forward is one pass over the dates, as the rating would run in a
club. A rival's one free setting (its K, its step) is chosen once, on the first training set:
learned on its earlier three quarters, scored on the held-out units of the latest quarter
(:func:`~bridgerank.ratings.holdout.latest_quarter`), then kept for every later date. On the
same quarter each rival's forecasts are calibrated: stretched or shrunk about the kind's
centre (50% for a pair-session, 0 IMPs for a team match) by the least-squares slope of the
results on them, so that a rival whose scale is off (a model of ranks, not of percentages or
IMPs) loses nothing by it. A rival whose grid is *widened* and whose choice falls at an end of
it is tried further out, a grid step at a time (at most ``[rate.rivals] widen_steps``), on the same
training dates, until the choice is inside: a rival must not lose for a grid too narrow.
The chosen setting is reported (``session_validation.setting``).

What a rival is taught from and scored on is the kind's :class:`Schedule`: pair-sessions
(:data:`SESSIONS`) or team matches (:data:`~bridgerank.ratings.rivals.team_play.MATCHES`,
each team board a deal at its two tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

import numpy as np

from bridgerank.ratings.field import FieldTables, pair_percent, pair_sessions
from bridgerank.ratings.holdout import Forecast, Target, best_of, latest_quarter
from bridgerank.ratings.registry import StudyInputs

if TYPE_CHECKING:
    from bridgerank.core.sections import RivalSettings

# A rival's grid, read from the ``[rate.rivals]`` settings when a study makes the rival.
Grid = Callable[["RivalSettings"], Sequence[Any]]

__all__ = [
    "Grid",
    "OnlineForecaster",
    "Rival",
    "SESSIONS",
    "Schedule",
    "forecast",
    "online_method",
    "per_seat",
    "session_rows",
    "table_shares",
]


class Rival(Protocol):
    """What an online rating does: learn a session's tables, forecast the tables of any deals
    (a deal of field tables is played at two tables or more: ``[rate] min_tables``).

    A rival may say ``goes_on = False`` (a class attribute; True if absent) when its state
    after some dates is not where learning more dates would start from (TrueSkill Through
    Time's smoothed history): the driver then never carries the rival of its choice on."""

    def learn(self, tables: FieldTables, rows: np.ndarray) -> None:
        """Update on the tables ``rows`` of ``tables`` (one session, every deal of it)."""

    def north_south_share(self, tables: FieldTables, rows: np.ndarray) -> np.ndarray:
        """The expected matchpoint share of North-South at each table of ``rows`` among the
        other tables of its deal in ``rows`` (every table of the deals it holds)."""


def per_seat(value: Callable[[int], Any], seats: np.ndarray) -> np.ndarray:
    """``value(player)`` at every seat of ``seats`` (player numbers, any shape), asked once
    for each player: a forecast of a round's thousands of tables seats a few hundred players,
    and a rival's state is a dict of Python floats. A value that is a tuple (a mean and its
    sd) adds a last axis."""
    players, inverse = np.unique(seats.ravel(), return_inverse=True)
    values = np.array([value(player) for player in players.tolist()], dtype=float)
    return values[inverse].reshape(seats.shape + values.shape[1:])


def session_rows(tables: FieldTables) -> list[np.ndarray]:
    """The tables of each session, sessions in date order (then as numbered)."""
    order = np.lexsort((tables.group, tables.session, tables.period))
    sessions = tables.session[order]
    starts = np.flatnonzero(np.r_[True, sessions[1:] != sessions[:-1]])
    return np.split(order, starts[1:])


def table_shares(rival: Rival, tables: FieldTables) -> np.ndarray:
    """The rival's expected North-South share at every table of ``tables``."""
    return rival.north_south_share(tables, np.arange(len(tables)))


def forecast(rival: Rival, tables: FieldTables) -> np.ndarray:
    """Every pair-session percentage of ``tables`` (as :func:`pair_sessions` orders them)
    from the rival's expected North-South share at each table."""
    return pair_percent(tables, table_shares(rival, tables))


@dataclass(frozen=True)
class Schedule:
    """What an online rival learns from and is scored on, for one kind of held-out unit.

    Attributes
    ----------
    tables : callable
        The kind's data (training or test dates) as matchpointed tables, the rival's input.
    forecast : callable
        ``forecast(rival, data)``: the rival's raw forecast of every held-out unit of
        ``data``, on the kind's scale, before calibration.
    actual : callable
        Every held-out unit's result, ordered as ``forecast`` orders them.
    centre : float
        The level forecast (50% of a session, 0 IMPs of a match): the calibration stretches
        about it.
    """

    tables: Callable[[Any], FieldTables]
    forecast: Callable[[Rival, Any], np.ndarray]
    actual: Callable[[Any], np.ndarray]
    centre: float


SESSIONS = Schedule(
    tables=lambda data: data,
    forecast=forecast,
    actual=lambda data: pair_sessions(data).percent,
    centre=50.0,
)


def _slope(predicted: np.ndarray, actual: np.ndarray, centre: float) -> float:
    """The least-squares slope of ``actual - centre`` on ``predicted - centre`` (1 when the
    forecasts are all level): how far a rival's forecasts must be stretched or shrunk."""
    spread = predicted - centre
    return float(spread @ (actual - centre) / (spread @ spread)) if spread @ spread > 0 else 1.0


def _taught(rival: Rival, tables: FieldTables) -> Rival:
    for rows in session_rows(tables):
        rival.learn(tables, rows)
    return rival


class OnlineForecaster:
    """What the harness calls for an online rival: ``make(setting)`` is a fresh rival with
    one of ``settings`` (chosen on the first training set with its calibration slope, see
    the module docstring); the rival is kept between calls and taught the dates it has not
    seen. ``schedule`` says what it learns from and forecasts (pair-sessions by default);
    ``widen``: the grid grows past the end its choice falls at, at most ``widen_steps``
    steps (None: ``[rate.rivals] widen_steps`` of the shipped defaults)."""

    def __init__(
        self,
        make: Callable[[Any], Rival],
        settings: Sequence[Any],
        schedule: Schedule = SESSIONS,
        widen: bool = False,
        widen_steps: int | None = None,
    ) -> None:
        self.make, self.settings, self.schedule = make, list(settings), schedule
        self.widen = widen
        if widen_steps is None:
            widen_steps = StudyInputs().rate.rivals.widen_steps
        self.widen_steps = widen_steps
        self.setting: Any = None
        self.slope = 1.0
        self.rival: Rival | None = None
        self.learned = -1  # the latest period taught

    def _choose(self, train: Any) -> None:
        split = latest_quarter(train)
        if split is None:
            self.setting = self.settings[len(self.settings) // 2]
            return
        early, late = split
        schedule = self.schedule
        actual = schedule.actual(late)
        raw = {}
        taught: dict[Any, Rival] = {}

        def errors(setting: Any) -> np.ndarray:
            # each setting is taught once: widening compares the end again with the next step
            if setting not in taught:
                taught[setting] = _taught(self.make(setting), schedule.tables(early))
                raw[setting] = schedule.forecast(taught[setting], late)
            slope = _slope(raw[setting], actual, schedule.centre)
            return schedule.centre + slope * (raw[setting] - schedule.centre) - actual

        self.setting = best_of(self.settings, errors)[0]
        if self.widen:
            self.setting = self._widened(errors)
        self.slope = _slope(raw[self.setting], actual, schedule.centre)
        # the chosen rival has learned the early dates in order: it goes on from there, as it
        # would have had it learned the whole training set afresh (the latest quarter next) -
        # unless what it learned of a date depends on the dates after it (a smoothed history)
        chosen = taught[self.setting]
        if getattr(chosen, "goes_on", True):
            self.rival = chosen
            self.learned = int(early.period.max()) if len(early) else -1

    def _widened(self, errors: Callable[[Any], np.ndarray]) -> Any:
        """The choice after growing the grid past the end it fell at (see the module): each
        step multiplies the end by the ratio of the grid's last two settings there."""
        for _ in range(self.widen_steps):
            grid = sorted(self.settings)
            if self.setting not in (grid[0], grid[-1]):
                break
            end, next_one = (grid[-1], grid[-2]) if self.setting == grid[-1] else grid[:2]
            step = end * end / next_one
            self.settings.append(step)
            self.setting = best_of([self.setting, step], errors)[0]
            if self.setting != step:
                break
        return self.setting

    def chosen(self) -> str:
        """The setting chosen, as reported (None before the first forecast: "")."""
        if self.setting is None:
            return ""

        def shown(x: Any) -> str:
            return f"{x:.4g}" if isinstance(x, float) else str(x)

        return f"{shown(self.setting)} of {', '.join(map(shown, sorted(self.settings)))}"

    def __call__(self, train: Any, test: Any, target: Target | None = None) -> Forecast:
        if self.setting is None:
            self._choose(train)
        newest = int(train.period.max()) if len(train) else -1
        if self.rival is None or newest < self.learned:
            self.rival, self.learned = self.make(self.setting), -1
        # only the dates not yet learned: the training sets of a walk-forward are nested
        _taught(self.rival, self.schedule.tables(train.subset(train.period > self.learned)))
        self.learned = max(newest, self.learned)
        centre = self.schedule.centre
        return Forecast(centre + self.slope * (self.schedule.forecast(self.rival, test) - centre))


def online_method(
    make: Callable[[Any], Rival],
    grid: Grid,
    schedule: Schedule = SESSIONS,
    widen: bool = False,
) -> Callable[[Any, StudyInputs], OnlineForecaster]:
    """A registry ``make`` for an online rival (:class:`OnlineForecaster`), fresh for each
    study, on the units of ``schedule``.

    Parameters
    ----------
    make : callable
        A fresh rival with one setting of its grid.
    grid : callable
        The grid of that setting from the ``[rate.rivals]`` settings (``lambda rivals:
        rivals.pair_elo_k``): read when a study makes the rival, so a user's file applies.
    schedule : Schedule
        What the rival learns from and forecasts.
    widen : bool
        Whether its grid grows where its choice falls at an end.

    Returns
    -------
    callable
        The ``make`` of a :class:`~bridgerank.ratings.registry.Method`.
    """

    def method(data: Any, inputs: StudyInputs) -> OnlineForecaster:
        rivals = inputs.rate.rivals
        return OnlineForecaster(make, grid(rivals), schedule, widen, rivals.widen_steps)

    return method
