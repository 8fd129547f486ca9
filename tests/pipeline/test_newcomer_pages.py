"""What a newcomer sees first on the quick start's site, in Chromium at a desktop's and a
phone's width: every player with boards has a rating of the kind the boards allow (the
championship players a team rating), shown with its interval and found by the search box
whatever the order of the words typed."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

SCREENSHOTS = Path(os.environ.get("BRIDGERANK_SCREENSHOTS", "build/screenshots"))
WIDTHS = {"desktop": 1280, "phone": 390}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_every_player_with_boards_is_rated_by_what_the_boards_allow(sample_run):
    report = sample_run / "report"
    front = _text((report / "index.html").read_text())
    assert "Players without a rating" not in front  # pairs and team players alike
    team_rows = re.findall(
        r'<table id="team-ranking".*?</table>', (report / "index.html").read_text(), re.S
    )[0]
    assert 'data-name="terence reese"' in team_rows
    page = next(
        path
        for path in (report / "players").glob("*.html")
        if "<h1>Terence Reese</h1>" in path.read_text()
    )
    lead = _text(page.read_text())
    assert re.search(
        r"Team rating [+-]\d\.\d\d IMPs a board added to a side against an average player, "
        r"80% interval [+-]\d\.\d\d to [+-]\d\.\d\d; rank \d+ of \d+ team players; 195 team "
        r"boards\.",
        lead,
    ), lead[:400]
    assert "Not rated" not in lead


@pytest.mark.parametrize("width", WIDTHS, ids=list(WIDTHS))
def test_the_search_finds_a_championship_player_in_any_word_order(sample_run, chromium, width):
    from playwright.sync_api import sync_playwright

    report = sample_run / "report"
    player = next(
        path
        for path in (report / "players").glob("*.html")
        if "<h1>Terence Reese</h1>" in path.read_text()
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
        page.goto((report / "index.html").as_uri())
        page.screenshot(path=str(SCREENSHOTS / f"index-{width}.png"), full_page=True)
        for typed in ("reese", "Reese Terence", "terence  reese"):
            page.fill("input.search", typed)
            found = page.locator("#team-ranking tbody tr:visible")
            assert found.count() == 1, typed
            assert found.first.inner_text().split("\t")[1] == "Terence Reese"
        page.fill("input.search", "")
        assert page.locator("#team-ranking tbody tr:visible").count() > 1
        # nothing wider than the screen: the tables scroll inside their own box
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]
        page.goto(player.as_uri())
        assert "Team rating" in page.inner_text("h1 + p")
        page.screenshot(path=str(SCREENSHOTS / f"player-reese-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]
        browser.close()


def test_show_gives_the_team_rating_and_the_results_measures_as_the_page_does(sample_run):
    from click.testing import CliRunner

    from bridgerank.pipeline.cli import main

    shown = CliRunner().invoke(main, ["show", "reese", "--out", str(sample_run)])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    page = next(
        path
        for path in (sample_run / "report" / "players").glob("*.html")
        if "<h1>Terence Reese</h1>" in path.read_text()
    )
    rating = re.search(r"Team rating ([+-]\d\.\d\d) IMPs", _text(page.read_text())).group(1)
    assert f"team rating {rating} IMPs a board added to a side" in text
    assert "not rated" not in text
    assert "From the results alone, against double dummy (positive is good)" in text
    assert "Contracts reached +0.20 IMPs per board against par" in text


def test_a_forecast_without_a_result_says_no_result_is_stored_not_that_it_is_unplayed():
    """A forecast of a 1999 event whose results were never run through the pipeline: the
    page cannot know whether it was played, only that no result is stored."""
    from bridgerank.pipeline.report.templating import environment

    row = {
        "kind": "match",
        "event": "1999 Bermuda Bowl",
        "session": "RR1",
        "side": "USA",
        "opponents": "Italy",
        "boards": 20,
        "forecast": 3.2,
        "low_80": -30.0,
        "high_80": 36.0,
        "result": None,
        "held": None,
    }
    page = environment().get_template("site/forecasts.html.j2").render(root="", rows=[row])
    assert "no result stored yet" in _text(page) and "not yet played" not in page


def test_the_readme_s_count_of_rated_players_is_the_site_s(sample_run):
    """The README explains the quick start's '68 players rated' as 48 by the pair rating and
    20 by the team rating, each in its own table of the front page."""
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert "the 48 players of the club sessions by the pair rating" in readme
    assert "the 20 championship players by the team rating" in readme
    front = (sample_run / "report" / "index.html").read_text()
    pairs = re.findall(r'<table id="ranking".*?</table>', front, re.S)[0]
    teams = re.findall(r'<table id="team-ranking".*?</table>', front, re.S)[0]
    assert pairs.count("<tr data-name=") == 48 and teams.count("<tr data-name=") == 20


def test_a_disc_game_label_is_shortened_at_names_never_inside_one():
    from bridgerank.pipeline.report.svg import short_label

    assert short_label("Reese - Schapiro") == "Reese - Schapiro"
    assert short_label("Adam Meredith & Kenneth Konstam") == "Meredith & Konstam"
    assert short_label("Terence Reese - Boris Schapiro - Kenneth Konstam") == (
        "Reese - Schapiro - Konstam"
    )
    long = "Bartholomew Featherstonehaugh - Maximilian Wolfeschlegelstein"
    shortened = short_label(long)
    assert shortened == "Featherstonehaugh\u2026"
    assert all(word.rstrip("\u2026") in long.split() for word in shortened.split() if word != "-")


@pytest.mark.parametrize("width", WIDTHS, ids=list(WIDTHS))
def test_the_forecasts_page_reads_for_a_captain_at_each_width(
    sample_run, tmp_path, shared_data, chromium, width
):
    """Forecasts of championship events the sample never rated - a team match of the 2000 IOC
    Grand Prix and a pairs event at one table a deal - on the forecasts page: each in words
    with both line-ups whole, its interval and "no result stored yet", nothing wider than the
    screen."""
    import shutil

    from click.testing import CliRunner
    from playwright.sync_api import sync_playwright

    from bridgerank.pipeline.cli import main

    out = tmp_path / "run"
    shutil.copytree(sample_run, out)
    match = shared_data("pbn", "2000-3rd_IOC_Grand_Prix")
    pairs = shared_data("pbn", "2001-11th_European_Open_Pairs_Championship", "F1PART1.PBN")
    files = [str(match / "1AUSAFRA.PBN"), str(match / "1BUSAFRA.PBN"), str(pairs)]
    result = CliRunner().invoke(main, ["predict", *files, "--out", str(out)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["report", "--out", str(out)])
    assert result.exit_code == 0, result.output
    page_file = out / "report" / "forecasts.html"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
        page.goto(page_file.as_uri())
        page.screenshot(path=str(SCREENSHOTS / f"forecasts-{width}.png"), full_page=True)
        rows = [
            [cell.inner_text() for cell in row.locator("td").all()]
            for row in page.locator("table.paged tbody tr").all()
        ]
        kinds = {row[0] for row in rows}
        assert kinds == {"team match (IMPs)", "pair (IMPs vs par)"}, kinds
        matches = [row for row in rows if row[0] == "team match (IMPs)"]
        # both line-ups whole: four players a side or more, by name
        assert all(row[3].count(" - ") >= 3 and row[4].count(" - ") >= 3 for row in matches)
        assert all(row[8] == "no result stored yet" and row[9] == "" for row in rows)
        # an interval about each forecast
        for row in rows:
            low, high = (float(value) for value in row[7].split(" to "))
            assert low < float(row[6]) < high
        assert f"{len(rows)} stored; 0 with a result" in " ".join(page.inner_text("p.lead").split())
        # nothing wider than the screen: the table scrolls inside its own box
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]
        browser.close()
