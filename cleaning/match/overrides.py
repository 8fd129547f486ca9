"""Corrections a user makes to name resolution: an overrides file.

A CSV file with a header ``action,name,event,target`` and one correction a row:

* ``same``: the occurrences of ``name`` (in ``event``, or ``*`` for every event) are the
  person ``target`` names - ``wbf:<a name of the WBF lists>``, or another raw name (its
  person wherever it is a full name);
* ``different``: the occurrences of ``name`` in ``event`` are a person of that event alone,
  whatever the context says;
* ``not a person``: the occurrences are no one (a team string the rules missed): never rated.

An event is read as the boards keep it (:func:`cleaning.clean.fields.event_name`): "1955
Bermuda Bowl Final" and "Bermuda Bowl Final 1955" name one event.

The file is given in the settings (``[match] overrides``) and fingerprinted with the match
stage's other inputs, so a change reruns the match stage and what reads it, and nothing else.
A row that cannot be read is one error naming the file and the line; so are two rows that
say different things of one name and event, and ``same`` rows whose raw-name targets lead
back to where they started (a cycle would swap the players); a target that is no name of
the WBF lists or of the hand records stops the match stage (a typo would make up a player).
The file is read with bounds (a file over 16 MiB, a field over 4,096 characters is an
error), as any text from elsewhere.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from bridgerank.cleaning.clean.fields import event_name
from bridgerank.core.errors import SettingsError

__all__ = ["ANY_EVENT", "Overrides", "read_overrides", "unknown_target"]

ANY_EVENT = "*"
_HEADER = ("action", "name", "event", "target")
_ACTIONS = ("same", "different", "not a person")
# Bounds of the file and of one field: far past any real list of corrections.
MAX_BYTES = 16 * 1024 * 1024
MAX_FIELD = 4096
_FIX = "Fix the overrides file ([match] overrides) and run again"


def _refusal(message: str) -> SettingsError:
    """An error in the file: its hint says to fix it (running again alone cannot help)."""
    error = SettingsError(message)
    error.hint = _FIX
    error.resumable = False
    return error


def unknown_target(target: str) -> SettingsError:
    """The error for a ``same`` target that names no one: a name of neither the WBF lists
    (``wbf:...``) nor the hand records is a typo, and applied it would make up a player."""
    where = "the WBF lists" if target.startswith("wbf:") else "the hand records"
    return _refusal(f"name overrides: the target {target!r} is no name of {where}")


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
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise _refusal(f"{path}: the name overrides are larger than {MAX_BYTES // 2**20} MiB")
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as problem:
        raise _refusal(f"{path}: cannot read the name overrides ({problem})") from None
    rows = csv.reader(io.StringIO(text))
    try:
        header = tuple(cell.strip().lower() for cell in next(rows, []))
        if header != _HEADER:
            raise _refusal(f"{path}: the name overrides' header must be {','.join(_HEADER)}")
        said: dict[tuple[str, str], tuple[str, str, int]] = {}  # key -> action, target, line
        for number, row in enumerate(rows, start=2):
            _read_row(overrides, said, row, f"{path}:{number}", number)
    except csv.Error as problem:
        raise _refusal(f"{path}:{rows.line_num}: not a CSV row ({problem})") from None
    _refuse_cycles(overrides, said, path)
    return overrides


def _read_row(
    overrides: Overrides,
    said: dict[tuple[str, str], tuple[str, str, int]],
    row: list[str],
    where: str,
    number: int,
) -> None:
    """One row into ``overrides``; ``said`` keeps what each name and event was said to be."""
    if not any(cell.strip() for cell in row):
        return
    if any(len(cell) > MAX_FIELD for cell in row):
        raise _refusal(f"{where}: a field longer than {MAX_FIELD:,} characters")
    cells = [cell.strip() for cell in row] + [""] * (4 - len(row))
    action, name, event, target = cells[:4]
    if action not in _ACTIONS:
        raise _refusal(f"{where}: action {action!r} must be one of {', '.join(_ACTIONS)}")
    if not name or not event:
        raise _refusal(f"{where}: a correction names a name and an event (or *)")
    if action == "same" and not target:
        raise _refusal(f"{where}: 'same' needs a target (wbf:NAME or a name)")
    target = target if action == "same" else ""
    # an event as the boards keep it, so a file written before names were stored in one
    # form ("1955 Bermuda Bowl Final") still reaches its boards
    event = event if event == ANY_EVENT else event_name(event)
    earlier = said.setdefault((name, event), (action, target, number))
    if earlier[:2] != (action, target):
        raise _refusal(
            f"{where}: {name!r} in {event!r} is said to be {_said(action, target)} here and "
            f"{_said(*earlier[:2])} on line {earlier[2]}"
        )
    if action == "same":
        overrides.same[(name, event)] = target
    elif action == "different":
        overrides.different.add((name, event))
    else:
        overrides.nobody.add((name, event))


def _said(action: str, target: str) -> str:
    return f"the same as {target!r}" if action == "same" else f"'{action}'"


def _refuse_cycles(
    overrides: Overrides, said: dict[tuple[str, str], tuple[str, str, int]], path: Path
) -> None:
    """Refuse ``same`` rows whose raw-name targets lead back to a name already on the way."""
    leads_to: dict[str, tuple[str, int]] = {}
    for (name, _event), target in overrides.same.items():
        if not target.lower().startswith("wbf:"):
            leads_to.setdefault(name, (target, said[(name, _event)][2]))
    for start in leads_to:
        seen, name = [start], start
        while name in leads_to:
            name = leads_to[name][0]
            if name in seen:
                lines = ", ".join(str(leads_to[step][1]) for step in seen)
                chain = " -> ".join([*seen, name])
                raise _refusal(
                    f"{path}: 'same' rows on lines {lines} go round in a circle ({chain}); "
                    "name one person as the target of all"
                )
            seen.append(name)
