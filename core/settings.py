"""Settings: the defaults in ``defaults.toml``, a user's TOML file over them, then flags.

A settings value is a plain nested dict, ``settings["clean"]["first_year"]``. Unknown
sections or keys in a user's file are an error, so a typo never silently does nothing.
"""

from __future__ import annotations

import copy
import sys
from importlib import resources
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from bridgerank.core.errors import SettingsError

EMBEDDED = "embedded:"

__all__ = ["EMBEDDED", "defaults_path", "load_settings", "resolve_path"]


def defaults_path() -> Path:
    """The shipped ``defaults.toml`` (package data of ``bridgerank.config``)."""
    return Path(str(resources.files("bridgerank.config").joinpath("defaults.toml")))


def resolve_path(value: str) -> Path:
    """A path from the settings: ``embedded:NAME`` is data shipped with bridgerank (the
    sample, the WBF lists); any other relative path is relative to the current folder."""
    if value.startswith(EMBEDDED):
        return Path(str(resources.files("bridgerank.data").joinpath(value[len(EMBEDDED):])))
    return Path(value)


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as problem:
        raise SettingsError(f"{path}: cannot read settings file ({problem.strerror})") from None
    except tomllib.TOMLDecodeError as problem:
        raise SettingsError(f"{path}: not valid TOML ({problem})") from None


def _merge(base: dict[str, Any], over: dict[str, Any], where: str) -> None:
    for key, value in over.items():
        if key not in base:
            raise SettingsError(f"{where}: unknown setting {key!r}")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise SettingsError(f"{where}: {key!r} must be a table")
            _merge(base[key], value, f"{where}.{key}")
        else:
            if type(value) is not type(base[key]) and not (
                isinstance(base[key], float) and isinstance(value, int)
            ):
                raise SettingsError(
                    f"{where}: {key!r} must be {type(base[key]).__name__}, "
                    f"not {type(value).__name__}"
                )
            base[key] = value


def load_settings(path: str | Path | None = None,
                  overrides: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Load the settings.

    Parameters
    ----------
    path : str or Path, optional
        A user's TOML file; its values replace the defaults.
    overrides : dict, optional
        ``{section: {key: value}}`` from command-line flags; replace both.

    Returns
    -------
    dict
        The full settings, every key present.

    Raises
    ------
    SettingsError
        For an unreadable file, invalid TOML, an unknown key or a value of the wrong type.
    """
    settings = copy.deepcopy(_read(defaults_path()))
    if path is not None:
        _merge(settings, _read(Path(path)), str(path))
    if overrides:
        _merge(settings, overrides, "options")
    return settings
