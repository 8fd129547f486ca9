"""The standings beside an event's boards: their pair lines read, a short name resolved to the
one full name its pair there gives it, and a change to a standings file rerunning the match."""

import sqlite3
from collections import Counter

from click.testing import CliRunner

from bridgerank.cleaning.match.matcher import NameMatcher
from bridgerank.cleaning.match.occurrences import Occurrence
from bridgerank.cleaning.match.persons import resolve_persons
from bridgerank.cleaning.match.standings import (
    Standings,
    read_pair_lines,
    read_rosters,
    read_standings,
)
from bridgerank.cleaning.match.wbf_lists import WbfEntry
from bridgerank.core.settings import load_settings
from bridgerank.pipeline.cli import main

# As the 1997 Cavendish's standings (CAVEND97.TXT) write them.
CAVENDISH = """1997 Cavendish Invitational Pairs Tournament
Rank Pair IMP
22  Fred Stewart - Steve Weinstein     782.82
26  Howard Weinstein - Steve Garner     329.35
29  Anton Maas - Jaap van der Neut      -97.32
38  Paul J. Lewis - Bruce Ferguson    -578.96
"""


def test_pair_lines_are_read_with_particles_and_initials():
    assert read_pair_lines(CAVENDISH) == [
        ("Fred Stewart", "Steve Weinstein"),
        ("Howard Weinstein", "Steve Garner"),
        ("Anton Maas", "Jaap van der Neut"),
        ("Paul J. Lewis", "Bruce Ferguson"),
    ]
    # a surname pair, a score line, a date range: no full names, no pairs
    assert read_pair_lines("Helgemo - Martens\n9-11 May 1997\n1 - 2 3.5\n") == []


def test_a_short_name_is_the_full_name_its_pair_in_the_standings_gives():
    listed = [("Steve Weinstein", "U.S.A."), ("Howard Weinstein", "U.S.A.")]
    entries = [
        WbfEntry(name, country, 1.0, 1.0, "list", n) for n, (name, country) in enumerate(listed)
    ]
    matcher = NameMatcher([e.name for e in entries], {}, settings=load_settings().match)
    standings = Standings({"/cav97": read_pair_lines(CAVENDISH)}, [])

    def occurrence(raw, partner):
        return Occurrence(raw, "Cavendish 1997", 10, Counter([partner]), Counter(), {"/cav97"})

    occurrences = [occurrence("Weinstein", "Stewart"), occurrence("Weinstein", "Garner")]
    # the same string, with its partner in two events: each is whom its pair line says
    occurrences[1].event = "Cavendish 1997 - Seg 2"
    occurrences[1].folders = {"/cav97"}
    _, found = resolve_persons(occurrences, matcher, entries, standings=standings)
    first = found[("Weinstein", "Cavendish 1997")]
    second = found[("Weinstein", "Cavendish 1997 - Seg 2")]
    assert first.reason == second.reason == "standings of the event"
    assert entries[first.wbf_index].name == "Steve Weinstein"
    assert entries[second.wbf_index].name == "Howard Weinstein"
    # without the standings, the surname two listed players bear says nothing
    _, alone = resolve_persons(occurrences, matcher, entries)
    assert alone[("Weinstein", "Cavendish 1997")].wbf_index is None


def test_a_changed_standings_file_reruns_the_match(tmp_path, test_data):
    folder = tmp_path / "event"
    folder.mkdir()
    text = (test_data / "bermuda1955_head.pbn").read_text()
    (folder / "boards.pbn").write_text(text.replace('"Milton Ellenby"', '"Ellenby"'))
    standings = folder / "standings.txt"
    standings.write_text("1  Milton Ellenby - Clifford Bishop  110\n")
    out = tmp_path / "out"
    runner = CliRunner()

    def run() -> str:
        result = runner.invoke(main, ["run", str(folder), "--to", "match", "--out", str(out)])
        assert result.exit_code == 0, result.output
        return result.output

    run()
    with sqlite3.connect(out / "bridgerank.db") as db:
        (reason,) = db.execute(
            "select reason from name_matches where raw_name = 'Ellenby'"
        ).fetchone()
    assert reason == "standings of the event"
    assert "match: up to date" in run()
    standings.write_text("1  Someone Else - Clifford Bishop  110\n")
    again = run()
    assert "clean: up to date" in again and "match: up to date" not in again
    with sqlite3.connect(out / "bridgerank.db") as db:
        (reason,) = db.execute(
            "select reason from name_matches where raw_name = 'Ellenby'"
        ).fetchone()
    assert reason != "standings of the event"
    assert read_standings([str(folder)]).pair_count == 1


