"""Corrections a user makes to name resolution: an overrides file.

A CSV file with a header ``action,name,event,target`` and one correction a row:

* ``same``: the occurrences of ``name`` (in ``event``, or ``*`` for every event) are the
  person ``target`` names - ``wbf:<a name of the WBF lists>``, or another raw name (its
  person wherever it is a full name);
* ``different``: the occurrences of ``name`` in ``event`` are a person of that event alone,
  whatever the context says;
* ``not a person``: the occurrences are no one (a team string the rules missed): never rated.

The file is given in the settings (``[match] overrides``) and fingerprinted with the match
stage's other inputs, so a change reruns the match stage and what reads it, and nothing else.
A row that cannot be read is one error naming the file and the line.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from bridgerank.core.errors import SettingsError

__all__ = ["ANY_EVENT", "Overrides", "read_overrides"]

ANY_EVENT = "*"
_HEADER = ("action", "name", "event", "target")
_ACTIONS = ("same", "different", "not a person")


@dataclass(frozen=True)
class Overrides:
    """The corrections, by (raw name, event or ``*``)."""

    same: dict[tuple[str, str], str] = field(default_factory=dict)  # -> target
    different: set[tuple[str, str]] = field(default_factory=set)
    nobody: set[tuple[str, str]] = field(default_factory=set)

    def same_as(self, raw: str, event: str) -> str | None:
        """The target an occurrence is declared to be, if any."""
        return next((self.same[key] for key in _keys(raw, event) if key in self.same), None)

    def is_different(self, raw: str, event: str) -> bool:
        """Whether an occurrence is declared a person of its event alone."""
        return any(key in self.different for key in _keys(raw, event))

    def is_nobody(self, raw: str, event: str) -> bool:
        """Whether an occurrence is declared no one."""
        return any(key in self.nobody for key in _keys(raw, event))


def _keys(raw: str, event: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """Where a correction of an occurrence may be written: for its event, or for every one."""
    return (raw, event), (raw, ANY_EVENT)


def read_overrides(path: Path | None) -> Overrides:
    """Read an overrides file (see the module docstring); None or ``""`` is no corrections.

    Raises
    ------
    SettingsError
        When the file cannot be read, or a row is not a correction (file and line named).
    """
    overrides = Overrides()
    if path is None or not str(path):
        return overrides
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as problem:
        raise SettingsError(f"{path}: cannot read the name overrides ({problem})") from None
    rows = csv.reader(io.StringIO(text))
    header = tuple(cell.strip().lower() for cell in next(rows, []))
    if header != _HEADER:
        raise SettingsError(f"{path}: the name overrides' header must be {','.join(_HEADER)}")
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = [cell.strip() for cell in row] + [""] * (4 - len(row))
        action, name, event, target = cells[:4]
        where = f"{path}:{number}"
        if action not in _ACTIONS:
            raise SettingsError(f"{where}: action {action!r} must be one of {', '.join(_ACTIONS)}")
        if not name or not event:
            raise SettingsError(f"{where}: a correction names a name and an event (or *)")
        if action == "same":
            if not target:
                raise SettingsError(f"{where}: 'same' needs a target (wbf:NAME or a name)")
            overrides.same[(name, event)] = target
        elif action == "different":
            overrides.different.add((name, event))
        else:
            overrides.nobody.add((name, event))
    return overrides
