"""What the site reads from the database, once, as frames: boards with their source file,
players of every seat, the pools of players connected by play, ratings, counters and the
double dummy verdicts. The page builders (:mod:`site`) only arrange these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import pandas as pd
from sqlalchemy.engine import Connection

from bridgerank.cleaning.clean.tables import Board, TeamMatchRow
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.cleaning.match.tables import SeatPerson
from bridgerank.dds.lead_baselines import HAND
from bridgerank.dds.tables import (
    AuctionAnalysis,
    CallAnalysis,
    CardAnalysis,
    PlayerStats,
    StoredDDTable,
    TableEvidence,
)
from bridgerank.pipeline.report.reads import Read, ReportTables
from bridgerank.ratings.holdout import Z80, Z95
from bridgerank.ratings.tables import (
    EventMatchForecast,
    EventStrength,
    HeadlineRating,
    PairScorecard,
    Rating,
    RatingHistory,
    SessionPrediction,
    SessionValidation,
    TableScore,
    TeamStrength,
    ValidationCeiling,
)

SEAT_COLUMNS = {"N": "north", "E": "east", "S": "south", "W": "west"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
# A North-South figure's sign for a seat's side.
SIDE_SIGN = {"N": 1, "S": 1, "E": -1, "W": -1}


@dataclass
class SiteData:
    """Everything the pages show."""

    boards: pd.DataFrame  # one row per board, with ``source`` (the file it came from)
    seats: pd.DataFrame  # board_id, seat, player, written: four rows per board
    pools: dict[str, int]  # player -> pool number (1 = the largest)
    ratings: pd.DataFrame  # player, rating, low, high, sd, boards, sessions
    rating_kind: str  # "headline" or "hbt" or ""
    stats: pd.DataFrame  # player_stats plus auction_mistakes
    cards: pd.DataFrame  # card_analysis
    auctions: pd.DataFrame  # auction_analysis
    calls: pd.DataFrame  # call_analysis
    evidence: pd.DataFrame  # table_evidence
    measures: pd.DataFrame  # player, role, value: per-board measures against double dummy
    history: pd.DataFrame  # player, game, rating: the ranking-probability Elo after each game
    validation: dict[str, Any] | None  # the headline's held-out row
    predictions: pd.DataFrame  # predicted, actual: the headline's held-out pair-sessions
    ceiling: dict[str, float]
    # each pair's session (:mod:`~bridgerank.ratings.headline.scorecard`), empty before rate
    scorecards: pd.DataFrame = field(default_factory=pd.DataFrame)
    # deal_hash -> the deal's double dummy tricks (20 hex digits), where the dds stage ran
    dd_tables: dict[str, str] = field(default_factory=dict)
    # the team events' matches (``team_matches``), each seat of the first line-up also as
    # its person (``person_open_north`` ...), with the walk-forward's forecast where held out
    event_matches: pd.DataFrame = field(default_factory=pd.DataFrame)
    # player, strength, boards: the team events' headline after the last round
    event_strengths: pd.DataFrame = field(default_factory=pd.DataFrame)
    # player, strength, sd, team_boards: the team headline on the team boards, for the
    # players who played some (IMPs a board added to a side), where rate has run
    team_strengths: pd.DataFrame = field(default_factory=pd.DataFrame)
    # board id -> what its table scored (ns_score, ns_percent, imps), where rate has run
    scores: dict[int, dict[str, Any]] = field(default_factory=dict)


# What the site's pages read.
SITE_READS: tuple[Read, ...] = (
    Board,
    # the raw record's auction, extra fields and file: its alerts, notes, commentary, source
    RawBoard.id,
    RawBoard.source_id,
    RawBoard.auction,  # type: ignore[attr-defined]  # a raw field: a column set by name
    RawBoard.extra,
    SourceFile.id,
    SourceFile.name,
    SourceFile.path,
    SourceFile.format,
    SeatPerson,
    HeadlineRating,
    Rating,
    AuctionAnalysis,
    CallAnalysis,
    PlayerStats,
    SessionValidation,
    ValidationCeiling,
    TableEvidence,
    CardAnalysis,
    RatingHistory,
    SessionPrediction.predicted,
    SessionPrediction.actual,
    PairScorecard,
    StoredDDTable.deal_hash,
    StoredDDTable.tricks,
    TeamMatchRow,
    EventMatchForecast.match_id,
    EventMatchForecast.predicted,
    EventMatchForecast.sd,
    EventStrength.player,
    EventStrength.strength,
    EventStrength.boards,
    TeamStrength,
    TableScore,
)


def _or_empty(tables: ReportTables, table: Any, columns: list[str] | None = None) -> pd.DataFrame:
    """A table's frame (its ``columns``, in that order); no rows where its stage has not
    run."""
    frame = tables.frame(table)
    return frame if columns is None else frame[columns]


def _boards(tables: ReportTables) -> pd.DataFrame:
    """The boards with their raw record's auction and extra fields and their source file."""
    boards = tables.frame(Board)
    raw = tables.frame(RawBoard).rename(
        columns={"id": "raw_id", "auction": "raw_auction", "extra": "record_extra"}
    )
    files = tables.frame(SourceFile).rename(
        columns={
            "id": "file_id",
            "name": "source",
            "path": "source_path",
            "format": "source_format",
        }
    )
    joined = boards.merge(raw, left_on="id", right_on="raw_id").merge(
        files, left_on="source_id", right_on="file_id"
    )
    shown = ["source", "source_path", "source_format", "raw_auction", "record_extra"]
    return joined[[*boards.columns, *shown]]


