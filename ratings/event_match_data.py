"""Team events' matches as the walk-forward reads them: the matches the clean stage rebuilds
from traveller files (``team_matches``, ``match_boards``), in time order, with every table
against its field.

**Time.** The files give a year and a round number, no date. A round's time is ``(year,
round number)``: the rounds of one year's events that bear one number are taken as played
side by side, and a match of round ``r`` of year ``y`` is forecast from every match of the
years before and of the rounds before ``r`` of that year - all earlier events and the earlier
rounds of its own. (Where two events of one year were in fact months apart, the later one's
early rounds inform the earlier one's later rounds; the files cannot tell.)

**The field.** Every board of a round is played at every match's two tables, so each table's
score is compared with all the others' (its cross-IMPs, :func:`cross_imps`: the mean of the
IMPs it gains on each other table of its field, :class:`FieldRows`). The forecast
(:mod:`~bridgerank.ratings.round_ridge`) and the study (:mod:`~bridgerank.ratings.event_matches`)
read both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping

import numpy as np

from bridgerank.bridge.scoring import IMP_STEPS
from bridgerank.ratings.team_boards import TeamBoards

__all__ = [
    "EVENT_KINDS",
    "EventMatches",
    "FieldRows",
    "cross_imps",
    "event_kind",
    "event_matches",
    "imps_of",
    "round_number",
]


# The kinds of team event a validation is broken down by.
EVENT_KINDS = ("championships", "leagues", "open teams")
_LEAGUE = re.compile(r"league|liga|trophy", re.IGNORECASE)
_OPEN = re.compile(r"(^|/)\d{4}-open(/|$)|training", re.IGNORECASE)
# A match's team A seats, then team B's (TeamBoards.seats' order).
_TEAM_A = ("open_north", "open_south", "closed_east", "closed_west")
_TEAM_B = ("open_east", "open_west", "closed_north", "closed_south")


def event_kind(event: str) -> str:
    """The kind of a team event from its name: a national league (``League``, ``Bundesliga``,
    ``Trophy``), an open teams (a folder ``<year>-Open``, training rounds) or, else, a
    championship of national teams (Olympiads, world and European championships)."""
    if _LEAGUE.search(event):
        return "leagues"
    if _OPEN.search(event):
        return "open teams"
    return "championships"


def round_number(name: str) -> int:
    """The number of a round named ``round 7`` (its first number; 0 without one)."""
    found = re.search(r"\d+", name or "")
    return int(found.group(0)) if found else 0


def imps_of(differences: np.ndarray) -> np.ndarray:
    """The IMP scale of an array of score differences (sign kept)."""
    steps = np.searchsorted(np.asarray(IMP_STEPS), np.abs(differences), side="right")
    return np.sign(differences) * steps


def cross_imps(scores: np.ndarray, field: np.ndarray) -> np.ndarray:
    """Each table's cross-IMPs: the mean over the other tables of its field (``field``: one
    code per table) of the IMPs of its North-South score less theirs; 0 alone in its field."""
    result = np.zeros(len(scores))
    order = np.argsort(field, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(field[order]) != 0])
    for start, end in zip(starts, np.r_[starts[1:], len(order)]):
        rows = order[start:end]
        if len(rows) > 1:
            values = scores[rows]
            result[rows] = imps_of(values[:, None] - values[None, :]).sum(axis=1) / (len(rows) - 1)
    return result


@dataclass
class FieldRows:
    """Every table of the matches against its field: its North-South and East-West players
    (two columns each), its cross-IMPs, its period and its board id (``raw_boards``; -1 where
    unknown), the open room's tables first, in the order of the match boards."""

    north_south: np.ndarray
    east_west: np.ndarray
    cross: np.ndarray
    period: np.ndarray
    board: np.ndarray


