"""The figures README.md and docs/ give next to the commands they show on the whole PBN/LIN
corpus and on the Valet travellers, from running those commands as shown (tests/pipeline/
test_cli_docs.py's ``RUN_BY`` maps each command here).

Slow: the corpus takes about an hour of the double dummy solver on two cores, the Valet
archive hours. One corpus database serves every corpus test: the ``--to rate`` run, then the
``--out out/corpus`` form carries it on to the report, then the plain form finds every stage
up to date. One Valet database serves both Valet tests: ``--to match`` then ``bridgerank
rate``, then ``--to rate`` carries it on through dds. Counts are asserted exactly, measured
statistics to the precision the page prints them; timings are not asserted.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import statistics
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine

from bridgerank.pipeline.cli import main

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]

CORPUS = "bridgerank run ../shared/data/pbn ../shared/data/lin"
CORPUS_TO_RATE = "bridgerank run ../shared/data/pbn ../shared/data/lin --to rate"
CORPUS_OUT = "bridgerank run ../shared/data/pbn ../shared/data/lin --out out/corpus"
VALET_TO_RATE = "bridgerank run ../shared/data/travellers/valet --to rate"
VALET_TO_MATCH = "bridgerank run ../shared/data/travellers/valet --to match"

STAGES = ("ingest", "clean", "match", "dds", "rate", "regress", "report")


def _page(name: str) -> str:
    return " ".join((ROOT / name).read_text().split())


def _shown(command: str, *pages: str) -> None:
    """The command is still on those pages (a code span may wrap)."""
    for page in pages:
        assert f"`{command}`" in _page(page), f"{page} no longer shows {command}"


def _invoke(command: str, shared: Path, out: Path | None = None) -> str:
    """The command as shown, its ``../shared/data`` the shared data, ``--out out`` when it
    names none, ``--verbose`` for a run (the pages quote its stages' whole summaries); its
    output with the wrapped lines joined."""
    words = [word.replace("../shared/data", str(shared)) for word in shlex.split(command)[1:]]
    if "--out" not in words:
        assert out is not None
        words += ["--out", str(out)]
    if words[0] == "run":
        words.append("--verbose")
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 0, f"{command}\n{result.output}"
    return " ".join(result.output.split())


def _close(value: float | None, shown: str) -> None:
    """``value`` prints as ``shown``: within half a unit of its last digit."""
    assert value is not None, f"no value where the page shows {shown}"
    decimals = len(shown.partition(".")[2])
    assert abs(value - float(shown)) <= 0.5 * 10**-decimals + 1e-12, (value, shown)


def _query(folder: Path, sql: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(folder / "bridgerank.db")) as db:
        return db.execute(sql).fetchall()


def _by_method(folder: Path, table: str, columns: str, where: str = "") -> dict[str, tuple]:
    rows = _query(folder, f"select method, {columns} from {table} {where}")
    return {method: tuple(rest) for method, *rest in rows}


def _last_summary(folder: Path, stage: str) -> dict[str, Any]:
    (summary,) = _query(
        folder, f"select summary from stage_runs where stage = '{stage}' order by id desc limit 1"
    )[0]
    return json.loads(summary)


@dataclass
class Corpus:
    """The corpus database's folder and the output of each command run on it."""

    folder: Path
    outputs: dict[str, str]


@pytest.fixture(scope="module")
def corpus(shared_data: Callable[..., Path], tmp_path_factory) -> Corpus:
    """The whole corpus to rate, then carried on to the report by the ``--out out/corpus``
    form, run from the folder holding ``out/``."""
    shared = shared_data()
    base = tmp_path_factory.mktemp("corpus")
    folder = base / "out" / "corpus"
    outputs = {CORPUS_TO_RATE: _invoke(CORPUS_TO_RATE, shared, folder)}
    here = Path.cwd()
    os.chdir(base)
    try:
        outputs[CORPUS_OUT] = _invoke(CORPUS_OUT, shared)
    finally:
        os.chdir(here)
    return Corpus(folder, outputs)


def test_the_corpus_to_rate_as_shown(corpus):
    """README.md's and docs/ratings.md's team matches held out, docs/who-beats-whom.md's Euro
    '97 row, docs/ratings.md's familiarity term on the pair events."""
    _shown(CORPUS_TO_RATE, "README.md", "docs/ratings.md", "docs/who-beats-whom.md")
    output = corpus.outputs[CORPUS_TO_RATE]
    assert "rate: " in output and "report:" not in output
    # the familiarity term on the vugraph pair events: a bonus of -1.3 points, and the
    # held-out correlation 0.177 without it, 0.201 with it (+0.025, -0.042 to +0.091)
    ((familiarity,),) = _query(corpus.folder, "select familiarity from headline_fit")
    _close(100 * familiarity, "-1.3")
    sessions = _by_method(
        corpus.folder,
        "session_validation",
        "pearson, pearson_gain, pearson_gain_low, pearson_gain_high, pair_sessions, sessions",
    )
    assert sessions["headline"][4:] == (611, 34)
    _close(sessions["headline"][0], "0.201")
    _close(sessions["headline_no_fam"][0], "0.177")
    for value, shown in zip(sessions["headline_no_fam"][1:4], ("0.025", "-0.042", "0.091")):
        _close(value, shown)
    # the players' past double dummy measures in the prior: 0.213 without them
    _close(sessions["headline_no_dd"][0], "0.213")
    for value, shown in zip(sessions["headline_no_dd"][1:4], ("-0.012", "-0.048", "0.024")):
        _close(value, shown)
    # 7,678 team boards, 987 players; 158 held-out matches of 3,252 boards
    matches = _last_summary(corpus.folder, "rate")["matches"]
    assert (matches["team_boards"], matches["players"]) == (7678, 987)
    scores = _by_method(
        corpus.folder, "match_validation", "pearson, rmse, coverage_80, matches, boards"
    )
    assert {row[3:] for row in scores.values()} == {(158, 3252)}
    pearson, rmse, coverage, _, _ = scores["headline"]
    _close(pearson, "0.19")
    _close(rmse, "30.4")
    _close(100 * coverage, "76")
    _close(scores["headline_1table"][0], "0.26")  # one-table boards always as rows
    _close(scores["headline_1table"][1], "29.8")
    _close(scores["headline_no_dd"][0], "0.23")  # the dd question: without the measures
    _close(scores["headline_no_dd"][1], "30.3")
    _close(scores["headline_plain"][0], "0.18")  # the team boards alone
    _close(scores["headline_plain"][1], "30.7")
    _close(scores["imp_average"][1], "35.7")
    _close(scores["hbt"][0], "0.16")
    _close(scores["hbt"][1], "49.6")
    _close(scores["wbf_points"][0], "0.31")
    _close(scores["wbf_points"][1], "29.4")
    _close(scores["coin"][1], "30.8")
    _close(scores["headline_wbf"][0], "0.23")  # WBF masterpoints among the covariates
    for method, (pearson_shown, rmse_shown) in {
        "pair_elo": ("0.15", "30.7"),
        "openskill": ("0.12", "30.7"),
        "ngs": ("0.08", "30.7"),
        "glicko2": ("0.12", "30.7"),
        "ttt": ("0.24", "30.6"),
    }.items():
        _close(scores[method][0], pearson_shown)
        _close(scores[method][1], rmse_shown)
    gains = _by_method(
        corpus.folder, "match_validation", "rmse_gain, rmse_gain_low, rmse_gain_high"
    )
    for method, shown in (
        # the intervals simultaneous over the table
        ("headline_no_dd", ("-0.1", "-1.2", "1.0")),  # the dd question: the table's measures
        ("headline_cards", ("0.2", "-0.7", "1.1")),  # and the card counters
        ("headline_fields", ("0.4", "-0.4", "1.3")),  # the matchpoint scale tied to IMPs
        ("coin", ("0.4", "-1.4", "2.1")),
        ("imp_average", ("5.3", "-1.3", "11.8")),
        ("hbt", ("19.1", "1.3", "37.0")),
        ("wbf_points", ("-1.1", "-3.1", "0.9")),
        # the ratings players know, each board of a team match read as two tables
        ("pair_elo", ("0.3", "-2.0", "2.5")),
        ("openskill", ("0.3", "-1.5", "2.1")),
        ("ngs", ("0.3", "-1.7", "2.2")),
        ("glicko2", ("0.2", "-1.5", "2.0")),
        ("ttt", ("0.1", "-1.6", "1.9")),
    ):
        for value, printed in zip(gains[method], shown):
            _close(value, printed)
    _close(scores["headline_cards"][0], "0.17")
    _close(scores["headline_cards"][1], "30.7")
    _close(scores["headline_fields"][0], "0.16")
    _close(scores["headline_fields"][1], "30.8")
    # pairs at one table a deal: 684 held-out pair-sessions of 3,174 boards
    pairs = _by_method(
        corpus.folder,
        "one_table_validation",
        "pearson, rmse, coverage_80, rmse_gain, rmse_gain_low, rmse_gain_high, pairs, boards",
    )
    assert {row[6:] for row in pairs.values()} == {(684, 3174)}
    _close(pairs["headline"][0], "0.36")
    _close(pairs["headline"][1], "15.3")
    _close(100 * pairs["headline"][2], "79")
    _close(pairs["headline_no_dd"][0], "0.33")
    _close(pairs["headline_fields"][0], "0.37")
    _close(pairs["imp_average"][1], "22.1")
    for method, shown in (
        ("coin", ("0.54", "0.15", "0.94")),
        ("headline_no_dd", ("-0.08", "-0.34", "0.19")),
        ("headline_cards", ("-0.05", "-0.33", "0.23")),
        ("headline_fields", ("-0.03", "-0.11", "0.04")),
        ("imp_average", ("6.8", "0.6", "13.0")),
    ):
        for value, printed in zip(pairs[method][3:6], shown):
            _close(value, printed)
    # the team ratings: the top five (with the choice judged on the one-table boards too, the
    # final fit's penalty is large: the order is mostly what the covariates say), and every
    # top-20 interval wider than their spread
    top = _query(
        corpus.folder,
        "select player, rating, low, high, games from ratings where method = 'team_imps' "
        "order by rating desc limit 20",
    )
    assert [row[0] for row in top[:5]] == [
        "Tamminen J (16th European Youth Team Championships)", "Makikangas K",
        "Tony Forrester", "Juuri-Oja J.", "Wang Wenfei",
    ]  # fmt: skip
    assert (top[0][1], top[0][4]) == (pytest.approx(0.235, abs=0.0005), 40)
    spread = top[0][1] - top[-1][1]
    _close(spread, "0.05")
    assert all(high - low > spread for _, _, low, high, _ in top)
    assert "held-out team matches (158, walk-forward)" in output
    # the margins' split-half reliability and the correlation it bounds
    ceiling = dict(_query(corpus.folder, "select measure, value from validation_ceiling"))
    _close(ceiling["team_match_split_half"], "0.40")
    _close(ceiling["team_match_ceiling"], "0.63")
    assert "held-out pairs at one table a deal (684 pair-sessions, walk-forward)" in output
    # who beats whom: Euro Team Champs '97, 27 teams, hybrid, 36% transitive, noise 37-64%
    euro = re.search(
        r"who beats whom, ([^()]*97[^()]*) \(27\): hybrid, 36% transitive "
        r"\(a transitive game on these boards: 37-64%\)",
        output,
    )
    assert euro, output


def test_the_corpus_out_corpus_as_shown(corpus):
    """docs/performance.md's name matching is measured on ``out/corpus/bridgerank.db`` after
    this command (2,659 raw names against 725 WBF names); the run carries the database of the
    ``--to rate`` run on through regress and the report."""
    _shown(CORPUS_OUT, "docs/performance.md")
    output = corpus.outputs[CORPUS_OUT]
    for stage in ("ingest", "clean", "match", "dds", "rate"):
        assert f"{stage}: up to date, nothing to do" in output
    assert "regress: " in output and "report: " in output
    assert (corpus.folder / "report" / "index.html").is_file()
    match = _last_summary(corpus.folder, "match")
    assert match["raw_names"] == 2659
    first = corpus.outputs[CORPUS_TO_RATE]
    assert "match: 815 of 2,659 raw names matched to the 725 WBF players" in first
    assert _query(corpus.folder, "select count(*) from wbf_players") == [(725,)]


def test_the_whole_corpus_as_shown(corpus, shared_data):
    """The plain form's figures: docs/performance.md's boards and deals, docs/ratings.md's
    games and held-out log-losses, docs/stages.md's regression; and run again on the same
    database, every stage is up to date."""
    _shown(CORPUS, "docs/performance.md", "docs/stages.md", "docs/ratings.md")
    folder = corpus.folder
    rerun = _invoke(CORPUS, shared_data(), folder)
    for stage in STAGES:
        assert f"{stage}: up to date, nothing to do" in rerun, rerun
    # docs/dds.md: the side-auctions each verdict marks, for the field and per player
    from bridgerank.dds.mistake_shares import mistake_shares

    engine = create_engine(f"sqlite:///{folder / 'bridgerank.db'}")
    with engine.connect() as conn:
        shares = mistake_shares(conn)
    engine.dispose()
    assert (shares.side_auctions, shares.thesis_marked, shares.par_marked) == (
        81066,
        45530,
        34311,
    )
    regular = [row for row in shares.players if row.auctions >= 100]
    assert len(regular) == 300
    _close(statistics.median(row.thesis for row in regular), "0.56")
    _close(statistics.median(row.par for row in regular), "0.23")
    # docs/performance.md: 41,564 boards, 15,351 distinct deals needing a table
    assert _query(folder, "select count(*) from boards") == [(41564,)]
    assert _last_summary(folder, "dds")["boards"] == 41564
    # the distinct deals the stage solved a double dummy table for (one table per deal)
    assert _query(folder, "select count(*) from dd_tables") == [(15351,)]
    # docs/ratings.md: 7,678 team boards, 4,940 single-table boards against par, 7,216 pair
    # rankings, 2,025 players
    assert _query(
        folder, "select team_games, single_table_games, pair_rankings, players from rate_inputs"
    ) == [(7678, 4940, 7216, 2025)]
    boards = _by_method(
        folder,
        "rating_validation",
        "log_loss, accuracy, test_games",
        "where task = 'boards (team and single-table)'",
    )
    assert {row[2] for row in boards.values()} == {2524}
    for method, loss, right in [
        ("hbt", "0.706", "0.53"),
        ("gbt", "0.694", "0.53"),
        ("bt", "0.692", "0.54"),
        ("win_rate", "0.697", "0.53"),
        ("wbf_points", "0.690", "0.54"),
    ]:
        _close(boards[method][0], loss)
        _close(boards[method][1], right)
    rankings = _by_method(
        folder,
        "rating_validation",
        "log_loss, accuracy, test_games",
        "where task = 'pair rankings'",
    )
    assert {row[2] for row in rankings.values()} == {10898}
    for method, loss, right in [
        ("elo", "0.6928", "0.51"),
        ("dlo", "0.6928", "0.51"),
        ("win_rate", "0.6936", "0.50"),
    ]:
        _close(rankings[method][0], loss)
        _close(rankings[method][1], right)
    # docs/stages.md: WBF points or a headline rating for 767 of the 2,156 players with
    # rates, 63 above the thresholds for the points, 64 for the headline
    regress = _last_summary(folder, "regress")
    assert (regress["players_with_points"], regress["players_with_rates"]) == (767, 2156)
    assert regress["datasets"]["pp, weighted"] == 63
    # masterpoints on eight weighted rates, all negative: adjusted R2 0.197, cross-validated
    # 0.109 on 63 players (the auction counters: each player's own calls judged by par)
    ((model, response, variables, adj_r2, cv_r2, coefficients),) = _query(
        folder,
        "select model, response, variables, adj_r2, cv_r2, coefficients from chosen_model",
    )
    assert response == "mp" and "weighted" in model and "unweighted" not in model, model
    names = variables.split(", ")
    assert sorted(names) == [
        "weighted_claim_mistakes_per_claim",
        "weighted_declarer_missed_doubling_opponents_last_bid_per_auction",
        "weighted_declarer_missed_higher_contract_per_auction",
        "weighted_declarer_mistakes_per_card_played_as_declarer",
        "weighted_defender_missed_current_double_per_auction",
        "weighted_defender_missed_higher_contract_per_auction",
        "weighted_defender_mistakes_per_card_played_as_defender",
        "weighted_passed_higher_contract_per_auction",
    ]
    fitted = json.loads(coefficients)
    assert all(fitted[name] < 0 for name in names), fitted
    _close(adj_r2, "0.197")
    _close(cv_r2, "0.109")
    assert regress["datasets"]["mp, weighted"] == 63
    assert regress["datasets"]["headline, unweighted"] == 64
    # every headline model fits little: adjusted R2 0.03 to 0.09, cross-validated below 0.04
    headline_models = _query(
        folder,
        "select adj_r2, cv_r2 from regression_models where response = 'headline'",
    )
    _close(min(adj for adj, _ in headline_models), "0.03")
    _close(max(adj for adj, _ in headline_models), "0.09")
    assert max(cv for _, cv in headline_models) < 0.04
    # Breusch-Pagan p = 0.63, Shapiro-Wilk p = 0.09
    diagnostics = dict(_query(folder, "select name, p_value from regression_diagnostics"))
    bp = next(p for name, p in diagnostics.items() if "Breusch" in name)
    sw = next(p for name, p in diagnostics.items() if "Shapiro" in name)
    _close(bp, "0.63")
    _close(sw, "0.09")
    # the sweep (masterpoints, weighted): best adjusted R2 0.37 with 37 players at one and a
    # half times the thresholds, 0.00 with all 355 players with points at none
    sweep = {
        factor: (players, best)
        for factor, players, best in _query(
            folder,
            "select factor, players, best_adj_r2 from regression_sweep"
            " where response = 'mp' and weighting = 'weighted'",
        )
    }
    assert sweep[1.5][0] == 37
    _close(sweep[1.5][1], "0.37")
    assert sweep[0.0][0] == 355
    _close(sweep[0.0][1], "0.00")


@dataclass
class Valet:
    """The Valet database's folder, the outputs of ``--to match`` and of ``bridgerank rate``
    after it, and that rate run's held-out pair orders (before ``--to rate`` reruns rate)."""

    folder: Path
    matched: str
    rated: str
    rankings: dict[str, tuple]


@pytest.fixture(scope="module")
def valet(shared_data: Callable[..., Path], tmp_path_factory) -> Valet:
    folder = tmp_path_factory.mktemp("valet")
    matched = _invoke(VALET_TO_MATCH, shared_data(), folder)
    result = CliRunner().invoke(main, ["rate", "--out", str(folder)])
    assert result.exit_code == 0, result.output
    rankings = _by_method(
        folder,
        "rating_validation",
        "log_loss, accuracy, test_games",
        "where task = 'pair rankings'",
    )
    return Valet(folder, matched, " ".join(result.output.split()), rankings)


def test_the_valet_travellers_to_match_then_rate_as_shown(valet):
    """docs/ratings.md: 930,012 records read, 239,688 boards kept, 11,510 pair rankings rate
    1,126 players; the Elo methods predict 558,388 held-out pairwise orders with log-loss
    0.6908 (win rate 0.6910) and accuracy 0.51; the skill-o-meter reads K* = 2.5, spread 15.1
    over 1,116 regular players, p = 0.07."""
    _shown(VALET_TO_MATCH, "docs/ratings.md")
    assert "ingest: 930,012 records from " in valet.matched
    assert "239,688 boards kept" in valet.matched
    # docs/stages.md: the team matches rebuilt, 99.5% of the kept events' tables paired
    assert (
        "team matches rebuilt from travellers: 18,626 (309,340 boards played at both tables; "
        "99.5% of the kept events' tables paired; 4 a team against itself once teammates are "
        "joined)"
    ) in " ".join(valet.matched.split())
    assert re.search(r"rate: 1,126 players rated in .* 11,510 pair rankings", valet.rated)
    rankings = valet.rankings
    assert {row[2] for row in rankings.values()} == {558388}
    for method in ("elo", "dlo"):
        _close(rankings[method][0], "0.6908")
        _close(rankings[method][1], "0.51")
    _close(rankings["win_rate"][0], "0.6910")
    skill = re.search(
        r"skill-o-meter: K\* ([\d.]+), rating spread ([\d.]+) over 1,116 regular players: "
        r"like a game decided by skill (\d+)% of the time",
        valet.rated,
    )
    assert skill, valet.rated
    _close(float(skill[1]), "2.5")
    _close(float(skill[2]), "15.1")
    assert skill[3] == "7"


def test_the_valet_team_events_matches_as_shown(valet, shared_data):
    """README.md's and docs/ratings.md's held-out matches of Valet's team events: 18,626
    matches, 18,014 held out in 60 events, each method's Pearson and RMSE and the headline's
    RMSE gains over it (events resampled) overall and on the championships, the leagues' and
    open teams' Pearson, and each subset's ceiling."""
    _shown(VALET_TO_RATE, "README.md", "docs/ratings.md")
    output = _invoke(VALET_TO_RATE, shared_data(), valet.folder)
    assert "team events' matches (18,014 of 18,626 held out, walk-forward by round, 61" in output
    words = " ".join(output.split())
    assert "later rounds included, reaches 0.404" in words
    assert "add +0.000 [-0.002, +0.003] to its Pearson on the 4,468 matches with deals" in words
    assert "opening leads alone -0.000 [-0.001, +0.000]" in words
    assert (
        "opening leads: 141,221 valued, double dummy best 80.4% (a random lead 65.9%); leaving "
        "out the 36,041 where every lead ties 73.7% (a random lead 54.2%): suit 77.1% (a random "
        "lead 55.2%), notrump 66.0% (a random lead 52.2%)"
    ) in words
    rows = {
        (subset, method): rest
        for subset, method, *rest in _query(
            valet.folder,
            "select subset, method, pearson, rmse, rmse_gain, rmse_gain_low, rmse_gain_high,"
            " matches, events, ceiling from event_match_validation",
        )
    }
    # subset: method -> Pearson, RMSE, the headline's RMSE gain [95%]
    shown = {
        "all": {
            "headline": ("0.424", "26.33", None),
            "headline_plain": ("0.387", "26.81", ("0.48", "0.35", "0.62")),
            "imp_average": ("0.372", "27.40", ("1.07", "0.84", "1.30")),
            "ngs": ("0.321", "27.56", ("1.23", "0.95", "1.51")),
            "openskill": ("0.329", "27.47", ("1.14", "0.84", "1.43")),
            "glicko2": ("0.226", "28.72", ("2.39", "1.51", "3.27")),
            "pair_elo": ("0.310", "31.74", ("5.41", "3.43", "7.39")),
            "elo": ("0.366", "27.28", ("0.95", "0.71", "1.19")),
            "elo_opponents": ("0.376", "28.14", ("1.81", "1.25", "2.36")),
            "ttt": ("0.259", "28.16", ("1.83", "1.42", "2.24")),
            "coin": (None, "29.06", ("2.73", "1.97", "3.49")),
            "headline_dd": ("0.423", "26.34", ("0.01", "-0.01", "0.03")),
            "headline_leads": ("0.424", "26.33", ("-0.00", "-0.00", "0.00")),
            "hindsight_form": ("0.404", "27.00", ("0.67", "0.27", "1.07")),
        },
        "championships": {
            "headline": ("0.476", "25.94", None),
            "headline_plain": ("0.439", "26.47", ("0.53", "0.40", "0.66")),
            "imp_average": ("0.430", "26.99", ("1.04", "0.81", "1.28")),
            "ngs": ("0.376", "27.30", ("1.36", "1.04", "1.68")),
            "openskill": ("0.384", "27.33", ("1.38", "1.06", "1.70")),
            "glicko2": ("0.258", "28.82", ("2.88", "1.79", "3.97")),
            "pair_elo": ("0.354", "32.71", ("6.77", "4.29", "9.25")),
            "elo": ("0.421", "26.92", ("0.97", "0.75", "1.20")),
            "elo_opponents": ("0.427", "28.03", ("2.08", "1.40", "2.76")),
            "ttt": ("0.304", "28.09", ("2.15", "1.75", "2.54")),
            "coin": (None, "29.47", ("3.52", "2.74", "4.31")),
            "headline_dd": ("0.475", "25.96", ("0.01", "-0.02", "0.05")),
            "headline_leads": ("0.476", "25.94", ("-0.00", "-0.00", "0.00")),
            "hindsight_form": ("0.465", "26.34", ("0.40", "0.04", "0.75")),
        },
        "leagues": {"headline": ("0.276", "28.38", None)},
        "open teams": {"headline": ("0.167", "21.94", None)},
        "with deals": {
            "headline": ("0.440", "26.19", None),
            "headline_dd": ("0.440", "26.18", ("-0.01", "-0.05", "0.04")),
            "headline_leads": ("0.440", "26.19", ("0.00", "-0.01", "0.01")),
        },
    }
    for subset, methods in shown.items():
        for method, (pearson, rmse, gain) in methods.items():
            row = rows[(subset, method)]
            if pearson is not None:
                _close(row[0], pearson)
            _close(row[1], rmse)
            if gain is not None:
                for value, printed in zip(row[2:5], gain):
                    _close(value, printed)
    assert rows[("all", "headline")][5:7] == [18014, 60]
    assert rows[("open teams", "coin")][2] is None  # three events: no gains
    for subset, ceiling in (
        ("all", "0.496"),
        ("championships", "0.540"),
        ("leagues", "0.366"),
        ("open teams", "0.408"),
        ("with deals", "0.504"),
    ):
        _close(rows[(subset, "headline")][7], ceiling)


def test_the_valet_travellers_to_rate_as_shown(valet, shared_data):
    """README.md's and docs/ratings.md's held-out Valet rounds: 239,672 tables, 1,550
    players, 8 test years, 242 test rounds, 13,332 held-out pair-rounds, each method's
    scores and the headline's gains over it (the rivals players know among them), sqrt(ICC) =
    0.322, which it exceeds, the known-strengths reference 0.449, the results-only one (0.332,
    0.309 to 0.359), and the selector checks."""
    _shown(VALET_TO_RATE, "README.md", "docs/ratings.md")
    output = _invoke(VALET_TO_RATE, shared_data(), valet.folder)
    for stage in ("ingest", "clean", "match"):
        assert f"{stage}: up to date, nothing to do" in output
    assert "dds: " in output and "rate: " in output
    assert _query(valet.folder, "select tables, players from headline_fit") == [(239672, 1550)]
    rows = _by_method(
        valet.folder,
        "session_validation",
        "pearson, spearman, rmse, coverage_80, pearson_gain, pearson_gain_low,"
        " pearson_gain_high, rmse_gain, rmse_gain_low, rmse_gain_high,"
        " pair_sessions, sessions, periods",
    )
    assert {row[10:] for row in rows.values()} == {(13332, 242, 8)}
    # method: Pearson, Spearman, RMSE, 80% cover (%), Pearson gain [95%], RMSE gain [95%],
    # the intervals simultaneous over the table
    table = {
        "headline": ("0.338", "0.325", "7.19", "80.7", None, None),
        "win_rate": (
            "0.215",
            "0.211",
            "7.49",
            None,
            ("0.122", "0.103", "0.142"),
            ("0.29", "0.23", "0.36"),
        ),
        "shrunk_mean": (
            "0.217",
            "0.212",
            "7.48",
            None,
            ("0.120", "0.103", "0.138"),
            ("0.29", "0.22", "0.35"),
        ),
        "elo": (
            "0.223",
            "0.220",
            "7.45",
            None,
            ("0.115", "0.097", "0.132"),
            ("0.26", "0.20", "0.32"),
        ),
        "elo_opponents": (
            "0.319",
            "0.307",
            "7.25",
            None,
            ("0.019", "0.002", "0.035"),
            ("0.05", "0.01", "0.10"),
        ),
        "dlo": (
            "0.223",
            "0.220",
            "7.45",
            None,
            ("0.115", "0.097", "0.132"),
            ("0.26", "0.20", "0.32"),
        ),
        "dlo_opponents": (
            "0.319",
            "0.307",
            "7.25",
            None,
            ("0.019", "0.002", "0.035"),
            ("0.05", "0.01", "0.10"),
        ),
        "wbf_points": (
            "0.199",
            "0.182",
            "7.49",
            "78.8",
            ("0.138", "0.114", "0.162"),
            ("0.30", "0.23", "0.37"),
        ),
        "headline_wbf": (
            "0.351",
            "0.342",
            "7.16",
            "80.1",
            ("-0.013", "-0.027", "0.000"),
            ("-0.04", "-0.08", "0.00"),
        ),
        "headline_plain": (
            "0.334",
            "0.323",
            "7.20",
            "80.8",
            ("0.004", "-0.008", "0.015"),
            ("0.01", "-0.02", "0.04"),
        ),
        "headline_no_fam": (
            "0.337",
            "0.325",
            "7.19",
            "80.3",
            ("0.000", "-0.006", "0.006"),
            ("0.00", "-0.02", "0.02"),
        ),
        "headline_no_dd": (
            "0.338",
            "0.327",
            "7.19",
            "80.3",
            ("-0.000", "-0.008", "0.007"),
            ("-0.00", "-0.02", "0.02"),
        ),
        "headline_synergy": (
            "0.336",
            "0.324",
            "7.20",
            None,
            ("0.002", "-0.001", "0.004"),
            ("0.00", "-0.00", "0.01"),
        ),
        "pair_elo": (
            "0.268",
            "0.255",
            "7.37",
            None,
            ("0.070", "0.044", "0.095"),
            ("0.18", "0.11", "0.25"),
        ),
        "openskill": (
            "0.243",
            "0.240",
            "7.53",
            None,
            ("0.094", "0.069", "0.119"),
            ("0.33", "0.26", "0.41"),
        ),
        "ngs": (
            "0.320",
            "0.308",
            "7.24",
            None,
            ("0.018", "0.000", "0.035"),
            ("0.05", "0.00", "0.10"),
        ),
        "glicko2": (
            "0.306",
            "0.295",
            "7.29",
            None,
            ("0.031", "0.011", "0.051"),
            ("0.10", "0.04", "0.15"),
        ),
        "ttt": (
            "0.215",
            "0.202",
            "7.51",
            None,
            ("0.123", "0.092", "0.154"),
            ("0.32", "0.24", "0.40"),
        ),
    }
    for method, (pearson, spearman, rmse, covers, pearson_gain, rmse_gain) in table.items():
        row = rows[method]
        _close(row[0], pearson)
        _close(row[1], spearman)
        _close(row[2], rmse)
        if covers is not None:
            _close(100 * row[3], covers)
        for values, shown in ((row[4:7], pearson_gain), (row[7:10], rmse_gain)):
            if shown is not None:
                for value, printed in zip(values, shown):
                    _close(value, printed)
    _close(rows["coin"][2], "7.64")  # README.md's coin row
    ceiling = dict(_query(valet.folder, "select measure, value from validation_ceiling"))
    _close(ceiling["correlation_ceiling"], "0.322")
    assert rows["headline"][0] > ceiling["correlation_ceiling"]
    _close(ceiling["known_strengths_r"], "0.449")
    _close(ceiling["relearned_r"], "0.332")
    _close(ceiling["relearned_r_p10"], "0.309")
    _close(ceiling["relearned_r_p90"], "0.359")
    # what a selector must know: reliability and coverage by band, fairness to partners
    checks = {
        (measure, band): (value, low, high, n)
        for measure, band, value, low, high, n in _query(
            valet.folder, "select measure, band, value, low, high, n from rating_checks"
        )
    }
    for band, value, players in (
        ("100-299", "0.59", 655),
        ("300-999", "0.70", 581),
        ("1000+", "0.74", 294),
    ):
        _close(checks[("reliability", band)][0], value)
        assert checks[("reliability", band)][3] == players
    for band, covers in (
        ("0-99", "79.9"),
        ("100-299", "80.5"),
        ("300-999", "81.3"),
        ("1000+", "80.5"),
    ):
        _close(100 * checks[("coverage_80", band)][0], covers)
    gap = checks[("regular_gap", "all")]
    assert gap[3] == 172
    for value, shown in zip(gap[:3], ("0.77", "-0.09", "1.63")):
        _close(value, shown)
    assert checks[("strong_partner_rose", "all")][3] == 7
    synergy = {band: row for (measure, band), row in checks.items() if measure == "synergy"}
    assert len(synergy) == 861
    assert sum(1 for row in synergy.values() if row[1] > 0 or row[2] < 0) == 17
    muller = synergy["Bauke Muller & Simon De Wijs"]
    assert muller[3] == 4558
    for value, shown in zip(muller[:3], ("1.24", "0.47", "2.01")):
        _close(value, shown)
