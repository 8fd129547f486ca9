"""The held-out harness every rating method is validated in: walk-forward written once.

Data of any kind with a ``period`` per row and a ``subset(mask)`` (pair events as
:class:`~bridgerank.ratings.field.FieldTables`, team matches as
:class:`~bridgerank.ratings.team_boards.TeamBoards`) are taken period by period: each
period of the later half is a test, every method fitted on all earlier periods only and asked
for the units of the test period - a pair's session percentage, a team match's margin. What a
unit is, and what happened in it, is the kind's *target* (:class:`Target`); the harness keeps
every method's :class:`Forecast` beside the actual values (:class:`HeldOut`), scores them with
one set of measures (:func:`score`: correlation, error, orders, interval coverage) and compares
each method with a reference on the same resampled units, with intervals simultaneous over
the whole table (:func:`validation_rows`, :mod:`~bridgerank.ratings.gains`).

Settings are chosen on training data alone by the same split everywhere
(:func:`latest_quarter`, :func:`best_of`): fitted on the earlier three quarters of the
training periods, scored on the latest quarter.

Notes
-----
The intervals are normal: a forecast with variance ``v`` claims that ``|actual - predicted|
<= z sqrt(v)`` for the share of units its level says (``z`` of an 80% interval: :data:`Z80`).
The bootstrap resamples whole groups (a session with all its pairs, a match), every method
scored on the same resamples; a table's intervals are read together, so they widen with the
number of comparisons the table makes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar

import numpy as np
from scipy import stats

from bridgerank.ratings.gains import simultaneous_gains

__all__ = [
    "LEVELS",
    "MEASURES",
    "Z80",
    "Z95",
    "Forecast",
    "HeldOut",
    "Kind",
    "Predict",
    "Target",
    "best_of",
    "choose_on_latest_quarter",
    "coverage",
    "latest_quarter",
    "pearson",
    "score",
    "validation_rows",
    "walk_forward",
]

# The normal quantile of a central 80% interval (``scipy.stats.norm.ppf(0.9)``).
Z80 = 1.2815515655446004
Z95 = 1.959963984540054  # the same for 95%
# Held-out units (sessions, matches) below which a check cannot tell one method from another,
# nor from a coin: the methods page and ``bridgerank predict`` say so rather than judge.
TOO_FEW_TO_JUDGE = 30
# Central prediction intervals whose coverage the session table reports.
LEVELS = (0.5, 0.8, 0.95)


class Periodic(Protocol):
    """Held-out data: rows with a period index each, and their subsets."""

    period: np.ndarray

    def subset(self, mask: np.ndarray) -> Any: ...


D = TypeVar("D", bound=Periodic)
V = TypeVar("V")


@dataclass
class Forecast:
    """A method's predictions for the test units (a percentage, a margin, a probability) and,
    if it has them, their variances (None: no interval)."""

    value: np.ndarray
    variance: np.ndarray | None = None


@dataclass
class Target:
    """What happened in one test slice: each unit's actual value, the group it is resampled
    with (its session; a match is its own group), its boards and period, and ``detail`` - the
    kind's own description of the units (a method may read who played; never the actual)."""

    actual: np.ndarray
    group: np.ndarray
    boards: np.ndarray
    period: np.ndarray
    detail: Any = None


# A fitted method: the training data, the test data and the target's units -> a forecast.
Predict = Callable[[Any, Any, Target], Forecast]


@dataclass
class HeldOut:
    """Every method's forecasts of every held-out unit, in unit order, and what happened."""

    actual: np.ndarray
    group: np.ndarray
    boards: np.ndarray
    period: np.ndarray
    forecasts: dict[str, list[Forecast]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.actual)

    def predicted(self, method: str) -> np.ndarray:
        return np.concatenate([part.value for part in self.forecasts[method]])

    def variance(self, method: str) -> np.ndarray | None:
        """The method's prediction variances, None when any test slice had none."""
        parts = [part.variance for part in self.forecasts[method]]
        if any(part is None for part in parts):
            return None
        return np.concatenate(parts)  # type: ignore[arg-type]


