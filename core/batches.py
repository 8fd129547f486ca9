"""Work taken in batches as it comes: a stream cut into lists without reading it whole."""

from __future__ import annotations

from itertools import islice
from typing import Iterable, Iterator, TypeVar

__all__ = ["batches"]

Item = TypeVar("Item")


def batches(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """Consecutive lists of ``size`` items of ``items`` (the last one shorter), each taken
    from the iterable only when asked for.

    Examples
    --------
    >>> list(batches(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch
