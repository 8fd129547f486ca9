"""The pairing of a traveller file's tables into team matches, and the matches it finds.

A traveller file lists each table's players but neither its match nor its teams, so the
tables are paired from the players seated, never from the order of the file
(:func:`~bridgerank.cleaning.clean.team_matches.build_matches` hands each file's records to
:func:`add_file_matches`):

1. A *table* of a round is its line-up: the North-South pair and the East-West pair, with
   every board they played together in that round.
2. Players who sat together as partners anywhere in the event are teammates (a team's
   partnerships may change between rounds: the partner graph's components, *units*).
3. Two units are *teammates* when, whenever both played the same boards of a round, they
   sat in opposite directions at different tables (a team's two pairs always do), and did
   so at least once; a unit they ever faced, or sat in the same direction as while playing
   the same boards, is not (tables of a round that share no board are different segments,
   between which a team may change its line-up).
4. Table ``a`` (units ``n``, ``e``) is matched with table ``b`` when ``b``'s East-West unit
   is ``n``'s teammate and ``b``'s North-South unit is ``e``'s, ``b`` is ``a``'s only such
   table (the best when several qualify, no tie) and ``a`` is ``b``'s. The best candidate
   is the one whose consequences hold (two teammates' opponents in every round both played
   are teammates too, and so on: a candidate is refuted when a consequence is two units
   that faced each other or sat the same direction), then the one with the most support.
   In a field whose pairs keep their direction all event, every North-South unit has the
   same support with every East-West unit it never met; only the consequences tell.

A board of a match is one played at both of its tables; team A's score is the open table's
North-South score less the closed table's, its IMPs by the IMP scale; the match's margin is
the sum over its boards. Every table not paired keeps its reason (the ``match`` level of
:mod:`~bridgerank.cleaning.clean.reasons`), each of its records one ``exclusions`` row.

Notes
-----
A name that stands for two players in one round (:func:`_doubled_names`) is read as a person
of each table.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from bridgerank.bridge.scoring import imps, table_score
from bridgerank.core.disjoint import DisjointSets

__all__ = [
    "SEATS",
    "MatchBoard",
    "TeamMatch",
    "TeamMatches",
    "add_file_matches",
    "table_result",
]

# A traveller record's seats, in the order of a line-up.
SEATS = ("north", "east", "south", "west")
# The support of two pairs of one unit (partners somewhere in the event): more than any
# count of rounds can give two units.
_PARTNERS = 1 << 20


@dataclass(frozen=True)
class MatchBoard:
    """A board of a match: its number, the open and closed tables' records and North-South
    scores, and team A's IMPs."""

    board_no: int
    open_id: int
    closed_id: int
    open_score: int
    closed_score: int
    open_result: tuple = ()
    closed_result: tuple = ()
    open_seats: tuple[str, str, str, str] = ("", "", "", "")
    closed_seats: tuple[str, str, str, str] = ("", "", "", "")

    @property
    def imps(self) -> int:
        return imps(self.open_score - self.closed_score)


@dataclass
class TeamMatch:
    """Two tables of one round: team A is ``open``'s North-South and ``closed``'s East-West.
    Each line-up is ``(north, east, south, west)`` as written."""

    event: str
    round: str
    year: int | None
    open: tuple[str, str, str, str]
    closed: tuple[str, str, str, str]
    boards: list[MatchBoard] = field(default_factory=list)

    @property
    def margin(self) -> int:
        """Team A's IMPs over the match."""
        return sum(board.imps for board in self.boards)


@dataclass
class TeamMatches:
    """The matches found, and the reason of every record of a table left out
    (``excluded[record id] = reason``)."""

    matches: list[TeamMatch] = field(default_factory=list)
    excluded: dict[int, str] = field(default_factory=dict)

    def reasons(self) -> Counter:
        """Records left out, by reason."""
        return Counter(self.excluded.values())


