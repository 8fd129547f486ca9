"""The report site from a small real run: its pages in headless Chromium (no console error,
no request leaving the folder, hostile names inert), screenshots for a developer to look at,
the CSV exports' spreadsheet-formula neutralisation, and reruns."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main
from bridgerank.pipeline.report.shown_settings import shown_setting
from tests.paths import TESTS

pytestmark = pytest.mark.dds  # every test reads one run through the report

# Names a hand record could carry: markup, an event handler, template syntax, a formula
# (no double quotes: PBN's tag values end at one).
HOSTILE = {
    "Boris Schapiro": "<script>window.__owned=1</script>",
    "Terence Reese": "<img src=x onerror=window.__owned=2>",
    "Adam Meredith": "{{ 7*7 }} {% raw %}",
    "Kenneth Konstam": "=HYPERLINK(A1)",
}
# A board's commentary: markup in it, and a diagram wider than a phone.
COMMENTARY = (
    "{<img src=x onerror=window.__owned=3> Board 1 as the bulletin drew it:\n"
    + "    \\S A K 7 5"
    + " " * 60
    + "\\H 5 4 (far to the right)\n"
    + "\\S Q 10 9 8 3"
    + " " * 20
    + "\\S 6 4 2\n}"
)
# One unbroken string of any length, as a name and as a word of a call's note (review 4's
# defect 14: the methods page grew 54,000 px wide, a board page 1.7 M px).
LONG_NAME = "Mathe" * 1000
LONG_NOTE = "alert" * 24_000
# Where the screenshots go (a developer looks at them; CI keeps them with the build).
SCREENSHOTS = Path(os.environ.get("BRIDGERANK_SCREENSHOTS", "build/screenshots"))


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory, test_data):
    folder = tmp_path_factory.mktemp("site")
    text = (test_data / "bermuda1955_head.pbn").read_text()
    for name, hostile in HOSTILE.items():
        text = text.replace(name, hostile)
    # a typo the 1955 files make: one person under two spellings (both beside Bill Rosen)
    text = text.replace('[South "Milton Ellenby"]', '[South "Milton Elleby"]', 1)
    # commentary as bulletins write it, a wide hand diagram in it, and markup
    text = text.replace("Pass\n[Play", "Pass\n" + COMMENTARY + "\n[Play", 1)
    text = text.replace("Lew Mathe", LONG_NAME)
    text = text.replace("1D      1H      X ", "1D =1=  1H      X ", 1)
    text = text.replace(
        "3D      Pass    Pass    Pass\n", f'3D Pass Pass Pass\n[Note "1:{LONG_NOTE}"]\n', 1
    )
    (folder / "slice.pbn").write_text(text)
    result = CliRunner().invoke(main, ["run", str(folder / "slice.pbn"), "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder, result.output


def test_the_site_has_a_front_page_methods_players_and_boards(hostile_run):
    folder, output = hostile_run
    site = folder / "report"
    lines = output.splitlines()
    # the closing summary fits 24 lines of 80 columns (a path too long to wrap aside) and
    # ends with how to open the report, the site's path named once
    assert len(lines) <= 24, output
    assert all(len(line) <= 80 or " " not in line.strip() for line in lines), output
    opening = f"open the report in a browser: {site / 'index.html'}"
    assert " ".join(output.split()).endswith(opening) and output.count(str(site)) == 1
    assert "tables as CSV in" in output
    methods = (site / "methods.html").read_text()
    for title in (
        "Run settings and timings",
        "Data funnel",
        "Boards excluded (thesis Table 5)",
        "Name matching to the WBF lists",
        "Players: the 33 counters and 28 rates",
        "Regression of ranking points on mistake rates",
    ):
        assert title in methods
    assert "12 records read" in methods.replace(",", "")
    front = (site / "index.html").read_text()
    # team boards only: the front page says why there is no headline, and what to run
    assert "Bradley-Terry" in front and "acbl/results" in front
    players = sorted((site / "players").glob("*.html"))
    boards = sorted((site / "boards").glob("*.html"))
    # one page per deal: both rooms of the six deals side by side
    assert len(players) == 8 and len(boards) == 6
    # one page for the two spellings of Milton Ellenby, each with its boards and event
    (ellenby,) = [page.read_text() for page in players if "<h1>Milton " in page.read_text()]
    assert "Names in the records" in ellenby
    assert '<td>Milton Elleby</td><td class="num">1</td>' in ellenby
    assert "<td>Milton Ellenby</td>" in ellenby and "Bermuda Bowl 1955 - Seg 1" in ellenby
    meredith = next(page for page in players if "Clifford Bishop" in page.read_text())
    assert "Opening leads" in meredith.read_text() and "the field: 1 in" in meredith.read_text()
    # no name reaches a file name
    assert all(len(page.stem) == 12 for page in players)
    # every auction read call by call, the costly calls explained under it
    pages = [page.read_text() for page in boards]
    assert all("Under each call: N-S's score" in page for page in pages)
    assert any("IMPs) given away." in page and "(call " in page for page in pages)
    # the file each deal came from, as the user named it: never the machine's folders
    assert all("from <code>slice.pbn</code>" in page for page in pages)
    assert not any(str(folder) in page for page in pages)


def test_csv_exports_neutralise_formulas_and_keep_integers(hostile_run):
    folder, _ = hostile_run
    with open(folder / "csv" / "player_stats.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    names = {row["player"] for row in rows}
    assert "'" + HOSTILE["Kenneth Konstam"] in names
    assert not any(name.startswith(("=", "+", "-", "@")) for name in names)
    assert all(row["boards"].isdigit() for row in rows)
    with open(folder / "csv" / "card_analysis.csv", newline="") as handle:
        cards = list(csv.DictReader(handle))
    assert cards and {"source_file", "event", "board_no"} <= set(cards[0])
    assert all(row["cost_tricks"].isdigit() for row in cards)
    # the IMPs the mistaken calls gave away add up to their players' weighted counters
    with open(folder / "csv" / "call_analysis.csv", newline="") as handle:
        calls = list(csv.DictReader(handle))
    with open(folder / "csv" / "player_stats.csv", newline="") as handle:
        players = list(csv.DictReader(handle))
    assert calls and {"source_file", "event", "board_no", "par_before", "cost_imps"} <= set(
        calls[0]
    )
    red = [row for row in calls if row["mistake_types"]]
    assert red and all(int(row["cost_imps"]) >= 2 for row in red)
    weighted = [
        column
        for column in players[0]
        if column.startswith("weighted_")
        and (column.removeprefix("weighted_") in {row["mistake_types"] for row in calls})
    ]
    assert sum(int(row["cost_imps"]) for row in red) == sum(
        float(player[column] or 0) for player in players for column in weighted
    )


def test_stale_exports_are_removed_and_a_missing_site_is_rewritten(hostile_run):
    folder, _ = hostile_run
    runner = CliRunner()
    status = runner.invoke(main, ["status", "--out", str(folder)])
    assert status.exit_code == 0, status.output
    assert runner.invoke(main, ["run", "--dry-run", "--out", str(folder)]).output.endswith(
        "0 of 7 stages would run\n"
    )
    stale = folder / "csv" / "table_from_an_old_version.csv"
    stale.write_text("x\n1\n")
    (folder / "report" / "index.html").unlink()
    status = runner.invoke(main, ["status", "--out", str(folder)])
    assert status.exit_code == 1 and "not up to date: report" in status.output
    plan = runner.invoke(main, ["run", "--dry-run", "--out", str(folder)]).output
    assert "would run  report   incomplete" in plan and "would skip dds      up to date" in plan
    again = runner.invoke(main, ["run", "--out", str(folder)])
    assert again.exit_code == 0, again.output
    assert (folder / "report" / "index.html").exists() and not stale.exists()
    once_more = CliRunner().invoke(main, ["run", "--out", str(folder)])
    assert "report: up to date" in once_more.output


def test_every_page_loads_in_chromium_with_names_inert(hostile_run, chromium):
    from playwright.sync_api import sync_playwright

    folder, _ = hostile_run
    site = (folder / "report").resolve()
    pages = [site / "index.html", site / "methods.html"]
    pages += sorted((site / "players").glob("*.html")) + sorted((site / "boards").glob("*.html"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    outside: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on(
            "console", lambda message: message.type == "error" and problems.append(message.text)
        )
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("dialog", lambda dialog: problems.append(f"dialog: {dialog.message}"))

        def guard(route):
            url = route.request.url
            if not url.startswith(site.as_uri() + "/"):
                outside.append(url)
                return route.abort()
            return route.continue_()

        page.route("**/*", guard)
        for path in pages:
            page.goto(path.as_uri())
            assert page.evaluate("window.__owned") is None, path
        page.goto((site / "index.html").as_uri())
        page.screenshot(path=str(SCREENSHOTS / "front.png"), full_page=True)
        # the hostile names show as the text they are
        body = page.inner_text("body")
        assert HOSTILE["Terence Reese"] in body and HOSTILE["Boris Schapiro"] in body
        page.fill("input.search", "bishop")
        assert page.locator("#ranking tbody tr:visible").count() == 1
        player = next(
            p for p in pages if "Clifford Bishop" in p.read_text() and "players" in p.parts
        )
        page.goto(player.as_uri())
        page.screenshot(path=str(SCREENSHOTS / "player.png"), full_page=True)
        board = next(
            p for p in pages if "boards" in p.parts and HOSTILE["Adam Meredith"] in p.read_text()
        )
        page.goto(board.as_uri())
        # template syntax in a name is printed, not evaluated
        assert HOSTILE["Adam Meredith"] in page.inner_text("body")
        page.screenshot(path=str(SCREENSHOTS / "board.png"), full_page=True)
        browser.close()
    assert problems == [] and outside == []


def test_a_long_unbroken_name_or_note_wraps_instead_of_widening_the_page(hostile_run, chromium):
    from playwright.sync_api import sync_playwright

    folder, _ = hostile_run
    site = (folder / "report").resolve()
    pages = [site / "methods.html", site / "index.html"]
    # written with a break opportunity (<wbr>) every 40 characters
    name_shown = "<wbr>".join(LONG_NAME[at : at + 40] for at in range(0, len(LONG_NAME), 40))
    note_shown = "<wbr>".join(LONG_NOTE[at : at + 40] for at in range(0, len(LONG_NOTE), 40))
    named = [path for path in (site / "players").glob("*.html") if name_shown in path.read_text()]
    noted = [path for path in (site / "boards").glob("*.html") if note_shown in path.read_text()]
    assert named and len(noted) == 1  # his own page and his partner's; the board noted
    pages += named + noted
    methods = pages[0].read_text()
    unmatched = methods[methods.index("Most played names not matched") :]
    assert name_shown in unmatched[: unmatched.index("</table>")]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        for width in (1200, 390):
            page = browser.new_page(viewport={"width": width, "height": 900})
            for path in pages:
                page.goto(path.as_uri())
                assert LONG_NAME in page.inner_text("body") or path in noted  # read whole
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, (path.name, width, wide)
            page.close()
        # the columns after the name stay on screen: its reason, nearest name, boards
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(pages[0].as_uri())
        row = page.locator("tr", has_text=LONG_NAME[:40]).first
        last = row.locator("td").last.bounding_box()
        assert last is not None and last["x"] + last["width"] <= 1200, last
        browser.close()


def test_show_prints_a_players_page_in_the_terminal(hostile_run):
    folder, _ = hostile_run
    runner = CliRunner()
    page = runner.invoke(main, ["show", "bishop", "--out", str(folder)])
    assert page.exit_code == 0, page.output
    lines = page.output.splitlines()
    assert lines[0] == "Clifford Bishop" and max(map(len, lines)) <= 100
    assert any(line.startswith("  Opening leads  ") and "the field: 1 in" in line for line in lines)
    assert "Partners: " in page.output
    # a hostile name is printed as it is (a terminal runs nothing)
    assert (
        HOSTILE["Boris Schapiro"]
        in runner.invoke(main, ["show", "script", "--out", str(folder)]).output
    )
    # a spelling the records use finds its person, whose page lists every spelling
    typo = runner.invoke(main, ["show", "Milton Elleby", "--out", str(folder)])
    assert typo.exit_code == 0 and typo.output.splitlines()[0].startswith("Milton Ellenby")
    assert "Names in the records: Milton Ellenby (" in typo.output
    assert "Milton Elleby (1)" in typo.output
    none = runner.invoke(main, ["show", "Nobody Here", "--out", str(folder)])
    assert none.exit_code == 1 and "0 players match 'Nobody Here'" in none.output


def test_the_site_reads_rows_as_pandas_to_dict_gives_them():
    """The site builds its rows column by column (faster than ``to_dict("records")`` on a
    million cards): the same values, a missing one None where pandas gives None."""
    import pandas as pd

    from bridgerank.pipeline.report.frames import rows

    frame = pd.DataFrame(
        {
            "count": pd.array([1, None], dtype="Int64"),
            "share": pd.array([1.5, None], dtype="Float64"),
            "flag": [True, None],
            "name": pd.Series(["Reese", None]),
            "sessions": pd.Series([pd.NA, 3], dtype=object),
            "rate": [1.0, float("nan")],
            "when": pd.to_datetime(["1955-01-01", None]),
        }
    )
    assert repr(rows(frame)) == repr(frame.to_dict("records"))


def test_deal_pages_written_by_two_processes_are_those_of_one(hostile_run, tmp_path, monkeypatch):
    """Two worker processes render the deal pages as they are arranged, a few pages a task:
    every page written, byte for byte the one process's."""
    from bridgerank.pipeline.report import board_pages, site
    from bridgerank.pipeline.report.site_data import site_data_from
    from bridgerank.pipeline.stages import open_store

    folder, _ = hostile_run
    engine = open_store(f"sqlite:///{folder / 'bridgerank.db'}", create=False)
    with engine.connect() as conn:
        data = site_data_from(conn)
    engine.dispose()
    monkeypatch.setattr(board_pages, "_CHUNK", 1)  # a page a task: the slice's six deals, six tasks
    one = site.write_site(tmp_path / "one", data, "<p>methods</p>", 1)
    two = site.write_site(tmp_path / "two", data, "<p>methods</p>", 2)
    assert (one.pages, one.bytes) == (two.pages, two.bytes)
    written = sorted(path.relative_to(tmp_path / "one") for path in (tmp_path / "one").rglob("*"))
    assert written == sorted(
        path.relative_to(tmp_path / "two") for path in (tmp_path / "two").rglob("*")
    )
    boards = [path for path in written if path.parts[0] == "boards" and path.suffix == ".html"]
    assert len(boards) == 6
    for path in boards:
        assert (tmp_path / "one" / path).read_bytes() == (tmp_path / "two" / path).read_bytes()


