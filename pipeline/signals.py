"""SIGTERM, a batch system's stop, ending a run as Ctrl-C does."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Iterator

__all__ = ["Terminated", "terminate_as_interrupt"]


class Terminated(KeyboardInterrupt):
    """SIGTERM (a batch system's stop, ``kill``), stopping a run as Ctrl-C does."""


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While a run goes on, SIGTERM ends it as Ctrl-C does: what each stage committed is
    kept and said, with the command that resumes it (the default would end the process at
    once, without a word). Outside the main thread a handler cannot be set: left as is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise Terminated()

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
