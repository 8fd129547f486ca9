"""Team events' matches forecast round by round (ratings/event_match_data.py, round_ridge.py
and event_matches.py): cross-IMPs and kinds by hand, the walk-forward reads nothing of a
round's or a later round's results, a simulated set of events where the strengths are known,
and a real slice of Valet's world championships through ``bridgerank run --to rate``."""

import re
import sqlite3

import numpy as np
import pytest
from click.testing import CliRunner

from bridgerank.bridge.scoring import imps
from bridgerank.pipeline.cli import main
from bridgerank.ratings.event_match_data import (
    cross_imps,
    event_kind,
    event_matches,
    round_number,
)
from bridgerank.ratings.event_matches import event_target, study_event_matches
from bridgerank.ratings.holdout import walk_forward
from bridgerank.ratings.round_ridge import HEADLINE_SETTINGS, PLAIN_SETTINGS, RoundRidge
from bridgerank.ratings.team_matches import match_ceiling

_SEATS = ("north", "east", "south", "west")


def test_cross_imps_of_three_tables_worked_by_hand():
    # 420 against 400 and -100: 1 IMP and 11 IMPs, mean 6; 400: -1 and 11; -100: -11, -11
    found = cross_imps(np.array([420.0, 400.0, -100.0, 50.0]), np.array([0, 0, 0, 1]))
    assert found.tolist() == [6.0, 5.0, -11.0, 0.0]  # a table alone in its field: 0


@pytest.mark.parametrize(
    "event, kind",
    [
        ("valet/2004-Istanbul-Olympiad", "championships"),
        ("2013-World/Men", "championships"),
        ("2022-Euro/Open", "championships"),  # the open series of the national teams
        ("2022-Salsomaggiore/Venice", "championships"),
        ("valet/2012-German-League", "leagues"),
        ("valet/2009-18 Bundesliga", "leagues"),
        ("valet/2019-German-Trophy", "leagues"),
        ("valet/2013-Polish-League", "leagues"),
        ("2018-Open/Open", "open teams"),
        ("2019-Open/2019-Open", "open teams"),
        ("valet/2023-Training", "open teams"),
    ],
)
def test_every_event_of_the_folder_has_its_kind(event, kind):
    assert event_kind(event) == kind


def test_a_round_is_numbered_by_its_name():
    assert [round_number(name) for name in ("round 7", "round 12", "", "final")] == [7, 12, 0, 0]


def _simulated(seed=0, years=4, teams=8, rounds=7, boards=8, spread=0.3):
    """Events of ``teams`` teams of four players (every team plays each round), one a year,
    most players back the next year; each player's strength known: his team's level and his
    own deviation, a third of its spread (a national team's players are alike). Each table's
    score is drawn around the deal's par, moved by its pairs' strengths: returns the rows of
    team_matches and match_boards, and the strengths."""
    rng = np.random.default_rng(seed)
    strength: dict[str, float] = {}
    matches, rows = [], []
    roster = [[f"p{t}_{k}" for k in range(4)] for t in range(teams)]
    levels = rng.normal(0, spread, teams)
    match_id = 0
    for year in range(2010, 2010 + years):
        if year > 2010:  # a newcomer or two replace players each year
            for team in roster:
                if rng.random() < 0.5:
                    team[rng.integers(4)] = f"n{year}_{rng.integers(10**6)}"
        for team, level in zip(roster, levels):
            for player in team:
                strength.setdefault(player, level + rng.normal(0, spread / 3))
        event = f"{year}-World/Men"
        for number in range(1, rounds + 1):
            deals = rng.normal(0, 300, boards + 1)  # each board's par: one deal at every table
            order = rng.permutation(teams)
            for a, b in zip(order[::2], order[1::2]):
                match_id += 1
                team_a, team_b = roster[a], roster[b]
                open_seats = (team_a[0], team_b[0], team_a[1], team_b[1])
                closed_seats = (team_b[2], team_a[2], team_b[3], team_a[3])
                margin = 0
                for board in range(1, boards + 1):
                    open_score = _score(deals[board], open_seats, strength, rng)
                    closed_score = _score(deals[board], closed_seats, strength, rng)
                    swing = imps(open_score - closed_score)
                    margin += swing
                    rows.append(
                        {
                            "match_id": match_id,
                            "board_no": board,
                            **{f"open_{s}": n for s, n in zip(_SEATS, open_seats)},
                            **{f"closed_{s}": n for s, n in zip(_SEATS, closed_seats)},
                            "open_score": open_score,
                            "closed_score": closed_score,
                            "imps": swing,
                        }
                    )
                matches.append(
                    {
                        "id": match_id,
                        "event": event,
                        "round": f"round {number}",
                        "year": year,
                        "boards": boards,
                        "margin": margin,
                    }
                )
    return matches, rows, strength


