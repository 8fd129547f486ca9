"""Work in worker processes on this machine: loky's reusable pool, results in order."""

from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, TypeVar

__all__ = ["in_order"]

Item = TypeVar("Item")
Result = TypeVar("Result")


def in_order(
    function: Callable[[Item], Result], items: Iterable[Item], jobs: int, window: int
) -> Iterator[Result]:
    """``function`` of each item in ``jobs`` worker processes, the results in the items' order.

    At most ``window`` items are in flight: the next is taken from ``items`` (which may be a
    generator still arranging them) only as a result is handed over, so workers never wait
    and memory stays low. One pool serves every caller of a run (loky's reusable one: the dds
    stage's workers, then the report's), even for one job.

    Examples
    --------
    >>> list(in_order(abs, [-2, 3, -1], jobs=1, window=2))
    [2, 3, 1]
    """
    from joblib.externals.loky import get_reusable_executor

    executor = get_reusable_executor(max_workers=jobs, timeout=60)
    pending = iter(items)
    in_flight: deque[Any] = deque(
        executor.submit(function, item) for item in islice(pending, window)
    )
    while in_flight:
        result = in_flight.popleft().result()
        for item in islice(pending, 1):
            in_flight.append(executor.submit(function, item))
        yield result
