"""Name matching: the WBF list loader, a table of real cases, a hand-checked sample, the stage."""

import dataclasses
import json

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from bridgerank.cleaning.match.matcher import NameMatcher
from bridgerank.cleaning.match.names import name_parts
from bridgerank.cleaning.match.stage import load_wbf
from bridgerank.cleaning.match.tables import NameMatch, Player, WbfPlayer
from bridgerank.cleaning.match.wbf_lists import read_wbf_lists
from bridgerank.core.settings import default_settings, resolve_path
from bridgerank.core.store import StageRun, open_engine
from bridgerank.pipeline.cli import main
from tests.paths import TEST_DATA

CASES = json.loads((TEST_DATA / "name_cases.json").read_text())
SAMPLE = json.loads((TEST_DATA / "wbf_sample_50.json").read_text())
MATCH = default_settings().match


@pytest.fixture(scope="module")
def default_lists():
    section = default_settings().match
    entries, problems, alternatives = load_wbf(section)
    return entries, problems, NameMatcher([e.name for e in entries], alternatives, settings=section)


def test_the_three_2014_layouts_load(default_lists):
    entries, problems, _ = default_lists
    assert len(entries) == 725
    assert problems == []
    by_name = {entry.name: entry for entry in entries}
    assert (by_name["Andrey Gromov"].country, by_name["Andrey Gromov"].mp) == ("Russia", 2071)
    assert (by_name["Boye Brogeland"].country, by_name["Boye Brogeland"].pp) == ("Norway", 15.5)
    assert by_name["Jie Li"].country == "China" and by_name["Jie Li"].mp == 734
    assert by_name["Zheng Jun Shi"].country == "China"
    assert by_name["Ari David Greenberg Jr"].country == "U.S.A."
    assert by_name["Jeff Meckstroth"].code == "3776"
    # a surname past the comma is the name's, not the country's
    assert by_name["Jean-christophe Quantin"].country == "France"
    assert by_name["Marius Ionita"].country == "Romania"
    assert by_name["Ching-Hsiang Wu"].country == "Chinese Taipei"
    assert by_name["Geir-Olav islevoll"].country == "New Zealand"  # its T lost in the list
    assert by_name["Roman Smolski"].country == "Bermuda"  # a country the lists name once
    assert by_name["Fulvio Fantoni"].source == "wbf_grand_masters.csv"


def test_a_csv_with_name_mp_pp_columns_loads(tmp_path, shared_data):
    path = tmp_path / "new.csv"
    path.write_text("name,country,mp,pp\nAlfredo Versace,Italy,5000,60\nNobody,,x,1\n,,1,1\n")
    result = read_wbf_lists([path])
    assert [(e.name, e.mp, e.pp) for e in result.entries] == [("Alfredo Versace", 5000, 60)]
    assert result.problems == ["new.csv:3: points are not numbers", "new.csv:4: no name"]
    thesis = read_wbf_lists([shared_data("thesis", "results", "dds_final_results.csv")])
    assert len(thesis.entries) == 2145 and thesis.problems == []


@pytest.mark.parametrize("case", CASES, ids=[case["desc"] for case in CASES])
def test_real_names(default_lists, case):
    entries, _, matcher = default_lists
    match = matcher.match(case["raw"])
    got = None if match.wbf_index is None else entries[match.wbf_index].name
    assert (got, match.reason) == (case["expected"], case["reason"])


def test_the_case_table_is_real_and_large_enough():
    assert len(CASES) >= 40
    assert {case["reason"] for case in CASES} >= {
        "exact",
        "tuple",
        "surname only",
        "alternative",
        "fuzzy-token",
        "ambiguous",
        "no candidate",
        "robot",
        "handle",
    }


def test_hand_checked_sample_of_50(default_lists):
    entries, _, matcher = default_lists
    assert len(SAMPLE["pairs"]) == 50
    for pair in SAMPLE["pairs"]:
        match = matcher.match(pair["raw"])
        assert match.wbf_index is not None, pair
        entry = entries[match.wbf_index]
        assert (entry.name, entry.country) == (pair["wbf"], pair["country"]), pair


def test_thesis_list_finds_the_1955_players(shared_data):
    """Against the thesis's own list (name, mp, pp), the 1955 spellings match."""
    entries = read_wbf_lists([shared_data("thesis", "results", "dds_final_results.csv")]).entries
    matcher = NameMatcher([entry.name for entry in entries], settings=MATCH)
    for raw, expected in [
        ("Milton Elleby", "Milton Q Ellenby"),
        ("Milton Ellenby", "Milton Q Ellenby"),
        ("Cliff Bishop", "Clifford Bishop"),
        ("Versace A", "Alfredo Versace"),
    ]:
        match = matcher.match(raw)
        assert entries[match.wbf_index].name == expected, raw


