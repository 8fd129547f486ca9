"""What the rate stage's studies read: the boards with their seats as persons, the WBF
points, the dds stage's evidence and the team events' matches, each read once a run, when a
study first asks for it (:class:`RateData`).

This module is in every study's code fingerprint: it reads, and computes nothing a study
stores, so that an edit to one study's code reruns that study alone.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

from sqlalchemy import Connection, case, func, select

from bridgerank.cleaning.clean.tables import Board, MatchBoardRow, TeamMatchRow
from bridgerank.cleaning.ingest.tables import RawBoard
from bridgerank.cleaning.match.lookup import PersonLookup, person_lookup
from bridgerank.cleaning.match.tables import Player, SeatPerson, WbfPlayer
from bridgerank.dds.tables import CardAnalysis, TableEvidence
from bridgerank.ratings.actual_results import seated_persons

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from bridgerank.core.sections import TeamSettings
    from bridgerank.ratings.card_evidence import CardCounts
    from bridgerank.ratings.dd_prior import BoardEvidence

__all__ = [
    "BOARD_COLUMNS",
    "BOARD_READS",
    "DD_READS",
    "EVENT_READS",
    "PERSON_READS",
    "RateData",
    "card_counts",
    "board_evidence",
    "event_match_rows",
    "load_inputs",
    "par_function",
    "stored_boards",
    "wbf_points",
]

T = TypeVar("T")

# What the studies declare they read, by what :class:`RateData` reads them for: the boards
# (required), the persons and their WBF points, the dds stage's measures, the team events.
BOARD_READS = (Board, RawBoard)
PERSON_READS = (SeatPerson, Player, WbfPlayer)
DD_READS = (TableEvidence, CardAnalysis)
EVENT_READS = (TeamMatchRow, MatchBoardRow)

BOARD_COLUMNS = (
    "id",
    "event",
    "board_no",
    "deal_hash",
    "room",
    "date",
    "north",
    "east",
    "south",
    "west",
    "contract",
    "declarer",
    "result",
    "ns_vulnerable",
    "ew_vulnerable",
    "year",
    "bidstart",
    "home_team",
    "visit_team",
    "scoring",
    "ns_entry",
    "ew_entry",
)


def par_function(conn: Connection) -> Callable[[Mapping[str, Any]], int | None]:
    """Par of a board, as the dds stage stored it (None when it has not, or could not)."""
    par = dict(
        conn.execute(
            select(TableEvidence.board_id, TableEvidence.ns_par).where(
                TableEvidence.ns_par.is_not(None)
            )
        ).all()
    )
    return lambda board: par.get(board["id"])


def card_counts(conn: Connection) -> CardCounts:
    """The dds stage's card verdicts counted per board, seat and role (none before it runs)."""
    from bridgerank.ratings.card_evidence import CardCounts  # numpy, only when rating

    cards = CardAnalysis.__table__.c
    query = select(
        cards.board_id,
        cards.seat,
        cards.role,
        func.count().label("cards"),
        func.sum(case((cards.cost_tricks > 0, 1), else_=0)).label("costly"),
    ).group_by(cards.board_id, cards.seat, cards.role)
    return CardCounts.of(conn.execute(query).mappings())


def board_evidence(conn: Connection) -> BoardEvidence:
    """The dds stage's evidence on every board with a result (empty before it runs)."""
    from bridgerank.ratings.dd_prior import BoardEvidence  # numpy, only when rating

    columns = (
        TableEvidence.board_id,
        TableEvidence.declarer,
        TableEvidence.tricks_vs_dd,
        TableEvidence.bidding_imps,
        TableEvidence.lead_cost,
    )
    return BoardEvidence.of(conn.execute(select(*columns)).mappings())


def stored_boards(conn: Connection) -> list[dict]:
    """The boards (:data:`BOARD_COLUMNS` and ``round``), the seats named as written."""
    # the round a source named (a championship's "round 7"): the session of an undated event
    columns = [getattr(Board, c) for c in BOARD_COLUMNS] + [
        RawBoard.__table__.c.stage.label("round")
    ]
    # in id order, the order SQLite happens to give: the replays take games of one date in
    # the order read, and PostgreSQL's join may read them in another (the quick start's Elo
    # history once differed between the two)
    query = select(*columns).join(RawBoard, RawBoard.id == Board.id).order_by(Board.id)
    return [dict(row) for row in conn.execute(query).mappings()]


