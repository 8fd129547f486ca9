"""The run's settings as a published page echoes them: every file and URL a setting names
without the place it sits on the machine that built the report, and without a password.

A report is shared: the methods page prints the settings a run was given, and a setting may
name a file by its absolute path (a DD store, a WBF list, an overrides file), in the home
folder, on a Windows drive, or through a URL that carries a password or a path in its query.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import urlsplit

__all__ = ["shown_setting"]

# Schemes whose URL's path is a file on the machine (SQLAlchemy's SQLite dialects, file URLs).
_FILE_SCHEMES = re.compile(r"^(sqlite(\+\w+)?|file)$")


def shown_setting(value: Any) -> Any:
    """A setting's value as a published page prints it.

    Parameters
    ----------
    value : Any
        A setting, or a section of them (a dict, or a tuple or list of settings).

    Returns
    -------
    Any
        The same shape. A text that names a place on the machine (an absolute path, one from
        the home folder ``~``, on a Windows drive or share, or climbing out with ``..``) by
        the file's name alone; a SQLite or file URL by its file's name; any other URL with
        its password shown as ``***`` and its query as ``...``; any other text (a name,
        ``off``, ``embedded:...``, a path below the run's folder) and non-text as it is.
    """
    if isinstance(value, dict):
        return {key: shown_setting(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(shown_setting(item) for item in value)
    if not isinstance(value, str):
        return value
    if "://" in value:
        return _shown_url(value)
    return _file_name(value) if _names_a_place(value) else value


def _names_a_place(text: str) -> bool:
    """Whether a text, read as a path, says where it sits on the machine."""
    posix, windows = PurePosixPath(text), PureWindowsPath(text)
    return (
        text.startswith("~")
        or posix.is_absolute()
        or bool(windows.drive)
        or ".." in posix.parts
        or ".." in windows.parts
    )


def _file_name(path: str) -> str:
    """The last part of a path, with either separator."""
    return re.split(r"[\\/]", path.rstrip("\\/"))[-1]


def _shown_url(url: str) -> str:
    """A URL without its password, its query or, for a file's URL, the file's folder. Split
    as text, not validated: an odd port must not stop a report."""
    parts = urlsplit(url)
    if _FILE_SCHEMES.match(parts.scheme):
        return _file_name(parts.path)
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        name, password = user.split(":", 1) if ":" in user else (user, None)
        netloc = f"{name}:***@{host}" if password is not None else f"{name}@{host}"
    query = "?..." if parts.query else ""
    return f"{parts.scheme}://{netloc}{parts.path}{query}"
