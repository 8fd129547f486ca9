"""BridgeComposer club recap pages (ACBL matchpoint pair games) through ingest, clean and rate."""

import gzip
import re
import sqlite3
from collections import Counter
from html import escape
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.cleaning.ingest.recap import read_recap
from bridgerank.cleaning.ingest.recap_entry import game_population, offered_strata, pair_entry
from bridgerank.cleaning.ingest.sources import scan, sniff
from bridgerank.cleaning.ingest.stage import ingest_file
from bridgerank.core.errors import SourceError
from bridgerank.core.settings import default_settings
from bridgerank.pipeline.cli import main
from bridgerank.ratings.games import ns_score
from tests.paths import TEST_DATA

CLEAN = default_settings().clean
RECAPS = TEST_DATA / "acbl"
JULY = RECAPS / "recap_e_20170724.html.gz"  # two artificial scores, two "not played"
JUNE = RECAPS / "recap_f_20170605.html.gz"  # a fouled board: groups F and G


def _records(path: Path):
    return list(read_recap(gzip.decompress(path.read_bytes()).decode("utf-8"), path))


def _result_rows(path: Path) -> int:
    """Result rows counted straight from the HTML, independently of the reader."""
    html = gzip.decompress(path.read_bytes()).decode("utf-8")
    return len(re.findall(r"<tr class=bcst(?:shade)?[ >]", html))


def test_sniff_reads_gzip_and_recognises_recaps():
    head = scan(JULY).head  # the first 64 KiB of the decompressed page, as ingest sniffs
    assert sniff(head) == "recap"
    assert sniff(b"\xef\xbb\xbf" + head) == "recap"  # a byte-order mark first
    assert sniff(b"<!DOCTYPE html><html><body>no bridge here</body></html>") is None


def test_every_result_row_is_a_record_with_the_pair_lists_names():
    records = _records(JULY)
    assert len(records) == _result_rows(JULY) == 192
    first = records[0].values
    # Board 1, first row of the page: E1 Mauzey-Sexton v E1 Boultwood-Carter, 2D by E down 2.
    assert first["board"] == "Board 1" and first["dealer"] == "N" and first["vulnerable"] == "None"
    assert (first["northname"], first["southname"]) == ("Karl Mauzey", "David Sexton")
    assert (first["eastname"], first["westname"]) == ("Joyce Boultwood", "George Carter")
    assert (first["contract"], first["declarer"], first["result"]) == ("2D", "E", "6")
    assert first["score"] == "NS 100" and first["lead_card"] == "CK"
    assert first["deal"] == (
        "N:A76.76.J8732.A62 QJ4.J54.AKT6.T97 532.Q32.Q9.KQJ85 KT98.AKT98.54.43"
    )
    assert first["event"] == "MONDAY STRAT 299'ER PAIRS Monday Eve Session July 24, 2017"
    assert first["date"] == "2017.07.24" and first["scoring"] == "MP"
    assert first["stage"] == "Section E" and first["points"] == "7.00 0.00"
    assert all(len(r.values["northname"].split()) >= 2 for r in records)


@pytest.mark.parametrize("path", [JULY, JUNE], ids=["july", "june"])
def test_cleaned_scores_equal_the_recaps_scores(path):
    """Deal, vulnerability, declarer and tricks read right: the score we compute is theirs."""
    compared = 0
    for record in _records(path):
        outcome = clean_record(record.values, settings=CLEAN)
        raw = record.values["score"]
        if outcome.board is None or not re.fullmatch(r"(NS|EW) -?\d+", raw):
            continue
        side, value = raw.split()
        expected = int(value) if side == "NS" else -int(value)
        assert ns_score(outcome.board) == expected, record.values
        compared += 1
    assert compared >= _result_rows(path) - 12


