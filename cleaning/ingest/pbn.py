"""Reader for PBN (Portable Bridge Notation) files, including the "export" format.

What it handles: tag pairs ``[Tag "value"]`` with ``\\"`` escapes; ``#`` as a value meaning
"the previous game's value of this tag"; ``%`` escape lines; ``;`` and ``{...}`` comments
(multi-line); the ``[Auction]`` and ``[Play]`` sections, whose tokens are kept verbatim;
games separated by blank lines or, in sloppy files, by a repeated tag; other sections
(``[OptimumResultTable]`` ...) are skipped. Values are not interpreted here.

What the record says of itself is kept as extra fields of the raw record: ``notes``, the
game's ``[Note "1:text"]`` tags (the auction's ``=1=`` refers to them; a game may hold many,
so a repeated Note tag does not start a new game), one a line, white space collapsed;
``commentary``, a JSON list of the ``{...}`` comments, each with its lines as written. A
comment belongs to the game whose tags it stands among; one after a blank line belongs to the
next game (annotated files write a board's story before its tags).

A value with an unescaped quote inside (``[North "John "Jack" Smith"]``) is read up to the
last quote before the closing ``]``; a tag line with no closing quote and bracket is kept,
verbatim, in the game's ``unreadable_tags`` (an extra field of its raw record), never dropped
silently. One game holds at most :data:`GAME_CHARS` characters and :data:`GAME_ITEMS` tags
and section tokens, and so do the tags inherited by ``#``: past either, the file is refused
(:class:`~bridgerank.cleaning.ingest.limits.OverLimit`).
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Iterator

from bridgerank.cleaning.ingest.limits import OverLimit
from bridgerank.cleaning.ingest.records import RawRecord, ReaderInput, lines_of

# A tag is not read with one regular expression: the value's ``(?:[^"\\]|\\.)*`` keeps about
# 190 bytes a character to backtrack into (4 GB for a 30 MB tag), and the possessive ``*+``
# that would not needs Python 3.11. A repeat of one character class keeps nothing a
# character: _PLAIN_TAG reads the values with no quote or backslash (nearly all), the others
# are read quote by quote (_QUOTE).
_PLAIN_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"([^"\\]*)"\s*\]')
_TAG_START = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"')
# A quote with the whole run of backslashes before it (the lookbehind starts it at the run's
# first backslash: one try a run, so a long run costs no square).
_QUOTE = re.compile(r'(?<!\\)(\\*)"')
_BRACKET = re.compile(r"\s*\]")
# What one game (or the tags ``#`` inherits) may hold; a real game holds a few thousand
# characters in a few hundred tags and tokens.
GAME_CHARS = 1 << 24
GAME_ITEMS = 100_000
# An unreadable tag line is kept this long.
_KEPT_CHARS = 200
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
# A game may hold many of these (one a note of its auction): they never start a new game.
_NOTE_TAG = "Note"


def _strip_comments(line: str, in_brace: bool, comment: list[str]) -> tuple[str, bool]:
    """Remove ``{...}`` (possibly spanning lines) and ``;`` comments from a section line.

    The text of braced comments is appended to ``comment``, a piece a line (a comment that
    ends closes with an empty piece, so the pieces of one comment can be told apart).
    """
    out: list[str] = []
    index = 0
    while index < len(line):
        char = line[index]
        if in_brace:
            end = line.find("}", index)
            if end < 0:
                comment.append(line[index:])
                return "".join(out), True
            comment.extend((line[index:end], ""))
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


def _comments(pieces: list[str]) -> list[str]:
    """The comments of :func:`_strip_comments`' pieces: a comment's lines as written (its
    common indentation removed, so a hand diagram keeps its columns), empty ones dropped."""
    comments: list[str] = []
    current: list[str] = []
    for piece in [*pieces, ""]:
        if piece:
            current.append(piece.rstrip())
            continue
        text = textwrap.dedent("\n".join(current)).strip("\n")
        if text.strip():
            comments.append(text)
        current = []
    return comments


def _closing_quote(line: str, start: int) -> int:
    """Index of the first quote from ``start`` that no backslash escapes, or -1.

    Each backslash takes the next character, so a quote is escaped when the run of
    backslashes right before it is odd (a run starts where no backslash took it).
    """
    for quote in _QUOTE.finditer(line, start):
        if len(quote.group(1)) % 2 == 0:
            return quote.end() - 1
    return -1


def _last_closing_quote(line: str, start: int) -> tuple[int, int]:
    """The last quote from ``start`` with only white space between it and a ``]``, and the
    index after that bracket; ``(-1, -1)`` when there is none."""
    bracket = line.rfind("]", start)
    while bracket >= 0:
        quote = bracket - 1
        while quote >= start and line[quote].isspace():
            quote -= 1
        if quote >= start and line[quote] == '"':
            return quote, bracket + 1
        bracket = line.rfind("]", start, bracket)
    return -1, -1


def _tag(line: str) -> tuple[str, str | None, int] | None:
    """The tag a line starts with (``[Name "value"]``), or None when it starts none.

    The value ends at the first quote no backslash escapes, followed by ``]``; failing that
    (a quote inside the value), at the last quote followed by ``]``.

    Returns
    -------
    tuple or None
        ``(name, value, end)``: ``value`` is None when no closing quote and bracket end it;
        the rest of the line starts at ``end``.
    """
    plain = _PLAIN_TAG.match(line)
    if plain is not None:
        return plain.group(1), plain.group(2), plain.end()
    opening = _TAG_START.match(line)
    if opening is None:
        return None
    start = opening.end()
    quote = _closing_quote(line, start)
    bracket = _BRACKET.match(line, quote + 1) if quote >= 0 else None
    if bracket is not None:
        end = bracket.end()
    else:
        quote, end = _last_closing_quote(line, start)
        if quote < 0:
            return opening.group(1), None, len(line)
    value = line[start:quote].replace('\\"', '"').replace("\\\\", "\\")
    return opening.group(1), value, end


class _Game:
    __slots__ = (
        "line",
        "tags",
        "notes",
        "comment",
        "sections",
        "section",
        "unreadable",
        "chars",
        "items",
    )

    def __init__(self, line: int, unreadable: list[str], comment: list[str]) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.notes: list[str] = []  # the Note tags' values, in order
        self.comment = comment  # pieces of its {...} comments (see _strip_comments)
        self.sections: dict[str, list[str]] = {}
        self.section: str | None = None
        self.unreadable = unreadable
        self.chars = sum(map(len, unreadable)) + sum(map(len, comment))
        self.items = len(unreadable) + len(comment)

    def hold(self, chars: int, items: int) -> None:
        """Count what the game takes in; past :data:`GAME_CHARS` or :data:`GAME_ITEMS` the
        file is refused."""
        self.chars += chars
        self.items += items
        if self.chars > GAME_CHARS or self.items > GAME_ITEMS:
            raise OverLimit(
                f"the PBN game of line {self.line} holds more than {GAME_CHARS:,} characters "
                f"or {GAME_ITEMS:,} tags and tokens"
            )

    def add_tag(self, name: str, value: str) -> None:
        self.hold(len(value), 1)
        if name == _NOTE_TAG:
            self.notes.append(value)
        else:
            self.tags[name] = value
        self.section = name if name in _SECTIONS else None
        if self.section:
            self.sections.setdefault(name, [])

    def add_tokens(self, text: str) -> None:
        """Tokens of the open section (``text`` with its comments already removed)."""
        assert self.section is not None
        tokens = text.split()
        self.hold(len(text), len(tokens))  # white space counted too: cheaper, and a bound
        self.sections[self.section].extend(tokens)

    def add_unreadable(self, line: str) -> None:
        kept = line[:_KEPT_CHARS]
        self.hold(len(kept), 1)
        self.unreadable.append(kept)
        self.section = None


class _Inherited:
    """The tags a ``#`` value refers to: the last table's, with any later games' that held
    only event headers merged over them, bounded like one game."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.chars = 0

    def replace(self, tags: dict[str, str]) -> None:
        self.tags = dict(tags)
        self.chars = sum(map(len, tags.values()))

    def merge(self, tags: dict[str, str]) -> None:
        for name, value in tags.items():
            self.chars += len(value) - len(self.tags.get(name, ""))
            self.tags[name] = value
        if self.chars > GAME_CHARS or len(self.tags) > GAME_ITEMS:
            raise OverLimit(
                f"the PBN tags inherited by '#' hold more than {GAME_CHARS:,} characters "
                f"or {GAME_ITEMS:,} tags"
            )


