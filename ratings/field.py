"""Pair events as the headline rating sees them: every table's matchpoint share among the
tables that played its deal, and every pair's session percentage.

A deal played at ``min_tables`` tables or more of one event is matchpointed across the
field: North-South at a table scores one point for every other table where North-South
scored less, half a point for every tie, divided by the other tables; East-West's share is
the rest. This is how a pair game is scored, computed from the scores themselves, so a
recap's own matchpoints, an IMP-scored traveller and a team event's travellers (pairs
"against the field") are all read alike.

A *session* is an event on one date. An event without dates is split by its rounds when the
source names them (a championship's travellers: each round is a match of 16-32 boards, which
is what a player calls a session), else it is one session. A pair's session percentage is the
mean of its shares over the boards it played there, times 100.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Hashable, Iterable, Mapping, TypeVar

import numpy as np

from bridgerank.bridge.scoring import matchpoint_share
from bridgerank.ratings.games import SEATS, TEAM_SCORING, scored_tables, seated

T = TypeVar("T")


def rows_where(data: T, mask: np.ndarray) -> T:
    """A dataclass of rows (every array field one entry a row) where ``mask`` holds; its
    other fields (the numberings of players, periods, matches) kept as they are."""
    rows = {
        item.name: value[mask]
        for item in fields(data)  # type: ignore[arg-type]
        if isinstance(value := getattr(data, item.name), np.ndarray)
    }
    return replace(data, **rows)  # type: ignore[type-var]


@dataclass
class FieldTables:
    """Tables of matchpointed deals, as arrays (one entry per table).

    Attributes
    ----------
    players : list
        Player keys; ``seats`` indexes this list.
    seats : ndarray, shape (tables, 4)
        North, South, East, West of each table.
    share : ndarray
        North-South's matchpoint share, 0 to 1.
    group : ndarray
        Index of the deal (the field a table is compared with).
    session : ndarray
        Index into ``sessions``.
    sessions : list of tuple
        ``(event, when)`` of each session (see :func:`session_of`).
    period : ndarray
        Index into ``periods`` (when the session was played: its date, else its year).
    periods : list of str
        Sorted.
    board : ndarray
        The ``boards`` id of each table (to join per-board evidence).
    entry : ndarray, shape (tables, 2), optional
        North-South's and East-West's entry (what the source says of the pair before play,
        :mod:`~bridgerank.cleaning.ingest.recap_entry`), an index into ``entries``; -1 where
        none is known. None: none known anywhere.
    entries : list of str
        The entry codes seen, sorted.
    """

    players: list[Hashable]
    seats: np.ndarray
    share: np.ndarray
    group: np.ndarray
    session: np.ndarray
    sessions: list[tuple[str, str]]
    period: np.ndarray
    periods: list[str]
    board: np.ndarray
    entry: np.ndarray | None = None
    entries: list[str] = field(default_factory=list)
    # what is computed of these very tables, kept (:meth:`kept`): a walk-forward hands the
    # same training and test tables to every method; a subset starts with none
    memo: dict[Hashable, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.share)

    def kept(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, computed once for these tables and ``key``: the same tables come
        back to each method of a walk-forward's date, and each fit at each penalty. The
        arrays kept (the value, or the items of a tuple) are made read-only: callers share
        them."""
        if key not in self.memo:
            value = compute()
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, np.ndarray):
                    item.flags.writeable = False
            self.memo[key] = value
        return self.memo[key]

    def kept_with(self, other: object, key: Hashable, compute: Callable[[], T]) -> T:
        """:meth:`kept` of what depends on another object too (other tables, covariates),
        that object known by its identity: it is kept beside the value, as a collected
        object's id may come back for another."""
        held, value = self.kept((key, id(other)), lambda: (other, compute()))
        return value if held is other else compute()

    def subset(self, mask: np.ndarray) -> FieldTables:
        """The tables where ``mask`` holds (same player, session and period indices)."""
        return replace(
            self,
            seats=self.seats[mask],
            share=self.share[mask],
            group=self.group[mask],
            session=self.session[mask],
            period=self.period[mask],
            board=self.board[mask],
            entry=None if self.entry is None else self.entry[mask],
        )

    def entry_of(self) -> np.ndarray:
        """Each table's two entries (``entry``), all -1 where none is known."""
        if self.entry is None:
            return np.full((len(self), 2), -1, dtype=np.int64)
        return self.entry


