"""Reader for club recap pages written by BridgeComposer (ACBL club games as HTML).

A recap page holds, first, a ``<pre id=bcrecap>`` block of pair lists, one per section and
direction::

    MONDAY STRATIFIED PAIRS Monday Eve Session January 2, 2017
    Scores after  8 rounds      Section  B  North-South
    Pair          Score  Adjust      Section Rank ...   MPs
      7           35.43    0.00  A   1   ...   1.50(SA) Elizabeth Marcus - Harlan Hullinger

then, per board, a diagram (labels ``Board 1``, ``North Deals``, ``None Vul``; four hands in
``bchand`` tables placed North, West, East, South) and a results table, one row per table
played: contract, declarer, tricks made (the level made, or ``-N`` down), lead, the score in
the North-South or East-West column, the matchpoints (or IMPs), and the two pairs as
``B6-Kroll-Balas`` (section, pair number, surnames). The full names come from the pair list.

Conventions, since a recap does not say them:

* The first name of a pair sits North (or East), the second South (or West).
* A section's pair list with ``Average``, ``Factored`` or a ``Pct`` column is a matchpoint
  game (scoring ``MP``), else IMPs across the field (``IMP``).
* A list headed ``Team`` (four names or more an entry) is a team game scored board-a-match
  (``BAM``; "Board a Match" or "Board a Mess" in the page's title): a row's pairs
  (``3-Balas-Kroll``) are two of their team's roster, named from it by surname, and each table
  is one room of a match between the two pairs' teams (the lower team number's North-South
  in the open room), so the rate stage rates it as a team game, never as pairs.
* A score marked with a group letter (``100F``) belongs to a fouled board: tables in different
  groups played different deals, so the record is kept with its score as written and the
  cleaning stage excludes it. Artificial scores (``Ave+``, ``Ave-``, not played) likewise.

A page is one session, so its boards are held until it ends: past :data:`PAGE_ITEMS` boards
and table results, :data:`PAGE_CHARS` characters of text kept, elements nested
:data:`PAGE_DEPTH` deep, or one tag, comment or script left open over :data:`OPEN_CHARS`
characters, the file is refused (:class:`~bridgerank.cleaning.ingest.limits.OverLimit`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator

from bridgerank.cleaning.ingest.limits import OverLimit
from bridgerank.cleaning.ingest.recap_entry import game_population, offered_strata, pair_entry
from bridgerank.cleaning.ingest.records import RawRecord, ReaderInput

_SUIT_CLASSES = {"bcspades": "S", "bchearts": "H", "bcdiams": "D", "bcclubs": "C"}
_SUIT_SYMBOLS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
# Where each hand's table sits in the diagram (class of an enclosing cell or row).
_HAND_PLACES = (("bchd2a", "W"), ("bchd2c", "E"), ("bchd3", "S"), ("bchd1", "N"))
_DEALERS = {"North": "N", "East": "E", "South": "S", "West": "W"}
_VULNERABILITY = {"None": "None", "N-S": "NS", "E-W": "EW", "Both": "All"}
_VOID_ELEMENTS = frozenset({"br", "hr", "img", "meta", "link", "input", "col", "wbr"})
# What one page may hold. The largest real page (0.8 MB) has 467 boards and table results,
# each about 1.4 KB in memory, elements nested 14 deep, and no construct left open over
# 1,300 characters.
PAGE_ITEMS = 50_000
PAGE_CHARS = 1 << 24
PAGE_DEPTH = 1_000
OPEN_CHARS = 1 << 20
# The parser gets the page in pieces of about this many characters: it searches a construct
# left open from its start at every piece, so a line at a time would cost the square of it.
_FEED_CHARS = 1 << 16
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_DATE_IN_TITLE = re.compile(
    r"\b(" + "|".join(_MONTHS) + r")\s+(\d{1,2}),?\s+(\d{4})\b", re.IGNORECASE
)
_DATE_IN_PATH = re.compile(r"(20\d\d|19\d\d)-?(\d\d)-?(\d\d)")
_SECTION_LINE = re.compile(r"Section\s+([A-Z]{1,2})\b(?:\s+(North-South|East-West))?")
_PAIR_LINE = re.compile(r"^\s*(\d+)\s+\S")
_PAIR_CELL = re.compile(r"^\s*([A-Z]{0,2})(\d+)-(.*)$")
_TEAM_NUMBER = re.compile(r"^[A-Z]*")  # a pair label's section letters, before its number
_SCORE = re.compile(r"^(-?\d+)([A-Z]?)$")


@dataclass
class _Board:
    label: str = ""
    dealer: str = ""
    vulnerable: str = ""
    hands: dict[str, dict[str, str]] = field(default_factory=dict)
    rows: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)


class _RecapParser(HTMLParser):
    """Collects the pair-list text and, per board, the labels, hands and result rows."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.recap_text: list[str] = []
        self.boards: list[_Board] = []
        self._stack: list[tuple[str, str]] = []
        self._capture: tuple[int, str] | None = None  # (stack depth, what) while inside
        self._text: list[str] = []
        self._hand: dict[str, str] | None = None
        self._suit = ""
        self._section = ""
        self._row: dict[str, str] | None = None
        self._items = 0  # boards and table results held
        self._chars = 0  # characters of text captured

    def _hold(self, items: int = 0, chars: int = 0) -> None:
        """Count what the page makes the parser keep; past the page bounds, refuse it."""
        self._items += items
        self._chars += chars
        if self._items > PAGE_ITEMS or self._chars > PAGE_CHARS:
            raise OverLimit(
                f"the recap page holds more than {PAGE_ITEMS:,} boards and table results "
                f"or {PAGE_CHARS:,} characters of them"
            )

    @property
    def board(self) -> _Board:
        if not self.boards:
            self.boards.append(_Board())
        return self.boards[-1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        cls = (attributes.get("class") or "").split(" ")[0]
        if tag in _VOID_ELEMENTS:
            return
        if len(self._stack) >= PAGE_DEPTH:
            # open elements are searched at every end tag: deeper would cost the square
            raise OverLimit(f"the recap page nests elements more than {PAGE_DEPTH:,} deep")
        self._stack.append((tag, cls))
        if tag == "pre" and attributes.get("id") == "bcrecap":
            self._start_capture("recap")
        elif cls == "bclabelboard":
            self._hold(items=1)
            self.boards.append(_Board())
            self._start_capture("label")
        elif cls in ("bclabeldealer", "bclabelvul"):
            self._start_capture(cls)
        elif tag == "table" and cls.startswith("bchand"):  # bchandhl: a highlighted hand
            seat = self._hand_place()
            self._hand = self.board.hands.setdefault(seat, {}) if seat else None
        elif cls in _SUIT_CLASSES and self._hand is not None and self._capture is None:
            self._suit = _SUIT_CLASSES[cls]
        elif tag == "td" and cls.startswith("bchand") and self._hand is not None:
            self._start_capture("holding")
        elif tag == "tr" and cls.startswith("bcstsection"):
            self._start_capture("section")
        elif tag == "tbody":
            self._section = ""
        elif tag == "tr" and cls in ("bcst", "bcstshade"):
            self._hold(items=1)
            self._row = {}
            self.board.rows.append((self.getpos()[0], self._section, self._row))
        elif tag == "td" and self._row is not None and cls.startswith("bcst"):
            self._start_capture("cell:" + cls[4:])

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID_ELEMENTS or all(open_tag != tag for open_tag, _ in self._stack):
            return  # a stray end tag closes nothing
        while self._stack:
            open_tag, cls = self._stack.pop()
            if self._capture is not None and len(self._stack) < self._capture[0]:
                self._finish_capture()
            if open_tag == "table" and cls.startswith("bchand"):
                self._hand = None
            if open_tag == "tr" and cls in ("bcst", "bcstshade"):
                self._row = None
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._capture is not None:
            self._hold(chars=len(data))
            self._text.append(data)

    def _start_capture(self, what: str) -> None:
        if self._capture is None:
            self._capture = (len(self._stack), what)
            self._text = []

    def _finish_capture(self) -> None:
        assert self._capture is not None
        what, text = self._capture[1], "".join(self._text)
        self._capture = None
        if what == "recap":
            self.recap_text.append(text)
        elif what == "label":
            self.board.label = text.strip()
        elif what == "bclabeldealer":
            self.board.dealer = text.strip()
        elif what == "bclabelvul":
            self.board.vulnerable = text.strip()
        elif what == "holding" and self._hand is not None and self._suit:
            self._hand[self._suit] = text
        elif what == "section":
            self._section = text.strip()
        elif what.startswith("cell:") and self._row is not None:
            self._row[what[5:]] = text

    def _hand_place(self) -> str | None:
        for tag_class in reversed(self._stack):
            for container, seat in _HAND_PLACES:
                if tag_class[1].startswith(container):
                    return seat
        return None


@dataclass
class _Section:
    event: str
    scoring: str
    pairs: dict[tuple[str, int], tuple[str, str]] = field(default_factory=dict)
    # each pair's entry (:mod:`~bridgerank.cleaning.ingest.recap_entry`), where printed
    entries: dict[tuple[str, int], str] = field(default_factory=dict)
    # a team game's rosters by team number (its list is headed ``Team``, not ``Pair``)
    teams: dict[int, list[str]] = field(default_factory=dict)


def _pair_lists(text: str) -> tuple[dict[str, _Section], str]:
    """Sections by letter, from the recap's pair lists; and the first event title seen."""
    sections: dict[str, _Section] = {}
    first_title = ""
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.splitlines() if line.strip()]
        heading = next(
            (
                i
                for i, line in enumerate(lines)
                if _SECTION_LINE.search(line) and "rounds" in line.lower()
            ),
            None,
        )
        if heading is None:
            continue
        title = " ".join(lines[heading - 1].split()) if heading > 0 else ""
        first_title = first_title or title
        found = _SECTION_LINE.search(lines[heading])
        assert found is not None
        letter = found.group(1)
        direction = {"North-South": "NS", "East-West": "EW"}.get(found.group(2) or "", "")
        columns = " ".join(lines[heading : heading + 3])
        matchpoints = any(word in columns for word in ("Average", "Factored", "Pct"))
        teams = heading + 1 < len(lines) and lines[heading + 1].lstrip().startswith("Team")
        scoring = "BAM" if teams else "MP" if matchpoints else "IMP"
        section = sections.setdefault(letter, _Section(title, scoring))
        population = game_population(title)
        offered = offered_strata(lines[heading + 2]) if heading + 2 < len(lines) else frozenset()
        for line in lines[heading + 1 :]:
            number = _PAIR_LINE.match(line)
            if not number:
                continue
            names = re.split(r"\s{2,}", line.strip())[-1]
            names = names.rsplit(") ", 1)[-1]
            if teams:
                section.teams[int(number.group(1))] = [n.strip() for n in names.split(" - ")]
                continue
            first, _, second = names.partition(" - ")
            key = (direction, int(number.group(1)))
            section.pairs[key] = (first.strip(), second.strip())
            entry = pair_entry(line, population, offered)
            if entry is not None:
                section.entries[key] = entry
    return sections, first_title


