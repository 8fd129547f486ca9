"""The weighted Gram matrix of sparse rows that repeat (:mod:`bridgerank.ratings.weighted_gram`)."""

import numpy as np
import pytest
from scipy import sparse

from bridgerank.ratings.weighted_gram import distinct_rows, weighted_gram


def _rows(equal_lengths: bool, seed: int = 5) -> sparse.csr_matrix:
    """Rows of four signed players among 30 (each drawn from 12 patterns, so most repeat),
    one in five a fifth entry if not ``equal_lengths``, then two covariate columns."""
    rng = np.random.default_rng(seed)
    patterns = [rng.choice(30, 4, replace=False) for _ in range(12)]
    seats = np.zeros((200, 30))
    for row in seats:
        row[patterns[rng.integers(12)]] = [1.0, 1.0, -1.0, -1.0]
    if not equal_lengths:
        seats[::5, 29] += 0.5
    return sparse.csr_matrix(np.hstack([seats, rng.normal(size=(200, 2))]))


@pytest.mark.parametrize("equal_lengths", [True, False])
def test_the_gram_of_repeated_rows_is_the_plain_product(equal_lengths):
    rows = _rows(equal_lengths)
    weights = np.random.default_rng(1).uniform(0.5, 2.0, rows.shape[0])
    dense = rows.toarray()
    expected = dense.T @ (weights[:, None] * dense)
    assert np.allclose(weighted_gram(rows, weights, 30).toarray(), expected, atol=1e-12)
    assert np.allclose(weighted_gram(rows[:, :30], weights, 30).toarray(), expected[:30, :30])


@pytest.mark.parametrize("equal_lengths", [True, False])
def test_each_distinct_row_once_with_its_copies_weights(equal_lengths):
    rows = _rows(equal_lengths)[:, :30]
    weights = np.arange(1.0, rows.shape[0] + 1)
    distinct, summed = distinct_rows(rows, weights)
    found = {tuple(row): weight for row, weight in zip(distinct.toarray(), summed)}
    expected: dict[tuple, float] = {}
    for row, weight in zip(rows.toarray(), weights):
        expected[tuple(row)] = expected.get(tuple(row), 0.0) + weight
    assert found == expected
    assert len(found) < rows.shape[0] / 4  # the rows do repeat


def test_rows_without_entries_are_one_distinct_row():
    rows = sparse.csr_matrix((3, 4))
    distinct, summed = distinct_rows(rows, np.array([1.0, 2.0, 4.0]))
    assert distinct.shape == (1, 4) and distinct.nnz == 0 and summed.tolist() == [7.0]
    assert weighted_gram(rows, np.ones(3), 4).nnz == 0
