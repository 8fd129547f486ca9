"""Errors and warnings of bridgerank.

The tree (exit code of the ``bridgerank`` command in brackets)::

    BridgerankError [1]        anything bridgerank raises on purpose
    ├── BadRecord              one record cannot be used; carries a reason code and detail
    ├── SourceError [1]        a whole input file cannot be read; names the file
    ├── SettingsError [2]      a settings file, option or argument is wrong
    ├── StageNotReady [1]      a stage was asked to run before the stages it reads from
    ├── StoreError [3]         the database cannot be opened, read or written (bad URL,
    │                          missing driver, not a database, disk full, read-only)
    ├── DatabaseInUse [4]      another run is writing to the database; names that run
    ├── InvalidGame            a game given to a rating method is malformed
    └── NoEstimate             a rating has no finite estimate (a player never wins or loses)

    BridgerankWarning          a statistical soft failure: the result is usable, with care
    ├── ConvergenceWarning     an iteration stopped at its cap before meeting the tolerance
    └── CollinearityWarning    a predictor is (nearly) a linear combination of the others

The CLI turns every ``BridgerankError`` into one ``error:`` line on standard error, a hint
where there is one, and its ``exit_code``; anything else is a bug and keeps its traceback.
DDS rejecting a deal or a play is not an error of the run: the dds stage records the solver's
message as that board's reason (:func:`bridgerank.dds.solver.solve_tables`) and goes on.
"""

from __future__ import annotations

__all__ = [
    "BadRecord",
    "BridgerankError",
    "BridgerankWarning",
    "CollinearityWarning",
    "ConvergenceWarning",
    "DatabaseInUse",
    "InvalidGame",
    "NoEstimate",
    "SettingsError",
    "SourceError",
    "StageNotReady",
    "StoreError",
]


class BridgerankError(Exception):
    """Base class of the errors bridgerank raises on purpose."""

    hint: str = ""
    exit_code: int = 1
    # False when rerunning the same command cannot help (a path that names nothing to read):
    # the CLI then gives no "Resume with" hint
    resumable: bool = True


class BadRecord(BridgerankError):
    """A record, or one part of it, cannot be used.

    Parameters
    ----------
    reason : str
        A reason code of :mod:`bridgerank.cleaning.clean.reasons`.
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
    """A settings file, an option value or an argument is wrong."""

    exit_code = 2


class StageNotReady(BridgerankError):
    """A stage needs the output of an earlier stage that has not run."""

    def __init__(self, stage: str, missing: str, hint: str = "") -> None:
        super().__init__(f"stage {stage!r} needs {missing!r}, which has not run yet")
        # a stage of the pipeline runs with what it needs; anything else needs that run first
        self.hint = hint or f"Try: bridgerank run --to {stage}"


class StoreError(BridgerankError):
    """The database cannot be opened, read or written."""

    exit_code = 3

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


class DatabaseInUse(BridgerankError):
    """Another bridgerank run holds the database's writer lock."""

    exit_code = 4

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


class InvalidGame(BridgerankError):
    """A game given to a rating method is malformed (too few teams, a team with no player)."""


class NoEstimate(BridgerankError):
    """The maximum likelihood estimate does not exist (a player or group never wins or loses)."""


class BridgerankWarning(UserWarning):
    """Base class of bridgerank's warnings: a result that is usable, with care."""


class ConvergenceWarning(BridgerankWarning):
    """An iteration stopped at its cap before meeting the tolerance."""


class CollinearityWarning(BridgerankWarning):
    """A predictor is (nearly) a linear combination of the others."""