def read_site_data(tables: ReportTables) -> SiteData:
    """Read the site's inputs (empty frames for stages that have not run)."""
    boards = _boards(tables)
    if not boards.empty:  # a file read by a version before names: its own name, no folder
        unnamed = boards["source"].isna()
        boards.loc[unnamed, "source"] = boards.loc[unnamed, "source_path"].map(
            lambda path: PurePath(path).name
        )
        boards = boards.drop(columns="source_path")
    lookup = Persons(tables)
    seats = _seats(boards, lookup)
    ratings, kind = _ratings(tables)
    auctions = _or_empty(tables, AuctionAnalysis)
    calls = _or_empty(tables, CallAnalysis)
    stats = _or_empty(tables, PlayerStats)
    if not stats.empty:
        stats = stats.merge(_auction_mistakes(calls, seats), on="player", how="left")
        stats["auction_mistakes"] = stats["auction_mistakes"].fillna(0).astype(int)
    every = tables.frame(SessionValidation)
    rows = every[every["method"] == "headline"].reset_index(drop=True)
    validation = {str(k): v for k, v in rows.iloc[0].items()} if len(rows) else None
    ceiling = _or_empty(tables, ValidationCeiling)
    evidence = _or_empty(tables, TableEvidence)
    return SiteData(
        boards=boards,
        seats=seats,
        pools=_pools(seats),
        ratings=ratings,
        rating_kind=kind,
        stats=stats,
        cards=_or_empty(tables, CardAnalysis),
        auctions=auctions,
        calls=calls,
        evidence=evidence,
        measures=_measures(evidence, seats),
        history=_history(tables),
        validation=validation,
        predictions=_or_empty(tables, SessionPrediction, ["predicted", "actual"]),
        ceiling=dict(zip(ceiling.get("measure", []), ceiling.get("value", []))),
        scorecards=_or_empty(tables, PairScorecard),
        dd_tables=_dd_tables(tables, boards),
        event_matches=_event_matches(tables, lookup),
        event_strengths=_or_empty(tables, EventStrength, ["player", "strength", "boards"]),
        team_strengths=_team_strengths(tables),
        scores=tables.frame(TableScore).set_index("board_id").to_dict("index"),
    )