def _score(par, seats, strength, rng):
    """A table's North-South score: the deal's par moved by 60 points a unit of the pairs'
    strengths' difference, and the table's luck."""
    edge = strength[seats[0]] + strength[seats[2]] - strength[seats[1]] - strength[seats[3]]
    return int(round(par + 60 * edge + rng.normal(0, 250), -1))


def test_a_round_is_forecast_from_the_rounds_before_it_alone():
    matches, rows, _ = _simulated()
    data = event_matches(matches, rows)
    cut = data.boards.periods.index("2012 round 004")
    first = _forecasts(data)
    # every result from round 4 of 2012 on changed: the forecasts before it are the same,
    # the forecasts of that round too (its own line-ups are known before play, its results
    # are not)
    changed = event_matches(
        matches,
        [
            dict(row, imps=-row["imps"], open_score=-row["open_score"])
            if _period(matches, row) >= (2012, 4)
            else row
            for row in rows
        ],
    )
    again = _forecasts(changed)
    held = np.concatenate(
        [np.unique(data.boards.match[data.boards.period == p]) for p in np.unique(first.period)]
    )
    before = data.boards.period[np.searchsorted(data.boards.match, held)] <= cut
    for method in first.forecasts:
        assert np.allclose(first.predicted(method)[before], again.predicted(method)[before])
    assert not np.allclose(first.actual[before], -first.actual[before])  # a change to see
    assert not np.allclose(first.predicted("headline"), again.predicted("headline"))


def _period(matches, row):
    match = next(m for m in matches if m["id"] == row["match_id"])
    return match["year"], round_number(match["round"])


def _forecasts(data):
    methods = {
        "headline": RoundRidge(data, HEADLINE_SETTINGS),
        "headline_plain": RoundRidge(data, PLAIN_SETTINGS),
    }
    return walk_forward(data.boards, methods, event_target(data.event), test_share=0.8)


