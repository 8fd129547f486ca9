"""Walk-forward validation at the level users look at: each pair's session percentage.

The periods (dates, else years) are taken in order; each period of the later half is a test:
every method is fitted on all earlier periods only, then predicts each pair's percentage in
each session of the test period. The predictions are scored against what happened
(:func:`session_metrics`), method against method on the same pair-sessions, with paired
bootstrap intervals by session, and against the ceiling the data allow (:mod:`ceiling`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
from scipy import stats

from bridgerank.ratings.covariates import newcomer_choice
from bridgerank.ratings.field import (
    FieldTables,
    SessionScores,
    latest_quarter,
    pair_percent,
    pair_sessions,
)
from bridgerank.ratings.headline import Covariates, fit_headline, predict_sessions
from bridgerank.ratings.replay import Games, calibrate, replay

# Central prediction intervals reported, and their normal quantiles.
LEVELS = (0.5, 0.8, 0.95)


@dataclass
class Prediction:
    """A method's percentages for the test pair-sessions, and (if it has one) the variance of
    each, in squared percentage points."""

    percent: np.ndarray
    variance: np.ndarray | None = None


Method = Callable[[FieldTables, FieldTables, SessionScores], Prediction]


# --- the methods ---------------------------------------------------------------------------


def coin(train: FieldTables, test: FieldTables, sessions: SessionScores) -> Prediction:
    """Everyone scores 50%."""
    return Prediction(np.full(len(sessions.percent), 50.0))


def _player_means(train: FieldTables, shrink: float) -> np.ndarray:
    """Each player's mean share from their side, minus 1/2, shrunk by ``shrink`` boards."""
    players = len(train.players)
    deviations = np.concatenate([train.share - 0.5] * 2 + [0.5 - train.share] * 2)
    seats = np.concatenate([train.seats[:, i] for i in range(4)])
    total = np.bincount(seats, weights=deviations, minlength=players)
    count = np.bincount(seats, minlength=players)
    return total / np.maximum(count + shrink, 1)


def _pair_mean_prediction(means: np.ndarray, sessions: SessionScores) -> Prediction:
    return Prediction(50 + 100 * means[sessions.pair].mean(axis=1))


def win_rate(train: FieldTables, test: FieldTables, sessions: SessionScores) -> Prediction:
    """A pair's percentage is the mean of its two players' past shares (unseen: 50%)."""
    return _pair_mean_prediction(_player_means(train, 0.0), sessions)


def shrunk_mean(train: FieldTables, test: FieldTables, sessions: SessionScores) -> Prediction:
    """As :func:`win_rate`, each player's mean shrunk toward 50% by a number of boards
    chosen on the training data (earlier three quarters against the latest quarter)."""
    shrink = _choose(train, (0.0, 10.0, 30.0, 100.0, 300.0), _shrunk_on)
    return _pair_mean_prediction(_player_means(train, shrink), sessions)


def _shrunk_on(train: FieldTables, test: FieldTables, sessions, shrink: float) -> Prediction:
    return _pair_mean_prediction(_player_means(train, shrink), sessions)


