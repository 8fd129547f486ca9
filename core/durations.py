"""A duration as a person reads it in a progress line."""

from __future__ import annotations

__all__ = ["duration"]


def duration(seconds: float) -> str:
    """``45 s`` under a minute and a half, ``12 min`` under an hour and a half, else
    ``2.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