def test_on_simulated_events_the_forecast_finds_the_strengths():
    matches, rows, strength = _simulated(seed=1, years=5)
    data = event_matches(matches, rows)
    found = study_event_matches(data, bootstrap=200)
    by_method = {row["method"]: row for row in found.rows if row["subset"] == "all"}
    assert set(by_method) == {
        "headline",
        "headline_plain",
        "coin",
        "imp_average",
        "pair_elo",
        "ngs",
        "glicko2",
        "openskill",
        "elo",
        "elo_opponents",
        "ttt",
        "hindsight_form",  # the reference, beside the forecasts
    }
    headline = by_method["headline"]
    # held out: every match after the first year, four events resampled
    assert headline["matches"] == 4 * 7 * 4 and headline["events"] == 4
    # the known strengths' forecast of the same matches: what no rating can much pass
    boards = data.boards
    truth = np.array([strength[player] for player in boards.players])
    edge = truth[boards.seats[:, :4]].sum(axis=1) - truth[boards.seats[:, 4:]].sum(axis=1)
    held = np.array([name >= "2011" for name in boards.periods])[boards.period]
    known = np.bincount(boards.match[held], weights=edge[held])[np.unique(boards.match[held])]
    actual = np.bincount(boards.match[held], weights=boards.imps[held])[
        np.unique(boards.match[held])
    ]
    reference = np.corrcoef(known, actual)[0, 1]
    assert reference - 0.1 < headline["pearson"] <= reference + 0.02
    assert headline["rmse"] < by_method["headline_plain"]["rmse"]  # teammates alike: it helps
    assert headline["rmse"] < by_method["coin"]["rmse"] - 2 and by_method["coin"]["pearson"] is None
    assert 0.6 < headline["coverage_80"] < 0.95
    assert 0 < headline["split_half"] < 1 and headline["ceiling"] == pytest.approx(
        np.sqrt(headline["split_half"])
    )
    # the strengths fitted on every round but the last: close to the truth
    solver = RoundRidge(data, HEADLINE_SETTINGS[:1])
    solver(boards, boards.subset(boards.period == boards.period.max()))
    theta = solver.solutions[0][: len(boards.players)]
    assert np.corrcoef(theta, truth)[0, 1] > 0.7


def test_split_half_of_two_halves_worked_by_hand():
    matches, rows, _ = _simulated(seed=2, years=1, rounds=3, boards=4)
    data = event_matches(matches, rows)
    boards = data.boards
    reliability, ceiling = match_ceiling(boards)
    odd, even = [], []
    for match in np.unique(boards.match):
        values = boards.imps[boards.match == match]
        odd.append(values[0::2].sum())
        even.append(values[1::2].sum())
    half = np.corrcoef(odd, even)[0, 1]
    assert reliability == pytest.approx(2 * half / (1 + half))
    assert ceiling == (pytest.approx(np.sqrt(reliability)) if reliability > 0 else None)


@pytest.fixture(scope="module")
def world_championships(tmp_path_factory, shared_data):
    """The 2011 and 2013 world championships (Bermuda Bowl and Venice Cup round robins)
    through the rate stage: the 2013 events held out."""
    valet = shared_data("travellers", "valet")
    out = tmp_path_factory.mktemp("worlds")
    # the rate stage's other studies at their cheapest (tested elsewhere): two events held
    # out get no resampled interval whatever the setting
    settings = out / "fast.toml"
    settings.write_text(
        "[rate]\nbootstrap_resamples = 0\nvalidation_bootstrap = 200\n[rate.cycles]\nseeds = 2\n"
    )
    result = CliRunner().invoke(
        main,
        [
            "run",
            str(valet / "2011-World"),
            str(valet / "2013-World"),
            "--to",
            "rate",
            "--verbose",
            "--out",
            str(out),
            "--config",
            str(settings),
        ],
    )
    assert result.exit_code == 0, result.output
    return out / "bridgerank.db", result.output


