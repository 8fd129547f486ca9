"""The report's sections: each reads what it needs from the database and returns a context.

A section is registered with :func:`section`; one that finds nothing to show (its stage has
not run) returns None and is left out. New stages add sections here without touching the
template of the others.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bridgerank.cleaning.clean.audit import exclusion_table, records_read
from bridgerank.cleaning.match import quality
from bridgerank.pipeline.report.svg import disc
from bridgerank.ratings.registry import method_descriptions


@dataclass(frozen=True)
class Section:
    """A report section: ``build(conn)`` gives the template's context, or None to skip it."""

    key: str
    title: str
    template: str
    build: Callable[[Connection], dict[str, Any] | None]


SECTIONS: list[Section] = []


def section(key: str, title: str, template: str):
    """Register a section builder, in report order."""

    def register(build):
        SECTIONS.append(Section(key, title, template, build))
        return build

    return register


def _has(conn: Connection, *tables: str) -> bool:
    """Whether each table holds at least one row (a stage that has not run left it empty)."""
    names = set(inspect(conn).get_table_names())
    return all(
        table in names and conn.execute(text(f'select 1 from "{table}" limit 1')).first()
        for table in tables
    )


def _frame(conn: Connection, query: str, **params) -> pd.DataFrame:
    return pd.read_sql(text(query), conn, params=params)


def _first_row(conn: Connection, table: str, query: str = "") -> dict[str, Any] | None:
    """The first row of ``table`` (of ``query`` on it), or None when it holds none."""
    if not _has(conn, table):
        return None
    row = conn.execute(text(query or f'select * from "{table}"')).mappings().first()
    return None if row is None else dict(row)


def _described(validation: pd.DataFrame, kind: str) -> pd.DataFrame:
    """A validation table with what each method is (as the registry of ``kind`` says: a
    rival's name means its form for these units) beside its name."""
    what = validation["method"].map(method_descriptions(kind)).fillna("")
    validation.insert(1, "what", what)
    return validation


# A validation table's rows: the headline first (every gain is the headline's over the row),
# then the others by their error.
_HEADLINE_FIRST = "order by case when method = 'headline' then 0 else 1 end, rmse, method"


@section("headline", "Who plays well: the headline rating", "headline.html.j2")
def _headline(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "headline_ratings"):
        return None
    ratings = _frame(
        conn,
        "select player, rating, sd, boards, sessions from headline_ratings order by rating desc",
    )
    ratings.insert(0, "rank", range(1, len(ratings) + 1))
    ratings["low_80"] = ratings["rating"] - 1.2816 * ratings["sd"]
    ratings["high_80"] = ratings["rating"] + 1.2816 * ratings["sd"]
    validation = None
    if _has(conn, "session_validation"):
        validation = _frame(conn, f"select * from session_validation {_HEADLINE_FIRST}")
        validation = _described(validation, "sessions")
    ceiling: dict[str, float] = (
        dict(_frame(conn, "select measure, value from validation_ceiling").itertuples(index=False))
        if _has(conn, "validation_ceiling")
        else {}
    )
    fit = _first_row(conn, "headline_fit")
    # the fit's reason for no validation, where the template looks for it
    summary = {**fit, "validation": fit["not_validated"]} if fit else {}
    rows = {} if validation is None else {r["method"]: r for r in validation.to_dict("records")}
    matches, pairs = (
        _described(_frame(conn, f"select * from {table} {_HEADLINE_FIRST}"), kind)
        if _has(conn, table)
        else None
        for table, kind in (("match_validation", "matches"), ("one_table_validation", "one_table"))
    )
    return {
        "ratings": ratings,
        "validation": validation,
        "ceiling": ceiling,
        "summary": summary,
        "headline": rows.get("headline"),
        # the headline's variants without its dd measures and without the pairs' entries
        "dd": rows.get("headline_no_dd"),
        "noentry": rows.get("headline_noentry"),
        "plain": rows.get("headline_plain"),
        # the newcomer prior's coefficient, as the points a regular of 20 sessions starts with
        "regular_edge": (
            None
            if summary.get("newcomer_prior") is None
            else 100 * summary["newcomer_prior"] * math.log1p(20)
        ),
        # a familiar partnership's bonus, in points of a session against unfamiliar pairs
        "familiar_edge": (
            None if summary.get("familiarity") is None else 100 * summary["familiarity"]
        ),
        "unfamiliar": rows.get("headline_no_fam"),
        "wbf": rows.get("wbf_points"),
        "matches": matches,
        "pairs": pairs if pairs is not None and len(pairs) else None,
    }