def test_the_records_commentary_is_text_and_fits_a_phone(hostile_run, chromium):
    """A comment of the record is shown as the text it is (its markup inert), its diagram in
    its columns and scrolled in its own box: no page wider than a phone (390 px) with the
    commentary open."""
    from playwright.sync_api import sync_playwright

    folder, _ = hostile_run
    board = next(
        path
        for path in (folder / "report" / "boards").glob("*.html")
        if "Commentary in the record" in path.read_text()
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(board.resolve().as_uri())
        page.locator("details.commentary summary").click()
        shown = page.locator("details.commentary").inner_text()
        assert "<img src=x onerror=window.__owned=3> Board 1 as the bulletin drew it:" in shown
        assert "\u2660 A K 7 5" + " " * 60 + "\u2665 5 4" in shown  # laid out as written
        assert page.evaluate("window.__owned") is None
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        page.screenshot(path=str(SCREENSHOTS / "board-commentary-phone.png"), full_page=True)
        browser.close()


def test_a_published_setting_names_no_place_on_the_machine(tmp_path):
    # the methods page echoes every setting: a file by its name, a URL without its password
    named = {
        str(tmp_path / "dd-store.sqlite"): "dd-store.sqlite",
        "~/bridge/overrides.csv": "overrides.csv",
        "~nosuchuser/overrides.csv": "overrides.csv",
        "../../home/ann/dd.sqlite": "dd.sqlite",
        "C:\\Users\\ann\\dd.sqlite": "dd.sqlite",
        "\\\\server\\share\\dd.sqlite": "dd.sqlite",
        f"sqlite:///{tmp_path}/store.db": "store.db",
        "sqlite:///file:/home/ann/dd.sqlite?mode=ro&uri=true": "dd.sqlite",
        "postgresql://ann:secret@db.example/bridge": "postgresql://ann:***@db.example/bridge",
        "postgresql://ann@db/bridge?password=secret": "postgresql://ann@db/bridge?...",
        "postgresql://ann:secret@db:port/bridge": "postgresql://ann:***@db:port/bridge",
    }
    for value, shown in named.items():
        assert shown_setting(value) == shown, value
    kept = ("", "off", "par", "embedded:wbf/names.csv", "mine/overrides.csv", "tcp://host:8786")
    for value in kept:
        assert shown_setting(value) == value
    # a section's lists of files and its other values
    section = {"wbf_lists": ("embedded:wbf/names.csv", "/home/ann/wbf.csv"), "retries": 1}
    shown = {"wbf_lists": ("embedded:wbf/names.csv", "wbf.csv"), "retries": 1}
    assert shown_setting(section) == shown


def test_nothing_published_names_a_place_on_the_machine_that_built_it(sample_run, session_dd_store):
    """The site and the CSVs of the sample carry no absolute path: not the output folder's,
    not the repository's (where the sample's files are read from), not the DD store's, not
    the home folder's - as ``grep -r`` of the built folders would find them."""
    import bridgerank.data

    places = {
        str(sample_run.resolve()),
        str(Path(bridgerank.data.__file__).resolve().parent.parent),  # the code's folder
        str(TESTS.parent.resolve()),  # the repository's
        str(session_dd_store.parent.resolve()),
        str(Path.home()),
    }
    # and as given, where a link (a /tmp that is a link) makes the resolved path another text
    places |= {str(sample_run), str(session_dd_store.parent)}
    found = []
    for top in ("report", "csv"):
        for path in (sample_run / top).rglob("*"):
            if path.is_file():
                text = path.read_bytes().decode(errors="replace")
                found += [(path.name, place) for place in places if place in text]
    assert not found
    # the CSVs name each board's file as the pages do, relative to the folder given
    with open(sample_run / "csv" / "boards.csv", newline="") as handle:
        files = {row["source_file"] for row in csv.DictReader(handle)}
    assert "sample/1955-Bermuda_Bowl.pbn" in files
