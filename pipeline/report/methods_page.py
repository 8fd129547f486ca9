"""The methods page's sections: each declares the tables it reads and builds its context
from their frames (:mod:`~bridgerank.pipeline.report.reads`); it runs no query of its own.

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
from sqlalchemy.engine import Connection

from bridgerank.cleaning.clean.reasons import reason_counts
from bridgerank.cleaning.clean.tables import Board, Exclusion
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.cleaning.match import quality
from bridgerank.cleaning.match.tables import NameMatch, WbfPlayer
from bridgerank.core.store import StageRun
from bridgerank.dds.lead_baselines import contract_lead_baselines
from bridgerank.dds.tables import PlayerRates, PlayerStats, TableEvidence
from bridgerank.pipeline.report.frames import first_row, ordered, records
from bridgerank.pipeline.report.match_words import MATCH_REASONS, score_words
from bridgerank.pipeline.report.plots import history_plot, sweep_plots
from bridgerank.pipeline.report.reads import Read, ReportTables
from bridgerank.pipeline.report.svg import disc
from bridgerank.pipeline.report.team_top import team_top
from bridgerank.ratings.holdout import TOO_FEW_TO_JUDGE
from bridgerank.ratings.registry import method_descriptions
from bridgerank.ratings.tables import (
    DiscPoint,
    EventMatchValidation,
    FittedHeadline,
    GameMethodScore,
    GameStructure,
    HeadlineRating,
    MatchValidation,
    OneTableValidation,
    RateInputs,
    Rating,
    RatingCheck,
    RatingHistory,
    RatingValidation,
    SessionValidation,
    SkillOMeter,
    ValidationCeiling,
)
from bridgerank.regression.tables import (
    REGRESSION_TABLES,
    ChosenModel,
    ModelRanking,
    RegressionModel,
    RegressionPlot,
)


@dataclass(frozen=True)
class Section:
    """A report section: ``build(tables)`` gives the template's context from the frames of
    the tables in ``reads``, or None to skip it."""

    key: str
    title: str
    template: str
    build: Callable[[ReportTables], dict[str, Any] | None]
    reads: tuple[Read, ...]

    def read(self, conn: Connection) -> dict[str, Any] | None:
        """The section's context, its tables read from ``conn`` (a section alone, as tests
        and tools ask for it; the report reads every section's tables once)."""
        return self.build(ReportTables(conn, self.reads))


SECTIONS: list[Section] = []


def section(key: str, title: str, template: str, reads: tuple[Read, ...]):
    """Register a section builder, in report order, with the tables it reads."""

    def register(build):
        SECTIONS.append(Section(key, title, template, build, reads))
        return build

    return register


def _described(validation: pd.DataFrame, kind: str) -> pd.DataFrame:
    """A validation table with what each method is (as the registry of ``kind`` says: a
    rival's name means its form for these units) beside its name."""
    what = validation["method"].map(method_descriptions(kind)).fillna("")
    validation.insert(1, "what", what)
    return validation


def _headline_first(validation: pd.DataFrame) -> pd.DataFrame:
    """A validation table's rows: the headline first (every gain is the headline's over the
    row), then the others by their error."""
    ranked = validation.assign(_later=(validation["method"] != "headline").astype(int))
    return ordered(ranked, ["_later", "rmse", "method"]).drop(columns="_later")