# The team events' subsets, in the order a reader takes them.
_EVENT_SUBSETS = ("all", "championships", "leagues", "open teams", "with deals")
# Columns said once above each subset's table, not on every row.
_EVENT_COUNTS = ("subset", "matches", "boards", "events", "split_half", "ceiling")


@section("team_events", "Team events, match by match", "event_matches.html.j2")
def _event_matches(conn: Connection) -> dict[str, Any] | None:
    """The matches of team events rebuilt from traveller files, held out round by round
    (``event_match_validation``): each subset's table, the double dummy question's answer
    and the reference that knows each event's later rounds."""
    if not _has(conn, "event_match_validation"):
        return None
    from bridgerank.dds.lead_reading import read_lead_baselines
    from bridgerank.ratings.event_matches import HINDSIGHT, LEADS, METHOD_DESCRIPTIONS, WITH_DEALS

    table = _frame(conn, f"select * from event_match_validation {_HEADLINE_FIRST}")
    subsets = []
    for name in _EVENT_SUBSETS:
        part = table[table["subset"] == name]
        if part.empty:
            continue
        first = part.iloc[0]
        rows = part.drop(columns=list(_EVENT_COUNTS)).reset_index(drop=True)
        rows.insert(1, "what", rows["method"].map(METHOD_DESCRIPTIONS).fillna(""))
        subsets.append(
            {
                "name": name,
                "matches": int(first["matches"]),
                "boards": int(first["boards"]),
                "events": int(first["events"]),
                "split_half": first["split_half"],
                "ceiling": first["ceiling"],
                "rows": rows,
            }
        )

    def row(subset: str, method: str) -> dict[str, Any] | None:
        found = table[(table["subset"] == subset) & (table["method"] == method)]
        return None if found.empty else found.iloc[0].to_dict()

    headline = row(WITH_DEALS, "headline")

    def added(method: str) -> dict[str, Any] | None:
        """What a variant of the headline adds to its Pearson on the matches with deals."""
        variant = row(WITH_DEALS, method)
        if variant is None or headline is None:
            return None
        # the table holds the headline's gain over the variant: the variant's is its negative
        low, high = variant["pearson_gain_high"], variant["pearson_gain_low"]
        return {
            "gain": variant["pearson"] - headline["pearson"],
            "low": None if pd.isna(low) else -low,
            "high": None if pd.isna(high) else -high,
            "matches": int(variant["matches"]),
            "events": int(variant["events"]),
        }

    leads = read_lead_baselines(conn) if _has(conn, "table_evidence") else None
    return {
        "subsets": subsets,
        "dd": added("headline_dd"),
        "leads": added(LEADS),
        "baselines": leads if leads is not None and leads.leads else None,
        "hindsight": row("all", HINDSIGHT),
    }


@section("checks", "What a selector must know, and fairness to partners", "checks.html.j2")
def _checks(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "rating_checks"):
        return None
    rows = _frame(conn, "select * from rating_checks")
    if rows.empty:
        return None
    banded = rows[rows["measure"].str.startswith(("reliability", "coverage_"))]
    table = None
    if len(banded):
        wide = banded.pivot(index="band", columns="measure", values="value")
        counts = banded[banded["measure"] == "reliability"].set_index("band")["n"]
        held = banded[banded["measure"] == "coverage_80"].set_index("band")["n"]
        wide.insert(0, "players", counts)
        wide.insert(2 if "reliability" in wide else 1, "held-out sessions", held)
        order = sorted(wide.index, key=lambda band: int(band.split("-")[0].rstrip("+")))
        table = wide.loc[order].reset_index().rename(columns={"band": "boards played"})
    single = {
        row["measure"]: {key: None if value != value else value for key, value in row.items()}
        for row in rows[rows["band"] == "all"].to_dict("records")
        if row["measure"] in ("strong_partner_rose", "regular_gap")
    }
    pairs = rows[rows["measure"] == "synergy"].sort_values("n", ascending=False)
    synergy = pairs.rename(
        columns={"band": "partnership", "n": "boards together", "value": "own term (points)"}
    )[["partnership", "boards together", "own term (points)", "low", "high"]]
    return {
        "bands": table,
        "strong": single.get("strong_partner_rose"),
        "regular": single.get("regular_gap"),
        "synergy": synergy if len(synergy) else None,
        "excluding_zero": int(((pairs["low"] > 0) | (pairs["high"] < 0)).sum()),
    }