def event_match_rows(conn: Connection) -> tuple[list[dict], list[dict]]:
    """The ``team_matches`` rows and their ``match_boards`` rows (the clean stage's)."""
    matches = [dict(row) for row in conn.execute(select(TeamMatchRow.__table__)).mappings()]
    boards = [dict(row) for row in conn.execute(select(MatchBoardRow.__table__)).mappings()]
    return matches, boards


def wbf_points(conn: Connection) -> dict[str, float | None]:
    """The WBF masterpoints of the matched players, by player name."""
    return dict(
        conn.execute(
            select(Player.name, WbfPlayer.mp).join(WbfPlayer, WbfPlayer.id == Player.wbf_id)
        ).all()
    )


def load_inputs(conn: Connection) -> tuple[list[dict], dict, dict]:
    """The boards (:func:`stored_boards`) with their seats as persons
    (:mod:`cleaning.match.lookup`), the raw names that are one person everywhere, and the WBF
    masterpoints of the matched players by player name (:func:`wbf_points`)."""
    boards = stored_boards(conn)
    # the seats as persons (a surname is whoever it was in its event; no one to rate is
    # blank); the names that mean one person everywhere, for boards of events not yet seen
    lookup = person_lookup(conn)
    lookup.rename(boards)
    names = lookup.global_names()
    return boards, names, wbf_points(conn)


class RateData:
    """The rate stage's inputs, each read from ``engine`` the first time a study asks for it
    (a run of the who-beats-whom study alone reads no dds table); ``teams``: the ``[rate.teams]``
    settings the team boards' evidence is gathered with (None: the shipped defaults)."""

    def __init__(self, engine: Engine, min_tables: int, teams: TeamSettings | None = None) -> None:
        self.engine = engine
        self.min_tables = min_tables
        self.teams = teams
        self._derived: dict[Callable[[RateData], Any], Any] = {}

    def _read(self, reader: Callable[[Connection], T]) -> T:
        with self.engine.connect() as conn:
            return reader(conn)

    @cached_property
    def lookup(self) -> PersonLookup:
        """Who each raw name of each event is (the match stage's verdicts)."""
        return self._read(person_lookup)

    @cached_property
    def _stored(self) -> list[dict]:
        return self._read(stored_boards)

    @cached_property
    def written(self) -> list[dict]:
        """The boards with their seats as the files name them (what forecasts are keyed by),
        no one person blank."""
        return [seated_persons(dict(board)) for board in self._stored]

    @cached_property
    def boards(self) -> list[dict]:
        """The boards with their seats as persons (the stored rows, renamed in place: the
        seats as written are copied first)."""
        self.written  # noqa: B018 - copied before the seats become persons
        boards = self._stored
        self.lookup.rename(boards)
        return boards

    @cached_property
    def names(self) -> dict[str, str]:
        """The raw names that mean one person everywhere."""
        return self.lookup.global_names()

    @cached_property
    def points(self) -> dict[str, Any]:
        """WBF masterpoints by player name (None where the list gives none)."""
        return self._read(wbf_points)

    @cached_property
    def par_of(self) -> Callable[[Mapping[str, Any]], int | None]:
        """A board's double dummy par, where the dds stage stored it."""
        return self._read(par_function)

    @cached_property
    def evidence(self) -> BoardEvidence:
        """The dds stage's evidence per board."""
        return self._read(board_evidence)

    @cached_property
    def cards(self) -> CardCounts:
        """The dds stage's card verdicts per board, seat and role."""
        return self._read(card_counts)

    @cached_property
    def event_rows(self) -> tuple[list[dict], list[dict]]:
        """The team events' ``team_matches`` and ``match_boards`` rows."""
        return self._read(event_match_rows)

    def derived(self, compute: Callable[[RateData], T]) -> T:
        """``compute(self)``, once a run: what two studies derive alike from the inputs (the
        team boards and their evidence), computed once when both run."""
        if compute not in self._derived:
            self._derived[compute] = compute(self)
        found: T = self._derived[compute]
        return found
