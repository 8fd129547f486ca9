"""Errors of bridgerank.

The tree::

    BridgerankError            anything bridgerank raises on purpose
    ├── BadRecord              one record cannot be used; carries a reason code and detail
    ├── SourceError            a whole input file cannot be read; names the file
    ├── SettingsError          a settings file or option is wrong
    └── StageNotReady          a stage was asked to run before the stages it reads from

The CLI turns every ``BridgerankError`` into one line on standard error and an exit code;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

__all__ = ["BridgerankError", "BadRecord", "SourceError", "SettingsError", "StageNotReady"]


class BridgerankError(Exception):
    """Base class of the errors bridgerank raises on purpose."""

    hint: str = ""


class BadRecord(BridgerankError):
    """A record, or one part of it, cannot be used.

    Parameters
    ----------
    reason : str
        A reason code of :mod:`cleaning.reasons`.
    detail : str
        What exactly was wrong, for the audit trail.
    """

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class SourceError(BridgerankError):
    """An input file cannot be read at all."""

    def __init__(self, path: object, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class SettingsError(BridgerankError):
    """A settings file or an option value is wrong."""


class StageNotReady(BridgerankError):
    """A stage needs the output of an earlier stage that has not run."""

    def __init__(self, stage: str, missing: str) -> None:
        super().__init__(f"stage {stage!r} needs {missing!r}, which has not run yet")
        self.hint = f"Try: bridgerank run --to {stage}"