def _choose(train: FieldTables, grid, fit_predict) -> float:
    split = latest_quarter(train)
    if split is None:
        return grid[len(grid) // 2]
    early, late = split
    actual = pair_sessions(late)
    errors = [
        np.mean((fit_predict(early, late, actual, value).percent - actual.percent) ** 2)
        for value in grid
    ]
    return grid[int(np.argmin(errors))]


def headline_method(covariates: Covariates | None = None, newcomers: bool = True) -> Method:
    """The headline rating (:mod:`bridgerank.ratings.headline`), with prediction variances
    (:func:`~bridgerank.ratings.headline.predict_sessions`); ``covariates`` move each
    player's prior centre (e.g. :class:`~bridgerank.ratings.dd_prior.BoardEvidence`), and
    with ``newcomers`` each fit chooses on its training data whether the newcomer prior
    (:func:`~bridgerank.ratings.covariates.newcomer_choice`) joins them."""
    candidates = newcomer_choice(covariates) if newcomers else None

    def predict(train: FieldTables, test: FieldTables, sessions: SessionScores) -> Prediction:
        fit = fit_headline(train, covariates=covariates, candidates=candidates)
        percent, variance = predict_sessions(fit, test)
        return Prediction(percent, variance)

    return predict


def _ranking_games(tables: FieldTables) -> Games:
    """Each deal twice, as a ranking of its North-South pairs and of its East-West pairs."""
    members, places = [], []
    for rows in _deal_slices(tables):
        shares = tables.share[rows]
        for seats, sign in (((0, 1), 1.0), ((2, 3), -1.0)):
            values = sign * shares
            members.append(tables.seats[rows][:, list(seats)])
            places.append(1 + (values[None, :] > values[:, None]).sum(axis=1))
    return Games(list(range(len(tables.players))), members, places)


def elo_methods(kind: str) -> tuple[Method, Method]:
    """Multiplayer Elo (``elo``: multielo; ``dlo``: ranking-probability Elo) replayed over
    the training deals, as two predictions: a pair's expected share at a table is its expected
    fraction of the same-direction pairs beaten, judged by its own rating alone, and (the
    second) by its rating minus its opponents' at that table - in a field matchpointed on one
    deal, who sat opposite moves a pair's score, and the headline counts it, so a fair
    baseline does too. K is calibrated (prequential loss) on the first training set it sees
    and kept for the later, larger ones; both predictions share one replay per training set."""
    calibrated: list[float] = []
    latest: dict[str, Any] = {}

    def ratings_of(train: FieldTables) -> np.ndarray:
        key = (len(train), int(train.period.max()))
        if latest.get("key") != key:
            games = _ranking_games(train)
            if not calibrated:
                calibrated.append(calibrate(games, kind)[0])
            latest.update(key=key, ratings=replay(games, kind, calibrated[0]).ratings)
        return latest["ratings"]

    def predictor(opponents: bool) -> Method:
        def predict(train: FieldTables, test: FieldTables, sessions: SessionScores) -> Prediction:
            ratings = ratings_of(train)
            ns = _expected_beaten(test, ratings, (0, 1), (2, 3) if opponents else ())
            ew = _expected_beaten(test, ratings, (2, 3), (0, 1) if opponents else ())
            return Prediction(pair_percent(test, ns, ew))

        predict.__name__ = f"{kind}_opponents" if opponents else kind
        return predict

    return predictor(False), predictor(True)


def _deal_slices(tables: FieldTables) -> list[np.ndarray]:
    """The table indices of each deal."""
    order = np.argsort(tables.group, kind="stable")
    groups = tables.group[order]
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    return np.split(order, starts[1:])


def _expected_beaten(tables: FieldTables, ratings: np.ndarray, seats, opponents=()) -> np.ndarray:
    team = ratings[tables.seats[:, list(seats)]].mean(axis=1)
    if opponents:
        team = team - ratings[tables.seats[:, list(opponents)]].mean(axis=1)
    out = np.empty(len(team))
    for rows in _deal_slices(tables):
        values = team[rows]
        beaten = 1 / (1 + 10 ** ((values[None, :] - values[:, None]) / 400))
        out[rows] = (beaten.sum(axis=1) - 0.5) / max(len(rows) - 1, 1)
    return out


def wbf_points_method(points: Mapping[str, float]) -> Method:
    """WBF open masterpoints, the federations' own ranking: a pair's percentage is a straight
    line in its players' summed ``log(1 + masterpoints)`` (0 for a player not on the lists),
    fitted by least squares on the training pair-sessions; its prediction variance is the
    training residuals'."""

    def predict(train: FieldTables, test: FieldTables, sessions: SessionScores) -> Prediction:
        def standing(tables: FieldTables, pairs: np.ndarray) -> np.ndarray:
            value = np.array([np.log1p(points.get(str(p), 0.0)) for p in tables.players])
            return value[pairs].sum(axis=1)

        seen = pair_sessions(train)
        x = standing(train, seen.pair)
        design = np.column_stack([np.ones_like(x), x])
        coefficients, *_ = np.linalg.lstsq(design, seen.percent, rcond=None)
        residual = seen.percent - design @ coefficients
        variance = float(residual @ residual / max(len(x) - 2, 1))
        predicted = coefficients[0] + coefficients[1] * standing(test, sessions.pair)
        return Prediction(predicted, np.full(len(predicted), variance))

    return predict


def default_methods() -> dict[str, Method]:
    """The headline rating and its baselines, fresh (Elo's K is calibrated once per run)."""
    methods: dict[str, Method] = {
        "headline": headline_method(),
        "coin": coin,
        "win_rate": win_rate,
        "shrunk_mean": shrunk_mean,
    }
    for kind in ("elo", "dlo"):
        methods[kind], methods[f"{kind}_opponents"] = elo_methods(kind)
    return methods


# --- scoring -------------------------------------------------------------------------------


def _concordance(predicted: np.ndarray, actual: np.ndarray) -> tuple[float, int]:
    """Pairs of pairs put in the right order (a tie in prediction counts half), and how
    many pairs of pairs finished in different places."""
    actual_order = np.sign(actual[:, None] - actual[None, :])
    predicted_order = np.sign(predicted[:, None] - predicted[None, :])
    upper = np.triu(actual_order != 0, k=1)
    agree = (actual_order == predicted_order) + 0.5 * (predicted_order == 0)
    return float(agree[upper].sum()), int(upper.sum())


def session_metrics(
    predicted: np.ndarray,
    actual: np.ndarray,
    session: np.ndarray,
    variance: np.ndarray | None = None,
) -> dict[str, float | None]:
    """Pearson, Spearman, RMSE, mean within-session Spearman, share of pair orders right
    within sessions, and the coverage of the central prediction intervals."""
    constant = np.ptp(predicted) == 0
    within, right, total = [], 0.0, 0
    for value in np.unique(session):
        rows = session == value
        if rows.sum() >= 3 and np.ptp(predicted[rows]) > 0:
            within.append(stats.spearmanr(predicted[rows], actual[rows])[0])
        hits, pairs = _concordance(predicted[rows], actual[rows])
        right, total = right + hits, total + pairs
    metrics: dict[str, float | None] = {
        "pearson": None if constant else float(stats.pearsonr(predicted, actual)[0]),
        "spearman": None if constant else float(stats.spearmanr(predicted, actual)[0]),
        "rmse": float(np.sqrt(np.mean((predicted - actual) ** 2))),
        "within_session_spearman": float(np.mean(within)) if within else None,
        "orders_right": right / total if total else None,
    }
    for level in LEVELS:
        key = f"coverage_{int(level * 100)}"
        if variance is None:
            metrics[key] = None
            continue
        half = stats.norm.ppf(0.5 + level / 2) * np.sqrt(variance)
        metrics[key] = float(np.mean(np.abs(predicted - actual) <= half))
    return metrics


@dataclass
class WalkForward:
    """Every method's predictions for every test pair-session, and what happened."""

    actual: np.ndarray
    session: np.ndarray
    boards: np.ndarray
    period: np.ndarray
    predictions: dict[str, list[Prediction]] = field(default_factory=dict)

    def predicted(self, method: str) -> np.ndarray:
        return np.concatenate([p.percent for p in self.predictions[method]])

    def variance(self, method: str) -> np.ndarray | None:
        parts = [p.variance for p in self.predictions[method]]
        if any(part is None for part in parts):
            return None
        return np.concatenate(parts)  # type: ignore[arg-type]


def walk_forward(
    tables: FieldTables,
    methods: dict[str, Method] | None = None,
    test_share: float = 0.5,
    progress=None,
) -> WalkForward:
    """Predict every session of the later ``test_share`` of the periods from all before it."""
    methods = methods or default_methods()
    periods = np.unique(tables.period)
    tests = periods[int(len(periods) * (1 - test_share)) :]
    tests = tests[tests > periods[0]]
    result = WalkForward(np.empty(0), np.empty(0, dtype=np.int64), np.empty(0), np.empty(0))
    actual, session, boards, period = [], [], [], []
    for name in methods:
        result.predictions[name] = []
    folds = progress(tests, "walk-forward periods", len(tests)) if progress else tests
    for test_period in folds:
        train = tables.subset(tables.period < test_period)
        test = tables.subset(tables.period == test_period)
        sessions = pair_sessions(test)
        actual.append(sessions.percent)
        session.append(sessions.session)
        boards.append(sessions.boards)
        period.append(sessions.period)
        for name, method in methods.items():
            result.predictions[name].append(method(train, test, sessions))
    result.actual = np.concatenate(actual)
    result.session = np.concatenate(session)
    result.boards = np.concatenate(boards)
    result.period = np.concatenate(period)
    return result


def paired_bootstrap(
    run: WalkForward, method: str, baseline: str, replicates: int = 1000, seed: int = 0
) -> dict[str, tuple[float, float, float]]:
    """Differences ``method - baseline`` in Pearson and RMSE, with 95% intervals from
    resampling test sessions (both methods on the same resample)."""
    rng = np.random.default_rng(seed)
    ours, theirs = run.predicted(method), run.predicted(baseline)
    sessions = np.unique(run.session)
    rows_of = [np.flatnonzero(run.session == value) for value in sessions]

    def difference(rows: np.ndarray) -> tuple[float, float]:
        actual = run.actual[rows]
        r_ours = _safe_pearson(ours[rows], actual)
        r_theirs = _safe_pearson(theirs[rows], actual)
        rmse_ours = np.sqrt(np.mean((ours[rows] - actual) ** 2))
        rmse_theirs = np.sqrt(np.mean((theirs[rows] - actual) ** 2))
        return r_ours - r_theirs, rmse_ours - rmse_theirs

    point = difference(np.arange(len(run.actual)))

    def resample() -> np.ndarray:
        picked = rng.integers(0, len(sessions), len(sessions))
        return np.concatenate([rows_of[i] for i in picked])

    draws = np.array([difference(resample()) for _ in range(replicates)])
    low, high = np.nanpercentile(draws, [2.5, 97.5], axis=0)
    return {
        "pearson": (point[0], float(low[0]), float(high[0])),
        "rmse": (point[1], float(low[1]), float(high[1])),
    }


def _safe_pearson(x: np.ndarray, y: np.ndarray) -> float:
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])
