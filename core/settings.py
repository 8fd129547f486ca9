"""Settings: the defaults in ``defaults.toml``, a user's TOML file, the environment, then flags.

:func:`load_settings` returns a frozen :class:`~bridgerank.core.sections.Settings`, one
dataclass per section (``settings.clean.first_year``). Each layer is merged strictly over the
one below: an unknown section or key is an error that suggests the closest known name, so a
typo never silently does nothing, and a value of the wrong type is an error (an integer is
accepted where a float is expected). The merged result is then checked against the values
each setting allows (:func:`~bridgerank.core.sections.allowed`): a value out of its range is
one error naming the layer it came from, the key, the value and what is allowed.

The layers, lowest first: ``defaults.toml``; the user's file (``--config``); the environment
variables ``BRIDGERANK_DB``, ``BRIDGERANK_OUT`` and ``BRIDGERANK_DD_STORE`` (``store.db``,
``store.out``, ``dds.store``); the command-line flags.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import sys
import typing
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from bridgerank.core.errors import SettingsError
from bridgerank.core.sections import (
    CleanSettings,
    CycleSettings,
    DdsSettings,
    IngestSettings,
    MatchSettings,
    RateSettings,
    RegressSettings,
    RegressThresholds,
    RunSettings,
    Settings,
    StoreSettings,
    rule_of,
    shown,
)

EMBEDDED = "embedded:"

# Environment variable -> (section, key). Above the user's file, below the flags: a shell
# or a CI job can point every command at one database without a settings file.
ENVIRONMENT = {
    "BRIDGERANK_DB": ("store", "db"),
    "BRIDGERANK_OUT": ("store", "out"),
    "BRIDGERANK_DD_STORE": ("dds", "store"),
}

__all__ = [
    "EMBEDDED",
    "ENVIRONMENT",
    "CleanSettings",
    "CycleSettings",
    "DdsSettings",
    "IngestSettings",
    "MatchSettings",
    "RateSettings",
    "RegressSettings",
    "RegressThresholds",
    "RunSettings",
    "Settings",
    "StoreSettings",
    "default_settings",
    "defaults_path",
    "load_settings",
    "resolve_path",
]


def defaults_path() -> Path:
    """The shipped ``defaults.toml`` (package data of ``bridgerank.config``)."""
    return Path(str(resources.files("bridgerank.config").joinpath("defaults.toml")))


def resolve_path(value: str) -> Path:
    """A path from the settings: ``embedded:NAME`` is data shipped with bridgerank (the
    sample, the WBF lists); any other relative path is relative to the current folder."""
    if value.startswith(EMBEDDED):
        return Path(str(resources.files("bridgerank.data").joinpath(value[len(EMBEDDED) :])))
    return Path(value)


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            table: dict[str, Any] = tomllib.load(handle)
            return table
    except OSError as problem:
        raise SettingsError(f"{path}: cannot read settings file ({problem.strerror})") from None
    except tomllib.TOMLDecodeError as problem:
        raise SettingsError(f"{path}: not valid TOML ({problem})") from None


@functools.lru_cache(maxsize=None)
def _field_types(cls: type) -> dict[str, Any]:
    """Field name -> type of a settings dataclass (annotations are strings here)."""
    hints = typing.get_type_hints(cls)
    return {field.name: hints[field.name] for field in dataclasses.fields(cls)}


# Settings a release took away: (table..., key) -> where what it set went. A file still
# setting one gets this, not a "did you mean" for a name it never misspelt.
_RETIRED: dict[tuple[str, ...], str] = {
    ("rate", "cycles", key): "the synthetic games run in benchmarks/bench_gamematrix_synthetic.py"
    ", not in the rate stage; delete the line"
    for key in ("synthetic_players", "synthetic_discs", "synthetic_seeds")
}


def _unknown(key: str, known: typing.Iterable[str], where: str) -> SettingsError:
    close = difflib.get_close_matches(key, list(known), n=1)
    suggestion = f"; did you mean {close[0]!r}?" if close else ""
    return SettingsError(f"{where}: unknown setting {key!r}{suggestion}")


def _checked(value: Any, kind: Any, where: str, key: str) -> Any:
    """``value`` as the field type ``kind`` wants it, or a SettingsError."""
    if typing.get_origin(kind) is tuple:
        item = typing.get_args(kind)[0]
        if not isinstance(value, (list, tuple)):
            raise SettingsError(f"{where}: {key!r} must be list, not {type(value).__name__}")
        return tuple(
            _checked(element, item, where, f"{key}[{index}]") for index, element in enumerate(value)
        )
    if kind is float and type(value) is int:
        return float(value)
    if type(value) is not kind:
        raise SettingsError(f"{where}: {key!r} must be {kind.__name__}, not {type(value).__name__}")
    return value


# (section, ..., key) -> the layer that set the value last: the file, the environment
# variable, "options"; a value that breaks its rule is reported with the layer to correct.
Origins = dict[tuple[str, ...], str]


def _place(where: str, path: tuple[str, ...]) -> str:
    """``settings.toml.rate.cycles``: a layer and a table in it, for error messages."""
    return ".".join((where, *path))


def _merge(
    base: dict[str, Any],
    over: Mapping[str, Any],
    cls: type,
    where: str,
    origins: Origins,
    path: tuple[str, ...] = (),
) -> None:
    """Merge ``over`` into ``base`` (in place), checking names and types against ``cls``;
    ``origins`` records ``where`` for each value set."""
    types = _field_types(cls)
    for key, value in over.items():
        if path + (key,) in _RETIRED:
            raise SettingsError(
                f"{_place(where, path)}: {key!r} is no longer a setting: {_RETIRED[path + (key,)]}"
            )
        if key not in types:
            raise _unknown(key, types, _place(where, path))
        kind = types[key]
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            if not isinstance(value, Mapping):
                raise SettingsError(f"{_place(where, path)}: {key!r} must be a table")
            _merge(base.setdefault(key, {}), value, kind, where, origins, path + (key,))
        else:
            base[key] = _checked(value, kind, _place(where, path), key)
            origins[path + (key,)] = where


def _refused(origin: str, path: tuple[str, ...], value: object, allowed: str) -> SettingsError:
    """``settings.toml: [dds] backend = 'evil': must be one of 'loky', 'dask'``: the layer
    to correct, the table and key (``path``, its last part may carry an item's ``[2]``), the
    value as written and what is allowed."""
    table, key = ".".join(path[:-1]), path[-1]
    return SettingsError(f"{origin}: [{table}] {key} = {shown(value)}: {allowed}")


def _check_rule(
    field: dataclasses.Field[Any], value: Any, path: tuple[str, ...], origins: Origins, where: str
) -> None:
    """Raise a SettingsError when ``value`` breaks the rule ``field`` declared."""
    rule = rule_of(field)
    if rule is None:
        # a programming error, not a user's: every plain field declares what it allows
        raise TypeError(f"setting {'.'.join(path)} declares no rule: use sections.allowed()")
    problem = rule.problem(value)
    if problem is not None:
        item, offending, allowed = problem
        origin = origins.get(path, where)
        raise _refused(origin, path[:-1] + (path[-1] + item,), offending, allowed)


def _build(
    cls: type, table: Mapping[str, Any], where: str, origins: Origins, path: tuple[str, ...] = ()
) -> Any:
    """The dataclass ``cls`` from a merged table; every field must have a value its rule
    allows (a SettingsError names the layer that set it)."""
    values: dict[str, Any] = {}
    types = _field_types(cls)
    for field in dataclasses.fields(cls):
        name, kind = field.name, types[field.name]
        if name not in table:
            # only defaults.toml can lack a key: every later layer merges over it
            raise SettingsError(f"{_place(where, path)}: missing setting {name!r}")
        value = table[name]
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            values[name] = _build(kind, value, where, origins, path + (name,))
            continue
        _check_rule(field, value, path + (name,), origins, where)
        values[name] = value
    built = cls(**values)
    _check_conflict(built, where, origins, path)
    return built


def _check_conflict(section: Any, where: str, origins: Origins, path: tuple[str, ...]) -> None:
    """Raise a SettingsError for values of a section that each pass their rule but not
    together: the section's ``conflict()`` names the key to blame, if it has one."""
    conflict = getattr(section, "conflict", None)
    found = conflict() if callable(conflict) else None
    if found is not None:
        key, allowed = found
        origin = origins.get(path + (key,), where)
        raise _refused(origin, path + (key,), getattr(section, key), allowed)


def _environment(environ: Mapping[str, str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Variable -> the setting it sets, for the variables set (an empty one sets nothing):
    one layer each, so that an error names the variable."""
    return {
        variable: {section: {key: environ[variable]}}
        for variable, (section, key) in ENVIRONMENT.items()
        if environ.get(variable)
    }


def load_settings(
    path: str | Path | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Load the settings.

    Parameters
    ----------
    path : str or Path, optional
        A user's TOML file; its values replace the defaults.
    overrides : mapping, optional
        ``{section: {key: value}}`` from command-line flags; replace everything else.
    environ : mapping, optional
        The environment read for ``BRIDGERANK_DB`` and ``BRIDGERANK_OUT`` (default
        ``os.environ``); their values replace the defaults and the file's.

    Returns
    -------
    Settings
        The full settings, every key present, frozen.

    Raises
    ------
    SettingsError
        For an unreadable file, invalid TOML, an unknown key (with the closest known name),
        a value of the wrong type, or a value its setting does not allow (checked on the
        merged result: a flag's value too).
    """
    merged: dict[str, Any] = {}
    origins: Origins = {}
    defaults = defaults_path()
    _merge(merged, _read(defaults), Settings, str(defaults), origins)
    if path is not None:
        _merge(merged, _read(Path(path)), Settings, str(path), origins)
    for variable, layer in _environment(os.environ if environ is None else environ).items():
        _merge(merged, layer, Settings, variable, origins)
    if overrides:
        _merge(merged, overrides, Settings, "options", origins)
    settings: Settings = _build(Settings, merged, str(defaults), origins)
    return settings


@functools.lru_cache(maxsize=1)
def default_settings() -> Settings:
    """The shipped defaults alone (no file, no environment): for tests and library calls.

    Cached: a :class:`Settings` is frozen, so every caller may share one.
    """
    return load_settings(environ={})