def _date(title: str, source: Path | None) -> str:
    found = _DATE_IN_TITLE.search(title)
    if found:
        month = _MONTHS.index(found.group(1).lower()) + 1
        return f"{found.group(3)}.{month:02d}.{int(found.group(2)):02d}"
    found = _DATE_IN_PATH.search(str(source or ""))
    return f"{found.group(1)}.{found.group(2)}.{found.group(3)}" if found else ""


def _deal(hands: dict[str, dict[str, str]]) -> str:
    """The four hands as a PBN deal from North, or "" when a hand is missing."""
    if len(hands) != 4:
        return ""
    written = []
    for seat in "NESW":
        suits = []
        for suit in "SHDC":
            cards = hands[seat].get(suit, "").replace("10", "T").replace("\u2014", "")
            suits.append("".join(cards.split()))
        written.append(".".join(suits))
    return "N:" + " ".join(written)


def _contract(text: str) -> str:
    """``4 ♥×`` as ``4HX``; ``Pass`` and other words as written."""
    for symbol, letter in _SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    text = text.replace("\u00d7", "X").replace("\u2009", "").replace("\u00a0", "")
    return "".join(text.split())


def _tricks(contract: str, made: str) -> str:
    """Declarer's tricks: ``made`` is the level made (``4``) or the undertricks (``-2``)."""
    made = made.strip().replace("\u2212", "-")
    if not re.fullmatch(r"-?\d{1,2}", made) or not contract[:1].isdigit():
        return made
    value = int(made)
    return str(value + 6 if value >= 0 else int(contract[0]) + 6 + value)