class Persons:
    """Who sat in a seat: a raw name in its event as the person the match stage resolved it
    to (``""`` for no one to rate: a robot, a team string, a placeholder), the raw name
    itself where the match stage has not seen it."""

    def __init__(self, tables: ReportTables) -> None:
        seats = tables.frame(SeatPerson)
        self._names = dict(zip(zip(seats["raw_name"], seats["event"]), seats["person"]))

    def name(self, raw: str, event: str) -> str:
        """The person's name of a seat."""
        return self._names.get((raw, event), raw)


def _history(tables: ReportTables) -> pd.DataFrame:
    """The ranking-probability Elo of each player after each game, by player and game."""
    history = tables.frame(RatingHistory)
    dlo = history[history["method"] == "dlo"][["player", "game", "rating"]]
    return dlo.sort_values(["player", "game"], kind="stable").reset_index(drop=True)


def _event_matches(tables: ReportTables, lookup: Persons) -> pd.DataFrame:
    """The team events' matches with their held-out forecasts (none before rate), each
    seat of the first line-up also as its person."""
    matches = tables.frame(TeamMatchRow)
    forecasts = tables.frame(EventMatchForecast).rename(columns={"match_id": "id"})
    matches = matches.merge(forecasts, on="id", how="left")
    for room in ("open", "closed"):
        for seat in ("north", "east", "south", "west"):
            column = f"{room}_{seat}"
            matches[f"person_{column}"] = [
                lookup.name(raw, event) or raw
                for raw, event in zip(matches[column], matches["event"])
            ]
    return matches


def _dd_tables(tables: ReportTables, boards: pd.DataFrame) -> dict[str, str]:
    """The solved double dummy tables of the boards' deals, by deal hash."""
    solved = tables.frame(StoredDDTable)
    if solved.empty or boards.empty:
        return {}
    solved = solved[solved["tricks"].notna() & solved["deal_hash"].isin(boards["deal_hash"])]
    return {str(deal): str(tricks) for deal, tricks in zip(solved["deal_hash"], solved["tricks"])}


def _seats(boards: pd.DataFrame, lookup: Persons) -> pd.DataFrame:
    """Four rows per board: who sat where, as the person the name in its event was resolved
    to, and the name as written (a seat that is no one to rate is left out)."""
    if boards.empty:
        return pd.DataFrame(columns=["board_id", "seat", "player", "written"])
    frames = [
        pd.DataFrame(
            {
                "board_id": boards["id"],
                "seat": seat,
                "player": [
                    lookup.name(raw, event) if raw else raw
                    for raw, event in zip(boards[column], boards["event"])
                ],
                "written": boards[column],  # the name as the record spells it
            }
        )
        for seat, column in SEAT_COLUMNS.items()
    ]
    seats = pd.concat(frames, ignore_index=True)
    return seats[seats["player"].fillna("").str.strip() != ""]


def _pools(seats: pd.DataFrame) -> dict[str, int]:
    """Players joined by having played at one table, numbered by size (1 = largest): ratings
    compare players of one pool only."""
    parent: dict[str, str] = {}

    def root(player: str) -> str:
        while parent.setdefault(player, player) != player:
            parent[player] = parent[parent[player]]
            player = parent[player]
        return player

    for _, group in seats.groupby("board_id")["player"]:
        members = list(group)
        for other in members[1:]:
            parent[root(other)] = root(members[0])
    roots = {player: root(player) for player in parent}
    sizes = pd.Series(list(roots.values())).value_counts()
    number = {root_: rank for rank, root_ in enumerate(sizes.index, start=1)}
    return {player: number[root_] for player, root_ in roots.items()}