def test_the_olympiad_rosters_are_read_under_their_countries(shared_data):
    olympiad = shared_data("pbn", "1996-10th_World_Bridge_Team_Olympiad")
    teams = read_standings([str(olympiad)]).teams_of([str(olympiad)])
    by_heading = {(team.heading, team.series): team.players for team in teams}
    assert by_heading[("Sweden", "open")] == (
        "Eriksson", "Fallenius", "Fredin", "Lindberg", "Lindkvist", "Nilsland",
    )  # fmt: skip
    # pairs written "A - B" are players too; a women's team is told apart
    assert by_heading[("Netherlands", "open")][4:] == ("Paulissen", "Van der Neut")
    assert ("Pakistan", "ladies") in by_heading
    assert all(team.womens == (team.series == "ladies") for team in teams)
    assert len(teams) == 114


def test_a_roster_gives_a_short_name_its_country_and_its_spelling():
    listed = [
        ("Magnus Lindkvist", "Sweden"),
        ("Jorgen Lindqvist", "Sweden"),
        ("Jaap Van Der Neut", "Netherlands"),
        ("Nisar Ahmad", "Pakistan"),
    ]
    entries = [
        WbfEntry(name, country, 1.0, 1.0, "list", n) for n, (name, country) in enumerate(listed)
    ]
    matcher = NameMatcher([e.name for e in entries], {}, settings=load_settings().match)
    roster = read_rosters(
        "Netherlands\n\nOpen De Boer - Muller, Paulissen - Van der Neut\n\n"
        "Pakistan\n\nOpen Kamal, Nisar, Nishat\nLadies Adamjee, Naqvi\n\n"
        "Sweden\n\nOpen Eriksson, Lindberg, Lindkvist\n"
    )
    standings = Standings({}, [], {"/olympiad": roster})

    def occurrence(raw, partner):
        return Occurrence(raw, "Olympiad 1996", 16, Counter([partner]), Counter(), {"/olympiad"})

    occurrences = [
        occurrence("Lindqvist", "Lindberg"),  # the team spells him Lindkvist: Magnus
        occurrence("Van der Nue", "Paulissen"),  # a typo of the roster's Van der Neut
        occurrence("Nisar", "Kamal"),  # a given name the team goes by, of Pakistan
        occurrence("Naqvi", "Lindberg"),  # a name whose partner is on no team of hers
    ]
    _, found = resolve_persons(occurrences, matcher, entries, standings=standings)

    def listed_as(raw):
        index = found[(raw, "Olympiad 1996")].wbf_index
        return None if index is None else entries[index].name

    assert listed_as("Lindqvist") == "Magnus Lindkvist"
    assert listed_as("Van der Nue") == "Jaap Van Der Neut"
    assert listed_as("Nisar") == "Nisar Ahmad"
    assert listed_as("Naqvi") is None
    # without the rosters, no country and no spelling: "Lindqvist" is whom its spelling
    # names (no one else of it was seen), the others no one listed
    _, alone = resolve_persons(occurrences, matcher, entries)
    index = {occ.raw: alone[(occ.raw, occ.event)].wbf_index for occ in occurrences}
    assert entries[index.pop("Lindqvist")].name == "Jorgen Lindqvist"
    assert set(index.values()) == {None}


def test_standings_are_found_whatever_folder_the_run_is_started_from(
    tmp_path, test_data, monkeypatch
):
    # The sources named relative to one folder; the next run started from another.
    folder = tmp_path / "given" / "event"
    folder.mkdir(parents=True)
    text = (test_data / "bermuda1955_head.pbn").read_text()
    (folder / "boards.pbn").write_text(text.replace('"Milton Ellenby"', '"Ellenby"'))
    (folder / "standings.txt").write_text("1  Milton Ellenby - Clifford Bishop  110\n")
    out = tmp_path / "out"
    runner = CliRunner()
    monkeypatch.chdir(tmp_path / "given")
    first = runner.invoke(main, ["run", "event", "--to", "match", "--out", str(out)])
    assert first.exit_code == 0, first.output
    monkeypatch.chdir(tmp_path)
    again = runner.invoke(main, ["run", "--to", "match", "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert "match: up to date" in again.output
    with sqlite3.connect(out / "bridgerank.db") as db:
        stored = db.execute("select path, name from source_files").fetchall()
        (reason,) = db.execute(
            "select reason from name_matches where raw_name = 'Ellenby'"
        ).fetchone()
    assert stored == [(str(folder.resolve() / "boards.pbn"), "event/boards.pbn")]
    assert reason == "standings of the event"
