"""Export: the DD store's tables and play traces of one solver version to a CSV file."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from bridgerank.core.errors import BridgerankError, StoreError
from bridgerank.dds.dd_store import DDStore, shown_location
from bridgerank.dds.exchange_file import HEADER, open_text
from bridgerank.dds.store_opening import stop_message

__all__ = ["ExportCounts", "export_store"]


@dataclass
class ExportCounts:
    """What an export wrote."""

    path: Path
    solver: str
    tables: int = 0
    traces: int = 0

    def line(self) -> str:
        """One line for ``bridgerank dd export``."""
        return (
            f"exported {self.tables:,} tables and {self.traces:,} play traces "
            f"({self.solver}) to {self.path}"
        )


def export_store(
    store: DDStore, path: Path | str, solver: str | None = None, traces: bool = True
) -> ExportCounts:
    """Write the store's tables (and play traces) of one solver version to a CSV file.

    Rows are streamed from the store to the file, so an export of any size needs little
    memory; they go to a temporary file beside ``path``, renamed over it at the end, so a
    failed export leaves no half file behind. A symbolic link is written through (its target
    replaced, the link kept); a pipe or a device (``/dev/stdout``) is written directly.

    Parameters
    ----------
    store : DDStore
        The store to read.
    path : Path or str
        The file to write; gzip-compressed when its name ends in ``.gz``.
    solver : str, optional
        The solver version whose rows to write (default: the store's own).
    traces : bool
        Whether to write the play traces too (tables always).

    Returns
    -------
    ExportCounts

    Raises
    ------
    StoreError
        The store cannot be read.
    BridgerankError
        The file cannot be written.
    """
    path = Path(path)
    chosen = solver or store.solver
    counts = ExportCounts(path, chosen)
    if not store.usable:
        raise StoreError(stop_message(store))
    # A link is written through to its target (the link stays); a pipe or a device
    # (/dev/stdout) is written directly, as nothing can be renamed over it.
    target = path.resolve() if path.is_symlink() else path
    direct = target.exists() and not target.is_file()
    written = target if direct else target.with_name(f".partial-{target.name}")
    try:
        with open_text(written, "w") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(HEADER)
            for deal, tricks in store.all_tables(chosen):
                writer.writerow(("table", chosen, deal, "", "", "", tricks))
                counts.tables += 1
            if traces:
                for deal, trump, leader, cards, trace in store.all_traces(chosen):
                    writer.writerow(("trace", chosen, deal, trump, leader, cards, trace))
                    counts.traces += 1
        if not direct:
            os.replace(written, target)
    except SQLAlchemyError as problem:
        if not direct:
            written.unlink(missing_ok=True)
        reason = str(getattr(problem, "orig", None) or problem).splitlines()[0][:160]
        raise StoreError(f"the DD store at {shown_location(store.location)}: {reason}") from None
    except OSError as problem:
        if not direct:
            written.unlink(missing_ok=True)
        raise BridgerankError(f"{path}: cannot write ({problem.strerror or problem})") from None
    return counts