def _ratings(tables: ReportTables) -> tuple[pd.DataFrame, str]:
    """The headline ratings with 80% intervals, else HBT's (team data), else nothing."""
    headline = tables.frame(HeadlineRating)
    if not headline.empty:
        headline = headline.sort_values("rating", ascending=False, kind="stable")
        headline = headline.reset_index(drop=True)
        headline["low"] = headline["rating"] - Z80 * headline["sd"]
        headline["high"] = headline["rating"] + Z80 * headline["sd"]
        return headline, "headline"
    every = tables.frame(Rating)
    hbt = every[every["method"] == "hbt"][["player", "rating", "low", "high", "games"]]
    hbt = hbt.rename(columns={"games": "boards"}).sort_values(
        "rating", ascending=False, kind="stable"
    )
    hbt = hbt.reset_index(drop=True)
    if not hbt.empty:
        hbt["sd"] = (hbt["high"] - hbt["low"]) / (2 * Z95)
        hbt["sessions"] = pd.NA
        return hbt, "hbt"
    return pd.DataFrame(), ""


def _team_strengths(tables: ReportTables) -> pd.DataFrame:
    """The team headline's strength of each player who played team boards (the others in
    ``team_strengths`` are rated by their covariates alone: no rating of their own)."""
    found = _or_empty(tables, TeamStrength, ["player", "strength", "sd", "team_boards"])
    return found[found["team_boards"] > 0].reset_index(drop=True)


def _auction_mistakes(calls: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Per player, the auctions in which the player made a call that gave IMPs away against
    the par of the auction after it (a red call, :mod:`dds.call_values`): the player's own
    calls, not the side's verdict, which fails both partners for either's call."""
    if calls.empty or seats.empty:
        return pd.DataFrame(columns=["player", "auction_mistakes"])
    red = calls[calls["mistake_types"].fillna("") != ""][["board_id", "seat"]].drop_duplicates()
    counted = seats.merge(red, on=["board_id", "seat"])
    return counted.groupby("player").size().rename("auction_mistakes").reset_index()


# The opening leader sits after declarer.
_LEADER = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _measures(evidence: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """One row per player and board: ``declaring`` (declarer's tricks minus double dummy),
    ``defending`` (the same, for the defenders: minus), ``bidding`` (the side's contract
    against par, IMPs) and, where every lead was valued, ``random_lead`` (the chance that a
    card drawn at random from the leader's hand gives away a trick: the baseline of his
    leads)."""
    if evidence.empty or seats.empty:
        return pd.DataFrame(columns=["player", "role", "value"])
    side = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    sat = evidence.merge(seats, on="board_id")
    played = sat[sat["tricks_vs_dd"].notna() & sat["declarer"].isin(list(side))]
    declaring = played["seat"] == played["declarer"]
    defending = played["seat"].map(side) != played["declarer"].map(side)
    bid = sat[sat["bidding_imps"].notna()]
    sign = bid["seat"].map(SIDE_SIGN)
    frames = [
        pd.DataFrame(
            {
                "player": played["player"][declaring],
                "role": "declaring",
                "value": played["tricks_vs_dd"][declaring],
            }
        ),
        pd.DataFrame(
            {
                "player": played["player"][defending],
                "role": "defending",
                "value": -played["tricks_vs_dd"][defending],
            }
        ),
        pd.DataFrame(
            {"player": bid["player"], "role": "bidding", "value": sign * bid["bidding_imps"]}
        ),
    ]
    if "lead_best_cards" in sat:
        valued = sat[sat["lead_best_cards"].notna() & sat["declarer"].isin(list(side))]
        led = valued[valued["seat"] == valued["declarer"].map(_LEADER)]
        frames.append(
            pd.DataFrame(
                {
                    "player": led["player"],
                    "role": "random_lead",
                    "value": (HAND - led["lead_best_cards"]) / HAND,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def site_data_from(conn: Connection) -> SiteData:
    """The site's inputs read from ``conn`` alone (``bridgerank show`` and tools; the report
    stage shares one :class:`ReportTables` among every reader)."""
    return read_site_data(ReportTables(conn, SITE_READS))
