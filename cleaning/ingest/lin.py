"""Reader for BBO LIN files: single hands and multi-board vugraph files with both rooms.

A LIN file is a stream of ``key|value|`` pairs; line breaks carry no meaning. Keys used:

========  ============================================================================
``vg``    vugraph header: event, segment, scoring, first board, last board, team 1,
          score, team 2, score
``rs``    results of every table, in order open 1, closed 1, open 2, ... (``3NE+1``)
``pn``    player names, South, West, North, East; 8 names = open room then closed room
``qx``    start of a table: ``o12`` open room board 12, ``c12`` closed room
``md``    the deal, dealer digit first (1 = South ... 4 = East)
``sv``    vulnerability: ``o`` none, ``n`` NS, ``e`` EW, ``b`` both
``ah``    board title (``Board 12``), used when there is no ``qx``
``mb``    a call (``!`` suffix = alerted); ``an`` annotates it
``pc``    a card played, in playing order
``mc``    a claim: the declarer side's total tricks
``nt``    commentary (on vugraph, the commentators' chat)
========  ============================================================================

What the record says of itself is kept as the raw record's extra fields, the calls and cards
left as they were read: ``call_notes`` holds each ``an`` as the note of the call before it,
``2:jacoby 2N`` for the table's third call (its position among the ``mb`` calls, from 0), a
note a line; ``commentary`` is a JSON list of the table's ``nt`` texts (those before a file's
first table go to that table).

endplay's LIN parser reads single tables only, which is why this reader exists.

A field runs over lines until its ``|``, and a table gathers calls and cards until the next
table starts: past :data:`FIELD_CHARS` characters of one field or :data:`TABLE_ITEMS` calls
and cards of one table, the file is refused
(:class:`~bridgerank.cleaning.ingest.limits.OverLimit`).
"""

from __future__ import annotations

import json
import re
from typing import Iterable, Iterator

from bridgerank.cleaning.ingest.limits import OverLimit
from bridgerank.cleaning.ingest.records import RawRecord, ReaderInput, lines_of

_DEALER_DIGIT = {"1": "S", "2": "W", "3": "N", "4": "E"}
_SCORING = {"I": "IMP", "P": "MP", "B": "BAM"}
_RESULT = re.compile(
    r"^\s*([1-7])\s*([CDHSN])T?\s*([NESW])\s*([xX]{0,2})\s*([=+-]?)(\d*)\s*$", re.IGNORECASE
)
# pn lists seats South, West, North, East.
_PN_FIELDS = ("southname", "westname", "northname", "eastname")
# What one field and one table may hold; a real field is under a few thousand characters
# (commentary), a real table under a hundred calls and cards.
FIELD_CHARS = 1 << 24
TABLE_ITEMS = 10_000


def _parts(lines: Iterable[str]) -> Iterator[str]:
    """The ``|``-separated fields of a LIN stream; a field may span lines."""
    pending: list[str] = []  # pieces of a field that has not yet met its ``|``
    held = 0  # their characters
    for line in lines:
        if "|" not in line:
            pending.append(line)
            held += len(line)
            if held > FIELD_CHARS:
                raise OverLimit(f"a LIN field runs over more than {FIELD_CHARS:,} characters")
            continue
        pieces = line.split("|")
        pending.append(pieces[0])
        yield "".join(pending)
        yield from pieces[1:-1]
        pending, held = [pieces[-1]], len(pieces[-1])
    yield "".join(pending)


def _pairs(source: ReaderInput) -> Iterator[tuple[str, str, int]]:
    """Yield ``(key, value, line)`` pairs of a LIN text; an unpaired last field is dropped."""
    line = 1
    parts = _parts(lines_of(source))
    for key_raw in parts:
        value = next(parts, None)
        if value is None:
            return
        # count newlines to know where each pair starts
        line_of_key = line + key_raw.count("\n")
        line = line_of_key + value.count("\n")
        yield key_raw.strip().lower(), value.strip(), line_of_key


def _parse_result(text: str) -> tuple[str, str, str] | None:
    """``3NE+1`` -> (contract ``3N``, declarer ``E``, total tricks ``10``); passed out -> P."""
    token = text.strip()
    if token.upper() in {"P", "PASS", "PASSED", "AP"}:
        return "Pass", "", ""
    match = _RESULT.match(token)
    if not match:
        return None
    level, strain, declarer, doubled, sign, amount = match.groups()
    tricks = int(level) + 6
    if sign == "+" and amount:
        tricks += int(amount)
    elif sign == "-" and amount:
        tricks -= int(amount)
    return f"{level}{strain.upper()}{doubled.upper()}", declarer.upper(), str(tricks)