def test_ambiguity_is_never_resolved_by_string_length():
    matcher = NameMatcher(["Ping Wang", "Wenfei Wang", "Junren Wang"], settings=MATCH)
    assert matcher.match("Wang").reason == "ambiguous"
    # a close spelling does break a tie between equally good inexact readings
    matcher = NameMatcher(["Anna Kowalska", "Anna Kowalski"], settings=MATCH)
    assert matcher.match("Anna Kowalska").reason == "exact"


def test_surname_only_matches_can_be_switched_off():
    settings = dataclasses.replace(MATCH, match_surname_only=False)
    matcher = NameMatcher(["Alfredo Versace"], settings=settings)
    assert matcher.match("Versace").wbf_index is None
    assert matcher.match("Versace A").wbf_index == 0


def test_name_parts():
    assert name_parts("VERSACE Alfredo").key == name_parts("alfredo versace").key
    assert name_parts("Jean-Paul d'Ovidio Jr").tokens == ("jean", "paul", "dovidio")
    assert name_parts("Sigurhjart. K") == ((), ("k",), ("sigurhjart",))
    assert name_parts("ThorvaldssonM").initials == ("m",)


def _db(out):
    return open_engine(f"sqlite:///{out / 'bridgerank.db'}")


def test_match_stage_on_the_sample(tmp_path):
    result = CliRunner().invoke(main, ["run", "--to", "match", "--out", str(tmp_path), "--verbose"])
    assert result.exit_code == 0, result.output
    assert "match: 18 of 70 raw names matched to the 725 WBF players" in result.output
    assert "board-seats covered: 1,577 of 3,528 (44.7%)" in result.output
    engine = _db(tmp_path)
    with engine.connect() as conn:
        rows = {row.raw_name: row for row in conn.execute(select(NameMatch.__table__))}
        players = conn.execute(select(Player.__table__)).all()
        wbf = conn.execute(select(WbfPlayer.name).where(WbfPlayer.id == rows["Lew Mathe"].wbf_id))
        wbf_name = wbf.scalar_one()
    engine.dispose()
    assert wbf_name == "Lewis Mathe" and rows["Lew Mathe"].reason == "alternative"
    # two listed Weinsteins and nothing in the event to tell: no one of the lists
    assert rows["Weinstein"].reason == "short name, no context"
    assert rows["Weinstein"].runner_up == "Howard Weinstein" and rows["Weinstein"].wbf_id is None
    # a surname alone, attributed where the event's listed players are of its country
    assert rows["Levin"].reason == "surname only, country agrees"
    assert rows["Cliff Bishop"].player_id == rows["Clifford Bishop"].player_id
    # a typo is one person with the spelling where the context agrees: both partner Rosen
    assert rows["Milton Elleby"].player_id == rows["Milton Ellenby"].player_id
    assert "linked: shared partner" in {
        rows["Milton Elleby"].reason,
        rows["Milton Ellenby"].reason,
    }
    # 20 championship players and 48 club players (whom no WBF name matches)
    assert len(players) == 68 and sum(player.seats for player in players) == 1908 + 405 * 4


def test_match_reruns_only_when_its_inputs_change(tmp_path):
    runner = CliRunner()
    runner.invoke(main, ["run", "--to", "match", "--out", str(tmp_path), "--verbose"])
    again = runner.invoke(main, ["run", "--to", "match", "--out", str(tmp_path), "--verbose"])
    assert "match: up to date" in again.output
    settings = tmp_path / "settings.toml"
    settings.write_text("[match]\nmatch_surname_only = false\n")
    changed = runner.invoke(
        main, ["run", "--to", "match", "--out", str(tmp_path), "--config", str(settings), "-v"]
    )
    assert "clean: up to date" in changed.output
    assert "match: 11 of 70 raw names matched" in changed.output  # 7 bare surnames refused
    new_list = tmp_path / "list.csv"
    new_list.write_text("name,mp,pp\nLewis Mathe,1,2\n")
    settings.write_text(f"[match]\nwbf_lists = [{json.dumps(str(new_list))}]\n")
    relisted = runner.invoke(
        main, ["run", "--to", "match", "--out", str(tmp_path), "--config", str(settings), "-v"]
    )
    assert "match: 1 of 70 raw names matched to the 1 WBF players" in relisted.output
    engine = _db(tmp_path)
    with engine.connect() as conn:
        runs = conn.execute(select(StageRun.stage)).scalars().all()
    engine.dispose()
    assert runs.count("match") == 3 and runs.count("clean") == 1


def test_default_lists_are_the_embedded_copies():
    for path in MATCH.wbf_lists:
        assert resolve_path(path).exists()
        assert resolve_path(path).parent.name == "wbf"
