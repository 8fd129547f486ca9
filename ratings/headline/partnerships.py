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

from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import sparse

from bridgerank.ratings.field import (
    FieldTables,
    pair_percent,
    pair_sessions,
    partnership_codes,
)
from bridgerank.ratings.headline.design import Design
from bridgerank.ratings.headline.fit import (
    Solved,
    headline_settings,
    model_columns,
    solve_model,
    table_offset,
)
from bridgerank.ratings.headline.past import Covariates
from bridgerank.ratings.headline.sessions import headline_choice
from bridgerank.ratings.holdout import Forecast, Target, choose_on_latest_quarter
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


def _fit(
    tables: FieldTables,
    index: PartnershipIndex,
    covariates: Covariates | None,
    penalty: float,
    partner_penalty: float,
    settings: HeadlineSettings,
) -> tuple[Solved, np.ndarray, Design, np.ndarray]:
    """The headline with a term of each partnership's own, fitted on ``tables``
    (``settings``: ``[rate.headline]``, the thresholds of the headline's terms): the
    headline's terms read back, the partnerships' terms, the design and its whole solution."""
    players = len(tables.players)
    columns = model_columns(tables, covariates, familiar=True, settings=settings)
    design = Design.of(tables, players, columns).with_penalised(
        index.matrix(tables), partner_penalty
    )
    _, coefficients, _, solved = solve_model(
        tables, penalty, covariates, True, settings=settings, design=design
    )
    return solved, coefficients[players : players + design.penalised], design, coefficients


def _forecast(
    solved: Solved,
    pairs: np.ndarray,
    index: PartnershipIndex,
    tables: FieldTables,
    history: FieldTables,
    settings: HeadlineSettings,
) -> np.ndarray:
    """Each pair-session's expected percentage in ``tables`` from the players' and the
    partnerships' terms (``history``: the tables before, for the headline's terms)."""
    design = Design.of(tables, len(solved.theta)).with_penalised(index.matrix(tables), 0.0)
    offset = table_offset(tables, solved.familiarity, solved.entry_effects, history, settings)
    return pair_percent(tables, design.predict(np.concatenate([solved.theta, pairs]), offset))


def _headline_partnerships(data: FieldTables, inputs: StudyInputs):
    index = PartnershipIndex(data)

    def predict(train: FieldTables, test: FieldTables, target: Target | None = None) -> Forecast:
        # the players' prior and penalty are the headline's own choice on this training set
        covariates, penalty, _ = headline_choice(train, inputs, data)
        settings = inputs.rate.headline

        def errors(early: FieldTables, late: FieldTables, value: float) -> np.ndarray:
            solved, pairs, _, _ = _fit(early, index, covariates, penalty, value, settings)
            forecast = _forecast(solved, pairs, index, late, early, settings)
            return forecast - pair_sessions(late).percent

        partner_penalty = choose_on_latest_quarter(train, settings.partnership_penalties, errors)
        solved, pairs, _, _ = _fit(train, index, covariates, penalty, partner_penalty, settings)
        return Forecast(_forecast(solved, pairs, index, test, train, settings))

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
    settings = headline_settings(settings)
    index = PartnershipIndex(tables)
    grid = settings.partnership_penalties
    partner_penalty = grid[len(grid) // 2]
    solved, pairs, design, solution = _fit(
        tables, index, covariates, penalty, partner_penalty, settings
    )
    theta = solved.theta
    residual = tables.share - design.predict(solution)
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