@section("settings", "Run settings and timings", "settings.html.j2")
def _settings(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "stage_runs"):
        return None
    runs = _frame(
        conn,
        "select stage, finished_at, seconds, summary from stage_runs "
        "where id in (select max(id) from stage_runs group by stage) "
        "order by id",
    )
    # to the second, formatted here: date functions differ between SQL dialects
    runs["finished_at"] = pd.to_datetime(runs["finished_at"]).dt.strftime("%Y-%m-%d %H:%M:%S")
    return {"runs": runs.to_dict("records")}


@section("funnel", "Data funnel: records read, kept and excluded", "funnel.html.j2")
def _funnel(conn: Connection) -> dict[str, Any] | None:
    if not records_read(conn):
        return None
    levels = {}
    for level, title in (
        ("board", "Boards excluded (thesis Table 5)"),
        ("auction", "Auctions blanked (thesis Table 6)"),
        ("play", "Plays blanked (thesis Table 7)"),
        ("note", "Notes: values inferred or unknown, nothing dropped"),
    ):
        rows, total, no_error = exclusion_table(conn, level)
        levels[level] = {"title": title, "rows": rows, "total": total, "no_error": no_error}
    sources = _frame(
        conn,
        "select format, status, count(*) as files, sum(records) as records "
        "from source_files group by format, status",
    )
    return {"read": records_read(conn), "levels": levels, "sources": sources.to_dict("records")}


# Each reason of ``name_matches``, for a reader who has not read the matcher.
_MATCH_REASONS = {
    "exact": "every part of the name equals a WBF name",
    "alternative": "a known other name of the player (alternative names list)",
    "tuple": "the WBF name sharing the most name parts and initials, and no other as many",
    "surname only": "a bare surname that one listed player alone has",
    "fuzzy-token": "a part of the name matched by its spelling (a typing variant)",
    "fuzzy-tiebreak": "two WBF names fit equally; the closer spelling won by a clear margin",
    "ambiguous": "two or more WBF names fit equally well: not matched",
    "no candidate": "no WBF name fits: not matched",
    "handle": "an online handle, not a name: not matched",
    "robot": "a robot player: never rated",
    "fuller form in event": "a short name (a surname, initials) whose one fuller form in the "
    "same event agrees with it",
    "partnership": "a short name whose partner here partnered a player of that name elsewhere",
    "surname only, country agrees": "a surname one listed player has, of the country the "
    "event's teams, partners or listed players say",
    "surname only, no namesake": "a surname one listed player has, and no one else was seen "
    "under a full name with it",
    "tuple, country agrees": "a surname and initials one listed player fits, of the country "
    "the event says",
    "short name, no context": "a short name nothing in its event ties to one person: a player "
    "of that event alone",
    "several names": "a team or a pair in one name field: no one person, never rated",
    "placeholder": "a seat word or a stand-in (North, ?): no one, never rated",
    "empty": "no name: no one, never rated",
}


def _score_words(score: Any) -> str:
    """The matcher's score tuple as words: parts and initials matched and left over."""
    if not isinstance(score, str) or not score:
        return ""
    values = [int(value) for value in score.split(",")]
    words = [f"{values[0]} name part{'s' if values[0] != 1 else ''} matched"]
    if len(values) > 1 and values[1]:
        words.append(f"{values[1]} initial{'s' if values[1] != 1 else ''}")
    if len(values) > 2 and values[2]:
        words.append(f"{-values[2]} WBF part{'s' if values[2] != -1 else ''} left over")
    if len(values) > 4 and values[4]:
        words.append(f"{values[4]} by spelling")
    if len(values) > 5 and values[5]:
        words.append(f"{values[5]} as a nickname")
    return ", ".join(words)


