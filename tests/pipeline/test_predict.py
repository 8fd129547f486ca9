"""`bridgerank predict`: forecasts of a club session from the ratings of the sessions before
it, kept, refused once the session is rated, and scored against its results."""

from __future__ import annotations

import csv
import json
import random
import re
import shlex
import sqlite3
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from bridgerank.cleaning.match.non_persons import classify
from bridgerank.core.settings import load_settings
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.predict import read_boards
from bridgerank.pipeline.stages import open_store
from bridgerank.ratings.games import deal_key
from bridgerank.ratings.headline.forecast import StoredRatings, forecast
from bridgerank.ratings.tables import FittedHeadline, StoredForecast
from tests.paths import TESTS

# Two months of a club's sessions to rate, and the session after them to forecast.
RATED = ("2017-01-02", "2017-01-09", "2017-01-16", "2017-01-23", "2017-02-06")
NEXT = "2017-02-13"


def _invoke(*args):
    # a run's whole summary (--verbose): these tests read the rate stage's lines
    result = CliRunner().invoke(main, [*args, "--verbose"] if args[0] == "run" else list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _fast(tmp_path):
    """``--config`` of a settings file with the rate stage's other studies at their cheapest:
    no rating intervals, few resamples of the validation tables, two seeds of who beats
    whom - none of them reaches a forecast (tested elsewhere)."""
    settings = tmp_path / "fast.toml"
    settings.write_text(
        "[rate]\nbootstrap_resamples = 0\nvalidation_bootstrap = 200\n[rate.cycles]\nseeds = 2\n"
    )
    return ["--config", str(settings)]


@pytest.fixture()
def acbl(shared_data):
    folder = shared_data("acbl", "results")
    if not (folder / NEXT).exists():
        pytest.skip(f"{folder / NEXT} not in the shared data")
    return folder


def test_forecast_then_results_then_score(acbl, tmp_path, shared_data, chromium):
    out = str(tmp_path)
    fast = _fast(tmp_path)
    _invoke("run", *(str(acbl / day) for day in RATED), "--out", out, "--to", "match", *fast)
    _invoke("rate", "--out", out, *fast)
    engine = open_store(f"sqlite:///{tmp_path / 'bridgerank.db'}", create=False)

    with engine.connect() as conn:
        fit = conn.execute(select(FittedHeadline.__table__)).mappings().one()
    # the fit is read from its table, never from the run log (which is history only)
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        db.execute("update stage_runs set summary = '{}'")
    assert fit["tables"] > 0 and fit["residual_variance"] > 0 and fit["penalty"] > 0
    # the club's regular pairs score above their players' sum: predict gives them the bonus
    assert fit["familiarity"] > 0
    # the recaps print each pair's stratum: the fit's effect of each, which predict applies
    # to the strata the forecast file prints
    assert {"299:A", "299:C", "open:A", "open:C"} <= set(json.loads(fit["entry_effects"]))
    printed = _invoke("predict", str(acbl / NEXT), "--out", out, *fast)
    with engine.connect() as conn:
        stored = conn.execute(select(StoredForecast.__table__)).mappings().all()
    assert f"{len(stored):,} pair-sessions forecast and stored" in printed
    assert len(stored) > 20
    assert all(row["low_80"] < row["predicted"] < row["high_80"] for row in stored)
    assert {row["session"] for row in stored} == {NEXT.replace("-", ".")}
    assert "still waiting for their results: " in printed
    # a second forecast of the same session replaces the first: still one row a pair
    _invoke("predict", str(acbl / NEXT), "--out", out, *fast)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(StoredForecast)).scalar() == len(
            stored
        )

    # the session is played and rated: the forecast is scored, and no longer made
    _invoke("run", str(acbl / NEXT), "--out", out, "--to", "match", *fast)
    _invoke("rate", "--out", out, *fast)
    printed = _invoke("predict", str(acbl / NEXT), "--out", out, *fast)
    assert "not forecast: " in printed and "is already rated" in printed
    assert f"stored forecasts with results since: {len(stored):,} pair-sessions" in printed
    assert "still waiting" not in printed
    # each pair's forecast against its result, whether the 80% interval held, and the CSV
    with open(tmp_path / "forecasts.csv", newline="") as handle:
        written = list(csv.DictReader(handle))
    assert len(written) == len(stored) and all(row["result"] for row in written)
    lines = printed.splitlines()
    for row in written:
        forecast, result = float(row["forecast"]), float(row["result"])
        held = float(row["low_80"]) <= result <= float(row["high_80"])
        assert row["held"] == str(held)
        assert any(
            f"{forecast:>7.1f}% {result:>5.1f}%  {'yes' if held else 'no'}" in line
            and row["side"][:30] in line
            for line in lines
        ), row
    # the site's forecasts page, in a browser: every forecast, its result and whether it held
    assert _invoke("report", "--out", out, *fast)
    _forecasts_page_shows(tmp_path / "report" / "forecasts.html", written, chromium)
    # an event of one table a deal, with club ratings only: why it is not forecast
    event = shared_data("pbn", "2001-11th_European_Open_Pairs_Championship")
    printed = _invoke("predict", str(event), "--out", out, *fast)
    assert (
        "no forecast: the files' 275 deals were played at 1 table at most; team matches and "
        "events of one table a deal are forecast from the team ratings, and the database has "
        "none (no board of it was played in both rooms of a team match)" in printed
    )
    # a team event's round file, with club ratings only: why its matches are not forecast
    round_file = shared_data("travellers", "valet", "2015-World", "Men")
    printed = _invoke("predict", str(round_file), "--out", out, *fast)
    assert (
        "no match forecast: the files' 7,388 traveller records are forecast as team matches from "
        "the team events' ratings, and the database has none" in " ".join(printed.split())
    )
    engine.dispose()


