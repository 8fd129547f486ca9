"""A partnership's own term beside its players' strengths: does a regular pair score more (or
less) than its two players' ratings say, and does knowing it predict better?

The headline's model with one more term per partnership: at a table, ``d_t = theta_n +
theta_s + phi_ns - theta_e - theta_w - phi_ew``, where ``phi`` is the pair's synergy, with a
ridge penalty of its own (chosen on the training dates, as the headline's is): a pair seen
little keeps ``phi`` near 0 and is its players' sum. The players' penalty and prior are the
headline's own choice on each training set (made once, shared with it).
:data:`HEADLINE_PARTNERSHIPS` is validated beside the headline in the sessions walk-forward;
:func:`synergies` estimates each regular pair's term on all the data, with an interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import sparse

from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import (
    FieldTables,
    pair_percent,
    pair_sessions,
    partnership_codes,
)
from bridgerank.ratings.headline.design import Design
from bridgerank.ratings.headline.fit import fit_strengths, model_columns, table_offset
from bridgerank.ratings.headline.past import Covariates, covariate_values
from bridgerank.ratings.headline.sessions import headline_choice
from bridgerank.ratings.holdout import Forecast, Target, latest_quarter
from bridgerank.ratings.registry import Method, StudyInputs

if TYPE_CHECKING:
    from bridgerank.core.sections import HeadlineSettings

__all__ = ["HEADLINE_PARTNERSHIPS", "PartnershipIndex", "synergies"]


class PartnershipIndex:
    """A column for every partnership (the two players, in either seat order), numbered in
    the order the tables first seat them."""

    def __init__(self, tables: FieldTables) -> None:
        self._players = len(tables.players)
        codes = self._codes(tables)  # a table's North-South, then its East-West
        unique, first = np.unique(codes, return_index=True)
        order = np.argsort(first, kind="stable")
        self._sorted = unique  # the codes, sorted, and each one's column
        self._columns = np.empty(len(unique), dtype=np.int64)
        self._columns[order] = np.arange(len(unique))
        self.column: dict[tuple[int, int], int] = {
            (int(code // self._players), int(code % self._players)): index
            for index, code in enumerate(unique[order].tolist())
        }

    def _codes(self, tables: FieldTables) -> np.ndarray:
        """One integer per partnership seated: every table's North-South, then its East-West,
        interleaved (:func:`~bridgerank.ratings.field.partnership_codes`)."""
        return partnership_codes(tables, self._players).ravel()

    def matrix(self, tables: FieldTables) -> sparse.csr_matrix:
        """+1 on North-South's partnership, -1 on East-West's, one row per table."""
        count = len(tables)
        codes = self._codes(tables)
        found = np.minimum(np.searchsorted(self._sorted, codes), len(self._sorted) - 1)
        if not np.array_equal(self._sorted[found], codes):
            raise KeyError("a partnership the index was not built with")
        columns = self._columns[found]
        return sparse.csr_matrix(
            (
                np.tile([1.0, -1.0], count),
                columns,
                np.arange(0, 2 * count + 1, 2),
            ),
            shape=(count, len(self.column)),
        )


@dataclass
class _PairFit:
    """The players' strengths (their prior centres included), the partnerships' terms, the
    familiarity's coefficient (the headline's term for every familiar pair), the design and
    its whole solution."""

    theta: np.ndarray
    pairs: np.ndarray
    familiarity: float
    design: Design
    solution: np.ndarray
    entry_effects: dict[str, float]

    def coefficients(self) -> np.ndarray:
        """The strengths and the partnerships' terms, as a design of only those reads them."""
        return np.concatenate([self.theta, self.pairs])


def _fit(
    tables: FieldTables,
    index: PartnershipIndex,
    covariates: Covariates | None,
    penalty: float,
    partner_penalty: float,
    settings: HeadlineSettings,
) -> _PairFit:
    """The headline with a term of each partnership's own, fitted on ``tables``
    (``settings``: ``[rate.headline]``, the thresholds of the headline's terms)."""
    players = len(tables.players)
    columns = model_columns(tables, covariates, familiar=True, settings=settings)
    design = Design.of(tables, players, columns).with_penalised(
        index.matrix(tables), partner_penalty
    )
    coefficients = fit_strengths(design, tables.share, penalty)
    theta = coefficients[:players]
    pairs = coefficients[players : players + design.penalised]
    # then the covariates', the entries' and, last, the familiarity's
    rest = coefficients[players + design.penalised : -1]
    z = None if covariates is None else covariate_values(tables, covariates)
    features = 0 if z is None else z.shape[1]
    if z is not None:
        theta = theta + z @ rest[:features]
    effects = dict(zip(tables.entries, map(float, rest[features:])))
    return _PairFit(theta, pairs, float(coefficients[-1]), design, coefficients, effects)