@section("matching", "Name matching to the WBF lists", "matching.html.j2")
def _matching(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "name_matches") or not _frame(conn, "select 1 from name_matches").size:
        return None
    reasons = _frame(
        conn,
        "select reason, count(*) as names, sum(seats) as seats "
        "from name_matches group by reason order by seats desc",
    )
    unmatched = _frame(
        conn,
        "select raw_name, reason, runner_up, seats from name_matches "
        "where wbf_id is null order by seats desc limit 25",
    )
    matched = _frame(
        conn,
        "select m.raw_name, w.name as wbf_name, w.country, m.reason, "
        "m.score, m.seats from name_matches m join wbf_players w "
        "on w.id = m.wbf_id order by m.seats desc limit 50",
    )
    reasons["meaning"] = reasons["reason"].map(_MATCH_REASONS).fillna("")
    matched["evidence"] = matched["score"].map(_score_words)
    total = float(reasons["seats"].sum())
    covered = float(
        _frame(
            conn, "select coalesce(sum(seats), 0) as s from name_matches where wbf_id is not null"
        )["s"][0]
    )
    return {
        "quality": quality.LABELLED,
        "reasons": reasons.to_dict("records"),
        "unmatched": unmatched.to_dict("records"),
        "matched": matched.to_dict("records"),
        "seats": total,
        "share": covered / total if total else 0.0,
    }


@section("players", "Players: the 33 counters and 28 rates", "players.html.j2")
def _players(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "player_stats") or not _frame(conn, "select 1 from player_stats").size:
        return None
    stats = _frame(conn, "select * from player_stats order by boards desc")
    rates = _frame(conn, "select * from player_rates")
    return {"stats": stats.drop(columns=["player_id"]), "rates": rates.drop(columns=["player_id"])}


@section("glossary", "Glossary: the counters and rates, with their units", "glossary.html.j2")
def _glossary(conn: Connection) -> dict[str, Any] | None:
    from bridgerank.pipeline.report.glossary import glossary

    return {"rows": glossary(_auction_counters(conn))} if _has(conn, "player_stats") else None


def _auction_counters(conn: Connection) -> str:
    """What the database's auction counters count: the dds stage's last run says (a run
    from before the setting counted the thesis's verdicts)."""
    rows = _frame(
        conn, "select summary from stage_runs where stage = 'dds' order by id desc limit 1"
    )
    if not rows.size:
        return "thesis"
    try:
        return str(json.loads(str(rows.iloc[0, 0])).get("auction_counters", "thesis"))
    except (ValueError, AttributeError):  # a summary that is no JSON object
        return "thesis"


@section("ratings", "Ratings from results", "ratings.html.j2")
def _ratings(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "ratings") or not _frame(conn, "select 1 from ratings limit 1").size:
        return None
    table = _frame(conn, "select player, method, rating, games from ratings")
    wide = table.pivot_table(index="player", columns="method", values="rating")
    most_games = table.groupby("player")["games"].max()
    wide.insert(0, "boards", most_games)
    # Sorted by the model the data supports best: HBT for team boards, else the DLO Elo.
    first = next((m for m in ("hbt", "dlo", "elo") if m in wide), None)
    wide = wide.sort_values(first, ascending=False) if first else wide
    ranks = wide.drop(columns=["boards"]).rank(ascending=False)
    correlation = ranks.corr(method="spearman") if len(ranks) > 2 else None
    intervals = _frame(
        conn,
        "select player, rating, low, high, games from ratings "
        "where method = 'hbt' order by rating desc",
    )
    validation = (
        _frame(conn, "select * from rating_validation") if _has(conn, "rating_validation") else None
    )
    skill = _first_row(conn, "skill_o_meter", "select k, sigma, p, players from skill_o_meter")
    inputs = _first_row(conn, "rate_inputs") or {}
    games = {
        key: inputs.get(key, 0) for key in ("team_games", "single_table_games", "pair_rankings")
    }
    team = _frame(
        conn,
        "select player, rating, low, high, games from ratings "
        "where method = 'team_imps' order by rating desc, player",
    )
    plot = None
    if _has(conn, "rating_history"):
        history = _frame(
            conn, "select player, game, rating from rating_history where method = 'dlo'"
        )
        plot = _history_plot(history)
    return {
        "table": wide.reset_index(),
        "correlation": correlation.reset_index() if correlation is not None else None,
        "intervals": intervals,
        "validation": validation,
        "skill": skill,
        "history_plot": plot,
        "games": games,
        "methods": [m for m in wide.columns if m != "boards"],
        "team": _team_top(team) if len(team) else None,
    }