def test_world_championships_are_forecast_round_by_round(world_championships):
    database, output = world_championships
    with sqlite3.connect(database) as db:
        built = db.execute("select count(*), count(distinct event) from team_matches").fetchone()
        rows = {
            (subset, method): (pearson, rmse, matches, events, ceiling)
            for subset, method, pearson, rmse, matches, events, ceiling in db.execute(
                "select subset, method, pearson, rmse, matches, events, ceiling "
                "from event_match_validation"
            )
        }
        gains = db.execute(
            "select count(*) from event_match_validation where pearson_gain is not null"
        ).fetchone()[0]
    assert gains == 0  # two events held out: too few to resample (five at least)
    assert built == (924, 4)  # 22 teams, a round robin: 231 matches an event
    headline = rows[("all", "headline")]
    # the two events of 2013 held out, every one of their matches; resampled as two events
    assert headline[2] == 462 and headline[3] == 2
    assert rows[("championships", "headline")] == headline  # all of them championships
    assert {method for subset, method in rows} >= {"headline", "headline_plain", "coin"}
    # a forecast, better than a coin, under the margins' ceiling's reach
    assert 0.3 < headline[0] < 0.6 and headline[1] < rows[("all", "coin")][1]
    assert 0.4 < headline[4] < 0.7
    assert "team events' matches (462 of 924 held out" in output
    # the double dummy question, asked on 2013's open event (its deals are in hands/*.pbn;
    # the women's are not)
    with_deals = rows[("with deals", "headline_dd")]
    assert with_deals[2] == 231 and with_deals[3] == 1
    assert rows[("with deals", "headline")][2] == 231
    words = " ".join(output.split())  # the summary's lines, unwrapped
    assert "double dummy measures of earlier play add" in words
    # the reference that knows the rest of each event
    hindsight = rows[("all", "hindsight_form")]
    assert hindsight[2] == 462 and 0.3 < hindsight[0] < 0.7
    assert f"later rounds included, reaches {hindsight[0]:.3f}" in words
    assert "on the 231 matches with deals" in words
    # the opening leads: their measure alone, and their baselines beside a random lead
    assert rows[("with deals", "headline_leads")][2] == 231
    assert "opening leads alone" in words
    with sqlite3.connect(database) as db:
        leads, best, random_share = db.execute(
            "select count(*), avg(lead_cost = 0), avg(lead_best_cards / 13.0) "
            "from table_evidence where lead_best_cards is not null and board_id in "
            "(select open_id from match_boards union select closed_id from match_boards)"
        ).fetchone()
    assert leads > 10_000 and best > random_share + 0.1  # leaders beat a random card
    assert f"opening leads: {leads:,} valued, double dummy best {100 * best:.1f}%" in words


def test_the_hindsight_reference_reads_each_teams_other_matches_worked_by_hand():
    from bridgerank.ratings.event_matches import event_form_in_hindsight

    teams = {"X": "abcd", "Y": "efgh", "Z": "ijkl"}

    def board(match_id, number, a, b, swing):
        first, second = teams[a], teams[b]
        return {
            "match_id": match_id,
            "board_no": number,
            "open_north": first[0],
            "open_south": first[1],
            "closed_east": first[2],
            "closed_west": first[3],
            "open_east": second[0],
            "open_west": second[1],
            "closed_north": second[2],
            "closed_south": second[3],
            "open_score": 10 * swing,
            "closed_score": 0,
            "imps": swing,
        }

    # X v Y: +3, +1 over two boards; X v Z: -2; Y v Z: +6
    rows = [board(1, 1, "X", "Y", 3), board(1, 2, "X", "Y", 1)]
    rows += [board(2, 1, "X", "Z", -2), board(3, 1, "Y", "Z", 6)]
    matches = [
        {"id": number, "event": "2010-World/Men", "round": f"round {number}", "year": 2010}
        for number in (1, 2, 3)
    ]
    form = event_form_in_hindsight(event_matches(matches, rows))
    # X v Y: X's other match -2 a board, Y's +6: (-2 - 6) x 2 boards
    # X v Z: X's other +2 a board, Z's -6: (2 + 6) x 1; Y v Z: Y's -2, Z's +2: (-2 - 2) x 1
    assert form.tolist() == [-16.0, 8.0, -4.0]


def test_the_methods_page_shows_the_world_championships_matches(world_championships):
    from sqlalchemy import create_engine

    from bridgerank.pipeline.report.methods_page import SECTIONS
    from bridgerank.pipeline.report.templating import environment

    database, _ = world_championships
    section = next(found for found in SECTIONS if found.key == "team_events")
    engine = create_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        data = section.read(conn)
    engine.dispose()
    html = environment().get_template(section.template).render(data=data, root="")
    words = " ".join(html.split())
    assert "On the 231 held-out matches of the 1 event whose deals are known" in words
    assert "All: 462 matches" in words and "With deals: 231 matches" in words
    assert "reach Pearson" in words
    assert "The opening leads alone (each player's tricks lost" in words
    assert "Opening leads against a random lead." in words
    assert f"Of the {data['baselines'].leads:,} leads valued" in words


