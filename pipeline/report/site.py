"""The report as a static site: ``index.html`` (the ranking), ``methods.html`` (data, methods
and every caveat), a page per player under ``players/`` and per board under ``boards/``, one
stylesheet and one script. Relative links only, nothing fetched from elsewhere: the folder
works from a file share or a USB stick.

Names, events and every other text from hand records are untrusted: the templates escape
them (autoescape) and show their control and bidi characters as escapes (``\\x1b``,
``\\u202e``: :mod:`templating`, every output, plots included), the plots escape their labels,
and file names are derived from hashes and board ids, never from the text.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from bridgerank.bridge.scoring import imps
from bridgerank.pipeline.report.board_pages import deal_pages, write_boards
from bridgerank.pipeline.report.event_pages import (
    championship_record,
    event_index,
    event_page,
)
from bridgerank.pipeline.report.frames import rows as frame_rows
from bridgerank.pipeline.report.page_writer import PageWriter, player_file
from bridgerank.pipeline.report.player_view import (
    FieldMeasures,
    RoleField,
    role_rates,
)
from bridgerank.pipeline.report.site_data import PARTNER, SIDE_SIGN, SiteData
from bridgerank.pipeline.report.svg import distribution, forest, history, lines
from bridgerank.pipeline.report.templating import environment
from bridgerank.ratings.holdout import Z80

# Players drawn in the front page's forest plot (the table below it lists them all).
FOREST_PLAYERS = 40
# Players with fewer boards are provisional: listed, not drawn among the best.
SETTLED_BOARDS = 100
# Labels of the plot are cut to this many characters (a team's or pair's name can be long).
LABEL_LENGTH = 32
# Boards listed per player as the costliest and the best.
BOARDS_LISTED = 10


@dataclass
class SiteSummary:
    """What was written: pages and bytes, and how long it took."""

    pages: int
    bytes: int
    seconds: float


def write_site(
    folder: Path,
    data: SiteData,
    methods_html: str,
    jobs: int = 1,
    forecasts: Sequence[dict[str, Any]] = (),
) -> SiteSummary:
    """Write every page of the site into ``folder`` (see the module docstring); the board
    pages, most of the work, in ``jobs`` processes; with stored ``forecasts``
    (:mod:`~bridgerank.pipeline.report.forecasts`), their page."""
    began = time.perf_counter()
    env = environment()
    (folder / "players").mkdir(parents=True, exist_ok=True)
    (folder / "boards").mkdir(exist_ok=True)
    writer = PageWriter(folder)
    for asset in ("site.css", "site.js"):
        writer.write(asset, env.get_template(f"site/{asset}").render())
    writer.write("methods.html", methods_html)
    players = _player_index(data)
    events = event_index(data.event_matches)
    front = env.get_template("site/index.html.j2").render(
        **_front(data, players),
        has_forecasts=bool(forecasts),
        team_events=len(events),
        team_matches=len(data.event_matches),
    )
    writer.write("index.html", front)
    if events:
        _write_events(writer, env, data, events, set(players["player"]))
    if forecasts:
        page = env.get_template("site/forecasts.html.j2").render(root="", rows=forecasts)
        writer.write("forecasts.html", page)
    player_pages = _PlayerPages(data, players)
    template = env.get_template("site/player.html.j2")
    for player in frame_rows(players):
        context = player_pages.of(player)
        writer.write(f"players/{player['file']}", template.render(root="../", **context))
    pages, size = write_boards(folder, data, set(players["player"]), jobs)
    return SiteSummary(writer.pages + pages, writer.bytes + size, time.perf_counter() - began)


def _write_events(
    writer: PageWriter, env: Any, data: SiteData, events: list[dict[str, Any]], with_pages: set[str]
) -> None:
    """The team events' index and a page per event (:mod:`event_pages`)."""
    (writer.folder / "events").mkdir(exist_ok=True)
    page = env.get_template("site/events.html.j2").render(
        root="", events=events, matches=len(data.event_matches)
    )
    writer.write("events.html", page)
    template = env.get_template("site/event.html.j2")
    by_event = dict(tuple(data.event_matches.groupby("event", sort=False)))
    for event in events:
        context = event_page(event["event"], by_event[event["event"]], with_pages, player_file)
        writer.write(f"events/{event['file']}", template.render(root="../", **context))


