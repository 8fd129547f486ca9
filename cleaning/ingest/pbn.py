"""Reader for PBN (Portable Bridge Notation) files, including the "export" format.

What it handles: tag pairs ``[Tag "value"]`` with ``\\"`` escapes; ``#`` as a value meaning
"the previous game's value of this tag"; ``%`` escape lines; ``;`` and ``{...}`` comments
(multi-line); the ``[Auction]`` and ``[Play]`` sections, whose tokens are kept verbatim;
games separated by blank lines or, in sloppy files, by a repeated tag; other sections
(``[OptimumResultTable]``, ``[Note]`` ...) are skipped. Values are not interpreted here.
"""

from __future__ import annotations

import re
from typing import Iterator

from bridgerank.cleaning.ingest.records import RawRecord, ReaderInput, lines_of

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_TO_FIELD = {
    "Event": "event",
    "Site": "site",
    "Date": "date",
    "Board": "board",
    "Stage": "stage",
    "Dealer": "dealer",
    "Deal": "deal",
    "Vulnerable": "vulnerable",
    "Auction": "bidstart",
    "Contract": "contract",
    "Play": "lead",
    "Declarer": "declarer",
    "Result": "result",
    "West": "westname",
    "East": "eastname",
    "North": "northname",
    "South": "southname",
    "Scoring": "scoring",
    "HomeTeam": "home_team",
    "VisitTeam": "visit_team",
    "Room": "room",
    "Description": "description",
    "Score": "score",
    "Annotator": "note",
}
# A game is a table result only if it has at least one of these tags.
_BOARD_TAGS = frozenset(
    {
        "Deal",
        "Board",
        "Contract",
        "Declarer",
        "Result",
        "Auction",
        "Play",
        "North",
        "South",
        "East",
        "West",
    }
)
_SECTIONS = {"Auction": "auction", "Play": "play"}


def _strip_comments(line: str, in_brace: bool) -> tuple[str, bool]:
    """Remove ``{...}`` (possibly spanning lines) and ``;`` comments from a section line."""
    out: list[str] = []
    index = 0
    while index < len(line):
        char = line[index]
        if in_brace:
            end = line.find("}", index)
            if end < 0:
                return "".join(out), True
            in_brace, index = False, end + 1
            continue
        if char == "{":
            in_brace = True
        elif char == ";":
            break
        else:
            out.append(char)
        index += 1
    return "".join(out), in_brace


class _Game:
    __slots__ = ("line", "tags", "sections", "section")

    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.sections: dict[str, list[str]] = {}
        self.section: str | None = None


def _finish(game: _Game, previous: dict[str, str], number: int) -> RawRecord:
    tags = {
        tag: (previous.get(tag, "") if value == "#" else value) for tag, value in game.tags.items()
    }
    values = {field: tags[tag] for tag, field in _TAG_TO_FIELD.items() if tag in tags}
    if "stage" not in values and "Round" in tags:
        values["stage"] = tags["Round"]
    for section, field in _SECTIONS.items():
        if section in game.sections:
            values[field] = " ".join(game.sections[section])
    previous.clear()
    previous.update(tags)
    return RawRecord(record_no=number, line=game.line, values=values, play_layout="seat")


def read_pbn(source: ReaderInput) -> Iterator[RawRecord]:
    """Yield the games of a PBN text that look like table results.

    Parameters
    ----------
    source : str or iterable of str
        The decoded file, as a stream of lines (read one game at a time) or a whole text.

    Yields
    ------
    RawRecord
        One per game with at least one board tag (deal, players, contract ...), numbered from 1
        in file order; games holding only event headers are skipped.
    """
    previous: dict[str, str] = {}
    game: _Game | None = None
    separated = True
    in_brace = False
    number = 0
    for line_no, line in enumerate(lines_of(source), start=1):
        stripped = line.strip()
        if in_brace:
            stripped, in_brace = _strip_comments(stripped, True)
            if not stripped.strip():
                continue
        if not stripped:
            separated = True
            continue
        if stripped.startswith("%"):
            continue
        match = _TAG.match(stripped) if stripped.startswith("[") else None
        if match:
            tag, value = match.group(1), match.group(2).replace('\\"', '"').replace("\\\\", "\\")
            if game is None or separated and game.tags or tag in game.tags:
                if game is not None and _BOARD_TAGS & game.tags.keys():
                    number += 1
                    yield _finish(game, previous, number)
                elif game is not None:
                    previous.update(game.tags)
                game = _Game(line_no)
            separated = False
            game.tags[tag] = value
            game.section = tag if tag in _SECTIONS else None
            if game.section:
                game.sections.setdefault(tag, [])
            rest = stripped[match.end() :].strip()
            if rest and game.section:
                rest, in_brace = _strip_comments(rest, False)
                game.sections[game.section].extend(rest.split())
            continue
        separated = False
        content, in_brace = _strip_comments(stripped, False)
        if game is not None and game.section:
            game.sections[game.section].extend(content.split())
    if game is not None and _BOARD_TAGS & game.tags.keys():
        yield _finish(game, previous, number + 1)
