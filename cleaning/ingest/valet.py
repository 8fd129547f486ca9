"""Reader for Valet traveller files (``scores.txt`` of the valet-bridge archive).

A Valet event folder holds ``scores.txt``, one table result a line,
``round|board|north|east|south|west|contract|declarer|tricks|lead card``, with player ids;
``names.txt``, ``id|name``; and, for some events, ``hands/round<R>.pbn`` with the deals.
Some events add their parts as ``scoresA.txt``, ``scoresB.txt``, each numbering its players
afresh in ``namesA.txt``, ``namesB.txt``: a part is read with its own names (read with
``names.txt``, its rows named the wrong players), and what it repeats of ``scores.txt`` the
cleaning drops as duplicate records.
Contract ``P`` is passed out; ``X``/``XX`` mark doubles. The lead card is kept in the raw
record's extra fields (a one-card play is not a play record).

``names.txt`` and a round's deals are read whole: a file beside ``scores.txt`` larger than
:data:`SIDE_FILE_BYTES` refuses it (:class:`~bridgerank.cleaning.ingest.limits.OverLimit`),
and the deals of at most :data:`CACHED_ROUNDS` rounds are held at once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from bridgerank.cleaning.ingest.limits import OverLimit
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.records import RawRecord, ReaderInput, lines_of

LINE = re.compile(r"^\d+\|\d+\|\d+\|\d+\|\d+\|\d+\|[^|]*\|[NESWnesw]?\|\d*(\|.*)?$")
# Sub-folders of a Valet event that are not results to ingest: deals (read through
# scores.txt) and the archive's duplicate copies of the same results.
SKIPPED_FOLDERS = frozenset({"hands", "altnames", "postproc"})
# The real side files are under 14 KB (names of a world championship) and 3 KB (a round).
SIDE_FILE_BYTES = 1 << 20
CACHED_ROUNDS = 64


def _side_text(path: Path) -> str:
    """A file beside ``scores.txt``, whole; larger than :data:`SIDE_FILE_BYTES` it is refused."""
    if path.stat().st_size > SIDE_FILE_BYTES:
        raise OverLimit(f"{path.name} beside it is larger than {SIDE_FILE_BYTES >> 20} MB")
    return path.read_text(encoding="utf-8", errors="replace")


def is_valet_folder(folder: Path) -> bool:
    """Whether a folder is a Valet event (scores and names side by side)."""
    return (folder / "scores.txt").is_file() and (folder / "names.txt").is_file()


def _names(scores: Path) -> dict[str, str]:
    """The id -> name list of a scores file: ``namesA.txt`` for ``scoresA.txt`` (a part of
    an event numbers its players afresh), else ``names.txt``."""
    names = {}
    suffix = scores.stem[len("scores") :] if scores.stem.startswith("scores") else ""
    path = scores.parent / f"names{suffix}.txt"
    if not path.is_file():
        path = scores.parent / "names.txt"
    if path.is_file():
        for line in _side_text(path).splitlines():
            number, _, name = line.partition("|")
            if name.strip():
                names[number.strip()] = name.strip()
    return names


class _Deals:
    """Deals of an event by (round, board), read from hands/round<R>.pbn when first needed.

    Rounds are kept in the order first asked for; past :data:`CACHED_ROUNDS`, the oldest is
    let go (read again if asked again), so a file naming endless rounds holds few.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "hands"
        self.rounds: dict[str, dict[str, str]] = {}

    def get(self, round_number: str, board: str) -> str | None:
        if round_number not in self.rounds:
            if len(self.rounds) >= CACHED_ROUNDS:
                del self.rounds[next(iter(self.rounds))]
            path = self.folder / f"round{round_number}.pbn"
            deals: dict[str, str] = {}
            if path.is_file():
                for record in read_pbn(_side_text(path)):
                    if record.values.get("board") and record.values.get("deal"):
                        deals[record.values["board"]] = record.values["deal"]
            self.rounds[round_number] = deals
        return self.rounds[round_number].get(board)


def read_valet(text: ReaderInput, source: Path | None = None) -> Iterator[RawRecord]:
    """Yield one raw record per traveller line of a Valet ``scores.txt``.

    Parameters
    ----------
    text : str or iterable of str
        The file's lines as they stream in, or its whole text.
    source : Path, optional
        Where it was read from: ``names.txt`` and ``hands/`` are looked up beside it.

    Raises
    ------
    OverLimit
        When a file beside it is larger than :data:`SIDE_FILE_BYTES`.
    """
    folder = source.parent if source is not None else Path(".")
    names = _names(source) if source is not None else {}
    deals = _Deals(folder)
    event = f"{folder.parent.name}/{folder.name}" if source is not None else "valet"
    number = 0
    for line_no, line in enumerate(lines_of(text), start=1):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        number += 1
        if not LINE.match(line.strip()):
            yield RawRecord(number, line_no, parse_error=f"not a traveller line: {line[:60]!r}")
            continue
        parts = line.strip().split("|") + [""]
        round_number, board, north, east, south, west, contract, declarer, tricks, lead = parts[:10]
        values = {
            "event": event,
            "stage": f"round {round_number}",
            "board": board,
            "northname": names.get(north, ""),
            "eastname": names.get(east, ""),
            "southname": names.get(south, ""),
            "westname": names.get(west, ""),
            "contract": contract,
            "declarer": declarer.upper(),
            "result": tricks,
            "lead_card": lead,
            "room": "",
        }
        deal = deals.get(round_number, board)
        if deal:
            values["deal"] = deal
        yield RawRecord(number, line_no, values=values, play_layout="seat")
