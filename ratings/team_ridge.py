"""One weighted ridge problem of the team fits, solved for as many penalties as asked.

The team headline's choices (:func:`~bridgerank.ratings.team_fit.choose_joint`,
:func:`~bridgerank.ratings.team_fit.choose_penalty`) fit the same rows for every penalty of a
grid. A :class:`RidgeSystem` holds what does not depend on the penalty - the weighted design
with its covariates' columns, the diagonal of its precision, the covariates' own uncertainty -
so that a further penalty costs one sparse least-squares solve (LSQR). The rows are sparse
(eight players a board) and the columns thousands on the corpus: LSQR took a third of the
time of a dense Cholesky factorisation of the normal equations there. Each penalty starts
from zero: a start from another penalty's solution would damp the distance from it, not the
strengths.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import lsqr

__all__ = ["FREE", "ImpFit", "RidgeSystem"]

# Covariate columns are scaled up by this much so that the ridge's one damping leaves their
# coefficients practically unpenalised (the penalty on them is divided by its square).
FREE = 100.0


@dataclass
class ImpFit:
    """Strengths in IMPs per board, their standard deviations, the penalty and the residual
    variance of a board's IMPs."""

    theta: np.ndarray
    sd: np.ndarray
    penalty: float
    residual_variance: float
    # each strength's deviation without its centre's: the covariates' coefficients are shared
    # by every player, so their part of two players' errors is one error (None: not kept)
    own_sd: np.ndarray | None = None


@dataclass
class RidgeSystem:
    """Weighted ridge strengths of every column of ``design``, beside the practically
    unpenalised coefficients ``gamma`` of ``row_covariates`` (each row's players' covariates,
    signed as the row's); each strength is ``centres @ gamma + u``. The residual variance is
    the first ``team_rows`` rows' (the team boards', whatever else is fitted beside them)."""

    design: sparse.csr_matrix
    outcome: np.ndarray
    weight: np.ndarray
    row_covariates: np.ndarray | None = None
    centres: np.ndarray | None = None
    team_rows: int = 0

    @cached_property
    def _root(self) -> np.ndarray:
        return np.sqrt(self.weight)

    @cached_property
    def _weighted(self) -> sparse.csr_matrix:
        return sparse.diags(self._root) @ self.design

    @cached_property
    def _covariates_weighted(self) -> np.ndarray | None:
        if self.row_covariates is None:
            return None
        return self.row_covariates * self._root[:, None]

    @cached_property
    def _full(self) -> sparse.csr_matrix:
        if self._covariates_weighted is None:
            return self._weighted.tocsr()
        extra = sparse.csr_matrix(self._covariates_weighted) * FREE
        return sparse.hstack([self._weighted, extra]).tocsr()

    @cached_property
    def _target(self) -> np.ndarray:
        return self.outcome * self._root

    @cached_property
    def _diagonal(self) -> np.ndarray:
        # the diagonal of the precision less the penalty: what the ratings' intervals are
        # read from at any size
        weighted = self._weighted
        return np.asarray(weighted.multiply(weighted).sum(axis=0)).ravel()

    @cached_property
    def _centre_variance(self) -> np.ndarray:
        """Each strength's variance from gamma's, per unit of residual variance: where the
        penalty is large, a strength is mostly its centre, and its interval mostly gamma's."""
        if self._covariates_weighted is None or self.centres is None:
            return np.zeros(self.design.shape[1])
        gram = self._covariates_weighted.T @ self._covariates_weighted
        unit_covariance = np.linalg.pinv(gram)
        return np.einsum("ij,jk,ik->i", self.centres, unit_covariance, self.centres)

    def _solve(self, penalty: float) -> np.ndarray:
        """The minimiser of ``|A x - b|^2 + penalty |x|^2``."""
        return lsqr(self._full, self._target, damp=np.sqrt(penalty), atol=1e-10, btol=1e-10)[0]

    def fit(self, penalty: float) -> ImpFit:
        """The strengths, their standard deviations and the residual variance at
        ``penalty``."""
        solution = self._solve(penalty)
        players = self.design.shape[1]
        u = solution[:players]
        gamma = solution[players:] * FREE
        theta = u + self.centres @ gamma if self.centres is not None else u
        fitted = self.design @ u
        if self.row_covariates is not None:
            fitted = fitted + self.row_covariates @ gamma
        residual = (self.outcome - fitted)[: self.team_rows]
        variance = float(residual @ residual / max(self.team_rows - 1, 1))
        own = variance / (self._diagonal + penalty)
        total = own + variance * self._centre_variance
        return ImpFit(theta, np.sqrt(total), penalty, variance, np.sqrt(own))
