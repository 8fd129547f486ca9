"""Reader for the SQL-insert dump of the ``bridgedeals`` table (the thesis's 200k-board file).

The dump is parsed, never executed: it is untrusted text, and its values are data whatever
they contain (``'); DROP TABLE boards; --`` is a player name like any other).

Its defects, all recovered here: ``;`` used as the separator between values and between rows
(0 to 7 of them at a line end instead of ``,``) as well as inside values; values in single
quotes while names contain quotes, sometimes escaped (``\\'`` or ``''``) and sometimes not;
stray backslashes; a broken line. A row that cannot be recovered becomes a record with a
``parse_error`` (so cleaning reports it) and reading goes on at the next line starting
with ``(``.

The file streams through a window of whole lines (about a megabyte, and at least
:data:`LOOKAHEAD_LINES` lines or :data:`LOOKAHEAD_CHARS` characters past the row being read),
so memory does not grow with the file or its lines; a value broken over more than that is
reported, not recovered.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from bridgerank.cleaning.ingest.records import RawRecord, ReaderInput, lines_of

DEFAULT_COLUMNS: tuple[str, ...] = (
    "id",
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
    "westpoints",
    "northpoints",
    "eastpoints",
    "southpoints",
    "scoring",
    "homeTeam",
    "visitteam",
    "room",
    "description",
)
_COLUMN_TO_FIELD = {
    "homeTeam": "home_team",
    "hometeam": "home_team",
    "visitteam": "visit_team",
    "visitTeam": "visit_team",
}
_INSERT = re.compile(
    r"INSERT\s+INTO\s+[`\"\[]?(\w+)[`\"\]]?\s*(?:\(([^)]*)\))?\s*VALUES[\s;,]*", re.IGNORECASE
)
_SEPARATORS = ",;"
# A row may be broken over this many lines, or run over this many characters, and still be
# read whole (the characters bound the window when lines are long: 17 lines of the longest
# allowed would be tens of megabytes).
LOOKAHEAD_LINES = 16
LOOKAHEAD_CHARS = 1 << 22
# The window is refilled with about this many characters of whole lines at a time.
_WINDOW_CHARS = 1 << 20
_FIELD_START = "'-+0123456789.Nn"


class _RowError(Exception):
    pass


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.size = len(text)
        self.multiline = False  # set to retry a row broken over two lines

    def skip(self, chars: str) -> None:
        while self.pos < self.size and self.text[self.pos] in chars:
            self.pos += 1

    def _closes_value(self, after: int) -> bool:
        """Whether a quote just before ``after`` ends its value.

        It does when a separator and the start of another value follow, or a ``)`` that
        ends the row (then only separators before the end of the line or the next row).
        Any other quote is part of the value, like the one in ``O'Brien``.
        """
        text, size = self.text, self.size
        index = after
        while index < size and text[index] in " \t":
            index += 1
        if index >= size:
            return True
        char = text[index]
        if char == ")":
            index += 1
            while index < size and text[index] in " \t\r" + _SEPARATORS:
                index += 1
            return index >= size or text[index] in "\n("
        if char in _SEPARATORS:
            index += 1
            while index < size and text[index] in " \t":
                index += 1
            return index < size and text[index] in _FIELD_START
        return False

    def quoted(self) -> str:
        text, out = self.text, []
        index = self.pos + 1
        while index < self.size:
            char = text[index]
            if char == "\\":
                following = text[index + 1 : index + 2]
                if following in ("'", "\\"):
                    out.append(following)
                    index += 2
                else:
                    index += 1  # a stray backslash: dropped, as the thesis did
                continue
            if char == "'":
                if text[index + 1 : index + 2] == "'" and not self._closes_value(index + 2):
                    out.append("'")
                    index += 2
                    continue
                if self._closes_value(index + 1):
                    self.pos = index + 1
                    return "".join(out)
                out.append("'")  # an unescaped quote inside a name
                index += 1
                continue
            if char == "\n" and not self.multiline:
                raise _RowError("a quoted value runs past the end of its line")
            out.append(char)
            index += 1
        raise _RowError("a quoted value is never closed")

    def bare(self) -> str | None:
        start = self.pos
        while self.pos < self.size and self.text[self.pos] not in _SEPARATORS + ")\n":
            self.pos += 1
        value = self.text[start : self.pos].strip()
        return None if value.upper() == "NULL" else value

    def row(self) -> list[str | None]:
        """Read one ``( ... )`` tuple; ``pos`` is on the opening parenthesis."""
        self.pos += 1
        values: list[str | None] = []
        while True:
            self.skip(" \t")
            if self.pos >= self.size:
                raise _RowError("the file ends inside a row")
            if self.text[self.pos] == "'":
                values.append(self.quoted())
            else:
                values.append(self.bare())
            self.skip(" \t")
            if self.pos >= self.size:
                raise _RowError("the file ends inside a row")
            char = self.text[self.pos]
            if char == ")":
                self.pos += 1
                return values
            if char in _SEPARATORS:
                self.pos += 1
                continue
            raise _RowError(f"unexpected {char!r} after value {len(values)}")

    def next_line_start(self) -> None:
        newline = self.text.find("\n", self.pos)
        self.pos = self.size if newline < 0 else newline + 1


def _columns(spec: str | None) -> tuple[str, ...]:
    if not spec:
        return DEFAULT_COLUMNS
    return tuple(part.strip(' `"[]\t\r\n') for part in re.split(r"[,;]", spec) if part.strip())


def _retry_broken_row(scanner: _Scanner, start: int, width: int) -> list[str | None] | None:
    """Read a row whose value was broken over two lines; None unless it then fits."""
    scanner.pos, scanner.multiline = start, True
    try:
        values = scanner.row()
    except _RowError:
        return None
    finally:
        scanner.multiline = False
    if len(values) != width:
        return None
    return [value.replace("\r", "").replace("\n", "") if value else value for value in values]


class _Window:
    """The part of the dump in memory: whole lines, refilled as the scanner moves on.

    ``frontier`` is where the last :data:`LOOKAHEAD_LINES` lines begin, or
    :data:`LOOKAHEAD_CHARS` before the end, whichever is later: a row starting before it has
    those lines or characters after it (or the end of the file) to finish in.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = iter(lines)
        self.eof = False
        self.first_line = 1  # line number of the window's first character
        self.text = ""
        self.frontier = 0

    def refill(self, keep_from: int) -> int:
        """Drop the text before the line holding ``keep_from`` and read more lines.

        Returns how many characters were dropped from the front.
        """
        cut = self.text.rfind("\n", 0, keep_from) + 1
        if keep_from - cut > LOOKAHEAD_CHARS:
            cut = keep_from  # the row's line is kept whole, unless it is that long
        self.first_line += self.text.count("\n", 0, cut)
        pieces, size, count = [self.text[cut:]], 0, 0
        while size < _WINDOW_CHARS or count <= LOOKAHEAD_LINES and size < LOOKAHEAD_CHARS:
            line = next(self.lines, None)
            if line is None:
                self.eof = True
                break
            pieces.append(line)
            size += len(line)
            count += 1
        self.text = "".join(pieces)
        self.frontier = len(self.text)
        if not self.eof:
            for _ in range(LOOKAHEAD_LINES + 1):
                self.frontier = self.text.rfind("\n", 0, self.frontier)
                if self.frontier < 0:  # fewer lines, as many characters
                    break
            self.frontier = max(self.frontier, len(self.text) - LOOKAHEAD_CHARS, 0)
        return cut

    def line_of(self, position: int, known: tuple[int, int]) -> tuple[int, int]:
        """``(position, line)`` counted on from the last known pair (kept linear)."""
        start, line = known if known[0] <= position else (0, self.first_line)
        return position, line + self.text.count("\n", start, position)


