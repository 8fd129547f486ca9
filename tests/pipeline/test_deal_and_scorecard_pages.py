"""The deal as players know it and the player's scorecard, on the embedded sample's site in
headless Chromium: the double dummy table and par, a team board's IMPs, the scorecard's rows;
no page wider than a phone (390 px), no absolute path on any page. Screenshots at a desktop's
and a phone's width go to build/screenshots for a developer to look at."""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.bridge.ddtable import DDTable
from bridgerank.bridge.scoring import imps
from bridgerank.pipeline.cli import main
from bridgerank.ratings.games import ns_score
from tests.paths import TESTS

pytestmark = pytest.mark.dds  # one run of the sample through the report

SCREENSHOTS = Path(os.environ.get("BRIDGERANK_SCREENSHOTS", "build/screenshots"))
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def sample_site(sample_run):
    """The sample's run to the report (tests/pipeline/conftest.py), read only here."""
    return sample_run


def _query(folder: Path, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(folder / "bridgerank.db") as conn:
        return conn.execute(sql, args).fetchall()


def _browser(playwright, chromium):
    return playwright.chromium.launch(
        executable_path=str(chromium),
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )


def _deal_page(folder: Path, board_id: int) -> Path:
    """The deal page that shows the table of board ``board_id``."""
    return next(
        path
        for path in (folder / "report" / "boards").glob("*.html")
        if f'id="t{board_id}"' in path.read_text()
    )


def _team_board(folder: Path) -> tuple[int, int, int]:
    """An open room with its closed room (same event, board, deal) and both scores: the open
    room's id, the closed room's id, and the open room's North-South IMPs."""
    columns = "id, event, board_no, deal_hash, contract, declarer, result, ns_vulnerable, "
    columns += "ew_vulnerable, year, room"
    rows = _query(folder, f"select {columns} from boards where room in ('Open', 'Closed')")
    names = [c.strip() for c in columns.split(",")]
    boards = [dict(zip(names, row)) for row in rows]
    rooms: dict[tuple, dict[str, dict]] = {}
    for board in boards:
        key = (board["event"], board["board_no"], board["deal_hash"])
        rooms.setdefault(key, {})[board["room"]] = board
    for both in rooms.values():
        if len(both) == 2:
            first, second = ns_score(both["Open"]), ns_score(both["Closed"])
            if first is not None and second is not None and first != second:
                return both["Open"]["id"], both["Closed"]["id"], imps(first - second)
    raise AssertionError("no team board with both rooms scored")


def test_the_deal_page_shows_the_double_dummy_table_par_and_imps(sample_site, chromium):
    from playwright.sync_api import sync_playwright

    open_id, _, won = _team_board(sample_site)
    (deal_hash,) = _query(sample_site, "select deal_hash from boards where id = ?", open_id)[0]
    (tricks,) = _query(sample_site, "select tricks from dd_tables where deal_hash = ?", deal_hash)[
        0
    ]
    (par,) = _query(sample_site, "select ns_par from table_evidence where board_id = ?", open_id)[0]
    table = DDTable.from_hex(tricks)
    page_file = _deal_page(sample_site, open_id)
    with sync_playwright() as playwright:
        browser = _browser(playwright, chromium)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(page_file.as_uri())
        grid = page.locator("table.dd-table")
        assert f"par {par:+d} for N-S" in grid.locator("caption").inner_text()
        shown = [
            [cell.inner_text() for cell in row.locator("td").all()]
            for row in grid.locator("tbody tr").all()
        ]
        # rows North, South, East, West; columns NT, spades, hearts, diamonds, clubs
        expected = [
            [str(table.tricks(strain, seat)) for strain in "NSHDC"] for seat in (0, 2, 1, 3)
        ]
        assert shown == expected
        room = page.locator(f"#t{open_id}").inner_text()
        words = "N-S gain" if won > 0 else "N-S lose"
        assert f"{words} {abs(won)} IMP" in room and "against the closed room" in room
        page.screenshot(path=str(_shot("deal-team-desktop.png")), full_page=True)
        browser.close()


def test_the_deal_page_shows_the_records_alerts_notes_and_commentary(sample_site, chromium):
    """The vugraph file's open room of board 46: West's 3C over partner's 1H, alerted and
    explained ("jacoby 2N"), the commentators' chat under the table, as the file has them; at
    a phone's width with the commentary open, nothing wider than the screen."""
    from playwright.sync_api import sync_playwright

    [(board_id, extra)] = _query(
        sample_site,
        "select r.id, r.extra from raw_boards r join boards b on b.id = r.id "
        "where r.extra like '%jacoby 2N%'",
    )
    chat = json.loads(json.loads(extra)["commentary"])
    page_file = _deal_page(sample_site, board_id)
    with sync_playwright() as playwright:
        browser = _browser(playwright, chromium)
        page = browser.new_page(viewport=PHONE)
        page.goto(page_file.as_uri())
        room = page.locator(f"#t{board_id}")
        marked = room.locator("td.call:has(sup.note)")
        assert [cell.inner_text().split("\n")[0] for cell in marked.all()] == ["3\u2663a"]
        assert room.locator("dl.notes").inner_text().split("\n") == [
            "a 3\u2663 by West",
            "jacoby 2N",
        ]
        summary = room.locator("details.commentary summary")
        assert summary.inner_text() == f"Commentary in the record ({len(chat)})"
        summary.click()
        shown = room.locator("details.commentary p").all_inner_texts()
        assert shown == [" ".join(line.split()) for line in chat]  # as HTML lays out text
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        page.screenshot(path=str(_shot("phone-deal-commentary.png")), full_page=True)
        browser.close()


def _shot(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name


def test_the_scorecard_lists_every_session_of_a_player(sample_site, chromium):
    from playwright.sync_api import sync_playwright

    rows = _query(
        sample_site,
        "select player_a, session, percent, place, pairs from pair_scorecards order by player_a",
    )
    player, *_ = rows[0]
    mine = [row for row in rows if row[0] == player] + _query(
        sample_site,
        "select player_b, session, percent, place, pairs from pair_scorecards where player_b = ?",
        player,
    )
    page_file = next(
        path
        for path in (sample_site / "report" / "players").glob("*.html")
        if re.search(rf"<h1>{re.escape(player)}</h1>", path.read_text())
    )
    with sync_playwright() as playwright:
        browser = _browser(playwright, chromium)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(page_file.as_uri())
        card = page.locator("table.paged").first
        lines = [row.inner_text() for row in card.locator("tbody tr").all()]
        assert len(lines) == len(mine)
        dates = [line.split("\t")[0] for line in lines]
        assert dates == sorted(dates, reverse=True)  # newest first
        for _, session, percent, place, pairs in mine:
            line = next(line for line in lines if line.startswith(session))
            assert f"{percent:.1f}" in line and f"{place} of {pairs}" in line
        page.screenshot(path=str(_shot("player-scorecard-desktop.png")), full_page=True)
        browser.close()


def test_a_long_table_is_paged_and_loses_no_row(sample_site, chromium, tmp_path):
    """The site's script on a table of 45 rows (a regular's scorecard): 20 a page, every row
    on some page, and all of them in the page's HTML (nothing cut without the script)."""
    from playwright.sync_api import sync_playwright

    script = (sample_site / "report" / "site.js").read_text()
    rows = "".join(f"<tr><td>{day}</td></tr>" for day in range(45))
    page_file = tmp_path / "paged.html"
    page_file.write_text(
        f'<table class="paged" data-page-rows="20"><tbody>{rows}</tbody></table>'
        f"<script>{script}</script>"
    )
    with sync_playwright() as playwright:
        browser = _browser(playwright, chromium)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(page_file.as_uri())
        table = page.locator("table.paged")
        pager = page.locator("p.pager")
        assert table.locator("tbody tr:visible").count() == 20
        assert "rows 1-20 of 45" in pager.inner_text()
        shown = [row.inner_text() for row in table.locator("tbody tr:visible").all()]
        while pager.locator("button").last.is_enabled():
            pager.locator("button").last.click()
            shown += [row.inner_text() for row in table.locator("tbody tr:visible").all()]
        assert shown == [str(day) for day in range(45)]
        assert "rows 41-45 of 45" in pager.inner_text()
        browser.close()


def test_no_page_is_wider_than_a_phone_nor_names_an_absolute_path(sample_site, chromium):
    from playwright.sync_api import sync_playwright

    site = sample_site / "report"
    pages = [site / "index.html", site / "methods.html"]
    players = sorted((site / "players").glob("*.html"))
    boards = sorted((site / "boards").glob("*.html"))
    # every kind of page: a team board with auction and play, a pair event's traveller
    team = next(path for path in boards if "Open room" in path.read_text())
    traveller = next(path for path in boards if "Traveller:" in path.read_text())
    pages += [players[0], team, traveller]
    for path in site.rglob("*.html"):
        text = path.read_text()
        for absolute in (str(TESTS.parent), str(sample_site), str(Path.home())):
            assert absolute not in text, (path, absolute)
    with sync_playwright() as playwright:
        browser = _browser(playwright, chromium)
        page = browser.new_page(viewport=PHONE)
        for path in pages:
            page.goto(path.as_uri())
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (path.name, width)
            page.screenshot(path=str(_shot(f"phone-{path.parent.name}-{path.name}.png")))
        # East's hand is on the screen, not off its right edge
        page.goto(team.as_uri())
        east = page.locator(".hand.east").bounding_box()
        assert east is not None and east["x"] + east["width"] <= PHONE["width"]
        browser.close()


def test_wrapping_long_strings_changes_no_page_of_the_sample(sample_site, chromium):
    """The rule that wraps an unbroken string anywhere (site.css, review 4's defect 14) acts on
    hostile strings only: every kind of page of the sample lays out to the same size with it
    and without it, on a desktop and on a phone - no word of a real name or table is broken."""
    from playwright.sync_api import sync_playwright

    site = sample_site / "report"
    boards = sorted((site / "boards").glob("*.html"))
    pages = [site / "index.html", site / "methods.html", site / "events.html"]
    pages += sorted((site / "players").glob("*.html"))[:3]
    pages += [next(path for path in boards if "Open room" in path.read_text())]
    pages += [next(path for path in boards if "Traveller:" in path.read_text())]
    size = "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    without = "* { overflow-wrap: normal !important; }"
    with sync_playwright() as playwright:
        browser = _browser(playwright, chromium)
        for viewport in ({"width": 1280, "height": 900}, PHONE):
            page = browser.new_page(viewport=viewport)
            for path in pages:
                if not path.exists():
                    continue
                page.goto(path.as_uri())
                shown = page.evaluate(size)
                page.add_style_tag(content=without)
                assert page.evaluate(size) == shown, (path.name, viewport)
            page.close()
        browser.close()


def test_best_boards_are_the_players_own_contracts_and_costly_ones_are_shown(sample_site):
    """Where play was not recorded (club recaps): the costliest boards are the play and the
    contract against double dummy; the best are contracts the player's side declared worth
    more than the other tables' at double dummy, recomputed here from table_evidence."""
    runner = CliRunner()
    output = runner.invoke(main, ["show", "Karl Mauzey", "--out", str(sample_site)]).output
    shown = " ".join(output.split())  # lines wrapped for the terminal, joined
    costly = shown[shown.index("Costliest boards") : shown.index("Best boards")]
    best = shown[shown.index("Best boards") : shown.index("Partners:")]
    assert "lost in the play against double dummy" in costly
    # the recap of 24 July 2017 ranks Mauzey-Sexton first of its North-South pairs (63.99%
    # over the tables it counts): a Mitchell's places are its directions', as the club's
    assert "with David Sexton: 63.8% over 24 boards, 1 of 8 N-S" in shown
    entries = re.findall(r"(\w+ \d+, \d+), board (\d+): \S+ by ([NESW]); the contract, (\d+)", best)
    assert entries
    evidence = _query(
        sample_site,
        "select b.event, b.board_no, b.deal_hash, e.ns_dd_score, e.declarer, b.north, b.south "
        "from boards b join table_evidence e on e.board_id = b.id",
    )
    for day, board_no, declarer, value in entries:
        mine = [row for row in evidence if day in row[0] and str(row[1]) == board_no]
        ours = next(row for row in mine if "Karl Mauzey" in row[5:7] or declarer in "EW")
        assert ("Karl Mauzey" in ours[5:7]) == (declarer in "NS")  # his side declared
        others = [row[3] for row in evidence if row[0] == ours[0] and row[2] == ours[2]]
        others.remove(ours[3])
        sign = 1 if declarer in "NS" else -1
        assert imps(round(sign * (ours[3] - sum(others) / len(others)))) == int(value)


def test_the_held_out_team_matches_say_how_each_rival_read_them(sample_site):
    """The methods page's team-match table names each rating players know in its form for
    team boards (a rival's name alone would read as its pairs form), beside the
    walk-forward's figures as stored."""
    page = (sample_site / "report" / "methods.html").read_text()
    table = page[page.index("Held-out team matches") :]
    table = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table)))
    stored = dict(_query(sample_site, "select method, matches from match_validation"))
    assert {"pair_elo", "ngs", "openskill", "glicko2", "ttt"} <= set(stored)
    for name, what in (
        ("pair_elo", "the Common Game's partnership Elo; each team board its two tables"),
        ("glicko2", "Glicko-2, a pair its players' mean, each match one game"),
        ("ttt", "TrueSkill Through Time, each line-up of a match a game of two teams"),
    ):
        assert f" {name} {what}" in table
    # each description in a column wide enough to read among the figures (site.css td.prose)
    raw = page[page.index("Held-out team matches") :]
    assert '<td class="prose">TrueSkill Through Time, each line-up of a match' in raw
    assert "td.prose { min-width: 16em" in (sample_site / "report" / "site.css").read_text()
