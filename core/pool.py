"""Work in worker processes on this machine: loky's reusable pool, results in order."""

from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, TypeVar

__all__ = ["in_order"]

Item = TypeVar("Item")
Result = TypeVar("Result")

# the number of workers of the pool this module last asked loky for
_size: int | None = None


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

    # A pool of another size is made afresh, never grown or shrunk: in one process that asked
    # for one worker and, minutes later, for two (the test suite; a run asks for its --jobs
    # only), loky's resize left a pool whose manager thread was gone - no result came back.
    global _size
    executor = get_reusable_executor(max_workers=jobs, timeout=60, reuse=_size in (None, jobs))
    _size = jobs
    pending = iter(items)
    in_flight: deque[Any] = deque(
        executor.submit(function, item) for item in islice(pending, window)
    )
    while in_flight:
        result = in_flight.popleft().result()
        for item in islice(pending, 1):
            in_flight.append(executor.submit(function, item))
        yield result