def read_sqldump(source: ReaderInput) -> Iterator[RawRecord]:
    """Yield one raw record per row of a ``bridgedeals`` SQL-insert dump.

    Parameters
    ----------
    source : str or iterable of str
        The dump's lines as they stream in (line ends kept), or its whole text.

    Yields
    ------
    RawRecord
        Rows with the wrong number of values, or that cannot be tokenised, are yielded with
        a ``parse_error`` and no values.
    """
    window = _Window(lines_of(source))
    window.refill(0)
    scanner = _Scanner(window.text)
    columns = DEFAULT_COLUMNS
    number = 0
    known = (0, 1)  # a (position, line) pair in the window, to count lines on from
    while True:
        scanner.skip(" \t\r\n" + _SEPARATORS)
        if not window.eof and scanner.pos >= window.frontier:
            resume = scanner.pos - window.refill(scanner.pos)
            scanner = _Scanner(window.text)
            scanner.pos = resume
            known = (0, window.first_line)
            continue
        text = window.text
        if scanner.pos >= scanner.size:
            return
        insert = _INSERT.match(text, scanner.pos)
        if insert:
            columns = _columns(insert.group(2))
            scanner.pos = insert.end()
            continue
        start = scanner.pos
        known = window.line_of(start, known)
        line = known[1]
        number += 1
        if text[start] != "(":
            scanner.next_line_start()
            snippet = text[start : scanner.pos].strip()[:60]
            yield RawRecord(number, line, parse_error=f"not a row: {snippet!r}")
            continue
        try:
            values = scanner.row()
        except _RowError as problem:
            retried = _retry_broken_row(scanner, start, len(columns))
            if retried is None:
                scanner.pos = start
                scanner.next_line_start()
                yield RawRecord(number, line, parse_error=str(problem))
                continue
            values = retried
        if len(values) != len(columns):
            yield RawRecord(
                number, line, parse_error=(f"{len(values)} values for {len(columns)} columns")
            )
            continue
        record = {}
        for column, value in zip(columns, values):
            if value is not None and column != "id":
                record[_COLUMN_TO_FIELD.get(column, column)] = value
        yield RawRecord(number, line, values=record, play_layout="seat")
