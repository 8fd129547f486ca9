"""Where the DD store is: the settings' word for none, the default file, the location shown."""

from __future__ import annotations

from pathlib import Path

__all__ = ["OFF", "default_location", "shown_location", "store_url"]

# The settings' and the environment's word for "no store": solve everything live.
OFF = "off"


def default_location() -> Path:
    """The store's file when the settings name none: ``dd-store.sqlite`` in the user's cache
    folder (``~/.cache/bridgerank`` on Linux; platformdirs knows the others)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("bridgerank")) / "dd-store.sqlite"


def shown_location(location: str) -> str:
    """A store's location as printed: a URL's password hidden, a file in the user's home
    folder as ``~/...`` (what a user types, and no machine's absolute path on a page)."""
    if "://" not in location:
        path = Path(location).expanduser()
        try:
            return str(Path("~") / path.relative_to(Path.home()))
        except ValueError:
            return location
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(location).render_as_string(hide_password=True)
    except ArgumentError:
        return location.split("://", 1)[0] + "://..."


def store_url(location: str) -> str:
    """The SQLAlchemy URL of a store's location: a plain path is a SQLite file."""
    return location if "://" in location else f"sqlite:///{Path(location).expanduser()}"
