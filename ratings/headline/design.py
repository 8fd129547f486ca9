"""The headline's tables as a linear model (:class:`Design`): the design matrix, its
centring within each deal, and the normal equations with their Cholesky factor.

The model is :mod:`~bridgerank.ratings.headline.fit`'s; this module holds its algebra, formed
once per set of tables and shared by every fit of them (a grid's penalties, the posterior,
the ceiling's simulated draws).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from scipy import sparse
from scipy.linalg import cho_factor

from bridgerank.ratings.field import FieldTables
from bridgerank.ratings.headline.past import SEAT_SIGNS
from bridgerank.ratings.weighted_gram import weighted_gram

__all__ = ["Design"]

# Up to this many players (and columns) the normal equations are formed and factorised
# (a fit is then one triangular solve, and the posterior covariance exact); above it they are
# solved by conjugate gradients and the posterior variances use the diagonal only.
_EXACT_VARIANCE_PLAYERS = 3000
# Penalty on covariate coefficients: none to speak of, only enough to keep them determined.
_COEFFICIENT_PENALTY = 1e-6


@dataclass
class Design:
    """The tables as a linear model: ``centred(A @ theta) * scale`` predicts ``share - 1/2``.

    With covariates the columns are the players' and then one per feature
    (:func:`past_columns`).
    """

    a: sparse.csr_matrix
    group: np.ndarray  # deal of each table, renumbered 0..groups-1
    sizes: np.ndarray  # tables per deal
    scale: np.ndarray  # k / (k - 1) per table
    players: int
    # columns right after the players' with a penalty of their own (a partnership's term)
    penalised: int = 0
    penalised_by: float = 0.0
    # X^T X, and the latest penalty's Cholesky factor of it plus the penalties: formed once,
    # they serve every fit of these tables (a grid's penalties, the ceiling's many draws)
    _normal: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _factor: tuple[float, tuple] | None = field(default=None, init=False, repr=False, compare=False)
    _active: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def with_penalised(self, columns: sparse.csr_matrix, penalty: float) -> Design:
        """This design with ``columns`` (one row per table) inserted after the players',
        penalised by ``penalty`` rather than the players' penalty."""
        players = self.a[:, : self.players]
        rest = self.a[:, self.players :]
        a = sparse.hstack([players, columns, rest]).tocsr()
        return replace(self, a=a, penalised=columns.shape[1], penalised_by=penalty)

    @classmethod
    def of(cls, tables: FieldTables, players: int, columns: np.ndarray | None = None) -> Design:
        """The design of ``tables`` over ``players`` strengths, and the coefficients of the
        covariate ``columns`` (one row per table) if any."""
        count = len(tables)
        a = sparse.csr_matrix(
            (
                np.tile(SEAT_SIGNS, count),
                tables.seats.ravel(),
                np.arange(0, 4 * count + 1, 4),
            ),
            shape=(count, players),
        )
        if columns is not None:
            a = sparse.hstack([a, sparse.csr_matrix(columns)]).tocsr()
        _, group = np.unique(tables.group, return_inverse=True)
        group = group.ravel()
        sizes = np.bincount(group)
        k = sizes[group].astype(float)
        return cls(a, group, sizes, k / np.maximum(k - 1, 1), players)

    def centre(self, values: np.ndarray) -> np.ndarray:
        """Each table's value minus its deal's mean."""
        means = np.bincount(self.group, weights=values, minlength=len(self.sizes)) / self.sizes
        return values - means[self.group]

    def predict(self, theta: np.ndarray, offset: np.ndarray | None = None) -> np.ndarray:
        """Expected North-South share at every table; ``offset`` adds to each table's ``d``
        (a term the design has no column for, such as the familiarity's)."""
        d = self.a @ theta
        return 0.5 + self.scale * self.centre(d if offset is None else d + offset)

    def normal_matvec(self, theta: np.ndarray) -> np.ndarray:
        """``X^T X theta`` (the centring is a projection, so it needs applying once)."""
        return self.a.T @ (self.scale**2 * self.centre(self.a @ theta))

    def is_dense(self) -> bool:
        """Whether the normal equations are small enough to form and factorise."""
        return self.players <= _EXACT_VARIANCE_PLAYERS

    def normal_matrix(self) -> np.ndarray:
        """``X^T X`` as a dense matrix, what :meth:`normal_matvec` applies, from two sparse
        products: the plain ``A^T S^2 A`` less each deal's column sums
        ``w/k (A_g^T 1)(1^T A_g)``, the scale being one value a deal; each counts a pattern
        of seats once (:func:`~bridgerank.ratings.weighted_gram.weighted_gram`). Computed
        once."""
        if self._normal is None:
            weights = self.scale**2
            tables = np.arange(len(self.group))
            groups = sparse.csr_matrix(
                (np.ones(len(tables)), (self.group, tables)),
                shape=(len(self.sizes), len(tables)),
            )
            group_weight = np.zeros(len(self.sizes))
            group_weight[self.group] = weights / self.sizes[self.group]
            seated = self.players + self.penalised
            tables_gram = weighted_gram(self.a, weights, seated)
            deals_gram = weighted_gram((groups @ self.a).tocsr(), group_weight, seated)
            self._normal = (tables_gram - deals_gram).toarray()
        return self._normal

    def active(self) -> np.ndarray:
        """The columns some table touches. The others (players not seen yet in a
        walk-forward's early dates, their partnerships) are zero in ``X``: their
        coefficients are exactly zero and their variances the ridge's alone, so the normal
        equations are factorised without them (a quarter of Valet's players, on average).
        Computed once: every fit and the posterior ask."""
        if self._active is None:
            touched = np.bincount(
                self.a.indices, weights=np.abs(self.a.data), minlength=self.a.shape[1]
            )
            self._active = np.flatnonzero(touched > 0)
        return self._active

    def factor(self, penalty: float) -> tuple:
        """The Cholesky factor of ``X^T X`` plus the ``penalty``'s ridge (:meth:`penalties`)
        on the :meth:`active` columns, kept for the latest penalty."""
        if self._factor is None or self._factor[0] != penalty:
            active = self.active()
            precision = self.normal_matrix()[np.ix_(active, active)]
            precision[np.diag_indices_from(precision)] += self.penalties(penalty)[active]
            self._factor = (penalty, cho_factor(precision, lower=True, overwrite_a=True))
        return self._factor[1]

    def normal_diagonal(self) -> np.ndarray:
        """Diagonal of ``X^T X``: each column's squared coefficients, net of the centring."""
        weights = self.scale**2
        a = self.a.tocoo()
        plain = np.bincount(a.col, weights=weights[a.row] * a.data**2, minlength=self.a.shape[1])
        group_sums = sparse.csr_matrix(
            (a.data, (self.group[a.row], a.col)), shape=(len(self.sizes), self.a.shape[1])
        ).tocoo()
        group_weight = np.zeros(len(self.sizes))
        group_weight[self.group] = weights / self.sizes[self.group]
        correction = np.bincount(
            group_sums.col,
            weights=group_weight[group_sums.row] * group_sums.data**2,
            minlength=self.a.shape[1],
        )
        return plain - correction

    def penalties(self, penalty: float) -> np.ndarray:
        """The ridge penalty of every column: ``penalty`` on players, ~0 on coefficients."""
        values = np.full(self.a.shape[1], _COEFFICIENT_PENALTY)
        values[: self.players] = penalty
        values[self.players : self.players + self.penalised] = self.penalised_by
        return values