def walk_forward(
    data: D,
    methods: Mapping[str, Predict],
    target: Callable[[D], Target],
    test_share: float = 0.5,
    progress=None,
) -> HeldOut:
    """Predict every unit of the later ``test_share`` of the periods from all before it.

    Parameters
    ----------
    data : rows with ``period`` and ``subset``
    methods : mapping
        Name -> fitted method, called ``predict(train, test, target(test))``.
    target : callable
        The kind's units of a test slice and what happened in them.
    test_share : float
        The share of the periods (the latest) that are tests; never the first period.
    progress : callable, optional
        ``progress(items, label, total)`` wraps the periods (the CLI's progress bar).
    """
    periods = np.unique(data.period)
    tests = periods[int(len(periods) * (1 - test_share)) :]
    tests = tests[tests > periods[0]]
    parts: list[Target] = []
    forecasts: dict[str, list[Forecast]] = {name: [] for name in methods}
    folds = progress(tests, "walk-forward periods", len(tests)) if progress else tests
    for test_period in folds:
        train = data.subset(data.period < test_period)
        test = data.subset(data.period == test_period)
        units = target(test)
        parts.append(units)
        for name, predict in methods.items():
            forecasts[name].append(predict(train, test, units))
    if not parts:
        empty = np.empty(0)
        return HeldOut(empty, np.empty(0, dtype=np.int64), empty, empty, forecasts)
    return HeldOut(
        np.concatenate([part.actual for part in parts]),
        np.concatenate([part.group for part in parts]),
        np.concatenate([part.boards for part in parts]),
        np.concatenate([part.period for part in parts]),
        forecasts,
    )


# --- choosing a setting on training data ------------------------------------------------


def latest_quarter(data: D) -> tuple[D, D] | None:
    """The rows of the earlier three quarters of the periods and of the latest quarter, for
    choosing a setting on training data alone; None with fewer than four periods."""
    kept = getattr(data, "kept", None)  # the tables keep it: each method asks for the split
    if kept is not None:
        return kept("latest quarter", lambda: _latest_quarter(data))
    return _latest_quarter(data)


def _latest_quarter(data: D) -> tuple[D, D] | None:
    periods = np.unique(data.period)
    if len(periods) < 4:
        return None
    cut = periods[int(len(periods) * 0.75)]
    return data.subset(data.period < cut), data.subset(data.period >= cut)


def best_of(grid: Sequence[V], errors: Callable[[V], np.ndarray]) -> tuple[V, np.ndarray]:
    """The value of ``grid`` whose ``errors`` (predicted minus actual, on the latest
    quarter) have the least mean square, and those errors; the first of equals."""
    found = [np.asarray(errors(value)) for value in grid]
    best = int(np.argmin([np.mean(error**2) for error in found]))
    return grid[best], found[best]