def test_the_team_events_players_are_stored_as_rated_after_the_last_round(world_championships):
    database, _ = world_championships
    with sqlite3.connect(database) as db:
        fit = db.execute(
            "select board_variance, newcomer, matches, players, through from event_fit"
        ).fetchall()
        strengths = dict(db.execute("select player, strength from event_strengths"))
        boards = dict(db.execute("select player, boards from event_strengths"))
        seated = db.execute(
            "select count(*) from (select open_north p from match_boards union "
            "select open_east from match_boards union select open_south from match_boards "
            "union select open_west from match_boards union select closed_north from "
            "match_boards union select closed_east from match_boards union select "
            "closed_south from match_boards union select closed_west from match_boards)"
        ).fetchone()[0]
    assert len(fit) == 1
    variance, newcomer, matches, players, through = fit[0]
    assert matches == 924 and players == len(strengths) == seated
    assert through.startswith("2013")
    # a match's error a board: IMPs squared, the order of a board's swing
    assert 20 < variance < 80
    # every player of the four events has played a round robin's boards
    assert min(boards.values()) >= 16
    assert np.std(list(strengths.values())) > 0.1 and abs(newcomer) < 2


def test_a_round_file_not_yet_rated_is_forecast_match_by_match(world_championships, shared_data):
    database, _ = world_championships
    folder = shared_data("travellers", "valet", "2015-World", "Men")
    result = CliRunner().invoke(main, ["predict", str(folder), "--db", str(database)])
    assert result.exit_code == 0, result.output
    assert "team-event matches forecast in IMPs and stored" in result.output
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "select session, side, opponents, boards, players, rated, predicted, sd, low_80, "
            "high_80 from imp_forecasts where kind = 'event'"
        ).fetchall()
    # 22 teams, a round robin of 21 rounds, 16 boards a match (a board of one missing)
    assert len(rows) == 231 and {row[3] for row in rows} <= {15, 16}
    assert all(row[4] >= 8 and row[5] <= row[4] for row in rows)
    # two players in five played the Bermuda Bowl or Venice Cup of 2011 or 2013
    assert sum(row[5] for row in rows) > 0.4 * sum(row[4] for row in rows)
    for _, _, _, _, _, _, predicted, sd, low, high in rows:
        assert low < predicted < high and abs(high - low - 2 * 1.28155 * sd) < 1e-3 * sd
    # the 2015 margins as the files give them: the forecasts of 2011 and 2013 tell them
    from bridgerank.cleaning.clean.team_matches import build_matches, traveller_row
    from bridgerank.cleaning.ingest.valet import read_valet
    from bridgerank.ratings.imp_forecast import side_name

    path = folder / "scores.txt"
    found = build_matches(
        traveller_row(number, record.values, str(path), 1900, 2100)
        for number, record in enumerate(read_valet(path.read_text(encoding="utf-8"), path))
    )
    margin = {(m.round, side_name(m.open[0::2] + m.closed[1::2])): m.margin for m in found.matches}
    pairs = [(row[6], margin[(row[0], row[1])]) for row in rows]
    assert np.corrcoef(np.array(pairs).T)[0, 1] > 0.2
    # run again: the stored forecasts stand, nothing is forecast twice
    again = CliRunner().invoke(main, ["predict", str(folder), "--db", str(database)])
    assert again.exit_code == 0, again.output
    with sqlite3.connect(database) as db:
        assert (
            db.execute("select count(*) from imp_forecasts where kind = 'event'").fetchone()[0]
            == 231
        )