def _player_index(data: SiteData) -> pd.DataFrame:
    """Every player who sat at a board, was rated or has counters, with rank in the pool,
    pool and page file."""
    names = (
        set(data.ratings.get("player", []))
        | set(data.stats.get("player", []))
        | set(data.seats["player"])
    )
    boards = data.seats.groupby("player")["board_id"].nunique()
    table = pd.DataFrame({"player": sorted(names)})
    table["boards"] = table["player"].map(boards).fillna(0).astype(int)
    if not data.ratings.empty:
        rated = data.ratings.drop(columns=["boards"], errors="ignore").set_index("player")
        table = table.join(rated[["rating", "sd", "low", "high", "sessions"]], on="player")
    else:
        for column in ("rating", "sd", "low", "high", "sessions"):
            table[column] = math.nan
    table["pool"] = table["player"].map(data.pools).fillna(0).astype(int)
    table = table.sort_values(["rating", "boards"], ascending=[False, False], na_position="last")
    table["rank"] = table.groupby("pool")["rating"].rank(ascending=False, method="min")
    table["file"] = table["player"].map(player_file)
    table = _with_team_strength(table.reset_index(drop=True), data.team_strengths)
    return _with_rank_standing(table)


def _with_team_strength(table: pd.DataFrame, strengths: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each team player's team headline: ``team_strength`` (IMPs a board
    added to a side), its 80% interval, ``team_boards`` and ``team_rank`` among them."""
    columns = ("team_strength", "team_sd", "team_low", "team_high", "team_boards", "team_rank")
    if strengths.empty:
        for column in columns:
            table[column] = math.nan
        return table
    found = strengths.set_index("player")
    table["team_strength"] = table["player"].map(found["strength"])
    table["team_sd"] = table["player"].map(found["sd"])
    table["team_low"] = table["team_strength"] - Z80 * table["team_sd"]
    table["team_high"] = table["team_strength"] + Z80 * table["team_sd"]
    table["team_boards"] = table["player"].map(found["team_boards"])
    table["team_rank"] = table["team_strength"].rank(ascending=False, method="min")
    return table


# The ranking's "top" a selector asks about, and the rank interval's coverage.
TOP = 10
RANK_LEVEL = 0.8


def _with_rank_standing(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each rated player's 80% rank interval (``rank_low``, ``rank_high``)
    and probability of being in the top 10 (``in_top``) within their pool, from joint draws
    of every rating of the pool (the ranks are only as settled as the ratings are)."""
    from bridgerank.ratings.uncertainty import rank_standing

    for column in ("rank_low", "rank_high", "in_top"):
        table[column] = math.nan
    rated = table[table["rating"].notna()]
    for _, pool in rated.groupby("pool"):
        # the draws in the order of the names, so that a player's figures do not depend on
        # how ties in rating happen to be ordered
        pool = pool.sort_values("player", kind="stable")
        low, high, in_top = rank_standing(
            pool["rating"].to_numpy(), pool["sd"].to_numpy(), RANK_LEVEL, TOP
        )
        table.loc[pool.index, "rank_low"] = low
        table.loc[pool.index, "rank_high"] = high
        table.loc[pool.index, "in_top"] = in_top
    return table


def _contenders(rated: pd.DataFrame) -> dict[str, Any] | None:
    """Who the top 10 of pool 1 cannot be told from: the players whose 80% rank interval
    reaches it, and how settled its leader is (None: too few players to ask)."""
    pool = rated[rated["pool"] == 1]
    if len(pool) <= TOP:
        return None
    reach = pool[pool["rank_low"] <= TOP]
    first = pool.iloc[0]
    return {
        "top": TOP,
        "reach": len(reach),
        "outside": int((reach["rank"] > TOP).sum()),
        "leader": first["player"],
        "leader_low": int(first["rank_low"]),
        "leader_high": int(first["rank_high"]),
        "settled": bool(first["in_top"] >= 0.9),
    }