_TOP = 20
_Z95 = 1.959963984540054


def _team_top(team: pd.DataFrame) -> dict[str, Any]:
    """The team headline's top 20 with their boards, 95% intervals and 90% rank intervals
    (over every rated team player), the spread of their ratings, and the players whose
    interval is wider than that spread."""
    from bridgerank.ratings.uncertainty import rank_intervals

    sd = (team["high"] - team["low"]) / (2 * _Z95)
    low, high = rank_intervals(team["rating"].to_numpy(), sd.to_numpy())
    top = team.head(_TOP).copy()
    top.insert(0, "rank", range(1, len(top) + 1))
    top["rank interval"] = [f"{a}-{b}" for a, b in zip(low[: len(top)], high[: len(top)])]
    top = top.rename(columns={"games": "team boards", "rating": "IMPs per board"})
    spread = float(top["IMPs per board"].max() - top["IMPs per board"].min())
    wide = top[(top["high"] - top["low"]) > spread]["player"].tolist()
    return {"top": top, "spread": spread, "wide": wide, "players": len(team)}


_GAME_METHODS = {
    "elo": "Elo of the game",
    "melo": "mElo (batch)",
    "melo_online": "mElo (online)",
    "normal": "normal decomposition",
    "disc_rating": "disc rating",
    "hyperbolic": "Hyperbolic Elo",
    "neural": "neural decomposition",
}


_COIN_LOG_LOSS = 0.6931471805599453  # ln 2: a forecast of one half, whatever happened


def _percent(value: Any) -> str:
    return "" if value is None or value != value else f"{100 * value:.0f}"


@section("cycles", "Who beats whom: transitive and cyclic structure", "cycles.html.j2")
def _cycles(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "game_structure"):
        return None
    structure = _frame(conn, "select * from game_structure")
    scores = _frame(conn, "select * from game_method_scores")
    points = _frame(conn, "select * from disc_points")
    games = []
    for row in structure.to_dict("records"):
        mine = scores[scores["game"] == row["game"]]
        table = pd.DataFrame(
            {
                "method": mine["method"].map(_GAME_METHODS).fillna(mine["method"]),
                "right, all pairs %": mine["overall"].map(_percent),
                "right, training %": mine["train"].map(_percent),
                "right, held out %": mine["test"].map(_percent),
                "held-out sd %": mine["test_sd"].map(_percent),
                "held-out log-loss": mine["test_log_loss"].round(3),
                "hold-outs": mine["seeds"],
            }
        )
        dots = points[points["game"] == row["game"]]
        strengths = [
            row[f"lambda_{i}"] for i in (1, 2, 3) if row[f"lambda_{i}"] == row[f"lambda_{i}"]
        ]
        games.append(
            row
            | {
                "scores": table,
                "discs": ", ".join(f"{value:.2f}" for value in strengths if value is not None)
                or "none",
                "best": _GAME_METHODS.get(row["best_method"], row["best_method"] or "-"),
                "beats_coin": bool((mine["test_log_loss"] < _COIN_LOG_LOSS).any()),
                "plot": disc(list(dots["label"]), list(dots["x"]), list(dots["y"]))
                if len(dots)
                else None,
            }
        )
    neural = scores[scores["method"] == "neural"]
    return {
        "games": games,
        "neural_holdouts": int(neural["seeds"].max()) if len(neural) else None,
    }


