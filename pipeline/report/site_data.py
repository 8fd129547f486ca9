"""What the site reads from the database, once, as frames: boards with their source file,
players of every seat, the pools of players connected by play, ratings, counters and the
double dummy verdicts. The page builders (:mod:`site`) only arrange these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import pandas as pd
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bridgerank.cleaning.match.lookup import PersonLookup, person_lookup
from bridgerank.dds.lead_baselines import HAND

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


def _table(conn: Connection, present: set[str], name: str, query: str) -> pd.DataFrame:
    return pd.read_sql(text(query), conn) if name in present else pd.DataFrame()


def read_site_data(conn: Connection) -> SiteData:
    """Read the site's inputs (empty frames for stages that have not run)."""
    present = set(inspect(conn).get_table_names())
    boards = _table(
        conn,
        present,
        "boards",
        # the raw record's auction, extra fields and format: its alerts, notes, commentary
        "select b.*, f.name as source, f.path as source_path, f.format as source_format, "
        "r.auction as raw_auction, r.extra as record_extra from boards b "
        "join raw_boards r on r.id = b.id join source_files f on f.id = r.source_id",
    )
    if not boards.empty:  # a file read by a version before names: its own name, no folder
        unnamed = boards["source"].isna()
        boards.loc[unnamed, "source"] = boards.loc[unnamed, "source_path"].map(
            lambda path: PurePath(path).name
        )
        boards = boards.drop(columns="source_path")
    lookup = person_lookup(conn)
    seats = _seats(boards, lookup)
    ratings, kind = _ratings(conn, present)
    auctions = _table(conn, present, "auction_analysis", "select * from auction_analysis")
    calls = _table(conn, present, "call_analysis", "select * from call_analysis")
    stats = _table(conn, present, "player_stats", "select * from player_stats")
    if not stats.empty:
        stats = stats.merge(_auction_mistakes(calls, seats), on="player", how="left")
        stats["auction_mistakes"] = stats["auction_mistakes"].fillna(0).astype(int)
    validation = None
    if "session_validation" in present:
        rows = pd.read_sql(text("select * from session_validation where method = 'headline'"), conn)
        validation = {str(k): v for k, v in rows.iloc[0].items()} if len(rows) else None
    ceiling = _table(conn, present, "validation_ceiling", "select * from validation_ceiling")
    evidence = _table(conn, present, "table_evidence", "select * from table_evidence")
    return SiteData(
        boards=boards,
        seats=seats,
        pools=_pools(seats),
        ratings=ratings,
        rating_kind=kind,
        stats=stats,
        cards=_table(conn, present, "card_analysis", "select * from card_analysis"),
        auctions=auctions,
        calls=calls,
        evidence=evidence,
        measures=_measures(evidence, seats),
        history=_table(
            conn,
            present,
            "rating_history",
            "select player, game, rating from rating_history where method = 'dlo' "
            "order by player, game",
        ),
        validation=validation,
        predictions=_table(
            conn,
            present,
            "session_predictions",
            "select predicted, actual from session_predictions",
        ),
        ceiling=dict(zip(ceiling.get("measure", []), ceiling.get("value", []))),
        scorecards=_table(conn, present, "pair_scorecards", "select * from pair_scorecards"),
        dd_tables=_dd_tables(conn, present),
        event_matches=_event_matches(conn, present, lookup),
        event_strengths=_table(
            conn, present, "event_strengths", "select player, strength, boards from event_strengths"
        ),
    )


def _event_matches(conn: Connection, present: set[str], lookup: PersonLookup) -> pd.DataFrame:
    """The team events' matches with their held-out forecasts (none before rate), each
    seat of the first line-up also as its person."""
    if "team_matches" not in present:
        return pd.DataFrame()
    forecasts = "event_match_forecasts" in present
    matches = pd.read_sql(
        text(
            "select m.*, f.predicted, f.sd from team_matches m "
            "left join event_match_forecasts f on f.match_id = m.id"
            if forecasts
            else "select m.*, null as predicted, null as sd from team_matches m"
        ),
        conn,
    )
    for room in ("open", "closed"):
        for seat in ("north", "east", "south", "west"):
            column = f"{room}_{seat}"
            matches[f"person_{column}"] = [
                lookup.name(raw, event) or raw
                for raw, event in zip(matches[column], matches["event"])
            ]
    return matches


def _dd_tables(conn: Connection, present: set[str]) -> dict[str, str]:
    """The solved double dummy tables of the boards' deals, by deal hash."""
    if "dd_tables" not in present:
        return {}
    rows = conn.execute(
        text(
            "select t.deal_hash, t.tricks from dd_tables t where t.tricks is not null and "
            "t.deal_hash in (select deal_hash from boards)"
        )
    )
    return {str(deal): str(tricks) for deal, tricks in rows}


def _seats(boards: pd.DataFrame, lookup: PersonLookup) -> pd.DataFrame:
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


def _ratings(conn: Connection, present: set[str]) -> tuple[pd.DataFrame, str]:
    """The headline ratings with 80% intervals, else HBT's (team data), else nothing."""
    z80 = 1.2815515655446004
    headline = _table(
        conn, present, "headline_ratings", "select * from headline_ratings order by rating desc"
    )
    if not headline.empty:
        headline["low"] = headline["rating"] - z80 * headline["sd"]
        headline["high"] = headline["rating"] + z80 * headline["sd"]
        return headline, "headline"
    hbt = _table(
        conn,
        present,
        "ratings",
        "select player, rating, low, high, games as boards from ratings "
        "where method = 'hbt' order by rating desc",
    )
    if not hbt.empty:
        hbt["sd"] = (hbt["high"] - hbt["low"]) / (2 * 1.959963984540054)
        hbt["sessions"] = pd.NA
        return hbt, "hbt"
    return pd.DataFrame(), ""


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