def period_of(board: Mapping[str, Any]) -> str:
    """When a board was played, as a sortable text: its date (``YYYY.MM.DD``), else its year
    (a date with no digit, such as PBN's ``?``, says nothing)."""
    date = (board.get("date") or "").strip()
    if any(character.isdigit() for character in date):
        return date.replace("/", ".").replace("-", ".")
    return str(board.get("year") or "")


def session_of(board: Mapping[str, Any]) -> tuple[str, str]:
    """The session a board was played in: ``(event, when)``, where ``when`` is its date, else
    its year and round (``round`` as the source named it; none: the year alone)."""
    period = period_of(board)
    date = (board.get("date") or "").strip()
    round_name = (board.get("round") or "").strip()
    if any(character.isdigit() for character in date) or not round_name:
        return board["event"], period
    return board["event"], f"{period} {round_name}"


def deal_order(tables: FieldTables, rows: np.ndarray) -> np.ndarray:
    """``rows`` (table indices) deal by deal, in deal order (each deal's in their order)."""
    return rows[np.argsort(tables.group[rows], kind="stable")]


def deal_rows(tables: FieldTables, rows: np.ndarray) -> list[np.ndarray]:
    """``rows`` (table indices) split by deal, in deal order."""
    rows = deal_order(tables, rows)
    groups = tables.group[rows]
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    return np.split(rows, starts[1:])