def _score(ns: str, ew: str) -> str:
    """The table's score as ``NS 100``/``EW 620`` (group letter kept), or the word written."""
    ns, ew = ns.strip().replace("\u2212", "-"), ew.strip().replace("\u2212", "-")
    for side, value in (("NS", ns), ("EW", ew)):
        if _SCORE.match(value):
            return f"{side} {value}"
    return ns or ew


def _lead_card(text: str) -> str:
    for symbol, letter in _SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    return "".join(text.split()).replace("\u2009", "").replace("10", "T")


def _pair(
    cell: str, section: str, direction: str, sections: dict[str, _Section]
) -> tuple[str, str, str, str]:
    """Names of a pair cell ``B6-Kroll-Balas`` (full names from the pair list when listed),
    its label and its entry (:mod:`~bridgerank.cleaning.ingest.recap_entry`, "" if none)."""
    found = _PAIR_CELL.match(cell)
    if not found:
        return "", "", cell.strip(), ""
    letter = found.group(1) or section or (next(iter(sections)) if len(sections) == 1 else "")
    number = int(found.group(2))
    label = f"{letter}{number}"
    listed = sections.get(letter)
    if listed is not None:
        for key in ((direction, number), ("", number)):
            if key in listed.pairs:
                return (*listed.pairs[key], label, listed.entries.get(key, ""))
    first, _, second = found.group(3).partition("-")
    if listed is not None and number in listed.teams:  # a team's pair, named from its roster
        roster = list(listed.teams[number])
        named = _on_roster(first, roster)
        if named in roster:
            roster.remove(named)  # "Rogers-Rogers": the second is the other Rogers
        return named, _on_roster(second, roster), label, ""
    return first.strip(), second.strip(), label, ""