@section(
    "headline",
    "Who plays well: the headline rating",
    "headline.html.j2",
    reads=(
        HeadlineRating,
        SessionValidation,
        ValidationCeiling,
        FittedHeadline,
        MatchValidation,
        OneTableValidation,
    ),
)
def _headline(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(HeadlineRating):
        return None
    ratings = tables.frame(HeadlineRating)[["player", "rating", "sd", "boards", "sessions"]]
    ratings = ordered(ratings, ["rating"], ascending=False)
    ratings.insert(0, "rank", range(1, len(ratings) + 1))
    ratings["low_80"] = ratings["rating"] - 1.2816 * ratings["sd"]
    ratings["high_80"] = ratings["rating"] + 1.2816 * ratings["sd"]
    validation = None
    if tables.has(SessionValidation):
        validation = _described(_headline_first(tables.frame(SessionValidation)), "sessions")
    ceiling: dict[str, float] = dict(
        tables.frame(ValidationCeiling)[["measure", "value"]].itertuples(index=False)
    )
    fit = first_row(tables.frame(FittedHeadline))
    # the fit's reason for no validation, where the template looks for it
    summary = {**fit, "validation": fit["not_validated"]} if fit else {}
    rows = {} if validation is None else {r["method"]: r for r in validation.to_dict("records")}
    matches, pairs = (
        _described(_headline_first(tables.frame(table)), kind) if tables.has(table) else None
        for table, kind in ((MatchValidation, "matches"), (OneTableValidation, "one_table"))
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
        # how many units each held-out table rests on, where too few to tell methods apart
        "too_few": {
            name: count
            for name, count in (
                ("sessions", _units(validation, "pair_sessions")),
                ("matches", _units(matches, "matches")),
                ("pairs", _units(pairs, "pairs")),
            )
            if count is not None and count < TOO_FEW_TO_JUDGE
        },
    }


def _units(table: pd.DataFrame | None, column: str) -> int | None:
    """The held-out units a validation table rests on (its headline row's count)."""
    if table is None or not len(table) or column not in table:
        return None
    return int(table[column].iloc[0])


# The team events' subsets, in the order a reader takes them.
_EVENT_SUBSETS = ("all", "championships", "leagues", "open teams", "with deals")
# Columns said once above each subset's table, not on every row.
_EVENT_COUNTS = ("subset", "matches", "boards", "events", "split_half", "ceiling")


@section(
    "team_events",
    "Team events, match by match",
    "event_matches.html.j2",
    reads=(EventMatchValidation, TableEvidence, Board),
)
def _event_matches(tables: ReportTables) -> dict[str, Any] | None:
    """The matches of team events rebuilt from traveller files, held out round by round
    (``event_match_validation``): each subset's table, the double dummy question's answer
    and the reference that knows each event's later rounds."""
    if not tables.has(EventMatchValidation):
        return None
    from bridgerank.ratings.event_matches import HINDSIGHT, LEADS, METHOD_DESCRIPTIONS, WITH_DEALS

    table = _headline_first(tables.frame(EventMatchValidation))
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

    leads = _lead_baselines(tables) if tables.has(TableEvidence) else None
    return {
        "subsets": subsets,
        "dd": added("headline_dd"),
        "leads": added(LEADS),
        "baselines": leads if leads is not None and leads.leads else None,
        "hindsight": row("all", HINDSIGHT),
    }


def _lead_baselines(tables: ReportTables):
    """The baselines of the database's valued leads, as the dds stage reads them."""
    contracts = tables.frame(Board)[["id", "contract"]]
    led = tables.frame(TableEvidence).merge(contracts, left_on="board_id", right_on="id")
    return contract_lead_baselines(zip(led["lead_cost"], led["lead_best_cards"], led["contract"]))


@section(
    "checks",
    "What a selector must know, and fairness to partners",
    "checks.html.j2",
    reads=(RatingCheck,),
)
def _checks(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(RatingCheck):
        return None
    rows = tables.frame(RatingCheck)
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


@section("settings", "Run settings and timings", "settings.html.j2", reads=(StageRun,))
def _settings(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(StageRun):
        return None
    ledger = tables.frame(StageRun)
    # each stage's last run, in the order they ran
    runs = ledger[ledger["id"].isin(ledger.groupby("stage")["id"].max())]
    runs = ordered(runs, ["id"])[["stage", "finished_at", "seconds", "summary"]]
    # to the second, formatted here: date functions differ between SQL dialects
    runs["finished_at"] = pd.to_datetime(runs["finished_at"]).dt.strftime("%Y-%m-%d %H:%M:%S")
    return {"runs": runs.to_dict("records")}


@section(
    "funnel",
    "Data funnel: records read, kept and excluded",
    "funnel.html.j2",
    reads=(RawBoard.id, Exclusion, Board, SourceFile),
)
def _funnel(tables: ReportTables) -> dict[str, Any] | None:
    read = len(tables.frame(RawBoard))
    if not read:
        return None
    exclusions, boards = tables.frame(Exclusion), tables.frame(Board)
    levels = {}
    for level, title in (
        ("board", "Boards excluded (thesis Table 5)"),
        ("auction", "Auctions blanked (thesis Table 6)"),
        ("play", "Plays blanked (thesis Table 7)"),
        ("note", "Notes: values inferred or unknown, nothing dropped"),
    ):
        counts = exclusions[exclusions["level"] == level]["reason"].value_counts()
        rows = reason_counts(level, counts.to_dict())
        # kept boards; for the auction and the play, those whose auction or play is usable
        usable = boards.get(level) if level in ("auction", "play") else None
        no_error = len(boards) if usable is None else int((usable.fillna("") != "").sum())
        total = sum(row.tally for row in rows)
        levels[level] = {"title": title, "rows": rows, "total": total, "no_error": no_error}
    files = tables.frame(SourceFile)
    sources = (
        files.groupby(["format", "status"])
        .agg(files=("id", "size"), records=("records", "sum"))
        .reset_index()
    )
    return {"read": read, "levels": levels, "sources": sources.to_dict("records")}


@section(
    "matching",
    "Name matching to the WBF lists",
    "matching.html.j2",
    reads=(NameMatch, WbfPlayer.id, WbfPlayer.name, WbfPlayer.country),
)
def _matching(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(NameMatch):
        return None
    names = tables.frame(NameMatch)
    reasons = (
        names.groupby("reason").agg(names=("reason", "size"), seats=("seats", "sum")).reset_index()
    )
    reasons = ordered(reasons, ["seats"], ascending=False)
    unmatched = names[names["wbf_id"].isna()][["raw_name", "reason", "runner_up", "seats"]]
    unmatched = ordered(unmatched, ["seats"], ascending=False).head(25)
    listed = tables.frame(WbfPlayer).rename(columns={"id": "wbf_id", "name": "wbf_name"})
    # the matched names (an all-missing column reads as text: no key to join on)
    matched = names[names["wbf_id"].notna()].astype({"wbf_id": "int64"}).merge(listed, on="wbf_id")
    matched = ordered(matched, ["seats"], ascending=False).head(50)
    matched = matched[["raw_name", "wbf_name", "country", "reason", "score", "seats"]]
    reasons["meaning"] = reasons["reason"].map(MATCH_REASONS).fillna("")
    matched["evidence"] = matched["score"].map(score_words)
    total = float(reasons["seats"].sum())
    covered = float(names[names["wbf_id"].notna()]["seats"].sum())
    return {
        "quality": quality.LABELLED,
        "reasons": reasons.to_dict("records"),
        "unmatched": records(unmatched),
        "matched": records(matched),
        "seats": total,
        "share": covered / total if total else 0.0,
    }


@section(
    "players",
    "Players: the 33 counters and 28 rates",
    "players.html.j2",
    reads=(PlayerStats, PlayerRates),
)
def _players(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(PlayerStats):
        return None
    stats = ordered(tables.frame(PlayerStats), ["boards"], ascending=False)
    rates = tables.frame(PlayerRates)
    return {"stats": stats.drop(columns=["player_id"]), "rates": rates.drop(columns=["player_id"])}


@section(
    "glossary",
    "Glossary: the counters and rates, with their units",
    "glossary.html.j2",
    reads=(PlayerStats, StageRun),
)
def _glossary(tables: ReportTables) -> dict[str, Any] | None:
    from bridgerank.pipeline.report.glossary import glossary

    return {"rows": glossary(_auction_counters(tables))} if tables.has(PlayerStats) else None


def _auction_counters(tables: ReportTables) -> str:
    """What the database's auction counters count: the dds stage's last run says (a run
    from before the setting counted the thesis's verdicts)."""
    ledger = tables.frame(StageRun)
    runs = ledger[ledger["stage"] == "dds"]
    if runs.empty:
        return "thesis"
    try:
        last = runs.loc[runs["id"].idxmax(), "summary"]
        return str(json.loads(str(last)).get("auction_counters", "thesis"))
    except (ValueError, AttributeError):  # a summary that is no JSON object
        return "thesis"


@section(
    "ratings",
    "Ratings from results",
    "ratings.html.j2",
    reads=(Rating, RatingValidation, SkillOMeter, RateInputs, RatingHistory),
)
def _ratings(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(Rating):
        return None
    every = tables.frame(Rating)
    table = every[["player", "method", "rating", "games"]]
    wide = table.pivot_table(index="player", columns="method", values="rating")
    most_games = table.groupby("player")["games"].max()
    wide.insert(0, "boards", most_games)
    # Sorted by the model the data supports best: HBT for team boards, else the DLO Elo.
    first = next((m for m in ("hbt", "dlo", "elo") if m in wide), None)
    wide = wide.sort_values(first, ascending=False) if first else wide
    ranks = wide.drop(columns=["boards"]).rank(ascending=False)
    correlation = ranks.corr(method="spearman") if len(ranks) > 2 else None
    shown = ["player", "rating", "low", "high", "games"]
    intervals = ordered(every[every["method"] == "hbt"][shown], ["rating"], ascending=False)
    validation = tables.frame(RatingValidation) if tables.has(RatingValidation) else None
    skill = first_row(tables.frame(SkillOMeter)[["k", "sigma", "p", "players"]])
    inputs = first_row(tables.frame(RateInputs)) or {}
    games = {
        key: inputs.get(key, 0) for key in ("team_games", "single_table_games", "pair_rankings")
    }
    team = ordered(
        every[every["method"] == "team_imps"][shown], ["rating", "player"], ascending=[False, True]
    )
    plot = None
    if tables.has(RatingHistory):
        history = tables.frame(RatingHistory)
        plot = history_plot(history[history["method"] == "dlo"][["player", "game", "rating"]])
    return {
        "table": wide.reset_index(),
        "correlation": correlation.reset_index() if correlation is not None else None,
        "intervals": intervals,
        "validation": validation,
        "skill": skill,
        "history_plot": plot,
        "games": games,
        "methods": [m for m in wide.columns if m != "boards"],
        "team": team_top(team) if len(team) else None,
    }


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


@section(
    "cycles",
    "Who beats whom: transitive and cyclic structure",
    "cycles.html.j2",
    reads=(GameStructure, GameMethodScore, DiscPoint),
)
def _cycles(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(GameStructure):
        return None
    structure = tables.frame(GameStructure)
    scores = tables.frame(GameMethodScore)
    points = tables.frame(DiscPoint)
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


# Ten players per candidate predictor (14 rates per dataset) before an R² says much.
_PLAYERS_PER_PREDICTOR = 10
_CANDIDATE_RATES = 14


# The regression's tables, each shown whole (its plots are images, its ranking a section).
_REGRESSION_SHOWN = tuple(
    table for table in REGRESSION_TABLES if table not in (RegressionPlot, ModelRanking)
)


@section(
    "regression",
    "Regression of ranking points on mistake rates",
    "regression.html.j2",
    reads=(*_REGRESSION_SHOWN, RegressionPlot),
)
def _regression(tables: ReportTables) -> dict[str, Any] | None:
    if not tables.has(RegressionModel):
        return None
    context: dict[str, Any] = {}
    for table in _REGRESSION_SHOWN:
        name = table.__tablename__
        context[name] = tables.frame(table) if tables.has(table) else None
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
    context["sweep_plots"] = sweep_plots(sweep)
    if sweep is not None and len(sweep):
        # the thresholds themselves are in the CSV; here what a reader compares
        shown = ["response", "weighting", "factor", "players", "best_adj_r2", "caution"]
        context["regression_sweep"] = sweep[[c for c in shown if c in sweep]]
    chosen = context["chosen_model"]
    context["chosen"] = chosen.to_dict("records")[0] if chosen is not None and len(chosen) else None
    context["min_players"] = _PLAYERS_PER_PREDICTOR * _CANDIDATE_RATES
    plots = tables.frame(RegressionPlot)
    context["plots"] = dict(plots[["name", "png_base64"]].itertuples(index=False))
    return context


@section("ranking", "Final ranking", "ranking.html.j2", reads=(ModelRanking, ChosenModel))
def _ranking(tables: ReportTables) -> dict[str, Any] | None:
    if not (tables.has(ModelRanking) and tables.has(ChosenModel)):
        return None
    return {
        "ranking": ordered(tables.frame(ModelRanking), ["rank"]),
        "model": tables.frame(ChosenModel).to_dict("records")[0],
    }