def test_two_line_ups_named_are_forecast_with_a_chance_to_win(world_championships):
    database, _ = world_championships
    with sqlite3.connect(database) as db:
        # the strongest four and the weakest four of the fit
        ranked = [
            name
            for (name,) in db.execute("select player from event_strengths order by strength desc")
        ]
    strong, weak = ranked[:4], ranked[-4:]
    args = ["predict", "--db", str(database), "--line-up", ", ".join(strong)]
    result = CliRunner().invoke(main, [*args, "--against", ", ".join(weak), "--boards", "32"])
    assert result.exit_code == 0, result.output
    found = re.search(
        r"32 boards: \+([\d.]+) IMPs, 80% interval ([+-]\d+) to \+(\d+); wins (\d+)% of such",
        result.output,
    )
    assert found, result.output
    assert float(found[1]) > 10 and int(found[4]) > 80
    assert "unrated" not in result.output
    # a name typed as a captain types it: the same words in another order and case
    typed = [" ".join(reversed(name.lower().split())) for name in strong]
    again = CliRunner().invoke(
        main, [*args[:-1], ", ".join(typed), "--against", ", ".join(weak), "--boards", "32"]
    )
    assert again.exit_code == 0, again.output
    assert found[0] in again.output and "unrated" not in again.output
    # a name no match holds plays as a newcomer, and says so
    newcomer = CliRunner().invoke(
        main, [*args, "--against", "Nobody One, Nobody Two, Nobody Three, Nobody Four"]
    )
    assert newcomer.exit_code == 0, newcomer.output
    assert "unrated (a newcomer's strength): Nobody One, Nobody Two" in newcomer.output
    # three players are no line-up: one line, no traceback
    short = CliRunner().invoke(main, [*args, "--against", "A, B, C"])
    assert short.exit_code == 2
    assert "a line-up is four different players" in short.output
    assert "Traceback" not in short.output


def test_the_site_shows_each_team_events_forecasts_and_each_players_record(
    world_championships, chromium
):
    from playwright.sync_api import sync_playwright

    from bridgerank.pipeline.report.event_pages import event_file
    from bridgerank.pipeline.report.site import player_file

    database, _ = world_championships
    site = database.parent / "report"
    result = CliRunner().invoke(
        main, ["report", "--db", str(database), "--out", str(database.parent)]
    )
    assert result.exit_code == 0, result.output
    with sqlite3.connect(database) as db:
        held = dict(
            db.execute(
                "select m.event, count(*) from team_matches m join event_match_forecasts f "
                "on f.match_id = m.id group by m.event"
            )
        )
        first = db.execute(
            "select m.round, m.margin, f.predicted from team_matches m join "
            "event_match_forecasts f on f.match_id = m.id where m.event = '2013-World/Men' "
            "and m.round = 'round 1' order by m.id limit 1"
        ).fetchone()
        best, strength = db.execute(
            "select player, strength from event_strengths order by strength desc limit 1"
        ).fetchone()
    assert held == {"2013-World/Men": 231, "2013-World/Women": 231}  # 2011: nothing before
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto((site / "events.html").as_uri())
        rows = [
            [cell.inner_text() for cell in row.locator("td").all()]
            for row in page.locator("table tbody tr").all()
        ]
        assert len(rows) == 4
        forecast = {row[0]: row[5] for row in rows}
        assert forecast == {
            "2013-World/Men": "231",
            "2013-World/Women": "231",
            "2011-World/Men": "0",
            "2011-World/Women": "0",
        }
        page.goto((site / "events" / event_file("2013-World/Men")).as_uri())
        assert "231 matches. 231 were forecast before their round was played" in " ".join(
            page.inner_text("p.lead").split()
        )
        cells = [
            cell.inner_text() for cell in page.locator("table tbody tr").first.locator("td").all()
        ]
        assert cells[0] == "round 1"
        assert cells[4] == f"{first[2]:+.1f}" and cells[6] == f"{first[1]:+d}"
        page.goto((site / "players" / player_file(best)).as_uri())
        text = " ".join(page.inner_text("body").split())
        assert "Team events" in text
        assert f"puts this player at {strength:+.2f} IMPs a board" in text
        browser.close()
