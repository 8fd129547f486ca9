"""Team matches rebuilt from traveller rows: two tables of one round, the same two teams.

In a round of a team event every board is played at the two tables of each match: team A's
one pair North-South at one table (the *open* table here), its other pair East-West at the
other (the *closed* table), team B in the other seats. A traveller file (Valet's
``scores.txt``) lists each table's players but neither its match nor its teams, so the
tables are paired from the players seated, never from the order of the file: partners form
units, units that always sat in opposite directions while playing the same boards are
teammates, and two tables whose units are teammates both ways, each the other's best, are
the two rooms of one match (the rules, and the matches they find, are
:mod:`~bridgerank.cleaning.clean.match_pairing`'s). Team A's IMPs on a board are the open
table's North-South score less the closed table's; every table not paired keeps its reason,
each of its records one ``exclusions`` row (:func:`match_rows`).

Notes
-----
The rules need no team names and no rosters. A table is left out as ambiguous rather than
guessed when two candidates are equally good. A name that stands for two players in one
round is read as a person of each table, and a copy of a table already read - another file
of the event, a name written another way, a later year's training file - is told before any
pairing (:class:`_ReadAlready`).
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from bridgerank.bridge.auction import parse_contract
from bridgerank.cleaning.clean import fields
from bridgerank.cleaning.clean.match_pairing import (
    SEATS,
    TeamMatch,
    TeamMatches,
    add_file_matches,
    table_result,
)
from bridgerank.core.disjoint import DisjointSets

__all__ = [
    "board_a_match",
    "build_matches",
    "match_rows",
    "teams_against_themselves",
    "traveller_row",
]

_DECLARERS = {"N": 0, "E": 1, "S": 2, "W": 3}
# Words of an event name that mark board-a-match scoring (Valet's "BAMQ", "2019-BAM").
_BOARD_A_MATCH = ("BAM",)
# Boards from which a match's results alone identify it (a copy under other names).
_SIGNATURE_BOARDS = 4


# The readers of a record's fields are pure and a folder repeats a few thousand names,
# contracts and dates over a million records: each distinct value is read once.
_player_name = lru_cache(maxsize=1 << 16)(fields.player_name)
_contract = lru_cache(maxsize=1 << 12)(parse_contract)
_year = lru_cache(maxsize=1 << 12)(fields.year)
_board_number = lru_cache(maxsize=1 << 10)(fields.board_number)


def board_a_match(event: str) -> bool:
    """Whether an event's name says it was scored board-a-match: a word starting with
    ``BAM`` in capitals (Valet's ``BAMQ1``, ``BAMfinal``, ``2019-BAM``; not "Bamberg")."""
    words = "".join(c if c.isalnum() else " " for c in event).split()
    return any(word.startswith(_BOARD_A_MATCH) for word in words)


def traveller_row(
    raw_id: int, values: Mapping[str, Any], source: str, first_year: int, last_year: int
) -> dict[str, Any]:
    """A raw traveller record (``raw_boards`` fields) as :func:`build_matches` reads it.

    A record needs no deal to be scored: the cleaning drops a record without one (no double
    dummy verdict can be had), but its contract, declarer, tricks and the vulnerability of
    its board number score it all the same. Names are folded as the cleaning folds them.
    """
    board_no = _board_number(values.get("board"))
    vulnerable = fields.vulnerability(values.get("vulnerable"), board_no)
    contract = _contract(values.get("contract"))
    declarer = fields.seat(values.get("declarer"))
    return {
        "id": raw_id,
        "source": source,
        "event": (values.get("event") or "").strip(),
        "round": (values.get("stage") or "").strip(),
        "board_no": board_no,
        "north": _player_name(values.get("northname")),
        "east": _player_name(values.get("eastname")),
        "south": _player_name(values.get("southname")),
        "west": _player_name(values.get("westname")),
        "contract": str(contract) if contract is not None else "",
        "declarer": "NESW"[declarer] if declarer is not None else "",
        "result": fields.trick_count(values.get("result"), declarer),
        "lead_card": (values.get("lead_card") or "").strip().upper(),
        "ns_vulnerable": vulnerable[0],
        "ew_vulnerable": vulnerable[1],
        "year": _year(values.get("date"), values.get("event"), first_year, last_year),
    }


def _parts_first(source: str) -> tuple[str, bool, str]:
    """Files of a folder in the order paired: an event's parts (``scoresA.txt``,
    ``scores3b.txt``: one group or division each) before the file that joins them all
    (``scores.txt``), whose records they repeat; otherwise by path."""
    folder, _, name = source.replace("\\", "/").rpartition("/")
    return folder, name.lower() == "scores.txt", name


class _ReadAlready:
    """The records of the files read so far, to tell a copy (module notes on copies).

    A record is a copy of one already read when it has the same event, round, board and
    result (contract, declarer, tricks, lead) and the same players in at least three of the
    four seats: one player can play a board once a round, so a fourth name written another
    way (``EL-KOURDY Adel`` in the file joining a championship's groups, ``KOURDY Adel El``
    in the group's own file) is the same table. A table of a file is a copy of an earlier
    year's when at least :data:`_SIGNATURE_BOARDS` of its records (all, if it has fewer)
    have the players and results of records of that year, whatever their event, round and
    board numbers: a training file re-dealing championship rounds under its own name and
    year. (Within a year, a copy under other names - ``altnames/`` - is told by its matches'
    results, :func:`_signature`.)
    """

    def __init__(self) -> None:
        self._records: set[tuple] = set()
        self._tables: dict[tuple, Any] = {}

    @staticmethod
    def _record_keys(record: Mapping[str, Any], table: tuple) -> list[tuple]:
        """The keys a copy of ``record`` would share with it: its place, result and seats,
        and the same with any one seat blank; ``table`` is its :meth:`_table_key`."""
        where = tuple(record.get(name) for name in ("event", "round", "board_no"))
        seats, result = table
        keys = [(*where, result, seats)]
        for blank in range(len(SEATS)):  # any one name written another way
            keys.append((*where, result, seats[:blank] + ("",) + seats[blank + 1 :]))
        return keys

    @staticmethod
    def _table_key(record: Mapping[str, Any]) -> tuple:
        return tuple(record.get(seat) or "" for seat in SEATS), table_result(record)

    def first_reads(
        self, rows: Sequence[Mapping[str, Any]], found: TeamMatches
    ) -> list[Mapping[str, Any]]:
        """The records of a file not already read; each of the others is a ``match_copy``."""
        # each record's seats and result, computed once (they key every test below)
        table_keys = [self._table_key(record) for record in rows]
        tables: dict[tuple, list[tuple[Mapping[str, Any], tuple]]] = defaultdict(list)
        for record, table in zip(rows, table_keys):
            seated = tuple(record.get(seat) for seat in SEATS)
            tables[(record.get("round"),) + seated].append((record, table))
        copied: set[int] = set()
        for records in tables.values():
            known = [record for record, table in records if self._earlier_year(record, table)]
            if known and len(known) >= min(_SIGNATURE_BOARDS, len(records)):
                copied.update(record["id"] for record in known)
        kept = []
        for record, table in zip(rows, table_keys):
            keys = self._record_keys(record, table)
            named = record.get("north")
            if named and (record["id"] in copied or not self._records.isdisjoint(keys)):
                found.excluded[record["id"]] = "match_copy"
            else:
                kept.append(record)
            self._records.update(keys)
        for record, table in zip(rows, table_keys):
            self._tables.setdefault(table, record.get("year"))
        return kept

    def _earlier_year(self, record: Mapping[str, Any], table: tuple) -> bool:
        year = self._tables.get(table)
        return year is not None and record.get("year") is not None and year < record["year"]


def _signature(match: TeamMatch) -> tuple:
    """What makes two records of a match one match: every board's two results (contract,
    declarer, tricks, lead), whatever the boards' numbers; with the players too when the
    match is too short for its results alone to tell it apart."""
    boards = []
    for board in match.boards:
        boards.append(tuple(sorted((board.open_result, board.closed_result))))
    results = tuple(sorted(boards))
    if len(results) >= _SIGNATURE_BOARDS:
        return results
    players = frozenset(p for b in match.boards for p in b.open_seats + b.closed_seats)
    return results, players


def build_matches(
    records: Iterable[Mapping[str, Any]],
    progress: Callable[..., Iterable[Any]] | None = None,
) -> TeamMatches:
    """Pair the tables of team-event traveller records into matches (module docstring).

    Parameters
    ----------
    records : iterable of mappings
        Traveller records (:func:`traveller_row`) in the order read: ``id``, ``event``,
        ``source`` (the file: the tables of one file are paired among themselves, so that a
        file listing two groups of a round robin at once, whose directions alone cannot tell
        the groups apart, leaves the pairing to each group's own file where there is one),
        ``round``, ``board_no``, the four seats' names, ``contract``, ``declarer``,
        ``result``, ``lead_card``, ``ns_vulnerable``, ``ew_vulnerable`` and ``year``.
    progress : callable, optional
        ``progress(items, label, total)`` wraps the files as they are paired (the CLI's
        progress bar: a folder of events takes a minute or two).

    Returns
    -------
    TeamMatches
        The matches, file by file and round by round in the order first read, and the
        reason of every record left out; a match read again (another file of the same
        event, a copy under other board numbers) is kept once.
    """
    found = TeamMatches()
    by_source: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for record in records:
        by_source[record.get("source") or record["event"]].append(record)
    read_already = _ReadAlready()
    sources = sorted(by_source, key=_parts_first)
    for source in progress(sources, "team matches: files", len(sources)) if progress else sources:
        rows = read_already.first_reads(by_source[source], found)
        if not rows:
            continue
        if board_a_match(rows[0]["event"]):
            for record in rows:
                found.excluded[record["id"]] = "match_board_a_match"
            continue
        add_file_matches(rows[0]["event"], rows, found)
    kept: list[TeamMatch] = []
    seen: set[tuple] = set()
    for match in found.matches:
        signature = _signature(match)
        if signature in seen:
            for board in match.boards:
                found.excluded[board.open_id] = "match_copy"
                found.excluded[board.closed_id] = "match_copy"
            continue
        seen.add(signature)
        kept.append(match)
    found.matches = kept
    return found


def match_rows(found: TeamMatches) -> tuple[list[dict], list[dict], list[dict]]:
    """The rows of ``team_matches``, ``match_boards`` and ``exclusions`` (level ``match``,
    one per record of a table in no match) of what :func:`build_matches` found."""
    matches, boards = [], []
    for number, match in enumerate(found.matches, start=1):
        matches.append(
            {
                "id": number,
                "event": match.event,
                "round": match.round,
                "year": match.year,
                "boards": len(match.boards),
                "margin": match.margin,
                **_seat_columns("open", match.open),
                **_seat_columns("closed", match.closed),
            }
        )
        for board in match.boards:
            boards.append(
                {
                    "match_id": number,
                    "board_no": board.board_no,
                    "open_id": board.open_id,
                    "closed_id": board.closed_id,
                    **_seat_columns("open", board.open_seats),
                    **_seat_columns("closed", board.closed_seats),
                    "open_score": board.open_score,
                    "closed_score": board.closed_score,
                    "imps": board.imps,
                }
            )
    exclusions = [
        {"raw_id": raw_id, "level": "match", "reason": reason, "detail": ""}
        for raw_id, reason in sorted(found.excluded.items())
    ]
    return matches, boards, exclusions


def teams_against_themselves(
    matches: Sequence[Mapping[str, Any]], boards: Sequence[Mapping[str, Any]]
) -> int:
    """The matches whose two teams are one team, once every match of its event has joined
    its teammates into teams: what a wrong pairing leaves, and a check of the pairing that
    needs no rosters (a right one leaves none but where one name stands for two players).

    Parameters
    ----------
    matches, boards : sequences of mappings
        Rows of ``team_matches`` (``id``, ``event``, ``open_north``, ``open_east``) and of
        ``match_boards`` (``match_id`` and the eight seats, ``open_north`` ... ``closed_west``),
        as :func:`match_rows` makes them and the tables keep them.
    """
    event_of = {match["id"]: match["event"] for match in matches}
    teams: DisjointSets[tuple[str, str]] = DisjointSets()
    for board in boards:
        event = event_of[board["match_id"]]
        seat = {
            (room, name): (event, board[f"{room}_{name}"])
            for room in ("open", "closed")
            for name in SEATS
        }
        # team A: the open room's North-South and the closed room's East-West
        for first, second in (
            (("open", "north"), ("open", "south")),
            (("open", "north"), ("closed", "east")),
            (("closed", "east"), ("closed", "west")),
            (("open", "east"), ("open", "west")),
            (("open", "east"), ("closed", "north")),
            (("closed", "north"), ("closed", "south")),
        ):
            teams.union(seat[first], seat[second])
    return sum(
        teams.find((m["event"], m["open_north"])) == teams.find((m["event"], m["open_east"]))
        for m in matches
    )


def _seat_columns(room: str, seats: Sequence[str]) -> dict[str, str]:
    return {f"{room}_{seat}": name for seat, name in zip(SEATS, seats)}