def player_context(data: SiteData, name: str) -> dict[str, Any]:
    """The context of one player's page (as the site renders it)."""
    players = _player_index(data)
    row = frame_rows(players[players["player"] == name])[0]
    return _PlayerPages(data, players).of(row)


def _front(data: SiteData, players: pd.DataFrame) -> dict[str, Any]:
    rated = players[players["rating"].notna()]
    # small data (the quick start's sample): the typical player's boards will do
    needed = int(min(SETTLED_BOARDS, rated["boards"].median())) if len(rated) else 0
    settled = rated[(rated["pool"] == 1) & (rated["boards"] >= needed)]
    top = settled.head(FOREST_PLAYERS)
    plot = forest(
        [_cut(name) for name in top["player"]],
        list(top["rating"]),
        list(top["low"]),
        list(top["high"]),
        _unit(data.rating_kind),
        [f"players/{name}" for name in top["file"]],
    )
    pools = rated["pool"].value_counts().sort_index()
    return {
        "root": "",
        "kind": data.rating_kind,
        "unit": _unit(data.rating_kind),
        "plot": plot,
        "forest_players": len(top),
        "settled": needed,
        "players": rated.to_dict("records"),
        "contenders": _contenders(rated),
        "top": TOP,
        "team_players": _team_ranking(players),
        "unrated": players[players["rating"].isna() & players["team_strength"].isna()].to_dict(
            "records"
        ),
        "pools": {int(pool): int(count) for pool, count in pools.items()},
        "validation": data.validation,
        "calibration": calibration(data.predictions),
        "ceiling": data.ceiling,
        "boards": len(data.boards),
    }


def _team_ranking(players: pd.DataFrame) -> list[dict[str, Any]]:
    """The team players, strongest first: the team headline of everyone who played team
    boards, rated or not by the pair ranking."""
    team = players[players["team_strength"].notna()]
    return frame_rows(team.sort_values(["team_rank", "player"], kind="stable"))


