"""The CLI's surface and its documentation: every command has help and is in the README, the
quick start, the CI running the README's test command, and every ``bridgerank`` command the
README or docs/ show is run by a test on the data it names. (The settings loader's errors are
in tests/core/test_settings.py.)

A command shown in a shell block (untagged, ``console``, ``bash``) must be in ``RUN_BY``, the
map from each shown command to the test that runs it; the usage block is run here, line by
line, on two real club sessions. A command named in the prose (a code span, most often how a
figure was measured) must be in ``RUN_BY`` too, the corpus's and the Valet archive's included
(tests/pipeline/test_docs_corpus.py, slow). ``RUN_BY`` may name no command no page shows."""

from __future__ import annotations

import ast
import re
import shlex
import sqlite3
from contextlib import closing
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()
PAGES = {"README.md": README} | {
    f"docs/{page.name}": page.read_text() for page in sorted((ROOT / "docs").glob("*.md"))
}

SELF = "tests/pipeline/test_cli_docs.py"
USAGE = f"{SELF}::test_the_usage_block_runs_as_shown"
CORPUS = "tests/pipeline/test_docs_corpus.py"
EXCHANGE = "tests/dds/test_exchange.py"

# Every command shown, and the test that runs it (a test marked slow where the data are a
# whole corpus).
RUN_BY = {
    # the quick start, exactly, in a fresh virtual environment (slow), and on PostgreSQL
    "bridgerank run": "tests/pipeline/test_wheel.py::"
    "test_the_wheel_runs_the_quick_start_and_installs_only_bridgerank",
    # the usage block, run here
    "bridgerank run [SOURCES...]": USAGE,
    "bridgerank run --from clean": USAGE,
    "bridgerank run --force": USAGE,
    "bridgerank ingest SOURCES...": USAGE,
    "bridgerank clean": USAGE,
    "bridgerank match": USAGE,
    "bridgerank dds --jobs 2": USAGE,
    "bridgerank rate": USAGE,
    "bridgerank regress": USAGE,
    "bridgerank report": USAGE,
    "bridgerank report --force": "tests/pipeline/test_report_reads.py::"
    "test_a_report_reads_each_table_once_through_the_loader",
    "bridgerank show PLAYER": USAGE,
    "bridgerank names": USAGE,
    "bridgerank run --dry-run": USAGE,
    "bridgerank predict FILES": USAGE,
    "bridgerank predict": USAGE,
    "bridgerank run --verbose": USAGE,
    "bridgerank status": USAGE,
    "bridgerank ingest --force SOURCES": USAGE,
    # docs/dds.md: a database redone after a store found wrong
    "bridgerank run --force --from dds": "tests/dds/test_store_checks.py::"
    "test_force_solves_again_what_the_database_took_from_a_store",
    "bridgerank regress --rates R.csv --responses P.csv": "tests/regression/test_stage.py::"
    "test_regress_command_on_files",
    "bridgerank --help": f"{SELF}::test_help_and_version",
    "bridgerank --version": f"{SELF}::test_help_and_version",
    "bridgerank COMMAND --help": f"{SELF}::test_every_command_has_help_and_is_documented",
    # docs/usage.md
    "bridgerank run --db postgresql+psycopg://USER@HOST/bridgerank": "tests/pipeline/"
    "test_postgres.py::test_the_quick_start_on_postgresql_equals_sqlite",
    "bridgerank ingest ../shared/data/pbn ../shared/data/lin": "tests/cleaning/test_real_data.py::"
    "test_whole_corpus",
    # docs/dds.md: a real scheduler and workers on 127.0.0.1, one killed mid-run
    "bridgerank dds --config dask.toml --jobs 8": "tests/dds/test_dask_cluster.py::"
    "test_a_killed_worker_costs_nothing_and_results_equal_loky",
    # docs/dds.md: the DD store shared, exported and imported (checked by the solver)
    "bridgerank dd info": f"{EXCHANGE}::test_dd_info_export_and_import",
    "bridgerank dd export solved.csv.gz": f"{EXCHANGE}::test_dd_info_export_and_import",
    "bridgerank dd export tables.csv --no-traces": f"{EXCHANGE}::test_dd_info_export_and_import",
    "bridgerank dd import solved.csv.gz --check 20": f"{EXCHANGE}::test_dd_info_export_and_import",
    # docs/stages.md: the thesis's regression, run here as shown
    "bridgerank regress --rates ../shared/data/thesis/results/200_unweighted_results.csv "
    "--rates ../shared/data/thesis/results/200_weighted_results.csv "
    "--responses ../shared/data/thesis/results/dds_final_results.csv": f"{SELF}::"
    "test_the_thesis_regression_as_shown",
    # the README's and docs/ratings.md's ACBL table
    "bridgerank run ../shared/data/acbl/results --to rate": "tests/ratings/test_headline.py::"
    "test_on_the_acbl_sessions_the_headline_against_every_rival",
    # docs/stages.md's name matching on the whole corpus (slow: 30 s of ingest and clean)
    "bridgerank run ../shared/data/pbn ../shared/data/lin --to match": f"{SELF}::"
    "test_the_corpus_name_matching_as_shown",
    # docs/ratings.md's ACBL recaps, then `bridgerank rate` (slow: 7 minutes on 2 busy cores)
    "bridgerank run ../shared/data/acbl --to match": f"{SELF}::test_the_acbl_recaps_as_shown",
    "bridgerank run SOURCES --to match": "tests/pipeline/test_end_to_end.py::"
    "test_new_sources_rerun_clean",
    "bridgerank run --only report": "tests/pipeline/test_report_staging.py::"
    "test_the_next_report_run_removes_a_killed_runs_staging_folder",
    # the figures measured on the whole corpus and the Valet archive (slow: an hour of the
    # double dummy solver on two cores for the corpus, hours for Valet), one database each
    "bridgerank run ../shared/data/pbn ../shared/data/lin --to rate": f"{CORPUS}::"
    "test_the_corpus_to_rate_as_shown",
    "bridgerank run ../shared/data/pbn ../shared/data/lin --out out/corpus": f"{CORPUS}::"
    "test_the_corpus_out_corpus_as_shown",
    "bridgerank run ../shared/data/pbn ../shared/data/lin": f"{CORPUS}::"
    "test_the_whole_corpus_as_shown",
    "bridgerank run ../shared/data/travellers/valet --to match": f"{CORPUS}::"
    "test_the_valet_travellers_to_match_then_rate_as_shown",
    "bridgerank run ../shared/data/travellers/valet --to rate": f"{CORPUS}::"
    "test_the_valet_travellers_to_rate_as_shown",
    # docs/ratings.md: the team events' forecasts of a round file and of two line-ups
    "bridgerank run ../shared/data/travellers/valet/2011-World "
    "../shared/data/travellers/valet/2013-World --to rate": "tests/ratings/"
    "test_event_matches.py::test_world_championships_are_forecast_round_by_round",
    "bridgerank predict ../shared/data/travellers/valet/2015-World/Men": "tests/ratings/"
    "test_event_matches.py::test_a_round_file_not_yet_rated_is_forecast_match_by_match",
    'bridgerank predict --line-up "A1, A2, A3, A4" --against "B1, B2, B3, B4" --boards 32': (
        "tests/ratings/test_event_matches.py::"
        "test_two_line_ups_named_are_forecast_with_a_chance_to_win"
    ),
}

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.S | re.M)
_SHELL = {"", "console", "bash", "sh", "shell"}