def choose_on_latest_quarter(
    data: D, grid: Sequence[V], errors: Callable[[D, D, V], np.ndarray]
) -> V:
    """The value of ``grid`` whose fit on the earlier three quarters of ``data`` best predicts
    the latest quarter (``errors(early, late, value)``); the middle one when there is too
    little data."""
    split = latest_quarter(data)
    if split is None:
        return grid[len(grid) // 2]
    early, late = split
    return best_of(grid, lambda value: errors(early, late, value))[0]


# --- scoring ------------------------------------------------------------------------------


def pearson(predicted: np.ndarray, actual: np.ndarray) -> float | None:
    """Pearson's correlation, None when either side is constant (or there is one unit)."""
    if len(predicted) < 2 or np.ptp(predicted) == 0 or np.ptp(actual) == 0:
        return None
    return float(stats.pearsonr(predicted, actual)[0])


def coverage(
    predicted: np.ndarray, actual: np.ndarray, variance: np.ndarray | None, level: float
) -> float | None:
    """The share of units inside their central ``level`` normal prediction interval (None:
    the method gives no variance)."""
    if variance is None:
        return None
    half = stats.norm.ppf(0.5 + level / 2) * np.sqrt(variance)
    return float(np.mean(np.abs(predicted - actual) <= half))


def _concordance(predicted: np.ndarray, actual: np.ndarray) -> tuple[float, int]:
    """Pairs of units put in the right order (a tie in prediction counts half), and how many
    pairs of units finished in different places."""
    actual_order = np.sign(actual[:, None] - actual[None, :])
    predicted_order = np.sign(predicted[:, None] - predicted[None, :])
    upper = np.triu(actual_order != 0, k=1)
    agree = (actual_order == predicted_order) + 0.5 * (predicted_order == 0)
    return float(agree[upper].sum()), int(upper.sum())


# A forecast margin closer to 0 than this (a millionth of an IMP or percentage point) calls no
# winner; two forecasts closer than this are equal in the rank measures.
LEVEL = 1e-6


def _levelled(predicted: np.ndarray) -> np.ndarray:
    """The forecasts with those within :data:`LEVEL` of the next lower one made equal to it.

    Two pairs a model cannot tell apart (newcomers known by their covariates alone) get
    forecasts that differ in the last bits by the order of a sum; ranked as they stand, their
    order would be rounding's, and the rank measures would move in the fourth decimal when
    the same sums are taken in another order."""
    order = np.argsort(predicted, kind="stable")
    values = predicted[order]
    starts = np.r_[True, np.diff(values) > LEVEL]
    levelled = np.empty(len(predicted))
    levelled[order] = values[starts][np.cumsum(starts) - 1]
    return levelled


def _spearman(predicted, actual, group) -> float | None:
    predicted = _levelled(predicted)
    if np.ptp(predicted) == 0:
        return None
    return float(stats.spearmanr(predicted, actual)[0])


def _rmse(predicted, actual, group) -> float:
    return float(np.sqrt(np.mean((predicted - actual) ** 2)))


def _within_group_spearman(predicted, actual, group) -> float | None:
    """Mean Spearman correlation within groups of three or more units."""
    predicted = _levelled(predicted)
    within = []
    for value in np.unique(group):
        rows = group == value
        if rows.sum() >= 3 and np.ptp(predicted[rows]) > 0:
            within.append(stats.spearmanr(predicted[rows], actual[rows])[0])
    return float(np.mean(within)) if within else None


def _orders_right(predicted, actual, group) -> float | None:
    """The share of pairs of units of one group put in the order they finished."""
    predicted = _levelled(predicted)
    right, total = 0.0, 0
    for value in np.unique(group):
        rows = group == value
        hits, pairs = _concordance(predicted[rows], actual[rows])
        right, total = right + hits, total + pairs
    return right / total if total else None


def _winner_right(predicted, actual, group) -> float | None:
    """The share of decided units (actual not 0) whose sign was predicted; a level
    prediction is half right, as a coin would be. A prediction within :data:`LEVEL` of 0 is
    level: two sides of equal strengths (players known by their covariates alone) differ by
    rounding, and its sign would be the solver's, not the model's."""
    decided = actual != 0
    if not decided.any():
        return None
    level = np.abs(predicted[decided]) < LEVEL
    called = np.where(level, 0.0, np.sign(predicted[decided]))
    right = (called == np.sign(actual[decided])) + 0.5 * level
    return float(right.mean())


MEASURES: dict[str, Callable[[np.ndarray, np.ndarray, np.ndarray], float | None]] = {
    "pearson": lambda predicted, actual, group: pearson(predicted, actual),
    "spearman": _spearman,
    "rmse": _rmse,
    "within_session_spearman": _within_group_spearman,
    "orders_right": _orders_right,
    "winner_right": _winner_right,
}


def score(
    predicted: np.ndarray,
    actual: np.ndarray,
    group: np.ndarray,
    variance: np.ndarray | None,
    measures: Sequence[str],
    levels: Sequence[float] = LEVELS,
) -> dict[str, float | None]:
    """The named ``measures`` (keys of :data:`MEASURES`) and ``coverage_<level>`` of each
    central interval of ``levels``."""
    scores = {name: MEASURES[name](predicted, actual, group) for name in measures}
    for level in levels:
        scores[f"coverage_{int(round(level * 100))}"] = coverage(predicted, actual, variance, level)
    return scores


@dataclass(frozen=True)
class Kind(Generic[D]):
    """A kind of held-out unit: its target, the measures and intervals its table reports,
    the gains it compares (``pearson``, ``rmse``) and its counts columns."""

    name: str
    target: Callable[[D], Target]
    measures: tuple[str, ...]
    levels: tuple[float, ...]
    gains: tuple[str, ...]
    counts: Callable[[HeldOut], dict[str, int]]


def validation_rows(
    run: HeldOut,
    kind: Kind,
    reference: str = "headline",
    bootstrap: int = 10_000,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """One row per method of ``run``, in its order: the kind's measures, its counts and, for
    every method but ``reference``, the reference's gains over it with 95% intervals
    simultaneous over every comparison of the table (``<gain>_gain``, ``_low``, ``_high``;
    None without ``bootstrap``; :mod:`~bridgerank.ratings.gains`)."""
    counts = kind.counts(run)
    found = simultaneous_gains(
        {method: run.predicted(method) for method in run.forecasts},
        run.actual,
        run.group,
        reference,
        kind.gains,
        bootstrap,
        seed,
    )
    rows = []
    for method in run.forecasts:
        row: dict[str, Any] = {"method": method}
        row |= score(
            run.predicted(method),
            run.actual,
            run.group,
            run.variance(method),
            kind.measures,
            kind.levels,
        )
        row |= counts
        for gain in kind.gains:
            value, low, high = found.get(method, {}).get(gain, (None, None, None))
            row |= {f"{gain}_gain": value, f"{gain}_gain_low": low, f"{gain}_gain_high": high}
        rows.append(row)
    return rows
