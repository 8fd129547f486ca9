"""The DD store as the ``bridgerank dd`` commands open it, and what ``dd info`` shows.

A run goes on without a store that fails; a command that needs it stops instead, with the
store's warning (its tail for a run dropped) as the error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bridgerank.core.errors import SettingsError, StoreError
from bridgerank.dds.dd_store import (
    OFF,
    DDStore,
    StoreCounts,
    default_location,
    open_dd_store,
    shown_location,
)
from bridgerank.dds.solver import solver_version

__all__ = ["StoreInfo", "open_store", "stop_message", "store_info"]

# The tail of the store's warnings, written for a run that goes on solving; a command that
# needs the store stops instead, so the tail would mislead.
_RUN_TAIL = "; solving without it"


def stop_message(store: DDStore) -> str:
    """The store's warning as a command's error: without the tail written for a run."""
    return (store.warning or "").removesuffix(_RUN_TAIL)


def _missing_file(setting: str) -> Path | None:
    """The SQLite file the setting names when it does not exist yet (None for a URL)."""
    chosen = setting.strip()
    if "://" in chosen:
        return None
    path = Path(chosen).expanduser() if chosen else default_location()
    return None if path.exists() else path


def open_store(setting: str, *, write: bool) -> DDStore:
    """The DD store the settings name, for this solver version, ready to read or write.

    Parameters
    ----------
    setting : str
        ``[dds] store`` (or ``BRIDGERANK_DD_STORE``): empty for the default file, a SQLite
        file's path or a SQLAlchemy URL.
    write : bool
        Whether rows will be written: a read-only store is then an error too.

    Returns
    -------
    DDStore

    Raises
    ------
    SettingsError
        The store is ``off`` (exit code 2).
    StoreError
        It cannot be opened (or written, with ``write``).
    """
    store = open_dd_store(setting, solver_version())
    if store is None:
        error = SettingsError("the DD store is off: there is nothing to read or write")
        error.hint = "Set [dds] store in a --config file, or BRIDGERANK_DD_STORE, to a store"
        raise error
    if not store.usable or (write and store.warning):
        message = stop_message(store)
        store.close()
        raise StoreError(message, "Check [dds] store (or BRIDGERANK_DD_STORE)")
    return store


@dataclass
class StoreInfo:
    """Where the DD store is and what it holds for this solver version."""

    location: str
    solver: str
    counts: StoreCounts
    exists: bool = True

    def line(self) -> str:
        """One line for ``bridgerank dd info``."""
        where = shown_location(self.location)
        if not self.exists:
            return f"DD store {where}: not created yet (no deal solved); solver {self.solver}"
        counts = self.counts
        return (
            f"DD store {where}: {counts.tables:,} tables, {counts.pars:,} par scores and "
            f"{counts.traces:,} play traces of {self.solver}"
        )


def store_info(setting: str) -> StoreInfo:
    """What ``bridgerank dd info`` shows: the store's location and its counts.

    A SQLite file that does not exist yet is reported, not created: looking is no reason to
    make one.

    Parameters
    ----------
    setting : str
        ``[dds] store`` (see :func:`open_store`).

    Raises
    ------
    SettingsError
        The store is off.
    StoreError
        It cannot be read.
    """
    if setting.strip().lower() != OFF:
        missing = _missing_file(setting)
        if missing is not None:
            return StoreInfo(str(missing), solver_version(), StoreCounts(), exists=False)
    store = open_store(setting, write=False)
    try:
        counts = store.counts()
        if not store.usable:
            raise StoreError(stop_message(store), "Check [dds] store (or BRIDGERANK_DD_STORE)")
        return StoreInfo(store.location, store.solver, counts)
    finally:
        store.close()