def _block_commands(text: str) -> list[str]:
    """``bridgerank`` commands in a page's shell blocks: continuations joined, comments and
    what comes before ``&&`` dropped."""
    found = []
    for tag, body in _FENCE.findall(text):
        if tag.strip() not in _SHELL:
            continue
        for line in re.sub(r"\\\n\s*", " ", body).splitlines():
            line = "" if line.lstrip().startswith("#") else line.split(" #", 1)[0]
            for part in line.split("&&"):
                command = " ".join(part.split())
                if command.startswith("bridgerank "):
                    found.append(command)
    return found


def _prose_commands(text: str) -> list[str]:
    """``bridgerank`` commands in a page's code spans, outside the blocks and the headings
    (docs/cli.md titles each command's --help with its name)."""
    prose = re.sub(r"^#.*$", "", _FENCE.sub("", text), flags=re.M)
    spans = re.findall(r"`(bridgerank\s[^`]*)`", prose)
    return [" ".join(span.split()) for span in spans]


def _shown(find) -> dict[str, list[str]]:
    shown: dict[str, list[str]] = {}
    for page, text in PAGES.items():
        for command in find(text):
            shown.setdefault(command, []).append(page)
    return shown


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help_and_is_documented(command):
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    assert main.commands[command].help, f"{command} has no help text"
    assert re.search(rf"bridgerank {command}\b", README), f"{command} is not in the README"


