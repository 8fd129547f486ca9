"""What one run of the ``report`` stage did: :class:`ReportSummary`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bridgerank.core.summary import StageSummary, plural

__all__ = ["ReportSummary"]


@dataclass
class ReportSummary(StageSummary):
    """The site and the CSV exports a report run wrote.

    Attributes
    ----------
    report : str
        The site's front page (``<out>/report/index.html``); the CSV files are in
        ``<out>/csv``.
    pages : int
        Pages of the site (1 for a run of a version that wrote a single page, whose
        summary does not say).
    bytes : int
        Their size on disk.
    site_seconds : float
        Time spent writing the site.
    csv_tables : int
        Tables exported as CSV.
    """

    report: str = ""
    pages: int = 1
    bytes: int = 0
    site_seconds: float = 0.0
    csv_tables: int = 0

    def lines(self) -> list[str]:
        """The pages and the CSV folder (the site's path is the run's last line, printed
        once by the CLI)."""
        csv = Path(self.report).parent.parent / "csv"
        return [
            f"report: {plural(self.pages, 'page')} ({self.bytes / 1e6:.1f} MB), "
            f"{plural(self.csv_tables, 'table')} as CSV in {csv}"
        ]

    def brief(self) -> str:
        """The site's front page."""
        return self.report