@dataclass
class _Table:
    """A line-up of a round and its records by board number. ``persons`` are the seats as
    the pairing reads them: a name that stands for two players (:func:`_doubled_names`) is
    a person of this table alone."""

    seats: tuple[str, str, str, str]
    persons: tuple[str, str, str, str]
    records: dict[int, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def north_south(self) -> frozenset[str]:
        return frozenset((self.persons[0], self.persons[2]))

    @property
    def east_west(self) -> frozenset[str]:
        return frozenset((self.persons[1], self.persons[3]))


class _Units(DisjointSets[str]):
    """Partner graph components of an event: players who ever sat together as partners."""

    def join(self, pair: frozenset[str]) -> None:
        self.union(*sorted(pair))

    def of(self, pair: frozenset[str]) -> str:
        return self.find(next(iter(pair)))


def _concurrent(one: _Table, two: _Table) -> bool:
    """Whether two tables of a round played a board in common (the same segment)."""
    return not one.records.keys().isdisjoint(two.records.keys())


class _Teamship:
    """What an event's line-ups say of which units are teammates (module steps 3 and 4).

    ``support`` counts, for two units, the rounds in which they sat in opposite directions
    at different tables; ``never`` holds the pairs that cannot be teammates (they faced each
    other, or sat in the same direction, while playing the same boards).
    """

    # Pairs of units a consequence check follows before it gives up (and finds no fault):
    # a field of a few hundred teams closes well within it.
    _CLOSURE_LIMIT = 400

    def __init__(self, rounds: Mapping[str, Sequence[_Table]], units: _Units) -> None:
        self.units = units
        self.support: Counter = Counter()
        self.never: set[frozenset[str]] = set()
        self._rounds = rounds
        # unit -> round -> the tables it sat at: (table, direction 0 NS / 1 EW, opponent).
        self._places: dict[str, dict[str, list[tuple[int, int, str]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for name, tables in rounds.items():
            north = [units.of(table.north_south) for table in tables]
            east = [units.of(table.east_west) for table in tables]
            for a, (n_a, e_a) in enumerate(zip(north, east)):
                self.never.add(frozenset((n_a, e_a)))
                self._places[n_a][name].append((a, 0, e_a))
                self._places[e_a][name].append((a, 1, n_a))
                for b in range(a + 1, len(tables)):
                    if not _concurrent(tables[a], tables[b]):
                        continue  # another segment of the round: line-ups may have changed
                    self.never.add(frozenset((n_a, north[b])))
                    self.never.add(frozenset((e_a, east[b])))
                    self.support[frozenset((n_a, east[b]))] += 1
                    self.support[frozenset((e_a, north[b]))] += 1
        self._consistent: dict[frozenset[str], bool] = {}

    def strength(self, first: str, second: str) -> int:
        """How well two units are known to be teammates (0: they cannot be)."""
        if first == second:
            return _PARTNERS  # one unit: partners somewhere in the event, so one team
        key = frozenset((first, second))
        return 0 if key in self.never else self.support[key]

    def consistent(self, first: str, second: str) -> bool:
        """Whether "``first`` and ``second`` are teammates" survives its consequences.

        If they are, then in every round both played the same boards, each at one table,
        their opponents are teammates too (the two rooms of one match), and so on. The
        hypothesis fails when a consequence is two units that faced each other or sat in
        the same direction. It ranks a table's candidates before their support (in a field
        whose pairs keep their direction all event, every North-South unit has full support
        with every East-West unit it never met, and only the consequences tell the true
        teammate) and never rejects a table's only candidate.
        """
        key = frozenset((first, second))
        if key not in self._consistent:
            self._consistent[key] = self._closes(first, second)
        return self._consistent[key]

    def _closes(self, first: str, second: str) -> bool:
        seen = {frozenset((first, second))}
        queue = deque([(first, second)])
        while queue and len(seen) < self._CLOSURE_LIMIT:
            a, b = queue.popleft()
            if a == b:
                continue
            if frozenset((a, b)) in self.never:
                return False
            places_a, places_b = self._places[a], self._places[b]
            for name in places_a.keys() & places_b.keys():
                if len(places_a[name]) != 1 or len(places_b[name]) != 1:
                    continue  # segments of a round: line-ups may change between them
                (table_a, side_a, against_a), (table_b, side_b, against_b) = (
                    places_a[name][0],
                    places_b[name][0],
                )
                tables = self._rounds[name]
                if not _concurrent(tables[table_a], tables[table_b]):
                    continue
                if table_a == table_b or side_a == side_b:
                    return False
                implied = frozenset((against_a, against_b))
                if against_a != against_b and implied not in seen:
                    seen.add(implied)
                    queue.append((against_a, against_b))
        return True


def _partners(
    tables: Sequence[_Table], teamship: _Teamship
) -> tuple[set[tuple[int, int]], dict[int, str]]:
    """The pairs of tables that are two rooms of one match, and the reason of each table in
    none.

    A table's other room may change line-up within the round (a substitution between
    segments): its candidates are taken best first, each for boards no better one holds; a
    pair stands when each table chose the other, and two equally good candidates for the
    same boards leave the table ambiguous. A candidate whose consequences hold
    (:meth:`_Teamship.consistent`) is better than one whose do not, whatever their support.
    """
    units = teamship.units
    north = [units.of(table.north_south) for table in tables]
    east = [units.of(table.east_west) for table in tables]
    chosen: dict[int, set[int]] = {}
    reason: dict[int, str] = {}
    for a in range(len(tables)):
        candidates = []  # (b, support)
        for b in range(len(tables)):
            if b == a or not _concurrent(tables[a], tables[b]):
                continue
            first = teamship.strength(north[a], east[b])
            second = teamship.strength(east[a], north[b])
            if first and second:
                candidates.append((b, first + second))
        if not candidates:
            reason[a] = "match_other_table_missing"
            continue
        # the consequences are asked only where there is a choice to make
        several = len(candidates) > 1
        scored = [
            (
                (
                    not several
                    or (
                        teamship.consistent(north[a], east[b])
                        and teamship.consistent(east[a], north[b])
                    ),
                    support,
                ),
                b,
            )
            for b, support in candidates
        ]
        scored.sort(reverse=True)
        held: dict[int, tuple[bool, int]] = {}  # board -> the strength that holds it
        picks = set()
        for value, b in scored:
            boards = tables[a].records.keys() & tables[b].records.keys()
            if any(held.get(board) == value for board in boards):
                reason[a] = "match_ambiguous"  # as good as one already chosen
                break
            free = [board for board in boards if board not in held]
            if free:
                picks.add(b)
                held.update((board, value) for board in free)
        if a not in reason:
            chosen[a] = picks
    pairs = {
        (min(a, b), max(a, b))
        for a, picks in chosen.items()
        for b in picks
        if a in chosen.get(b, ())
    }
    for a in chosen:
        if not any(a in pair for pair in pairs):
            reason[a] = "match_ambiguous"
    return pairs, reason


def _seats(record: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(" ".join((record.get(seat) or "").split()) for seat in SEATS)


def _doubled_names(records: Iterable[Mapping[str, Any]]) -> set[str]:
    """Names seated at two line-ups on one board of a round: one name for two players (a
    file whose player ids were given twice, as in the 2004 Olympiad's). Read as one person
    they would join two teams' partnerships into one unit and leave both teams unpaired."""
    seen: dict[tuple, tuple] = {}
    doubled = set()
    for record in records:
        seats = _seats(record)
        for name in filter(None, seats):
            first = seen.setdefault((record.get("round"), record.get("board_no"), name), seats)
            if first != seats:
                doubled.add(name)
    return doubled


def add_file_matches(event: str, records: Sequence[Mapping[str, Any]], found: TeamMatches) -> None:
    """The matches of one file's records (each with ``round`` and ``board_no``).

    Parameters
    ----------
    event : str
        The event the records are of.
    records : sequence of mappings
        The file's traveller records
        (:func:`~bridgerank.cleaning.clean.team_matches.traveller_row`), copies already told.
    found : TeamMatches
        Where each match found is appended, and each record of a table left out gets its
        reason (``found.excluded``).
    """
    rounds: dict[str, dict[tuple[str, ...], _Table]] = defaultdict(dict)
    units = _Units()
    doubled = _doubled_names(records)
    for record in records:
        seats = _seats(record)
        if not all(seats) or len(set(seats)) < 4:
            found.excluded[record["id"]] = "match_unknown_player"
            continue
        if table_score(record) is None or record.get("board_no") is None:
            found.excluded[record["id"]] = "match_no_score"
            continue
        round_name = record.get("round") or ""
        lineups = rounds[round_name]
        table = lineups.get(seats)
        if table is None:
            persons = tuple(
                f"{name}\t{round_name}\t{len(lineups)}" if name in doubled else name
                for name in seats
            )
            table = lineups[seats] = _Table(seats, persons)  # type: ignore[arg-type]
        if record["board_no"] in table.records:
            found.excluded[record["id"]] = "match_same_lineup"
            continue
        table.records[record["board_no"]] = record
        units.join(table.north_south)
        units.join(table.east_west)
    ordered = {name: list(round_tables.values()) for name, round_tables in rounds.items()}
    teamship = _Teamship(ordered, units)
    for round_name, tables in ordered.items():
        pairs, reasons = _partners(tables, teamship)
        for a, why in reasons.items():
            for record in tables[a].records.values():
                found.excluded[record["id"]] = why
        for component in _components(pairs):
            _add_match(event, round_name, tables, component, found)


def _components(pairs: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The pairs of tables grouped into matches: pairs sharing a table are segments of one."""
    tables: DisjointSets[int] = DisjointSets()
    for a, b in pairs:
        tables.union(b, a)
    groups: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for pair in sorted(pairs):
        groups[tables.find(pair[0])].append(pair)
    return list(groups.values())


def table_result(record: Mapping[str, Any]) -> tuple:
    """A table's result as written: contract, declarer, tricks and lead."""
    return tuple(record.get(name) or "" for name in ("contract", "declarer", "result", "lead_card"))


def _first_id(table: _Table) -> int:
    return min(record["id"] for record in table.records.values())


def _add_match(
    event: str,
    round_name: str,
    tables: Sequence[_Table],
    pairs: list[tuple[int, int]],
    found: TeamMatches,
) -> None:
    """The match of paired tables: team A sits North-South at the *open* tables - the
    table of the earliest record, and every table paired with a closed one - and East-West
    at the closed ones (a stable choice: the same files give the same team A)."""
    members = sorted({t for pair in pairs for t in pair}, key=lambda t: _first_id(tables[t]))
    is_open = {members[0]: True}
    pending = list(pairs)
    while pending:
        left = []
        for a, b in pending:
            if a in is_open and b not in is_open:
                is_open[b] = not is_open[a]
            elif b in is_open and a not in is_open:
                is_open[a] = not is_open[b]
            elif a not in is_open:
                left.append((a, b))
        if len(left) == len(pending):
            break
        pending = left
    if any(is_open.get(a) == is_open.get(b) for a, b in pairs):
        for table in members:  # a cycle of odd length: no consistent sides
            for record in tables[table].records.values():
                found.excluded[record["id"]] = "match_ambiguous"
        return
    open_boards: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    closed_boards: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for table in members:
        side = open_boards if is_open[table] else closed_boards
        for number, record in tables[table].records.items():
            side[number].append(record)
    match: TeamMatch | None = None
    for number in sorted(open_boards.keys() | closed_boards.keys()):
        at_open, at_closed = open_boards.get(number, []), closed_boards.get(number, [])
        if len(at_open) != 1 or len(at_closed) != 1:
            why = "match_board_unpaired" if not at_open or not at_closed else "match_ambiguous"
            for record in at_open + at_closed:
                found.excluded[record["id"]] = why
            continue
        open_record, closed_record = at_open[0], at_closed[0]
        open_seats = tuple(open_record[seat] for seat in SEATS)
        closed_seats = tuple(closed_record[seat] for seat in SEATS)
        if set(open_seats) == set(closed_seats):
            for record in (open_record, closed_record):
                found.excluded[record["id"]] = "match_same_lineup"
            continue
        if match is None:
            year = open_record.get("year")
            match = TeamMatch(event, round_name, year, open_seats, closed_seats)
        match.boards.append(
            MatchBoard(
                number,
                open_record["id"],
                closed_record["id"],
                table_score(open_record) or 0,
                table_score(closed_record) or 0,
                table_result(open_record),
                table_result(closed_record),
                open_seats,
                closed_seats,
            )
        )
    if match is not None:
        found.matches.append(match)