def calibration(predictions: pd.DataFrame, groups: int = 10) -> Any:
    """Held-out pair-sessions in ``groups`` equal groups by forecast: each group's mean
    forecast against its mean result, on the diagonal when the forecasts are calibrated."""
    if len(predictions) < 2 * groups:
        return ""
    ordered = predictions.sort_values("predicted").reset_index(drop=True)
    bins = ordered.groupby(np.arange(len(ordered)) * groups // len(ordered))
    means = bins[["predicted", "actual"]].mean()
    low = float(min(means.min()))
    high = float(max(means.max()))
    return lines(
        {
            "held-out sessions": (list(means["predicted"]), list(means["actual"])),
            "perfect calibration": ([low, high], [low, high]),
        },
        "forecast session %",
        "actual session %",
        from_zero=False,
    )


def _cut(label: str) -> str:
    return label if len(label) <= LABEL_LENGTH else label[: LABEL_LENGTH - 1] + "\u2026"


def _unit(kind: str) -> str:
    return {
        "headline": "matchpoint-% points above an average field",
        "hbt": "Bradley-Terry strength (log-odds of winning a board)",
    }.get(kind, "")


class _PlayerPages:
    """The parts of every player page, computed once for all players."""

    def __init__(self, data: SiteData, players: pd.DataFrame) -> None:
        self.data, self.players = data, players
        columns = ["event", "board_no", "contract", "declarer"]
        self.boards = (
            data.boards.set_index("id")[columns].to_dict("index") if len(data.boards) else {}
        )
        self.events = _event_counts(data)
        self.aliases = _alias_events(data)
        self.everyone = frame_rows(data.stats) if len(data.stats) else []
        self.stats = {row["player"]: row for row in self.everyone}
        self.role_field = RoleField.of(self.everyone)
        # ranks are among the rated players of the pool
        self.pool_sizes = players.loc[players["rating"].notna(), "pool"].value_counts().to_dict()
        self.team_players = int(players["team_strength"].notna().sum())
        self.with_pages = set(players["player"])
        self.partners = _partner_counts(data.seats)
        self.measures = FieldMeasures(data.measures)
        # each leader's random-lead baseline, over the boards whose every lead was valued
        random = data.measures[data.measures["role"] == "random_lead"]
        self.random_lead = random.groupby("player")["value"].mean().to_dict()
        self.histories = (
            {player: list(rows["rating"]) for player, rows in data.history.groupby("player")}
            if len(data.history)
            else {}
        )
        self.page_of = deal_pages(data.boards) if len(data.boards) else {}
        self.scorecards = scorecards(data.scorecards)
        self.costly = _ranked_boards(_tricks_given(data), "cost_tricks")
        against_field = _contract_against_field(data)
        # where no card was recorded: the play and the contract, in IMPs
        lost = pd.concat(
            [
                _play_cost(data).assign(what="play"),
                against_field[against_field["imps"] < 0]
                .assign(imps=lambda frame: -frame["imps"])
                .assign(what="contract"),
            ],
            ignore_index=True,
        )
        self.costly_results = _ranked_boards(lost, "imps", keep=["what"])
        self.best = _ranked_boards(against_field[against_field["imps"] > 0], "imps")
        self.championships = championship_record(data.event_matches, data.event_strengths)

    def of(self, player: dict[str, Any]) -> dict[str, Any]:
        """The template's context for ``player`` (a row of the player index)."""
        name = player["player"]
        stats = self.stats.get(name)
        roles = role_rates(stats, self.role_field, self.random_lead.get(name)) if stats else []
        if all(role.chances == 0 for role in roles):
            roles = []  # no play recorded: the results' measures below say what there is
        return {
            "player": player,
            "unit": _unit(self.data.rating_kind),
            "kind": self.data.rating_kind,
            "pool_size": int(self.pool_sizes.get(player["pool"], 0)),
            "team_players": self.team_players,
            "roles": roles,
            "plots": {
                role.role: distribution(self.role_field.others[role.role], role.rate, "per chance")
                for role in roles
            },
            "measures": self.measures.of(name),
            "history": history(
                self.histories.get(name, []), "ranking-probability Elo after each deal"
            ),
            "partners": [
                (partner, count, player_file(partner) if partner in self.with_pages else "")
                for partner, count in self.partners.get(name, [])
            ],
            "events": dict(self.events.get(name, [])),
            "scorecard": [
                {**row, "partner_file": player_file(row["partner"])}
                if row["partner"] in self.with_pages
                else row
                for row in self.scorecards.get(name, [])
            ],
            "aliases": self.aliases.get(name, []),
            "championships": self.championships.get(name),
            "costly": [
                self._link(board, f"{_tricks(value)} given away")
                for board, value in self.costly.get(name, [])
            ]
            or [
                self._link(board, _cost_words(what, int(value)))
                for board, value, what in self.costly_results.get(name, [])
            ],
            "best": [
                self._link(board, f"the contract, {_imps(value)} above the field's at double dummy")
                for board, value in self.best.get(name, [])
            ],
        }

    def _link(self, board_id: int, why: str) -> dict[str, Any]:
        board = self.boards[board_id]
        return {
            "file": f"{self.page_of[int(board_id)]}.html#t{int(board_id)}",
            "event": board["event"],
            "board_no": board["board_no"],
            "contract": board["contract"],
            "declarer": board["declarer"],
            "why": why,
        }


def scorecards(table: pd.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """Per player, every session with its partner, newest first (then by event): the
    scorecard; where the rating forecast the session, its 80% interval (``low_80``,
    ``high_80``) and whether the result fell inside it (``held``)."""
    if table.empty:
        return {}
    half = Z80 * table["forecast_sd"]
    known = half.notna()
    held = pd.Series(None, index=table.index, dtype=object)
    held[known] = (table["percent"] - table["forecast"])[known].abs() <= half[known]
    table = table.assign(
        low_80=table["forecast"] - half, high_80=table["forecast"] + half, held=held
    )
    both = pd.concat(
        [
            table.rename(columns={"player_a": "player", "player_b": "partner"}),
            table.rename(columns={"player_b": "player", "player_a": "partner"}),
        ],
        ignore_index=True,
    )
    # newest first by the numbers in the session's name: "2013 round 21" after "2013 round 9"
    both["_when"] = both["session"].map(_natural)
    both = both.sort_values(
        ["player", "_when", "event", "partner"],
        ascending=[True, False, True, True],
        kind="stable",
    ).drop(columns="_when")
    rows = both.astype(object).where(both.notna(), None)
    return {
        str(player): group.drop(columns="player").to_dict("records")
        for player, group in rows.groupby("player", sort=False)
    }


def _natural(text: Any) -> tuple:
    """A text's order with its numbers read as numbers (dates and rounds alike)."""
    parts = re.split(r"(\d+)", str(text))
    return tuple(int(part) if index % 2 else part for index, part in enumerate(parts))


def _partner_counts(seats: pd.DataFrame, most: int = 20) -> dict[str, list[tuple[str, int]]]:
    """Per player, the partners and boards played together, most first."""
    partner_seat = seats.assign(seat=seats["seat"].map(PARTNER))
    pairs = seats.merge(partner_seat, on=["board_id", "seat"], suffixes=("_partner", ""))
    counts = pairs.groupby(["player", "player_partner"]).size().rename("boards").reset_index()
    counts = counts.sort_values("boards", ascending=False).groupby("player").head(most)
    return {
        player: list(zip(rows["player_partner"], rows["boards"].astype(int)))
        for player, rows in counts.groupby("player")
    }


def _event_counts(data: SiteData) -> dict[str, list[tuple[str, int]]]:
    """Per player, every event played and the boards in each, most first (none left out)."""
    if data.boards.empty:
        return {}
    events = data.boards[["id", "event"]].rename(columns={"id": "board_id"})
    counts = data.seats.merge(events, on="board_id").groupby(["player", "event"]).size()
    counts = counts.rename("boards").reset_index().sort_values("boards", ascending=False)
    return {
        player: list(zip(rows["event"], rows["boards"].astype(int)))
        for player, rows in counts.groupby("player")
    }


def _alias_events(data: SiteData) -> dict[str, list[dict[str, Any]]]:
    """Per player, each spelling the records give them, with its boards and the events it
    was seen in (most played first): how the records named one person."""
    if data.boards.empty or "written" not in data.seats:
        return {}
    events = data.boards[["id", "event"]].rename(columns={"id": "board_id"})
    seen = data.seats.merge(events, on="board_id")
    counts = seen.groupby(["player", "written", "event"]).size().rename("boards").reset_index()
    aliases: dict[str, list[dict[str, Any]]] = {}
    for (player, written), rows in counts.groupby(["player", "written"]):
        rows = rows.sort_values("boards", ascending=False)
        aliases.setdefault(str(player), []).append(
            {
                "written": written,
                "boards": int(rows["boards"].sum()),
                "events": [str(event) or "(no event name)" for event in rows["event"]],
            }
        )
    for spellings in aliases.values():
        spellings.sort(key=lambda alias: -alias["boards"])
    return aliases


def _imps(count: float) -> str:
    return f"{int(count)} IMP{'s' if int(count) != 1 else ''}"


def _cost_words(what: str, value: int) -> str:
    if what == "play":
        return f"{_imps(value)} lost in the play against double dummy"
    return f"the contract, {_imps(value)} below the field's at double dummy"


def _tricks(count: float) -> str:
    return f"{int(count)} trick{'s' if int(count) != 1 else ''}"


def _tricks_given(data: SiteData) -> pd.DataFrame:
    """board_id, player, cost_tricks: the tricks each player's own cards gave away on a board
    whose play was recorded (a dummy's cards are declarer's: declarer chose them). A
    traveller's lead card alone is no recorded play: its board's costs are the results'
    (:func:`_play_cost`), and the lead counts in the player's rate of leads."""
    if data.cards.empty:
        return pd.DataFrame(columns=["board_id", "player", "cost_tricks"])
    recorded = data.cards.loc[data.cards["card_index"] > 0, "board_id"]
    cards = data.cards[(data.cards["cost_tricks"] > 0) & data.cards["board_id"].isin(recorded)]
    owner = cards["seat"].where(cards["role"] != "dummy", cards["seat"].map(PARTNER))
    lost = cards.assign(seat=owner).groupby(["board_id", "seat"])["cost_tricks"].sum()
    return lost.reset_index().merge(data.seats, on=["board_id", "seat"])


def _contract_against_field(data: SiteData) -> pd.DataFrame:
    """board_id, player, imps: the contract the player's side declared, at double dummy,
    against the mean of the deal's other tables (two or more of one event), in IMPs for the
    side: a decision of the side's own (the others held the same cards), where tricks above
    double dummy, or the opponents' contract, are the opponents' doing."""
    if data.evidence.empty or data.boards.empty:
        return pd.DataFrame(columns=["board_id", "player", "imps"])
    deals = data.boards[["id", "event", "deal_hash"]].rename(columns={"id": "board_id"})
    scored = data.evidence[["board_id", "ns_dd_score", "declarer"]].merge(deals, on="board_id")
    grouped = scored.groupby(["event", "deal_hash"])["ns_dd_score"]
    count, total = grouped.transform("count"), grouped.transform("sum")
    scored = scored[count >= 2].copy()
    others = (total - scored["ns_dd_score"]) / (count - 1)
    scored["gain"] = (scored["ns_dd_score"] - others[scored.index]).round().astype(int)
    sat = scored.merge(data.seats, on="board_id")
    sides = sat["seat"].map(SIDE_SIGN)
    sat = sat[sides == sat["declarer"].map(SIDE_SIGN)].copy()  # the side declared
    sat["imps"] = [
        imps(int(gain) * SIDE_SIGN[seat]) for gain, seat in zip(sat["gain"], sat["seat"])
    ]
    return sat[["board_id", "player", "imps"]]


def _play_cost(data: SiteData) -> pd.DataFrame:
    """board_id, player, imps: what declarer's play lost against double dummy, in IMPs (a
    positive number), where the play was not recorded card by card (a traveller's lead card
    alone is no record of declarer's play)."""
    if data.evidence.empty:
        return pd.DataFrame(columns=["board_id", "player", "imps"])
    played = data.evidence[data.evidence["play_imps"].notna()]
    cards = data.cards
    recorded = (
        cards.loc[cards["card_index"] > 0, "board_id"] if len(cards) else pd.Series(dtype=int)
    )
    played = played[~played["board_id"].isin(recorded)]
    played = played.rename(columns={"declarer": "seat"})
    sat = played[["board_id", "seat", "play_imps"]].merge(data.seats, on=["board_id", "seat"])
    sat["imps"] = -sat["play_imps"] * sat["seat"].map(SIDE_SIGN)
    return sat.loc[sat["imps"] > 0, ["board_id", "player", "imps"]]


def _ranked_boards(
    frame: pd.DataFrame, column: str, keep: Sequence[str] = ()
) -> dict[str, list[tuple[Any, ...]]]:
    """Per player, the boards with the largest ``column``, most first: (board, value, and the
    ``keep`` columns)."""
    if frame.empty:
        return {}
    top = frame.sort_values(column, ascending=False).groupby("player").head(BOARDS_LISTED)
    return {
        player: list(zip(rows["board_id"].astype(int), rows[column], *(rows[k] for k in keep)))
        for player, rows in top.groupby("player")
    }