def test_help_and_version():
    runner = CliRunner()
    assert all(name in runner.invoke(main, ["--help"]).output for name in main.commands)
    assert runner.invoke(main, ["--version"]).exit_code == 0


def test_quick_start_is_two_commands():
    block = README.split("## Quick start", 1)[1].split("```")[1]
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert lines == ["pip install -e . && bridgerank run", 'pip install -e ".[test]" && pytest']


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'pip install -e ".[test]" && pytest' in ci.splitlines()


def test_every_command_shown_is_run_by_a_test():
    blocks, prose = _shown(_block_commands), _shown(_prose_commands)
    unmapped = {command: pages for command, pages in blocks.items() if command not in RUN_BY}
    assert not unmapped, f"shown in a block, run by no test (add it to RUN_BY): {unmapped}"
    unknown = {command: pages for command, pages in prose.items() if command not in RUN_BY}
    assert not unknown, f"named in the prose, run by no test (add it to RUN_BY): {unknown}"
    stale = set(RUN_BY) - set(blocks) - set(prose)
    assert not stale, f"no page shows these any more: {sorted(stale)}"


@lru_cache(maxsize=None)
def _module(path: str) -> tuple[set[str], set[str]]:
    """A test module's test functions and string constants."""
    tree = ast.parse((ROOT / path).read_text())
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    strings = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    return functions, strings


@pytest.mark.parametrize("command", sorted(RUN_BY))
def test_the_mapped_test_runs_that_command_on_that_data(command):
    """The test exists, and (unless it reads the command from the page, as this module's do)
    it invokes that subcommand with those options on that data."""
    path, _, name = RUN_BY[command].partition("::")
    functions, strings = _module(path)
    assert name in functions, f"{RUN_BY[command]} does not exist"
    if path == SELF:
        return
    words = shlex.split(command)[1:]
    wanted = [word for word in words if word.startswith("--")]
    if words and not words[0].startswith("-"):
        wanted.append(words[0])
    for word in words:
        if word.startswith("../shared/data/"):
            wanted += word.removeprefix("../shared/data/").split("/")
    text = " ".join(strings)
    missing = [word for word in wanted if word not in strings and word not in text]
    assert not missing, f"{RUN_BY[command]} never says {missing}"


def _usage_block() -> list[str]:
    block = README.split("## Usage", 1)[1].split("```")[1]
    return _block_commands(f"```\n{block}```\n")


def test_the_usage_block_runs_as_shown(tmp_path, test_data):
    """Every line of the usage block, in its order, on two club sessions (tests/data/acbl):
    SOURCES and FILES are their folder and one of its files, PLAYER part of a name."""
    sessions = test_data / "acbl"
    quick = tmp_path / "quick.toml"  # the rate stage's side studies are tested elsewhere
    quick.write_text(
        "[rate]\nbootstrap_resamples = 0\n[rate.cycles]\nseeds = 2\n"
        "[regress]\nbootstrap_resamples = 5\n"
    )
    placeholders = {
        "[SOURCES...]": [str(sessions)],
        "SOURCES...": [str(sessions)],
        "SOURCES": [str(sessions)],
        "FILES": [str(sessions / "recap_e_20170724.html.gz")],
        "PLAYER": ["Cavagnaro"],
    }
    ran = []
    for command in _usage_block():
        words = shlex.split(command)[1:]
        if "--rates" in words:  # files of your own: tests/regression/test_stage.py
            continue
        arguments = [part for word in words for part in placeholders.get(word, [word])]
        result = CliRunner().invoke(main, [*arguments, "--out", str(tmp_path), "--config", quick])
        assert result.exit_code == 0, f"{command}\n{result.output}"
        ran.append((command, result.output))
    shown = dict(ran)
    assert len(ran) == len(_usage_block()) - 1
    assert "ingest: 432 records from 2 files (2 ingested)" in shown["bridgerank run [SOURCES...]"]
    assert "Cavagnaro" in shown["bridgerank show PLAYER"]
    assert "0 of 7 stages would run" in shown["bridgerank run --dry-run"]
    assert "report: up to date, nothing to do" in shown["bridgerank run --verbose"]
    assert "is already rated" in shown["bridgerank predict FILES"]
    assert "ingest: up to date" in shown["bridgerank ingest SOURCES..."]
    # docs/usage.md: `bridgerank ingest --force SOURCES` looks at every file again
    forced = CliRunner().invoke(main, ["ingest", "--force", str(sessions), "--out", str(tmp_path)])
    assert forced.exit_code == 0 and "(2 already stored)" in forced.output, forced.output