def places(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Each value's place in its group: one plus how many of the group's values are greater
    (equal values share a place), for every group at once."""
    order = np.lexsort((-values, group))  # by group, each best first
    ordered, groups = values[order], group[order]
    new_group = np.r_[True, groups[1:] != groups[:-1]]
    new_value = new_group | np.r_[True, ordered[1:] != ordered[:-1]]
    position = np.arange(len(values))
    first_of_value = np.maximum.accumulate(np.where(new_value, position, 0))
    first_of_group = np.maximum.accumulate(np.where(new_group, position, 0))
    found = np.empty(len(values), dtype=np.int64)
    found[order] = 1 + first_of_value - first_of_group
    return found


def deal_pairs(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair ``(i, j)``, ``i != j``, of positions in ``group`` that share a deal
    (each position's partners in the order of the positions)."""
    order = np.argsort(group, kind="stable")
    sorted_group = group[order]
    starts = np.flatnonzero(np.r_[True, sorted_group[1:] != sorted_group[:-1]])
    sizes = np.diff(np.r_[starts, len(group)])
    size = np.repeat(sizes, sizes)  # each position's deal size, in sorted order
    first = np.repeat(starts, sizes)
    position = np.repeat(np.arange(len(group)), size)
    # the k-th partner of each position: its deal's first position plus k
    offset = np.arange(len(position)) - np.repeat(np.cumsum(size) - size, size)
    partner = np.repeat(first, size) + offset
    keep = position != partner
    return order[position[keep]], order[partner[keep]]


def field_share(
    group: np.ndarray, beats: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Each table's expected share of its deal (two tables or more): the mean over the deal's
    other tables of ``beats(i, j)``, the chance that table ``i``'s North-South outscores table
    ``j``'s (``i`` and ``j`` arrays of positions in ``group``, the tables' deals).

    Every deal at once: a rival's forecast of a walk-forward's test dates is one call, not a
    call a deal (most of the team matches' forecasting time, two tables a deal)."""
    first, second = deal_pairs(group)
    others = np.bincount(first, minlength=len(group))
    return np.bincount(first, weights=beats(first, second), minlength=len(group)) / others


def matchpoint_shares(scores: list[int]) -> list[float]:
    """Each score's share of the other tables beaten (a tie counts half)."""
    return [
        matchpoint_share(value, scores[:number] + scores[number + 1 :])
        for number, value in enumerate(scores)
    ]


def field_tables(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    min_tables: int = 3,
) -> FieldTables:
    """Matchpoint every deal played at ``min_tables`` tables or more of one event.

    Parameters
    ----------
    boards : iterable of mapping
        Board rows with event, date, year, board_no, deal_hash, the four names, contract,
        declarer, result and vulnerability.
    player_of : mapping
        Raw name to player key (names missing from it are their own key).
    min_tables : int

    Returns
    -------
    FieldTables
        Tables with a score and four distinct named players, in date order.
    """
    groups: dict[tuple, list[tuple[Mapping[str, Any], int]]] = defaultdict(list)
    # in board order, whatever order the database returned them in: the same tables, players
    # and halves on every engine
    ordered = sorted(boards, key=lambda board: board["id"])
    # a team game is rated as teams, never pairs
    pair_boards = (board for board in ordered if board.get("scoring") != TEAM_SCORING)
    for board, score in scored_tables(pair_boards):
        groups[(board["event"], period_of(board), board["board_no"], board["deal_hash"])].append(
            (board, score)
        )
    index: dict[Hashable, int] = {}
    session_index: dict[tuple[str, str], int] = {}
    rows: list[tuple[str, int, int, float, tuple[int, int, int, int], int, tuple[str, str]]] = []
    group_number = 0
    for (_, period, _, _), tables in groups.items():
        if len(tables) < min_tables:
            continue
        shares = matchpoint_shares([score for _, score in tables])
        for (board, _), share in zip(tables, shares):
            session = session_index.setdefault(session_of(board), len(session_index))
            keys = seated(board, SEATS, player_of)
            if len(set(keys)) != 4:
                continue
            seats = tuple(index.setdefault(key, len(index)) for key in keys)
            entry = (board.get("ns_entry") or "", board.get("ew_entry") or "")
            rows.append((period, session, group_number, share, seats, board["id"], entry))  # type: ignore[arg-type]
        group_number += 1
    periods = sorted({row[0] for row in rows})
    period_index = {period: number for number, period in enumerate(periods)}
    rows.sort(key=lambda row: (row[0], row[1], row[2]))
    sessions = sorted(session_index, key=session_index.__getitem__)
    entries = sorted({code for row in rows for code in row[6] if code})
    entry_index = {code: number for number, code in enumerate(entries)}
    return FieldTables(
        players=sorted(index, key=index.__getitem__),
        seats=np.array([row[4] for row in rows], dtype=np.int64).reshape(-1, 4),
        share=np.array([row[3] for row in rows], dtype=float),
        group=np.array([row[2] for row in rows], dtype=np.int64),
        session=np.array([row[1] for row in rows], dtype=np.int64),
        sessions=sessions,
        period=np.array([period_index[row[0]] for row in rows], dtype=np.int64),
        periods=periods,
        board=np.array([row[5] for row in rows], dtype=np.int64),
        entry=(
            np.array(
                [[entry_index.get(code, -1) for code in row[6]] for row in rows], dtype=np.int64
            ).reshape(-1, 2)
            if entries
            else None
        ),
        entries=entries,
    )


@dataclass
class SessionScores:
    """Every pair's percentage in every session: one entry per (session, pair).

    ``pair`` holds the two player indices, smaller first; ``boards`` how many boards the
    pair played in the session; ``percent`` its mean share times 100.
    """

    session: np.ndarray
    pair: np.ndarray
    boards: np.ndarray
    percent: np.ndarray
    period: np.ndarray


def _side_keys(tables: FieldTables) -> np.ndarray:
    """Every table twice, once from each side (North-South's, then East-West's):
    ``(session, player, player)`` keys, smaller player first."""
    return np.concatenate(
        [
            np.column_stack([tables.session, np.sort(tables.seats[:, :2], axis=1)]),
            np.column_stack([tables.session, np.sort(tables.seats[:, 2:], axis=1)]),
        ]
    )


def _pair_grouping(tables: FieldTables) -> tuple[np.ndarray, ...]:
    """The pair-sessions (:func:`unique_rows` of :func:`_side_keys`: keys, each side's
    entry, boards) and each one's period; computed once for the tables."""

    def grouping() -> tuple[np.ndarray, ...]:
        unique, inverse, counts = unique_rows(_side_keys(tables))
        period = np.zeros(len(unique), dtype=np.int64)
        period[inverse] = np.concatenate([tables.period, tables.period])
        return unique, inverse, counts, period

    return tables.kept("pair grouping", grouping)


def unique_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(keys, axis=0, return_inverse=True, return_counts=True)`` for rows of
    non-negative integers, in the same order, by sorting one integer per row instead of the
    rows themselves (several times faster: the rate stage does it for every fit).

    Falls back to the rows' own sort when a row's digits would overflow one int64."""
    keys = np.asarray(keys, dtype=np.int64)
    radix = keys.max(axis=0) + 1 if keys.ndim == 2 and len(keys) else None
    if radix is None or float(np.prod(radix.astype(float))) >= 2.0**62:
        unique, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        return unique, inverse.ravel(), counts
    code = np.zeros(len(keys), dtype=np.int64)
    for column, base in zip(keys.T, radix):
        code = code * base + column
    _, first, inverse, counts = np.unique(
        code, return_index=True, return_inverse=True, return_counts=True
    )
    return keys[first], inverse.ravel(), counts


def pair_sessions(
    tables: FieldTables, ew_share: np.ndarray | None = None, ns_share: np.ndarray | None = None
) -> SessionScores:
    """Each pair's session percentage (both directions counted, each from its own side).

    ``ew_share`` gives East-West's own share per table when it is not ``1 - share`` (a
    prediction made for each side apart); ``ns_share`` North-South's in place of the tables'
    own (a prediction, a simulation). Entries are ordered by session, then pair.
    """
    unique, inverse, counts, period = _pair_grouping(tables)
    ns = tables.share if ns_share is None else ns_share
    shares = np.concatenate([ns, 1 - ns if ew_share is None else ew_share])
    totals = np.bincount(inverse, weights=shares, minlength=len(unique))
    return SessionScores(
        session=unique[:, 0],
        pair=unique[:, 1:],
        boards=counts,
        percent=100 * totals / counts,
        period=period,
    )


def partnership_codes(tables: FieldTables, players: int | None = None) -> np.ndarray:
    """One integer per table side naming its partnership, ``smaller * players + larger``
    (``players``: the count the codes are built on, by default the tables'): shape
    (tables, 2), North-South then East-West."""
    players = len(tables.players) if players is None else players
    pairs = np.sort(tables.seats.reshape(-1, 2, 2), axis=2).astype(np.int64)
    return pairs[:, :, 0] * players + pairs[:, :, 1]


def pair_session_entries(tables: FieldTables) -> np.ndarray:
    """The pair-session (as :func:`pair_sessions` orders them) of every table's North-South,
    then of every table's East-West: shape (2 * tables,)."""
    return _pair_grouping(tables)[1]


def pair_percent(
    tables: FieldTables, ns_share: np.ndarray, ew_share: np.ndarray | None = None
) -> np.ndarray:
    """Pair-session percentages, ordered as :func:`pair_sessions` orders them, from each
    table's predicted North-South share (and East-West's, when predicted apart)."""
    return pair_sessions(tables, ew_share, ns_share).percent


def odd_even_halves(tables: FieldTables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pair-session's mean share over its odd and over its even boards (in board
    order), and its number of boards; ordered as :func:`pair_sessions` orders them."""
    keys, shares = _side_keys(tables), np.concatenate([tables.share, 1 - tables.share])
    order = np.lexsort((keys[:, 2], keys[:, 1], keys[:, 0]))  # stable: board order kept
    keys, shares = keys[order], shares[order]
    start = np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)]
    entry = np.cumsum(start) - 1
    position = np.arange(len(keys)) - np.flatnonzero(start)[entry]
    odd = position % 2 == 1
    count = np.bincount(entry)
    first, second = (
        np.bincount(entry[mask], weights=shares[mask], minlength=len(count))
        / np.maximum(np.bincount(entry[mask], minlength=len(count)), 1)
        for mask in (~odd, odd)
    )
    return first, second, count