def _forecasts_page_shows(page_file, written, chromium) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(page_file.as_uri())
        table = page.locator("table.paged")
        cells = [
            [cell.inner_text() for cell in row.locator("td").all()]
            for row in table.locator("tbody tr").all()
        ]
        assert len(cells) == len(written)
        held = sum(row["held"] == "True" for row in written)
        assert sum(row[-1] == "yes" for row in cells) == held
        assert f"{len(written)} with a result, of which {held}" in page.inner_text("p.lead")
        browser.close()


def test_no_ratings_is_one_clear_error(tmp_path, acbl):
    result = CliRunner().invoke(main, ["predict", str(acbl / NEXT), "--out", str(tmp_path)])
    assert result.exit_code == 3  # no database at all: none is made
    assert result.output.startswith(f"error: no database at {tmp_path / 'bridgerank.db'} (")
    assert list(tmp_path.iterdir()) == []
    CliRunner().invoke(main, ["run", "--to", "clean", "--out", str(tmp_path)])
    result = CliRunner().invoke(main, ["predict", str(acbl / NEXT), "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "needs 'rate', which has not run yet" in result.output


def test_a_forecast_does_not_read_the_results(acbl):
    boards = list(read_boards([str(acbl / NEXT)], load_settings()))
    ratings = StoredRatings(
        {"Tom Smith": (3.0, 1.0)}, residual_variance=0.08, form_variance=20.0, penalty=30.0
    )
    names = {}
    first = forecast(boards, names, ratings)
    # the same tables with every result replaced at random: the same forecast
    draw = random.Random(1)
    redrawn = [
        board if board["result"] is None else board | {"result": draw.randint(0, 13)}
        for board in boards
    ]
    second = forecast(redrawn, names, ratings)
    key = lambda row: (row["player_a"], row["player_b"])  # noqa: E731
    assert [key(row) for row in first] == [key(row) for row in second]
    assert np.allclose([row["predicted"] for row in first], [row["predicted"] for row in second])
    # nobody rated: everyone average, the interval the prior's and the session's luck
    assert all(row["rated"] == 0 and row["predicted"] == pytest.approx(50.0) for row in first)


def test_the_hint_runs_and_an_event_of_one_table_a_deal_is_forecast(tmp_path, shared_data):
    """The error before any rating names a command that works; an event recorded at one
    table a deal (the 2001 European Open Pairs, vugraph) is forecast pair by pair in IMPs
    against par from the team ratings (of the embedded sample's team boards here)."""
    event = shared_data("pbn", "2001-11th_European_Open_Pairs_Championship")
    out = ["--out", str(tmp_path)]
    result = CliRunner().invoke(main, ["predict", str(event), *out])
    assert result.exit_code == 3
    hint = re.search(r"or (bridgerank run .*?) alone for the embedded sample", result.output)
    words = shlex.split(hint.group(1))
    assert words[:2] == ["bridgerank", "run"]
    _invoke(*words[1:])  # the hint, as printed: it rates (the embedded sample here)
    # a file of the sample: rated already, which is all there is to say
    sample = TESTS.parent / "data" / "sample" / "usbf_sf_14502.lin"
    printed = _invoke("predict", str(sample), *out)
    assert printed.splitlines() == [
        "not forecast: USBF SF A 2010 is already rated (its results are stored)"
    ]
    printed = _invoke("predict", str(event), *out)
    assert "149 pairs forecast in IMPs and stored" in printed
    assert "pair-sessions forecast and stored" not in printed and "no forecast" not in printed
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        kinds = db.execute("select kind, count(*), min(boards) from imp_forecasts group by kind")
        assert kinds.fetchall() == [("pair", 149, 1)]


# A corpus slice to rate (a teams event and two invitational pairs events of 1997-98), and two
# events held out from it: a pairs event recorded at one table a deal, and a teams event.
TRAIN = (
    "1998-IOC_Grand_Prix",
    "1997-Cavendish_Invitational_Pairs_Tournament",
    "1998-Cavendish_Invitational_Tournament",
)
HELD_OUT = ("1999-Cavendish_Invitational_Tournament", "2000-3rd_IOC_Grand_Prix")


def test_championship_events_held_out_are_forecast_then_scored(tmp_path, shared_data):
    out = ["--out", str(tmp_path), *_fast(tmp_path)]
    _invoke("run", *(str(shared_data("pbn", name)) for name in TRAIN), "--to", "rate", *out)
    held_out = [str(shared_data("pbn", name)) for name in HELD_OUT]
    printed = _invoke("predict", *held_out, *out)
    assert "7 team matches, 33 pairs forecast in IMPs and stored" in printed
    # a captain's reading: what the figure is, each match's event in full and both line-ups
    lines = printed.splitlines()
    assert "team matches: team A's margin over the match in IMPs, 80% interval:" in lines
    assert sum(line.startswith("    A: ") for line in lines) == 7
    assert sum(line.startswith("    B: ") for line in lines) == 7
    line_up = next(line for line in lines if line.startswith("    A: "))
    assert line_up.count(" - ") >= 3  # four players or more, named in full
    # every pair of the pairs event's one-table deals with four persons named is forecast
    boards = list(read_boards(held_out[:1], load_settings()))
    tables = Counter(deal_key(board) for board in boards)
    seats = ("north", "south", "east", "west")
    expected = {
        " - ".join(sorted(pair))
        for board in boards
        if tables[deal_key(board)] == 1 and all(classify(board[seat]) is None for seat in seats)
        for pair in ((board["north"], board["south"]), (board["east"], board["west"]))
    }
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        stored = dict(db.execute("select side, rated from imp_forecasts where kind = 'pair'"))
        matches = (
            "select count(*), sum(boards), sum(rated > 0) from imp_forecasts where kind = 'match'"
        )
        # every board of the teams event played in both rooms; one match's players all new
        # to the ratings (forecast as newcomers)
        assert db.execute(matches).fetchone() == (7, 167, 6)
    assert set(stored) == expected and len(expected) == 33
    assert (
        sum(rated > 0 for rated in stored.values()) == 23
    )  # the other ten: both players new to the ratings
    assert "stored forecasts still waiting for their results: 40" in printed

    # the events are played and rated: each forecast shown against its result
    _invoke("run", *held_out, "--to", "rate", *out)
    printed = _invoke("predict", *out)
    lines = printed.splitlines()
    results = [line for line in lines if line.endswith(("(held)", "(missed)"))]
    assert len(results) == 40 and "waiting" not in printed
    assert any(
        line.startswith("stored forecasts with results since: 7 team matches") for line in lines
    )
    assert any(line.startswith("stored forecasts with results since: 33 pairs") for line in lines)


def test_a_name_typed_in_two_cases_is_one_player():
    from bridgerank.pipeline.predict import one_spelling

    boards = [
        {"north": "Sam Lev", "east": "Ann Roe", "south": "Jo Lee", "west": "Al Fry"},
        {"north": "Sam lev", "east": "ann  roe", "south": "Jo Lee", "west": "Al Fry"},
        {"north": "Sam Levy", "east": None, "south": "", "west": "Al Fry"},
    ]
    fixed = one_spelling(boards)
    assert [board["north"] for board in fixed] == ["Sam Lev", "Sam Lev", "Sam Levy"]
    assert fixed[1]["east"] == "Ann Roe" and fixed[2]["east"] is None
    assert boards[1]["north"] == "Sam lev"  # the boards read are left as they were


def test_a_weak_held_out_check_is_said_beside_the_forecasts():
    from bridgerank.pipeline.predict_view import _weakness

    few = {"units": 4, "pearson": -0.82, "over_coin": -22.8}
    assert _weakness(few, "team matches") == (
        "held out on this database, the model's forecasts of 4 team matches correlate -0.82 "
        "with the results: too few to judge it by"
    )
    worse = {"units": 308, "pearson": 0.19, "over_coin": -0.4}
    assert _weakness(worse, "team matches").endswith(
        "correlate 0.19 with the results and miss them by more than a level forecast does"
    )
    assert _weakness({"units": 308, "pearson": 0.35, "over_coin": 2.0}, "team matches") == ""


def test_seats_that_name_no_one_are_said_not_dropped(sample_run, tmp_path, shared_data):
    """A seat that names no one person (a placeholder such as "?", a robot) leaves its table
    unforecast, and predict says so, with the names the file gives."""
    import shutil

    event = shared_data("pbn", "2001-11th_European_Open_Pairs_Championship")
    text = (event / "F1PART1.PBN").read_text(encoding="latin-1")
    boards = text.count('[West "Z. Rogowski"]')
    assert boards >= 2
    edited = text.replace('[West "Z. Rogowski"]', '[West "?"]', 2).replace(
        '[East "K. Pikus"]', '[East "GIB"]', 1
    )
    source = tmp_path / "F1PART1.PBN"
    source.write_text(edited, encoding="latin-1")
    out = tmp_path / "run"
    shutil.copytree(sample_run, out)
    printed = _invoke("predict", str(source), "--out", str(out))
    assert (
        "not forecast: 2 tables with a seat that names no one person (seats: ? 2, GIB 1); "
        "a table is forecast from its four players"
    ) in printed.splitlines()
    # the same file as written: every table has its four players, and no such line
    printed = _invoke("predict", str(event / "F1PART1.PBN"), "--out", str(out))
    assert "names no one person" not in printed