def test_fouled_boards_and_artificial_scores_are_excluded_with_a_reason():
    june = Counter(
        clean_record(r.values, settings=CLEAN).issues[0][1]
        for r in _records(JUNE)
        if clean_record(r.values, settings=CLEAN).board is None
    )
    html = gzip.decompress(JUNE.read_bytes()).decode("utf-8")
    assert june == {"fouled_board": len(re.findall(r"\d[FG]</td>", html))} == {"fouled_board": 10}
    july = [clean_record(r.values, settings=CLEAN) for r in _records(JULY)]
    reasons = Counter(o.issues[0][1] for o in july if o.board is None)
    assert reasons == {"not_played": 2}
    details = sorted(o.issues[0][2] for o in july if o.board is None)
    assert details == ["contract 'NP'", "score 'Ave-'"]


def test_a_recompressed_copy_is_already_stored_and_a_damaged_gzip_is_reported(engine, tmp_path):
    assert ingest_file(engine, JULY) == ("ingested", 192)
    copy = tmp_path / "copy.html.gz"
    copy.write_bytes(gzip.compress(gzip.decompress(JULY.read_bytes()), mtime=1))
    assert copy.read_bytes() != JULY.read_bytes()
    assert ingest_file(engine, copy) == ("already stored", 0)
    broken = tmp_path / "broken.html.gz"
    broken.write_bytes(JULY.read_bytes()[:500])
    with pytest.raises(SourceError, match="damaged gzip"):
        ingest_file(engine, broken)


