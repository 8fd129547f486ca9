"""The headline rating: player strengths from matchpoint shares, a ridge fit in one sparse
solve.

Model. At table ``t`` of a deal played at ``k`` tables, with North-South ``n, s`` and
East-West ``e, w``, let ``d_t = theta_n + theta_s - theta_e - theta_w``. North-South's share
is compared with the field, so its expectation is centred on the deal::

    E[share_t] - 1/2 = k / (k - 1) * (d_t - mean of d over the deal's k tables)

(``d_t`` against the mean of the *other* tables' ``d``: the opponents and the pairs sitting
the same way all enter). The strengths minimise the squared error plus ``penalty *
|theta|^2``, a Gaussian prior centred on the average player. A player's ``theta`` is in
matchpoint shares: ``100 * theta`` is the session percentage above 50 expected of them with
an average partner against an average field.

The normal equations are solved by conjugate gradients through the tables (each step costs
a pass over the tables), so a fit is linear in the data. The penalty is chosen on the
training data alone: fitted on its earlier sessions, scored on its latest quarter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import LinearOperator, cg

from bridgerank.ratings.field import FieldTables, latest_quarter, pair_percent, pair_sessions

PENALTIES = (3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
# Sign of each seat's strength in d_t: North, South, East, West.
_SIGNS = np.array([1.0, 1.0, -1.0, -1.0])
# Above this many players the posterior variances use the diagonal of the precision only.
_EXACT_VARIANCE_PLAYERS = 3000


@dataclass
class Design:
    """The tables as a linear model: ``centred(A @ theta) * scale`` predicts ``share - 1/2``."""

    a: sparse.csr_matrix
    group: np.ndarray  # deal of each table, renumbered 0..groups-1
    sizes: np.ndarray  # tables per deal
    scale: np.ndarray  # k / (k - 1) per table

    @classmethod
    def of(cls, tables: FieldTables, players: int) -> Design:
        """The design of ``tables`` over ``players`` strengths."""
        count = len(tables)
        a = sparse.csr_matrix(
            (
                np.tile(_SIGNS, count),
                tables.seats.ravel(),
                np.arange(0, 4 * count + 1, 4),
            ),
            shape=(count, players),
        )
        _, group = np.unique(tables.group, return_inverse=True)
        group = group.ravel()
        sizes = np.bincount(group)
        k = sizes[group].astype(float)
        return cls(a, group, sizes, k / np.maximum(k - 1, 1))

    def centre(self, values: np.ndarray) -> np.ndarray:
        """Each table's value minus its deal's mean."""
        means = np.bincount(self.group, weights=values, minlength=len(self.sizes)) / self.sizes
        return values - means[self.group]

    def predict(self, theta: np.ndarray) -> np.ndarray:
        """Expected North-South share at every table."""
        return 0.5 + self.scale * self.centre(self.a @ theta)

    def normal_matvec(self, theta: np.ndarray) -> np.ndarray:
        """``X^T X theta`` (the centring is a projection, so it needs applying once)."""
        return self.a.T @ (self.scale**2 * self.centre(self.a @ theta))

    def normal_diagonal(self) -> np.ndarray:
        """Diagonal of ``X^T X``: each player's squared coefficients, net of the centring."""
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


@dataclass
class HeadlineFit:
    """Strengths (MP shares above 1/2 with an average partner and field), their posterior
    standard deviations, the penalty, and the board residual variance."""

    theta: np.ndarray
    sd: np.ndarray
    penalty: float
    residual_variance: float
    covariance: np.ndarray | None  # full posterior covariance when players are few


def fit_strengths(design: Design, target: np.ndarray, penalty: float) -> np.ndarray:
    """Ridge strengths for ``target`` (North-South shares) by preconditioned CG."""
    players = design.a.shape[1]
    right = design.a.T @ (design.scale * design.centre(target - 0.5))
    diagonal = design.normal_diagonal() + penalty
    operator = LinearOperator(
        (players, players),
        matvec=lambda theta: design.normal_matvec(theta) + penalty * theta,
        dtype=float,
    )
    preconditioner = LinearOperator((players, players), matvec=lambda r: r / diagonal, dtype=float)
    theta, info = cg(operator, right, M=preconditioner, rtol=1e-10, atol=0.0, maxiter=5000)
    return theta


def posterior(
    design: Design, theta: np.ndarray, target: np.ndarray, penalty: float
) -> tuple[np.ndarray, float, np.ndarray | None]:
    """Standard deviations of the strengths, the residual variance, and (few players) the
    whole covariance ``sigma^2 (X^T X + penalty I)^-1``."""
    residual = target - design.predict(theta)
    # degrees of freedom: a table's share is tied to its deal's other tables by the centring
    dof = max(len(target) - len(design.sizes), 1)
    variance = float(residual @ residual / dof)
    players = design.a.shape[1]
    if players <= _EXACT_VARIANCE_PLAYERS:
        columns = np.eye(players)
        precision = np.column_stack([design.normal_matvec(column) for column in columns])
        covariance = variance * np.linalg.inv(precision + penalty * columns)
        return np.sqrt(np.diag(covariance)), variance, covariance
    return np.sqrt(variance / (design.normal_diagonal() + penalty)), variance, None


def choose_penalty(tables: FieldTables, penalties: tuple[float, ...] = PENALTIES) -> float:
    """The penalty whose fit on the earlier three quarters of the periods best predicts the
    sessions of the latest quarter (session RMSE); the middle one when there is too little."""
    split = latest_quarter(tables)
    if split is None:
        return penalties[len(penalties) // 2]
    early, late = split
    players = len(tables.players)
    fit_design, test_design = Design.of(early, players), Design.of(late, players)
    actual = pair_sessions(late).percent
    errors = []
    for penalty in penalties:
        theta = fit_strengths(fit_design, early.share, penalty)
        predicted = pair_percent(late, test_design.predict(theta))
        errors.append(np.mean((predicted - actual) ** 2))
    return penalties[int(np.argmin(errors))]


def fit_headline(tables: FieldTables, penalty: float | None = None) -> HeadlineFit:
    """Fit the headline rating on ``tables`` (penalty chosen on them when not given)."""
    if penalty is None:
        penalty = choose_penalty(tables)
    design = Design.of(tables, len(tables.players))
    theta = fit_strengths(design, tables.share, penalty)
    sd, variance, covariance = posterior(design, theta, tables.share, penalty)
    return HeadlineFit(theta, sd, penalty, variance, covariance)
