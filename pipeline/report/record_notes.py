"""What a hand record says of itself: the alerts and notes of its calls, its commentary.

The readers keep them verbatim as extra fields of the raw record (``raw_boards.extra``, see
:mod:`~bridgerank.cleaning.ingest.pbn` and :mod:`~bridgerank.cleaning.ingest.lin`): ``notes``,
PBN's ``1:text`` lines that the auction refers to as ``=1=``; ``call_notes``, LIN's ``2:text``
lines, each the note of the raw auction's call at that position (from 0); ``commentary``, a
JSON list of texts. Here they are tied to the cleaned auction's calls and put in the words and
symbols a page shows. A record read by a version of bridgerank before these fields has none:
its page shows no notes, and says nothing of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from bridgerank.bridge.cards import SUIT_SYMBOLS
from bridgerank.bridge.tokens import normalise_call

_NOTE_REFERENCE = re.compile(r"=(\d+)=")
_NOTE_LINE = re.compile(r"^\s*(\d+)\s*:\s*(.*)$")
# PBN writes a suit in free text as \S; BBO's LIN as !S or @S (either case)
_SUIT_ESCAPE = re.compile(r"\\([SHDC])|[!@]([SHDCshdc])")
# a line laid out in columns (a hand diagram, a table): a run of spaces between two words,
# or a deep indent
_DIAGRAM_LINE = re.compile(r"\S {3,}\S|^\s{4,}\S")


@dataclass(frozen=True)
class Comment:
    """One comment of the record: its text, and whether it is laid out in columns (a hand
    diagram, a table of scores), which a page must show as written."""

    text: str
    laid_out: bool


def with_suit_symbols(text: str) -> str:
    """``4\\S``, ``4!s`` and ``4@S`` as ``4♠``."""
    return _SUIT_ESCAPE.sub(lambda m: SUIT_SYMBOLS[(m.group(1) or m.group(2)).upper()], text)


def _extra(board: Mapping[str, Any]) -> dict[str, Any]:
    raw = board.get("record_extra")
    if not isinstance(raw, str) or not raw:
        return {}
    try:
        extra = json.loads(raw)
    except ValueError:
        return {}
    return extra if isinstance(extra, dict) else {}


def _note_texts(notes: Any) -> dict[str, str]:
    """``"1:strong\\n2:relay"`` as ``{"1": "strong", "2": "relay"}``."""
    texts: dict[str, str] = {}
    for line in str(notes or "").splitlines():
        match = _NOTE_LINE.match(line)
        if match:
            texts[match.group(1)] = match.group(2).strip()
    return texts


def _token_notes(tokens: list[str], extra: Mapping[str, Any]) -> dict[int, list[str]]:
    """The notes of each raw auction token, by its position: PBN's referred to by ``=1=``
    in the token, LIN's by the call's position (``call_notes``)."""
    texts = _note_texts(extra.get("notes"))
    by_token: dict[int, list[str]] = {}
    for position, token in enumerate(tokens):
        said = [texts[number] for number in _NOTE_REFERENCE.findall(token) if texts.get(number)]
        if said:
            by_token[position] = said
    for number, text in _note_texts(extra.get("call_notes")).items():
        if text:
            by_token.setdefault(int(number), []).append(text)
    return by_token


def call_notes(board: Mapping[str, Any]) -> dict[int, str]:
    """The notes of a record's calls, by the call's index in the cleaned auction (from 0).

    A call is noted when the record explains it (``=1=`` and its note) or, in a BBO record
    (LIN, the vugraph archive's dump), alerts it (``1C!``): an alert the record does not
    explain reads "alerted". PBN's ``!`` means "a good call", not an alert, and is left out.

    Parameters
    ----------
    board : mapping
        The board's row with its raw record's ``raw_auction``, ``record_extra`` and the
        ``source_format`` of its file.

    Returns
    -------
    dict
        Index of the call -> the note in words, suits as symbols.
    """
    tokens = str(board.get("raw_auction") or "").split()
    by_token = _token_notes(tokens, _extra(board))
    alerts_marked = board.get("source_format") not in ("pbn", None)
    notes: dict[int, str] = {}
    calls = 0
    for position, token in enumerate(tokens):
        made = len(normalise_call(token)[0])
        calls += made
        if calls == 0:
            continue
        said = by_token.get(position)
        if said:
            notes[calls - 1] = "; ".join([notes[calls - 1], *said] if calls - 1 in notes else said)
        elif made and alerts_marked and _NOTE_REFERENCE.sub("", token).endswith("!"):
            notes.setdefault(calls - 1, "alerted")
    return {index: with_suit_symbols(text) for index, text in notes.items()}


def commentary(board: Mapping[str, Any]) -> list[Comment]:
    """The record's commentary, in the order written, suits as symbols."""
    texts = _extra(board).get("commentary")
    try:
        items = json.loads(texts) if isinstance(texts, str) else []
    except ValueError:
        return []
    comments = []
    for item in items if isinstance(items, list) else []:
        text = with_suit_symbols(str(item)).strip("\n")
        if text.strip():
            laid_out = sum(bool(_DIAGRAM_LINE.search(line)) for line in text.splitlines()) >= 2
            comments.append(Comment(text, laid_out))
    return comments