@dataclass
class EventMatches:
    """The matches as the walk-forward reads them: ``boards`` (periods are rounds' times,
    ``boards.matches[m]`` the event and time of match ``m``), each match's event index, the
    events' names and kinds, and the tables against their fields."""

    boards: TeamBoards
    event: np.ndarray
    events: list[str]
    kinds: list[str]
    tables: FieldRows
    # each match's row id in ``team_matches`` (empty where the rows gave none)
    match_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def kind_of_match(self) -> np.ndarray:
        """Each match's event kind."""
        return np.asarray(self.kinds, dtype=object)[self.event]


def event_matches(
    matches: Iterable[Mapping[str, Any]],
    boards: Iterable[Mapping[str, Any]],
    person: Callable[[str, str], Hashable] | None = None,
) -> EventMatches:
    """The ``team_matches`` rows and their ``match_boards`` rows as :class:`EventMatches`,
    each seat's player ``person(name, event)`` (the match stage's person; without it, or
    where it is blank, each name is its own player), in time order; matches without a year
    are left out (no time)."""
    info = {row["id"]: row for row in matches if row.get("year") is not None}
    rows = [row for row in boards if row["match_id"] in info]
    times = sorted({_time(info[row["match_id"]]) for row in rows})
    period_of = {time: number for number, time in enumerate(times)}
    rows.sort(
        key=lambda row: (period_of[_time(info[row["match_id"]])], row["match_id"], row["board_no"])
    )
    match_of = [info[row["match_id"]] for row in rows]  # each row's match
    index: dict[Hashable, int] = {}

    def player(name: str, event: str) -> int:
        found = person(name, event) if person is not None else name
        return index.setdefault(found or name, len(index))

    seats = np.array(
        [
            [player(row[seat], found["event"]) for seat in _TEAM_A + _TEAM_B]
            for row, found in zip(rows, match_of)
        ],
        dtype=np.int64,
    ).reshape(-1, 8)
    match_index: dict[int, int] = {}
    events: dict[str, int] = {}
    match_event, match_keys = [], []
    for row, found in zip(rows, match_of):
        if row["match_id"] not in match_index:
            match_index[row["match_id"]] = len(match_index)
            match_event.append(events.setdefault(found["event"], len(events)))
            match_keys.append((found["event"], f"{found['year']} {found['round']}"))
    period = np.array([period_of[_time(found)] for found in match_of], dtype=np.int64)
    data = TeamBoards(
        players=sorted(index, key=index.__getitem__),
        seats=seats,
        imps=np.array([row["imps"] for row in rows], dtype=float),
        match=np.array([match_index[row["match_id"]] for row in rows], dtype=np.int64),
        sign=np.ones(len(rows)),
        period=period,
        periods=[f"{year:04d} round {number:03d}" for year, number in times],
        matches=match_keys,
    )
    # the tables: a board's field is every table of its event's round that played it
    field_key: dict[tuple, int] = {}
    field = np.array(
        [
            field_key.setdefault((found["event"], found["round"], row["board_no"]), len(field_key))
            for row, found in zip(rows, match_of)
        ],
        dtype=np.int64,
    )
    scores = np.concatenate(
        [[row["open_score"] for row in rows], [row["closed_score"] for row in rows]]
    ).astype(float)
    tables = FieldRows(
        north_south=np.vstack([seats[:, [0, 1]], seats[:, [6, 7]]]),
        east_west=np.vstack([seats[:, [4, 5]], seats[:, [2, 3]]]),
        cross=cross_imps(scores, np.concatenate([field, field])),
        period=np.concatenate([period, period]),
        board=np.array(
            [row.get("open_id", -1) for row in rows] + [row.get("closed_id", -1) for row in rows],
            dtype=np.int64,
        ),
    )
    names = sorted(events, key=events.__getitem__)
    return EventMatches(
        data,
        np.array(match_event, dtype=np.int64),
        names,
        [event_kind(e) for e in names],
        tables,
        np.array(sorted(match_index, key=match_index.__getitem__), dtype=np.int64),
    )


def _time(match: Mapping[str, Any]) -> tuple[int, int]:
    return match["year"], round_number(match["round"])