def _history_plot(history: pd.DataFrame, players: int = 8) -> str | None:
    """Rating histories of the most active players, as a base64 PNG."""
    if history.empty:
        return None
    import matplotlib

    from bridgerank.regression.diagnostics import png_of

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    busiest = history["player"].value_counts().head(players).index
    figure, axis = plt.subplots(figsize=(8, 4), dpi=100)
    for player in busiest:
        rows = history[history["player"] == player]
        axis.plot(rows["game"], rows["rating"], label=player, linewidth=1)
    axis.set_xlabel("game (pair ranking) number")
    axis.set_ylabel("rating (Elo points)")
    axis.set_title("Multiplayer Elo (ranking probabilities) of the most active players")
    axis.legend(fontsize=7, ncol=2)
    return png_of(figure)


# Ten players per candidate predictor (14 rates per dataset) before an R² says much.
_PLAYERS_PER_PREDICTOR = 10
_CANDIDATE_RATES = 14


@section("regression", "Regression of ranking points on mistake rates", "regression.html.j2")
def _regression(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "regression_models"):
        return None
    context: dict[str, Any] = {}
    for name in (
        "regression_models",
        "regression_coefficients",
        "regression_steps",
        "regression_vif",
        "regression_bootstrap",
        "regression_diagnostics",
        "regression_sweep",
        "chosen_model",
    ):
        context[name] = _frame(conn, f"select * from {name}") if _has(conn, name) else None
    models = context["regression_models"]
    context["nothing_fitted"] = models is None or not models["n"].fillna(0).astype(int).any()
    sweep = context["regression_sweep"]
    if sweep is not None and len(sweep):
        # the rule of thumb: ten players per candidate predictor, or R² measures the noise
        needed = _PLAYERS_PER_PREDICTOR * _CANDIDATE_RATES
        sweep["caution"] = [
            f"fewer than {needed} players: R² fits noise" if players < needed else ""
            for players in sweep["players"]
        ]
    context["sweep_plots"] = _sweep_plots(sweep)
    if sweep is not None and len(sweep):
        # the thresholds themselves are in the CSV; here what a reader compares
        shown = ["response", "weighting", "factor", "players", "best_adj_r2", "caution"]
        context["regression_sweep"] = sweep[[c for c in shown if c in sweep]]
    chosen = context["chosen_model"]
    context["chosen"] = chosen.to_dict("records")[0] if chosen is not None and len(chosen) else None
    context["min_players"] = _PLAYERS_PER_PREDICTOR * _CANDIDATE_RATES
    context["plots"] = (
        dict(_frame(conn, "select name, png_base64 from regression_plots").itertuples(index=False))
        if _has(conn, "regression_plots")
        else {}
    )
    return context


@section("ranking", "Final ranking", "ranking.html.j2")
def _ranking(conn: Connection) -> dict[str, Any] | None:
    if not _has(conn, "rankings", "chosen_model"):
        return None
    return {
        "ranking": _frame(conn, "select * from rankings order by rank"),
        "model": _frame(conn, "select * from chosen_model").to_dict("records")[0],
    }


def _sweep_plots(sweep: pd.DataFrame | None) -> list[Any]:
    """The threshold sweep drawn: players left and the best adjusted R², per dataset."""
    if sweep is None or sweep.empty:
        return []
    from bridgerank.pipeline.report.svg import lines

    players, fits = {}, {}
    for (response, weighting), rows in sweep.sort_values("factor").groupby(
        ["response", "weighting"]
    ):
        name = f"{response}, {weighting}"
        players[name] = (list(rows["factor"]), list(rows["players"]))
        kept = rows[rows["best_adj_r2"].notna()]
        fits[name] = (list(kept["factor"]), list(kept["best_adj_r2"]))
    return [
        lines(players, "threshold factor", "players left"),
        lines(fits, "threshold factor", "best adjusted R²"),
    ]


def summary_text(value: str) -> str:
    """A stage's JSON summary as short ``key: value`` text for the timings table."""
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        return ""

    def shown(value: Any) -> str:
        return f"{value:.4g}" if isinstance(value, float) else str(value)

    parts = [
        f"{key}: {shown(val)}"
        for key, val in data.items()
        if not isinstance(val, (dict, list)) and key != "seconds"
    ]
    return "; ".join(parts)