def _on_roster(surname: str, roster: list[str]) -> str:
    """The first roster name ending in ``surname`` (its full name), else the surname."""
    surname = surname.strip()
    found = [name for name in roster if name.lower().split()[-1:] == [surname.lower()]]
    return found[0] if found else surname


def _team_match(ns_pair: str, ew_pair: str, section: str) -> dict[str, str]:
    """A team game's table as one room of a match between the two pairs' teams: the lower
    team number's North-South sits in the open room (the teams' numbers name them)."""
    ns_team, ew_team = (int(_TEAM_NUMBER.sub("", pair) or 0) for pair in (ns_pair, ew_pair))
    home, visit = sorted((ns_team, ew_team))
    return {
        "room": "open" if ns_team == home else "closed",
        "home_team": f"Section {section} team {home}",
        "visit_team": f"Section {section} team {visit}",
    }


def _pieces(text: ReaderInput) -> Iterator[str]:
    """The page in pieces of at least :data:`_FEED_CHARS` characters (the last may be
    shorter); a whole text as it is."""
    if isinstance(text, str):
        yield text
        return
    pending: list[str] = []
    size = 0
    for line in text:
        pending.append(line)
        size += len(line)
        if size >= _FEED_CHARS:
            yield "".join(pending)
            pending, size = [], 0
    if pending:
        yield "".join(pending)


def read_recap(text: ReaderInput, source: Path | None = None) -> Iterator[RawRecord]:
    """Yield one raw record per table result of a BridgeComposer recap page.

    The page is parsed as it streams in; what is kept is its boards (one session's worth).

    Parameters
    ----------
    text : str or iterable of str
        The page's HTML, as a stream of lines or a whole text.
    source : Path, optional
        Where it was read from; its name gives the date when no pair-list title does.

    Raises
    ------
    OverLimit
        When the page holds more than the module's bounds.
    """
    parser = _RecapParser()
    for piece in _pieces(text):
        parser.feed(piece)
        if len(parser.rawdata) > OPEN_CHARS:  # what the parser holds back, unfinished
            raise OverLimit(
                f"a tag, comment or script of the recap page runs over {OPEN_CHARS:,} characters"
            )
    parser.close()
    sections, first_title = _pair_lists("\n".join(parser.recap_text))
    number = 0
    for board in parser.boards:
        deal = _deal(board.hands)
        for line, section_label, cells in board.rows:
            number += 1
            section = section_label.replace("Section", "").strip()
            if not section and len(sections) == 1:
                section = next(iter(sections))
            listed = sections.get(section)
            event = listed.event if listed is not None else first_title
            north, south, ns_pair, ns_entry = _pair(
                cells.get("pairns", ""), section, "NS", sections
            )
            east, west, ew_pair, ew_entry = _pair(cells.get("pairew", ""), section, "EW", sections)
            contract = _contract(cells.get("contract", ""))
            values = {
                "event": event,
                "date": _date(event, source),
                "board": board.label,
                "stage": f"Section {section}" if section else "",
                "dealer": _DEALERS.get(board.dealer.split(" ")[0], board.dealer),
                "vulnerable": _VULNERABILITY.get(
                    board.vulnerable.replace(" Vul", "").strip(), board.vulnerable
                ),
                "northname": north,
                "southname": south,
                "eastname": east,
                "westname": west,
                "contract": contract,
                "declarer": cells.get("declarer", "").strip(),
                "result": _tricks(contract, cells.get("made", "")),
                "score": _score(cells.get("scorens", ""), cells.get("scoreew", "")),
                "scoring": listed.scoring if listed is not None else "",
                "room": "",
                "lead_card": _lead_card(cells.get("lead", "")),
                "pairs": f"{ns_pair} {ew_pair}",
                "points": " ".join(
                    cells.get(key, "").strip().replace("\u2212", "-")
                    for key in ("mpns", "mpew", "impns", "impew")
                    if cells.get(key, "").strip()
                ),
            }
            if listed is not None and listed.scoring == "BAM":
                values.update(_team_match(ns_pair, ew_pair, section))
            if deal:
                values["deal"] = deal
            if ns_entry or ew_entry:
                values.update(ns_entry=ns_entry, ew_entry=ew_entry)
            yield RawRecord(number, line, values=values, play_layout="seat")
