"""Readers for the small raw fields: seats, vulnerability, year, event names, trick counts,
names."""

from __future__ import annotations

import re

from bridgerank.bridge.cards import SEAT_INDEX

# Duplicate boards repeat dealer and vulnerability every 16 boards (Law 2).
_BOARD_VULNERABILITY = (
    (False, False),
    (True, False),
    (False, True),
    (True, True),
    (True, False),
    (False, True),
    (True, True),
    (False, False),
    (False, True),
    (True, True),
    (False, False),
    (True, False),
    (True, True),
    (False, False),
    (True, False),
    (False, True),
)
_VULNERABILITY = {
    "NONE": (False, False),
    "LOVE": (False, False),
    "-": (False, False),
    "O": (False, False),
    "0": (False, False),
    "NEITHER": (False, False),
    "NS": (True, False),
    "N-S": (True, False),
    "N/S": (True, False),
    "NZ": (True, False),
    "N": (True, False),
    "EW": (False, True),
    "E-W": (False, True),
    "E/W": (False, True),
    "E": (False, True),
    "ALL": (True, True),
    "BOTH": (True, True),
    "B": (True, True),
    "ALL]": (True, True),
}
_YEAR_IN_DATE = re.compile(r"^\s*(\d{4})")
_YEAR = r"(1[89]\d\d|20\d\d)"
_YEAR_IN_TEXT = re.compile(rf"(?<!\d){_YEAR}(?!\d)")
# An event name that opens with its year ("1955 Bermuda Bowl Final"): the other files of the
# event put the year last ("Bermuda Bowl Final 1955"), and one event is one name.
_LEADING_YEAR = re.compile(rf"^{_YEAR}\s+(?=\D)")
_RESULT = re.compile(r"^\s*(?:(NS|EW|N-S|E-W)\s*:?\s*)?(\d{1,2})\s*$", re.IGNORECASE)
# A score followed by a group letter ("NS 100F"): a fouled board's group (club recaps).
_FOULED_SCORE = re.compile(r"^\s*(?:NS|EW)\s+-?\d+\s*([A-Z])\s*$", re.IGNORECASE)
# Artificial scores a director assigns when a deal is not played: Ave, Ave+, Ave-, A60, A40/60.
_ARTIFICIAL_SCORE = re.compile(
    r"^\s*(?:AVE?G?\s*[+=-]?|A\d\d(?:/\d\d)?|NOT\s*PLAYED|NP)\s*$", re.IGNORECASE
)
_SIDE_SCORE = re.compile(r"^\s*(NS|EW|N-S|E-W)\s*:?\s*(-?\d+)\s*$", re.IGNORECASE)
_NOT_PLAYED_CONTRACTS = frozenset({"NP", "LP", "NOTPLAYED"})
# "NN" (nomen nescio) is the German and Dutch leagues' name for a player not known.
_PLACEHOLDER_NAMES = frozenset(
    {"", "?", "-", "#", "unknown", "n/a", "na", "none", "nn", "n.n.", "n. n.", "n.n"}
)


def seat(raw: str | None) -> int | None:
    """Seat index of ``N``/``E``/``S``/``W`` (any case, PBN's ``^`` prefix allowed), else None."""
    token = (raw or "").strip().lstrip("^").upper()
    return SEAT_INDEX.get(token) if len(token) == 1 else None


def vulnerability(
    raw: str | None, board_number: int | None
) -> tuple[bool | None, bool | None, str | None]:
    """Read a vulnerability value.

    Returns
    -------
    ns, ew : bool or None
        Whether each side is vulnerable; None when unknown.
    note : str or None
        ``vulnerability_from_board`` when the value was missing and the board number gave it,
        ``vulnerability_unknown`` when nothing did, else None.

    Notes
    -----
    An empty value is never read as "none vulnerable": the thesis did, and so scored
    vulnerable boards as non-vulnerable ones.
    """
    token = (raw or "").strip().upper().replace(" ", "")
    if token in _VULNERABILITY:
        ns, ew = _VULNERABILITY[token]
        return ns, ew, None
    if board_number is not None and board_number > 0:
        ns, ew = _BOARD_VULNERABILITY[(board_number - 1) % 16]
        return ns, ew, "vulnerability_from_board"
    return None, None, "vulnerability_unknown"


