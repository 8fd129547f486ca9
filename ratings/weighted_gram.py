"""``R^T diag(w) R`` of sparse rows that repeat, each distinct row counted once.

The headline's normal equations (:class:`~bridgerank.ratings.headline.design.Design`) are two
such products: of the tables' rows (a table's four players with their signs, the same for
every board two pairs play together) and of each deal's column sums (the same for every deal
of a session that the same pairs played in the same seats). On Valet's rounds a design of
1.8 million tables has 94,000 distinct rows of seats and 52,000 deals 4,200 distinct sums, so
summing the weights of equal rows first and multiplying once per distinct row does a
twentieth of the sparse products' work.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

__all__ = ["distinct_rows", "weighted_gram"]


def weighted_gram(rows: sparse.csr_matrix, weights: np.ndarray, seated: int) -> sparse.spmatrix:
    """``rows^T diag(weights) rows``: its first ``seated`` columns (the players' and the
    partnerships' signs) from each distinct pattern of them once, the few columns after
    them (covariates, whose values rarely repeat) as dense products.

    Parameters
    ----------
    rows : scipy.sparse.csr_matrix
    weights : ndarray
        One per row.
    seated : int
        How many leading columns hold repeating patterns.

    Returns
    -------
    scipy.sparse.spmatrix
        Square, of ``rows``' columns.
    """
    seated_part = rows[:, :seated]
    seats, summed = distinct_rows(seated_part, weights)
    block = seats.T @ sparse.diags(summed) @ seats
    if rows.shape[1] == seated:
        return block
    rest = rows[:, seated:].toarray()
    weighted = weights[:, None] * rest
    across = seated_part.T @ weighted
    return sparse.bmat([[block, across], [across.T, rest.T @ weighted]])


def distinct_rows(
    rows: sparse.csr_matrix, weights: np.ndarray
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """The distinct rows of ``rows`` (equal to the last bit), each with the sum of its
    copies' ``weights``.

    Returns
    -------
    tuple of (scipy.sparse.csr_matrix, ndarray)
        The distinct rows, in no particular order, and their summed weights.
    """
    rows = rows.tocsr()
    rows.sort_indices()
    sizes = np.diff(rows.indptr)
    if len(sizes) and sizes[0] > 0 and (sizes == sizes[0]).all():
        # rows of one length (a table's seats): their entries as one key each, sorted at once
        values = np.ascontiguousarray(rows.data, dtype=float).view(np.int64)  # the bits
        keys = np.hstack(
            [rows.indices.reshape(len(sizes), -1), values.reshape(len(sizes), -1)]
        ).astype(np.int64)
        whole = np.ascontiguousarray(keys).view(np.dtype((np.void, keys.shape[1] * 8))).ravel()
        _, distinct, first = np.unique(whole, return_index=True, return_inverse=True)
        return rows[distinct], np.bincount(first.ravel(), weights=weights, minlength=len(distinct))
    # rows of many lengths (a deal's sums over its tables): a key a row, deal by deal
    index: dict[bytes, int] = {}
    copy_of = np.empty(rows.shape[0], dtype=np.intp)
    for row in range(rows.shape[0]):
        start, end = rows.indptr[row], rows.indptr[row + 1]
        key = rows.indices[start:end].tobytes() + rows.data[start:end].tobytes()
        copy_of[row] = index.setdefault(key, len(index))
    chosen = np.zeros(len(index), dtype=np.intp)
    chosen[copy_of[::-1]] = np.arange(rows.shape[0])[::-1]  # each distinct row's first copy
    return rows[chosen], np.bincount(copy_of, weights=weights, minlength=len(index))