def _forecast(
    fit: _PairFit,
    index: PartnershipIndex,
    tables: FieldTables,
    history: FieldTables,
    settings: HeadlineSettings,
) -> np.ndarray:
    design = Design.of(tables, len(fit.theta)).with_penalised(index.matrix(tables), 0.0)
    offset = table_offset(tables, fit.familiarity, fit.entry_effects, history, settings)
    return pair_percent(tables, design.predict(fit.coefficients(), offset))


def _headline_partnerships(data: FieldTables, inputs: StudyInputs):
    index = PartnershipIndex(data)

    def predict(train: FieldTables, test: FieldTables, target: Target | None = None) -> Forecast:
        # the players' prior and penalty are the headline's own choice on this training set
        covariates, penalty, _ = headline_choice(train, inputs, data)
        settings = inputs.rate.headline
        grid = settings.partnership_penalties
        partner_penalty = grid[len(grid) // 2]
        split = latest_quarter(train)
        if split is not None:
            early, late = split
            actual = pair_sessions(late).percent

            def error(value: float) -> float:
                fitted = _fit(early, index, covariates, penalty, value, settings)
                forecast = _forecast(fitted, index, late, early, settings)
                return float(np.mean((forecast - actual) ** 2))

            partner_penalty = min(grid, key=error)
        fitted = _fit(train, index, covariates, penalty, partner_penalty, settings)
        return Forecast(_forecast(fitted, index, test, train, settings))

    return predict


HEADLINE_PARTNERSHIPS = Method(
    "headline_synergy",
    "the headline with a term of each partnership's own beside its players' strengths",
    _headline_partnerships,
)


def synergies(
    tables: FieldTables,
    penalty: float,
    covariates: Covariates | None = None,
    settings: HeadlineSettings | None = None,
) -> list[dict[str, Any]]:
    """Each regular partnership's term (``regular_boards`` boards together or more), in
    percentage points of a session, with a 95% interval from its boards' residual variance;
    the partnerships' penalty is the middle one of ``partnership_penalties``, the
    players' ``penalty`` and prior ``covariates`` the headline's.

    Parameters
    ----------
    tables : FieldTables
        The tables the headline was fitted on.
    penalty : float
        The headline's penalty of the players' strengths.
    covariates : callable, optional
        The headline's prior covariates.
    settings : HeadlineSettings, optional
        ``[rate.headline]`` (None: the shipped defaults).

    Returns
    -------
    list of dict
        One row per regular partnership, the most boards first.
    """
    if settings is None:
        settings = default_settings().rate.headline
    index = PartnershipIndex(tables)
    grid = settings.partnership_penalties
    partner_penalty = grid[len(grid) // 2]
    fitted = _fit(tables, index, covariates, penalty, partner_penalty, settings)
    theta, pairs, design = fitted.theta, fitted.pairs, fitted.design
    residual = tables.share - design.predict(fitted.solution)
    variance = float(residual @ residual / max(len(residual) - len(design.sizes), 1))
    diagonal = design.normal_diagonal()[len(theta) : len(theta) + len(pairs)] + partner_penalty
    boards = np.asarray(index.matrix(tables).power(2).sum(axis=0)).ravel()
    rows = []
    for (first, second), column in index.column.items():
        if boards[column] < settings.regular_boards:
            continue
        sd = np.sqrt(variance / diagonal[column])
        value = 100 * pairs[column]
        rows.append(
            {
                "player": str(tables.players[first]),
                "partner": str(tables.players[second]),
                "boards": int(boards[column]),
                "synergy": value,
                "low": value - 1.96 * 100 * sd,
                "high": value + 1.96 * 100 * sd,
            }
        )
    return sorted(rows, key=lambda row: -row["boards"])
