"""The raw record: the fields every ingester fills, verbatim from its source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Union

# What a reader takes: a file's lines as they stream in (line ends kept), or, for a small
# text held in memory (tests, files beside a source), the whole text.
ReaderInput = Union[str, Iterable[str]]

# Text fields of a raw record, named after the columns of the thesis's ``bridgedeals`` table
# (plus ``score``, which PBN carries).
RAW_FIELDS: tuple[str, ...] = (
    "event",
    "site",
    "date",
    "board",
    "stage",
    "dealer",
    "deal",
    "vulnerable",
    "bidstart",
    "auction",
    "contract",
    "lead",
    "play",
    "declarer",
    "result",
    "note",
    "westname",
    "eastname",
    "northname",
    "southname",
    "scoring",
    "home_team",
    "visit_team",
    "room",
    "description",
    "score",
)


@dataclass
class RawRecord:
    """One table result as read from a file, before any cleaning.

    Attributes
    ----------
    record_no : int
        Position of the record in its file, from 1.
    line : int
        Line of the file where the record starts.
    values : dict
        Raw text per field of :data:`RAW_FIELDS`; a field the source lacks is absent.
    play_layout : str
        ``seat`` when each trick is written from the opening leader's seat (PBN, SQL dump),
        ``played`` when cards are in playing order (LIN).
    parse_error : str or None
        Why the record could not be read, when it could not.
    """

    record_no: int
    line: int
    values: dict[str, str] = field(default_factory=dict)
    play_layout: str = "seat"
    parse_error: str | None = None


def lines_of(source: ReaderInput) -> Iterable[str]:
    """The lines of a reader's input, line ends kept (a whole text is split here)."""
    if isinstance(source, str):
        return source.splitlines(keepends=True)
    return source