class _Table:
    def __init__(self, line: int, room: str, board: str) -> None:
        self.line = line
        self.values: dict[str, str] = {"room": room, "board": board}
        self.calls: list[str] = []
        self.cards: list[str] = []
        self.notes: list[str] = []  # "2:text": the note of the third call
        self.commentary: list[str] = []

    def add(self, items: list[str], value: str) -> None:
        """A call, a card, a note or a comment; past :data:`TABLE_ITEMS` of them the file is
        refused."""
        if (
            len(self.calls) + len(self.cards) + len(self.notes) + len(self.commentary)
            >= TABLE_ITEMS
        ):
            raise OverLimit(
                f"the LIN table of line {self.line} has more than {TABLE_ITEMS:,} "
                "calls, cards and comments"
            )
        items.append(value)

    def annotate(self, text: str) -> None:
        """An ``an``: a note of the last call (dropped before the first call: it has none)."""
        if not self.calls:
            return
        self.add(self.notes, f"{len(self.calls) - 1}:{text}")

    def extras(self) -> dict[str, str]:
        """The table's notes and commentary as raw fields (none when it has none)."""
        values = {}
        if self.notes:
            values["call_notes"] = "\n".join(" ".join(note.split()) for note in self.notes)
        if self.commentary:
            values["commentary"] = json.dumps(self.commentary, ensure_ascii=False)
        return values


def read_lin(text: ReaderInput) -> Iterator[RawRecord]:
    """Yield one raw record per table of a LIN text (a stream of lines, or a whole text).

    Names come from the last ``pn`` seen (4 names apply to the table, 8 to the open and
    closed room); contract and declarer from the table's entry in ``rs``; the result from a
    claim (``mc``) when there is one, else from ``rs``.

    Raises
    ------
    OverLimit
        When a field or a table holds more than :data:`FIELD_CHARS` or :data:`TABLE_ITEMS`.
    """
    header: dict[str, str] = {}
    names: list[str] = []
    results: list[str] = []
    first_board = 1
    table: _Table | None = None
    number = 0
    early: list[str] = []  # commentary before the first table

    def finish(current: _Table) -> RawRecord:
        values = dict(header)
        values.update(current.values)
        room = values.get("room", "")
        offset = 4 if room == "Closed" and len(names) >= 8 else 0
        for field, name in zip(_PN_FIELDS, names[offset : offset + 4]):
            values[field] = name
        values["auction"] = " ".join(current.calls)
        values["play"] = " ".join(current.cards)
        values.update(current.extras())
        if results and current.values.get("board", "").isdigit():
            index = 2 * (int(current.values["board"]) - first_board) + (room == "Closed")
            if 0 <= index < len(results) and results[index].strip():
                parsed = _parse_result(results[index])
                if parsed:
                    values["contract"], values["declarer"], tricks = parsed
                    values.setdefault("result", tricks)
        return RawRecord(record_no=number, line=current.line, values=values, play_layout="played")

    for key, value, line in _pairs(text):
        if key == "vg":
            parts = [part.strip() for part in value.split(",")]
            parts += [""] * (9 - len(parts))
            header = {
                "event": parts[0],
                "stage": parts[1],
                "scoring": _SCORING.get(parts[2].upper(), parts[2]),
                "home_team": parts[5],
                "visit_team": parts[7],
            }
            first_board = int(parts[3]) if parts[3].isdigit() else 1
        elif key == "rs":
            results = value.split(",")
        elif key == "pn":
            names = [name.strip() for name in value.split(",")]
        elif key in {"qx", "md"} and (key == "qx" or table is None or table.values.get("deal")):
            if table is not None:
                number += 1
                yield finish(table)
            room, board = "", ""
            if key == "qx":
                tag = value.split(",")[0].strip()
                room = {"o": "Open", "c": "Closed"}.get(tag[:1].lower(), "")
                board = tag[1:] if room else tag
            table = _Table(line, room, board)
            for text in early:
                table.add(table.commentary, text)
            early = []
            if key == "md":
                _set_deal(table, value)
        elif key == "nt" and table is None:
            if len(early) >= TABLE_ITEMS:
                raise OverLimit(f"a LIN file has more than {TABLE_ITEMS:,} comments before a table")
            early.append(value)
        elif table is None:
            continue
        elif key == "nt":
            table.add(table.commentary, value)
        elif key == "an":
            table.annotate(value)
        elif key == "md":
            _set_deal(table, value)
        elif key == "sv":
            table.values["vulnerable"] = value
        elif key == "ah":
            digits = re.sub(r"\D", "", value)
            table.values["board"] = table.values.get("board") or digits
        elif key == "mb":
            table.add(table.calls, value)
        elif key == "pc":
            table.add(table.cards, value)
        elif key == "mc":
            table.values["result"] = value
    if table is not None:
        number += 1
        yield finish(table)


def _set_deal(table: _Table, value: str) -> None:
    table.values["deal"] = value
    table.values["dealer"] = _DEALER_DIGIT.get(value[:1], "")
    table.values["bidstart"] = table.values["dealer"]
