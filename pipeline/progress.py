"""Progress of long stages: a bar on a terminal, and a plain line every few seconds when the
output is a log or a pipe (a batch job's log should say how far a 40-minute stage is, not
stay silent until it ends)."""

from __future__ import annotations

import sys
import time
from typing import Callable, Iterable, Iterator, TextIO, TypeVar

from bridgerank.core.durations import duration

T = TypeVar("T")
# Seconds between two progress lines in a log.
LOG_INTERVAL = 10.0
# The share of the work done before the time left is estimated: the first items of a stage
# carry its start-up (workers starting, tables loading), so an early rate predicts hours.
ESTIMATE_AFTER = 0.05


def logged(
    items: Iterable[T],
    label: str,
    total: int | None,
    stream: TextIO,
    interval: float = LOG_INTERVAL,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[T]:
    """Yield ``items``, writing ``stage: done of total unit (share), rate, time left`` to
    ``stream`` at most every ``interval`` seconds (never for work that ends sooner); the time
    left only once ``ESTIMATE_AFTER`` of the work is done."""
    stage, _, unit = label.partition(" ")
    unit = unit or "items"
    began = last = clock()
    done = 0
    for item in items:
        yield item
        done += 1
        now = clock()
        if now - last < interval:
            continue
        last = now
        rate = done / max(now - began, 1e-9)
        # slow work (a minute per item) reads per minute, not "0.0/s"
        speed = f"{rate:,.1f} {unit}/s" if rate >= 0.1 else f"{60 * rate:,.1f} {unit}/min"
        line = f"{stage}: {done:,}"
        if total:
            line += f" of {total:,} {unit} ({100 * done / total:.0f}%), {speed}"
            if done >= ESTIMATE_AFTER * total:
                line += f", about {duration((total - done) / rate)} left"
            else:
                line += ", time left not known yet"
        else:
            line += f" {unit}, {speed}"
        print(line, file=stream, flush=True)


def progress(items: Iterable[T], label: str = "", total: int | None = None) -> Iterator[T]:
    """A tqdm bar on a terminal, else :func:`logged` lines on standard error."""
    if not sys.stderr.isatty():
        return logged(items, label, total, sys.stderr)
    from tqdm import tqdm

    # A label "stage unit" names the unit, so rates read "boards/s".
    stage, _, unit = label.partition(" ")
    return iter(
        tqdm(
            items,
            desc=stage,
            total=total,
            unit=unit or "it",
            leave=False,
            file=sys.stderr,
            dynamic_ncols=True,
        )
    )
