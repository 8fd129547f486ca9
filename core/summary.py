"""A stage's summary: what one run produced, as a typed object that prints itself.

Every stage returns a subclass of :class:`StageSummary` (a dataclass of plain values: numbers,
strings, lists and dicts of them, or nested summary-like dataclasses). The runner hands it to
the CLI, which prints :meth:`~StageSummary.lines` and :meth:`~StageSummary.warnings`; the
ledger keeps it as JSON (:meth:`~StageSummary.to_json`) for history, and ``bridgerank
status`` rebuilds it from there (:meth:`~StageSummary.from_json`) for its one-line
:meth:`~StageSummary.brief`. The JSON is history only: what another command needs later
(a fitted model's parameters, a reading shown in the report) is a table, never read back
from the summary.

A summary written by an older version may lack fields or carry ones since renamed: every field
has a default, and :meth:`~StageSummary.from_json` ignores what it does not know, so the
status of an old database still reads.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["WIDTH", "StageSummary", "plural", "from_plain"]

# The closing summary fits a terminal of 80 columns: the CLI wraps longer lines here.
WIDTH = 80

S = TypeVar("S", bound="StageSummary")
D = TypeVar("D")


def plural(count: int, word: str, plural_form: str | None = None) -> str:
    """``1 file``, ``2 files``, with thousands separators."""
    return f"{count:,} {word if count == 1 else plural_form or word + 's'}"


@dataclass
class StageSummary:
    """Base of every stage's summary: the run's wall time, and how it prints.

    Subclasses add fields (each with a default) and override :meth:`lines` and :meth:`brief`.
    """

    seconds: float = 0.0

    def lines(self) -> list[str]:
        """The run's closing lines for this stage, to standard output (the CLI wraps long
        lines, continuing them under their own indent)."""
        return []

    def warnings(self) -> list[str]:
        """Lines for standard error: files that could not be read and the like."""
        return []

    def brief(self) -> str:
        """One line on what the run produced, for ``bridgerank status``."""
        return ""

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON values (for the ledger's history)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls: type[S], data: dict[str, Any]) -> S:
        """The summary from :meth:`to_json`'s output, or from an older version's: unknown keys
        are ignored and missing fields take their defaults."""
        return from_plain(cls, data)


def from_plain(kind: type[D], data: dict[str, Any]) -> D:
    """A dataclass of type ``kind`` from plain values, nested dataclasses included (a field
    typed ``Inner``, ``Inner | None``, ``list[Inner]`` or ``dict[str, Inner]``)."""
    hints = typing.get_type_hints(kind)
    values = {}
    for item in dataclasses.fields(kind):  # type: ignore[arg-type]
        if item.name in data:
            values[item.name] = _convert(hints.get(item.name), data[item.name])
    return kind(**values)


def _convert(hint: Any, value: Any) -> Any:
    """``value`` as ``hint`` says, where the hint names a dataclass (else as it is)."""
    if value is None or hint is None:
        return value
    if dataclasses.is_dataclass(hint) and isinstance(hint, type) and isinstance(value, dict):
        return from_plain(hint, value)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and args and isinstance(value, list):
        return [_convert(args[0], item) for item in value]
    if origin is dict and len(args) == 2 and isinstance(value, dict):
        return {key: _convert(args[1], item) for key, item in value.items()}
    if args and origin not in (list, dict, tuple):  # X | None, Optional[X]
        for arg in args:
            if isinstance(arg, type) and dataclasses.is_dataclass(arg) and isinstance(value, dict):
                return from_plain(arg, value)
    return value