def test_the_thesis_regression_as_shown(tmp_path, shared_data):
    """docs/stages.md's command on the thesis's files gives the figures the page states."""
    (command,) = [
        command for command in RUN_BY if command.startswith("bridgerank regress --rates ../")
    ]
    shared = str(shared_data())
    words = [word.replace("../shared/data", shared) for word in shlex.split(command)[1:]]
    result = CliRunner().invoke(main, [*words, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "pp = 35.43033 -1028.60322 x defender_mistakes_per_card_played_as_defender" in (
        result.output
    )
    assert "adjusted R2 0.0693, cross-validated R2 0.0670" in result.output
    assert "Breusch-Pagan: statistic 12.4532, p 0.0004173: heteroscedastic errors" in result.output
    assert "errors not normal" in result.output


@pytest.mark.slow
def test_the_corpus_name_matching_as_shown(tmp_path, shared_data):
    """docs/stages.md's and docs/usage.md's figures of ingest, clean and match on the whole
    PBN and LIN corpus."""
    shared = str(shared_data())
    (command,) = [command for command in RUN_BY if command.endswith("/lin --to match")]
    words = [word.replace("../shared/data", shared) for word in shlex.split(command)[1:]]
    result = CliRunner().invoke(main, [*words, "--out", str(tmp_path), "--verbose"])
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert (
        "ingest: 48,784 records from 1,312 files (1 already stored, 1254 ingested, "
        "57 not bridge data)" in output
    )
    assert "clean: 48,784 records, 41,564 boards kept, 7,220 excluded" in output
    assert "match: 815 of 2,659 raw names matched to the 725 WBF players" in output
    assert (
        "(24 ambiguous, 1,844 unmatched: 7 robots, 142 handles, 21 naming no one person)" in output
    )
    assert "board-seats covered: 104,159 of 166,712 (62.5%)" in output


@pytest.mark.slow
def test_the_acbl_recaps_as_shown(tmp_path, shared_data):
    """docs/ratings.md's paragraph on the ACBL club recaps: the files, records and boards, then
    the rate stage's pair rankings, held-out orders and skill-o-meter."""
    (command,) = [command for command in RUN_BY if command.endswith("/acbl --to match")]
    shared = str(shared_data())
    words = [word.replace("../shared/data", shared) for word in shlex.split(command)[1:]]
    runner = CliRunner()
    run = runner.invoke(main, [*words, "--out", str(tmp_path)])
    assert run.exit_code == 0, run.output
    output = " ".join(run.output.split())
    assert "ingest: 33,481 records from 220 files (111 already stored, 109 ingested)" in output
    assert "clean: 33,481 records, 32,647 boards kept, 834 excluded" in output
    rate = runner.invoke(main, ["rate", "--out", str(tmp_path)])
    assert rate.exit_code == 0, rate.output
    output = " ".join(rate.output.split())
    assert "rate: 451 players rated in" in output and "5,280 pair rankings" in output
    assert "107 team boards" in output  # the board-a-match game, as team games
    assert "K* 4.15, rating spread 22.3 over 386 regular players" in output
    assert "decided by skill 11% of the time" in output
    with closing(sqlite3.connect(tmp_path / "bridgerank.db")) as db:
        rows = db.execute(
            "select method, log_loss, accuracy, test_games from rating_validation"
            " where task = 'pair rankings'"
        ).fetchall()
    scores = {method: (round(loss, 4), round(right, 3), n) for method, loss, right, n in rows}
    assert scores == {
        "elo": (0.6877, 0.540, 72790),
        "dlo": (0.6877, 0.539, 72790),
        "win_rate": (0.6873, 0.543, 72790),
    }