def year(date: str | None, event: str | None, first: int, last: int) -> int | None:
    """The year a board was played: from the date, else from the event name; None if neither.

    Only years from ``first`` to ``last`` inclusive count, so an event called "Cup 3000" or a
    date typed "2106.01.01" gives no year rather than a wrong one.
    """
    match = _YEAR_IN_DATE.match(date or "")
    if match and first <= int(match.group(1)) <= last:
        return int(match.group(1))
    for match in _YEAR_IN_TEXT.finditer(event or ""):
        value = int(match.group(1))
        if first <= value <= last:
            return value
    return None


def event_name(raw: str | None) -> str:
    """An event's name as the boards keep it: spaces collapsed, and a leading year moved to
    the end when it is the name's only year.

    Files of one event write its name in both orders ("1955 Bermuda Bowl Final" and
    "Bermuda Bowl Final 1955"); kept as read, one event was two on every page, and its
    segments two matches. A name with another year in it ("2001 Spring NABC 1970") is left as
    written, as is one with no year first. Idempotent: a name already in this form is kept.

    Parameters
    ----------
    raw : str or None
        The event's name as the file writes it.

    Returns
    -------
    str
        The name to store ("" for none).
    """
    name = " ".join((raw or "").split())
    leading = _LEADING_YEAR.match(name)
    if leading is None or _YEAR_IN_TEXT.search(name, leading.end()):
        return name
    return f"{name[leading.end() :]} {leading.group(1)}"


def trick_count(raw: str | int | None, declarer: int | None = None) -> int | None:
    """Declarer's tricks from 0 to 13, else None.

    Accepts ``"9"`` and the side-prefixed ``"NS 10"``/``"EW 3"`` some PBN files use, which
    counts the named side's tricks (converted when the declarer is on the other side).
    """
    match = _RESULT.match(str(raw if raw is not None else ""))
    if not match:
        return None
    side, value = match.group(1), int(match.group(2))
    if value > 13:
        return None
    if side:
        if declarer is None:
            return None
        declarer_side = "NS" if declarer % 2 == 0 else "EW"
        return value if side.upper().replace("-", "") == declarer_side else 13 - value
    return value


def unplayed_result(contract: str | None, score: str | None) -> tuple[str, str] | None:
    """Why a table has no result to use, as ``(reason code, detail)``, or None when it has one.

    ``fouled_board`` for a score carrying a fouled board's group letter (``NS 100F``);
    ``not_played`` for an artificial score (``Ave+``, ``A60``) or a contract written ``NP``
    (not played) or ``LP`` (late play, never entered).
    """
    fouled = _FOULED_SCORE.match(score or "")
    if fouled:
        return "fouled_board", f"score {score!r}, group {fouled.group(1).upper()}"
    if _ARTIFICIAL_SCORE.match(score or ""):
        return "not_played", f"score {score!r}"
    if (contract or "").strip().upper().replace(" ", "") in _NOT_PLAYED_CONTRACTS:
        return "not_played", f"contract {contract!r}"
    return None


def side_score(raw: str | None) -> int | None:
    """A recorded score written with its side (``NS 100``, ``EW -50``) as North-South's score;
    None for anything else (a bare number names no side)."""
    match = _SIDE_SCORE.match(raw or "")
    if not match:
        return None
    value = int(match.group(2))
    return value if match.group(1).upper().replace("-", "") == "NS" else -value


def board_number(raw: str | int | None) -> int | None:
    """Board number as an int (``"12"``, ``"Board 12"``), else None."""
    match = re.search(r"\d+", str(raw or ""))
    return int(match.group(0)) if match else None


def player_name(raw: str | None) -> str:
    """A name with its white space folded; placeholders become the empty string."""
    name = " ".join((raw or "").replace("\u00a0", " ").split())
    return "" if name.lower() in _PLACEHOLDER_NAMES else name