def test_recaps_are_rated_as_matchpoint_pair_rankings(tmp_path):
    runner = CliRunner()
    result = runner.invoke(
        main, ["run", str(RECAPS), "--to", "match", "--out", str(tmp_path), "--verbose"]
    )
    assert result.exit_code == 0, result.output
    assert f"{_result_rows(JULY) + _result_rows(JUNE)} records from 2 files" in result.output
    assert "fouled_board" in result.output and "not_played" in result.output
    result = runner.invoke(main, ["rate", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        events = dict(db.execute("select event, count(*) from boards group by event"))
        rated = dict(db.execute("select method, count(*) from ratings group by method"))
        validated = {
            m
            for (m,) in db.execute(
                "select method from rating_validation where task = 'pair rankings'"
            )
        }
        mauzey = db.execute(
            "select games from ratings where method = 'dlo' and player = 'Karl Mauzey'"
        ).fetchone()
    assert len(events) == 2 and sum(events.values()) == 192 + 240 - 10 - 2
    assert set(rated) == {"elo", "dlo"} and {"elo", "dlo", "win_rate"} <= validated
    assert mauzey is not None and mauzey[0] > 0
    assert runner.invoke(main, ["report", "--out", str(tmp_path)]).exit_code == 0
    html = (tmp_path / "report" / "methods.html").read_text()
    ratings = html[html.index("Ratings from results") : html.index("The skill-o-meter")]
    assert "0 team boards played in both rooms" in ratings and "Elo points" in ratings
    assert "log-strengths" not in ratings and "HBT ratings with bootstrap" not in ratings
    # the rankings are sorted by the ranking-probability Elo, best first
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        best = db.execute(
            "select player from ratings where method = 'dlo' order by rating desc limit 1"
        ).fetchone()[0]
    table = ratings[ratings.index("Rankings side by side") :]
    others = [name for name in ("Karl Mauzey", "Jesse Levy") if name != best]
    assert table.index(escape(best)) < min(table.index(name) for name in others)


@pytest.mark.slow
def test_every_recap_of_the_acbl_folder(tmp_path, shared_data):
    """All 220 recap files: the copies under quicktricks/ add nothing; every played table's
    score as we compute it from deal, contract, declarer and tricks is the recap's own, except
    the few the club entered inconsistently, which carry a score_mismatch note."""
    folder = shared_data("acbl")
    result = CliRunner().invoke(main, ["run", str(folder), "--to", "clean", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "from 220 files (111 already stored, 109 ingested)" in result.output
    agree = disagree = 0
    for path in sorted(folder.glob("results/[0-9]*/*.html.gz")):
        for record in _records(path):
            outcome = clean_record(record.values, settings=CLEAN)
            recorded = record.values["score"]
            if (
                outcome.board is None
                or outcome.board["contract"] in ("", "P")
                or not re.fullmatch(r"(NS|EW) -?\d+", recorded)
            ):
                continue
            side, value = recorded.split()
            same = ns_score(outcome.board) == (int(value) if side == "NS" else -int(value))
            noted = any(code == "score_mismatch" for _, code, _ in outcome.issues)
            assert same != noted, (path.name, record.line, recorded, outcome.issues)
            agree, disagree = agree + same, disagree + (not same)
    assert agree > 33_000 and disagree == 28


HOWELL_PAGE = """<!DOCTYPE html><html><head>
<meta name="Generator" content="BridgeComposer Version 5.60"></head><body>
<pre id=bcrecap>
TUESDAY AFTERNOON PAIRS Tuesday Aft Session March 7, 2017
Scores after  3 rounds  Average:    6.0      Section  A
Pair    Pct   Score  Rank   MPs
  1   60.00   7.50   1    0.50(A)  Ann O'Neil - Bo Lee
  2   50.00   6.00   2             Cy Young - Di Ross
  3   40.00   4.50                 Ed Wu - Flo Kay
</pre></span>
<span class=bclabelboard>Board 5</span><span class=bclabeldealer>North Deals</span>
<span class=bclabelvul>N-S Vul</span>
<table class=bchd><tr class=bchd1><td class=bchd><table class=bchand>
<tr><td class=bcpip><span class=bcspades>&spades;</span></td>
<td class=bchand>A K Q J 10 9 8</td></tr>
<tr><td class=bcpip><span class=bchearts>&hearts;</span></td><td class=bchand>A K Q</td></tr>
<tr><td class=bcpip><span class=bcdiams>&diams;</span></td><td class=bchand>A K Q</td></tr>
<tr><td class=bcpip><span class=bcclubs>&clubs;</span></td><td class=bchand>&mdash;</td></tr>
</table></td></tr>
<tr class=bchd2><td class=bchd2a><table class=bchand>
<tr><td class=bcpip><span class=bcspades>&spades;</span></td><td class=bchand>7 6 5 4</td></tr>
<tr><td class=bcpip><span class=bchearts>&hearts;</span></td><td class=bchand>J 10 9</td></tr>
<tr><td class=bcpip><span class=bcdiams>&diams;</span></td><td class=bchand>J 10 9</td></tr>
<tr><td class=bcpip><span class=bcclubs>&clubs;</span></td><td class=bchand>A K Q</td></tr>
</table></td><td class=bchd2c><table class=bchandhl>
<tr><td class=bcpip><span class=bcspades>&spades;</span></td><td class=bchand>3 2</td></tr>
<tr><td class=bcpip><span class=bchearts>&hearts;</span></td><td class=bchand>8 7 6 5</td></tr>
<tr><td class=bcpip><span class=bcdiams>&diams;</span></td><td class=bchand>8 7 6</td></tr>
<tr><td class=bcpip><span class=bcclubs>&clubs;</span></td><td class=bchand>J 10 9 2</td></tr>
</table></td></tr>
<tr class=bchd3><td class=bchd3b><table class=bchand>
<tr><td class=bcpip><span class=bcspades>&spades;</span></td><td class=bchand>&mdash;</td></tr>
<tr><td class=bcpip><span class=bchearts>&hearts;</span></td><td class=bchand>4 3 2</td></tr>
<tr><td class=bcpip><span class=bcdiams>&diams;</span></td><td class=bchand>5 4 3 2</td></tr>
<tr><td class=bcpip><span class=bcclubs>&clubs;</span></td><td class=bchand>8 7 6 5 4 3</td></tr>
</table></td></tr></table>
<table class=bcst><tbody class=bcst>
<tr class=bcst><td class=bcstcontract>7&thinsp;NT</td><td class=bcstdeclarer>N</span></td>
<td class=bcstmade>7</td><td class=bcstlead><span class=bcclubs>&clubs;</span>&thinsp;A</td>
<td class=bcstscorens>2220</td><td class=bcstscoreew></td><td class=bcstmpns>2.00</td>
<td class=bcstmpew>0.00</td><td class=bcstpairns>1-O'Neil-Lee</td>
<td class=bcstpairew>2-Young-Ross</td></tr>
<tr class=bcstshade><td class=bcstcontract>Pass</td><td class=bcstdeclarer></td>
<td class=bcstmade></td><td class=bcstlead></td><td class=bcstscorens>Pass</td>
<td class=bcstscoreew></td><td class=bcstmpns>0.00</td><td class=bcstmpew>2.00</td>
<td class=bcstpairns>3-Wu-Kay</td><td class=bcstpairew>1-O'Neil-Lee</td></tr>
</tbody></table></body></html>"""


def test_a_howell_page_with_one_section_stray_tags_and_voids():
    """No direction in the pair list (every pair plays both ways), no section letter in the
    pair cells, a highlighted hand, voids, a stray end tag, and a passed-out board."""
    records = list(read_recap(HOWELL_PAGE))
    assert [r.values["contract"] for r in records] == ["7NT", "Pass"]
    grand, passed = records[0].values, records[1].values
    assert grand["deal"] == (
        "N:AKQJT98.AKQ.AKQ. 32.8765.876.JT92 .432.5432.876543 7654.JT9.JT9.AKQ"
    )
    assert (grand["northname"], grand["southname"]) == ("Ann O'Neil", "Bo Lee")
    assert (passed["eastname"], passed["westname"]) == ("Ann O'Neil", "Bo Lee")
    assert grand["date"] == "2017.03.07" and grand["scoring"] == "MP"
    assert grand["vulnerable"] == "NS" and grand["result"] == "13"
    assert ns_score(clean_record(grand, settings=CLEAN).board) == 2220
    assert ns_score(clean_record(passed, settings=CLEAN).board) == 0


# a club's "Board a Mess Team Game": ten teams
BAM = TEST_DATA / "acbl_teams" / "recap_b_20170925.html.gz"


def test_a_board_a_match_team_game_is_read_as_team_matches_from_its_rosters():
    records = _records(BAM)
    assert len(records) == _result_rows(BAM) == 240
    assert {record.values["scoring"] for record in records} == {"BAM"}
    first = records[0].values  # "1-Lee-Friday" against "10-Rogers-Rogers"
    assert [first[f"{seat}name"] for seat in ("north", "south", "east", "west")] == [
        "Sharon Lee",
        "Christopher Friday",
        "Richard Rogers",
        "Stephanie Rogers",
    ]
    assert (first["room"], first["home_team"], first["visit_team"]) == (
        "open",
        "Section B team 1",
        "Section B team 10",
    )
    # no roster line is a "pair": no name holds another's dash
    names = {record.values[f"{seat}name"] for record in records for seat in ("north", "east")}
    assert not any(" - " in name for name in names)
    # a table of two teams that swapped seats has its other room: the board is one team game
    # (222 tables); a round of three teams in a ring (a team's pairs met two others: 18
    # tables) is no match of two, so those tables pair with none and are rated by no one
    rooms = Counter(
        (r.values["board"], r.values["home_team"], r.values["visit_team"], r.values["room"])
        for r in records
    )
    paired = [
        r
        for r in records
        if all(
            rooms[(r.values["board"], r.values["home_team"], r.values["visit_team"], room)] == 1
            for room in ("open", "closed")
        )
    ]
    assert len(paired) == 222


def test_a_board_a_match_team_game_is_rated_as_teams_never_as_pairs(tmp_path):
    result = CliRunner().invoke(
        main, ["run", str(BAM), str(JULY), "--to", "rate", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "bridgerank.db") as conn:
        team_players = {
            name
            for (name,) in conn.execute(
                "select distinct north from boards where scoring = 'BAM' union "
                "select distinct east from boards where scoring = 'BAM'"
            )
        }
        headline = {name for (name,) in conn.execute("select player from headline_ratings")}
        rated = {name for (name,) in conn.execute("select distinct player from ratings")}
        # the multiplayer Elos rank pairs on a deal: the July pairs only
        ranked = {
            name for (name,) in conn.execute("select player from ratings where method = 'dlo'")
        }
        (team_games,) = conn.execute("select team_games from rate_inputs").fetchone()
    assert "Sharon Lee" in team_players and not any(" - " in name for name in rated)
    # the pair rating has none of the team game's tables: its players are the July pairs'
    july_players = {name for record in _records(JULY) for name in _seat_names(record)}
    assert headline and headline <= july_players
    assert ranked and ranked <= july_players
    # the 111 pairs of rooms of two teams that swapped seats, less the 4 whose one room was
    # not played (excluded by the cleaning): a team game each
    assert team_games == 107
    assert "team boards" in result.output and "0 team boards" not in result.output


def _seat_names(record) -> set[str]:
    return {record.values[f"{seat}name"] for seat in ("north", "south", "east", "west")}


def test_each_pair_s_stratum_and_the_game_s_population_are_read_as_its_entry():
    """The pair list's letter beside each pair (``NE``: over the game's limit) and the
    title's population, as written in the July page's lists (North-South pair 8 is ``A NE``,
    East-West pair 4 a C pair); cleaning keeps them with the board."""
    records = _records(JULY)
    entries = {}
    for record in records:
        ns_pair, ew_pair = record.values["pairs"].split()
        entries[("NS", ns_pair)] = record.values["ns_entry"]
        entries[("EW", ew_pair)] = record.values["ew_entry"]
    assert entries[("NS", "E1")] == "299:B"
    assert entries[("NS", "E3")] == "299:A"
    assert entries[("NS", "E4")] == "299:C"
    assert entries[("NS", "E8")] == "299:NE"
    assert entries[("EW", "E4")] == "299:C"
    assert entries[("EW", "E3")] == "299:A"
    board = clean_record(records[0].values, records[0].play_layout, settings=CLEAN).board
    assert board is not None
    assert (board["ns_entry"], board["ew_entry"]) == (
        records[0].values["ns_entry"],
        records[0].values["ew_entry"],
    )


@pytest.mark.parametrize(
    ("title", "population"),
    [
        ("MONDAY STRAT 299'ER PAIRS Monday Eve Session July 24, 2017", "299"),
        ("Quicktricks 299 Christmas Monday Eve Session December 18, 2017", "299"),
        ("0-750 Pairs Monday Eve Session May 1, 2017", "750"),
        ("NEWCOMER PAIRS Monday Eve Session January 2, 2017", "newcomer"),
        ("MONDAY STRATIFIED PAIRS Monday Eve Session January 2, 2017", "open"),
    ],
)
def test_a_game_s_population_is_read_from_its_title_never_from_its_date(title, population):
    assert game_population(title) == population


def test_a_pair_line_s_entry_skips_qualifying_marks_and_is_none_without_strata():
    offered = offered_strata("                      A   B   C       A     B     C")
    assert offered == {"A", "B", "C"}
    line = " 12   58.49  182.50   Q   Q       B   2     1           4     1   3.01R/B  Robert Balas"
    assert pair_entry(line, "open", offered) == "open:B"
    assert pair_entry("  2   49.26   82.75   -1.75  A  NE     Leonard Brill", "299", offered) == (
        "299:NE"
    )
    # a list that offers no strata: a name's initial is no letter
    assert offered_strata("Pair    Pct   Score  Adjust      Section Rank      MPs") == set()
    line = "  3   60.42   14.50   1    0.20  J Michael Held"
    assert pair_entry(line, "open", frozenset()) is None