def _finish(game: _Game, previous: _Inherited, number: int) -> RawRecord:
    tags = {
        tag: (previous.tags.get(tag, "") if value == "#" else value)
        for tag, value in game.tags.items()
    }
    values = {field: tags[tag] for tag, field in _TAG_TO_FIELD.items() if tag in tags}
    if "stage" not in values and "Round" in tags:
        values["stage"] = tags["Round"]
    for section, field in _SECTIONS.items():
        if section in game.sections:
            values[field] = " ".join(game.sections[section])
    if game.unreadable:
        values["unreadable_tags"] = "\n".join(game.unreadable)
    if game.notes:
        values["notes"] = "\n".join(" ".join(note.split()) for note in game.notes)
    comments = _comments(game.comment)
    if comments:
        values["commentary"] = json.dumps(comments, ensure_ascii=False)
    previous.replace(tags)
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
        in file order; games holding only event headers are skipped. Tag lines that could
        not be read are in the record's ``unreadable_tags`` (those before the game's first
        tag, or of a skipped game, go to the next game).

    Raises
    ------
    OverLimit
        When a game, or the tags ``#`` inherits, holds more than the module's bounds.
    """
    previous = _Inherited()
    game: _Game | None = None
    separated = True
    in_brace = False
    number = 0
    waiting: list[str] = []  # unreadable tag lines not yet in a game
    loose: list[str] = []  # pieces of comments for the next game

    def strip(text: str, opened: bool) -> tuple[str, bool]:
        """``text`` without its comments, which go to the game they belong to."""
        sink = game.comment if game is not None and not separated else loose
        before = len(sink)
        content, still_open = _strip_comments(text, opened, sink)
        added = sink[before:]
        if game is not None and sink is game.comment:
            game.hold(sum(map(len, added)), len(added))
        elif sum(map(len, loose)) > GAME_CHARS or len(loose) > GAME_ITEMS:
            raise OverLimit(f"more than {GAME_CHARS:,} characters of PBN comments between games")
        return content, still_open

    for line_no, line in enumerate(lines_of(source), start=1):
        stripped = line.strip()
        was_open = in_brace
        if in_brace:
            # the rest of the line is stripped here, comments opened on it too; the line is
            # given unstripped so that a diagram in the comment keeps its indentation
            stripped, in_brace = strip(line.rstrip("\r\n"), True)
            if not stripped.strip():
                continue
            stripped = stripped.strip()
        if not stripped:
            separated = True
            continue
        if stripped.startswith("%"):
            continue
        tag = _tag(stripped) if stripped.startswith("[") else None
        if tag is not None and tag[1] is None:
            separated = False
            if game is None:
                waiting.append(stripped[:_KEPT_CHARS])
                if len(waiting) > GAME_ITEMS:
                    raise OverLimit(f"more than {GAME_ITEMS:,} unreadable PBN tag lines")
            else:
                game.add_unreadable(stripped)
            continue
        if tag is not None:
            name, value, end = tag
            assert value is not None
            if game is None or separated and game.tags or name in game.tags:
                if game is not None and _BOARD_TAGS & game.tags.keys():
                    number += 1
                    yield _finish(game, previous, number)
                elif game is not None:
                    previous.merge(game.tags)
                    waiting = game.unreadable
                    loose = game.comment + loose
                game, waiting, loose = _Game(line_no, waiting, loose), [], []
            separated = False
            game.add_tag(name, value)
            rest = stripped[end:].strip()
            if rest:
                rest, in_brace = strip(rest, False)
                if game.section:
                    game.add_tokens(rest)
            continue
        content, in_brace = (stripped, in_brace) if was_open else strip(stripped, False)
        if not content.strip():
            continue  # a comment alone does not join what is around it into one game
        separated = False
        if game is not None and game.section:
            game.add_tokens(content)
    if game is not None and _BOARD_TAGS & game.tags.keys():
        yield _finish(game, previous, number + 1)
