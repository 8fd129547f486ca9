"""Team matches rebuilt from traveller records: pairing, scoring, copies and every reason."""

import re
from collections import defaultdict
from pathlib import Path

import pytest

from bridgerank.bridge.scoring import imps, table_score
from bridgerank.cleaning.clean.reasons import reasons_of_level
from bridgerank.cleaning.clean.team_matches import (
    board_a_match,
    build_matches,
    match_rows,
    teams_against_themselves,
    traveller_row,
)
from bridgerank.cleaning.ingest.valet import read_valet

# Four teams of four; each team's partnerships change between rounds, as a team of four
# rotating its pairs does (so its players are one unit of partners).
TEAMS = {
    team: [f"{team}{number}" for number in range(1, 5)]
    for team in ("Alpha", "Beta", "Gamma", "Delta")
}
PAIRS = {1: ((0, 1), (2, 3)), 2: ((0, 2), (1, 3))}


def _record(
    ident, event, round_no, board, seats, contract="4S", declarer="N", tricks="10", lead="HA"
):
    values = {
        "event": event,
        "stage": f"round {round_no}",
        "board": str(board),
        "northname": seats[0],
        "eastname": seats[1],
        "southname": seats[2],
        "westname": seats[3],
        "contract": contract,
        "declarer": declarer,
        "result": tricks,
        "lead_card": lead,
    }
    return traveller_row(ident, values, f"{event}/scores.txt", 1900, 2100)


def _match_tables(home, away, round_no):
    """The two tables of ``home`` against ``away``: home's first pair North-South at one,
    its second East-West at the other."""
    first, second = PAIRS[round_no]
    h, a = TEAMS[home], TEAMS[away]
    open_seats = (h[first[0]], a[first[0]], h[first[1]], a[first[1]])
    closed_seats = (a[second[0]], h[second[0]], a[second[1]], h[second[1]])
    return open_seats, closed_seats


def _event(event="Cup 2010", rounds=((("Alpha", "Beta"), ("Gamma", "Delta")),), boards=(1, 2)):
    records, ident = [], 0
    for round_no, matches in enumerate(rounds, start=1):
        for home, away in matches:
            for seats in _match_tables(home, away, round_no):
                for board in boards:
                    ident += 1
                    # the open table makes 4S, the closed table goes one down
                    tricks = "10" if seats[0].startswith(home) else "9"
                    # each match its own leads, so that no two matches' results are alike
                    lead = "SHDC"[list(TEAMS).index(home)] + "AKQJ"[round_no]
                    records.append(
                        _record(ident, event, round_no, board, seats, tricks=tricks, lead=lead)
                    )
    return records


TWO_ROUNDS = ((("Alpha", "Beta"), ("Gamma", "Delta")), (("Alpha", "Gamma"), ("Beta", "Delta")))


def test_each_round_pairs_its_tables_into_the_matches_played_and_scores_them_in_imps():
    found = build_matches(_event(rounds=TWO_ROUNDS))
    assert found.excluded == {}
    met = {
        (match.round, frozenset(name[:-1] for name in match.open + match.closed))
        for match in found.matches
    }
    assert met == {
        ("round 1", frozenset({"Alpha", "Beta"})),
        ("round 1", frozenset({"Gamma", "Delta"})),
        ("round 2", frozenset({"Alpha", "Gamma"})),
        ("round 2", frozenset({"Beta", "Delta"})),
    }
    first = found.matches[0]
    # board 1 (none vulnerable): 4S making +420 at the open table, 4S one down -50 at the
    # closed table (team A East-West there): team A +470, 10 IMPs; board 2 (NS vulnerable)
    # +620 and -100: 720, 12 IMPs
    assert [(b.open_score, b.closed_score, b.imps) for b in first.boards] == [
        (420, -50, 10),
        (620, -100, 12),
    ]
    assert first.margin == 22
    # team A: North-South at the open table, East-West at the closed
    assert {first.open[0][:-1], first.closed[1][:-1]} == {"Alpha"}


def test_the_pairing_follows_the_seats_not_the_order_of_the_file():
    records = _event(rounds=TWO_ROUNDS)
    shuffled = records[::-1]
    margins = sorted(abs(match.margin) for match in build_matches(shuffled).matches)
    assert margins == sorted(abs(match.margin) for match in build_matches(records).matches)
    assert len(margins) == 4


def test_a_substitute_pair_between_segments_keeps_one_match():
    records = _event(rounds=TWO_ROUNDS, boards=(1, 2, 3, 4))
    substitute = ("Beta9", "Beta8")
    for record in records:
        # Beta's East-West pair at the Alpha-Beta open table is replaced for boards 3 and 4
        if record["east"] == "Beta1" and record["round"] == "round 1" and record["board_no"] >= 3:
            record["east"], record["west"] = substitute
    found = build_matches(records)
    assert found.excluded == {}
    alpha = next(
        match
        for match in found.matches
        if match.round == "round 1" and "Alpha1" in match.open + match.closed
    )
    assert [board.board_no for board in alpha.boards] == [1, 2, 3, 4]
    assert alpha.boards[2].open_seats[1] == "Beta9"


def test_every_table_in_no_match_keeps_its_reason():
    records = _event(rounds=TWO_ROUNDS, boards=(1, 2))
    # the other room's record of board 2 of Gamma-Delta is missing
    gamma_closed = [
        r
        for r in records
        if r["north"] == "Delta3" and r["board_no"] == 2 and r["round"] == "round 1"
    ]
    records.remove(gamma_closed[0])
    # a record with an empty seat, one with no result, one written twice
    records.append(_record(100, "Cup 2010", 1, 3, ("Alpha1", "", "Alpha2", "Beta3")))
    records.append(
        _record(101, "Cup 2010", 1, 3, ("Alpha1", "Beta1", "Alpha2", "Beta2"), contract="?")
    )
    twice = dict(records[0], id=102, result=7)
    records.append(twice)
    # a board-a-match event; and a table no other table of its round mirrors
    records.append(_record(103, "Open BAMQ 2018", 1, 1, ("Pa", "Pb", "Pc", "Pd")))
    records.append(_record(104, "Cup 2010", 3, 1, ("Alpha1", "Gamma1", "Alpha2", "Gamma2")))
    found = build_matches(records)
    unpaired = [
        r["id"]
        for r in records
        if r["north"] == "Gamma1" and r["board_no"] == 2 and r["round"] == "round 1"
    ]
    assert found.excluded == {
        unpaired[0]: "match_board_unpaired",
        100: "match_unknown_player",
        101: "match_no_score",
        102: "match_same_lineup",
        103: "match_board_a_match",
        104: "match_other_table_missing",
    }


def test_two_equally_good_other_rooms_leave_the_tables_ambiguous():
    records = _event(rounds=TWO_ROUNDS, boards=(1,))
    # Alpha-Beta's closed table recorded again with Alpha's East and West swapped: two
    # tables as good as each other for the open table's other room
    closed = next(r for r in records if r["north"] == "Beta3" and r["round"] == "round 1")
    records.append(dict(closed, id=200, east=closed["west"], west=closed["east"]))
    found = build_matches(records)
    open_table = next(r for r in records if r["north"] == "Alpha1" and r["round"] == "round 1")
    assert {found.excluded[i] for i in (closed["id"], 200, open_table["id"])} == {"match_ambiguous"}
    assert len(found.excluded) == 3 and len(found.matches) == 3


def test_a_match_read_again_is_kept_once_whatever_its_file_or_board_numbers():
    records = _event(rounds=TWO_ROUNDS)
    again = [dict(r, id=r["id"] + 1000, source="Cup 2010/scoresA.txt") for r in records]
    renumbered = [
        dict(r, id=r["id"] + 2000, event="Training", source="Training/scores.txt")
        | {"board_no": r["board_no"] + 16}
        for r in records
    ]
    found = build_matches(records + again + renumbered)
    assert len(found.matches) == 4
    assert set(found.reasons()) == {"match_copy"}
    assert found.reasons()["match_copy"] == len(again) + len(renumbered)
    # an event's parts are paired before the file that joins them all
    assert all(match.boards[0].open_id > 1000 for match in found.matches)


def test_the_files_are_reported_on_as_they_are_paired_and_the_matches_are_the_same():
    records = _event(rounds=TWO_ROUNDS)
    again = [dict(r, id=r["id"] + 1000, source="Cup 2010/scoresA.txt") for r in records]
    seen = []

    def progress(items, label, total):
        for item in items:
            seen.append((item, label, total))
            yield item

    found = build_matches(records + again, progress)
    sources = {record.get("source") or record["event"] for record in records + again}
    assert sorted(item for item, _, _ in seen) == sorted(sources)
    assert {(label, total) for _, label, total in seen} == {("team matches: files", 2)}
    assert found.matches == build_matches(records + again).matches


def test_every_reason_of_the_match_level_is_one_these_tests_record():
    recorded = {
        "match_board_unpaired",
        "match_unknown_player",
        "match_no_score",
        "match_same_lineup",
        "match_board_a_match",
        "match_other_table_missing",
        "match_copy",
        "match_ambiguous",
    }
    assert {reason.code for reason in reasons_of_level("match")} == recorded


def test_board_a_match_events_are_told_by_their_name():
    assert board_a_match("2018-Open/BAMQ1") and board_a_match("2019-Open/2019-BAM")
    assert not board_a_match("2014-Euro/Men") and not board_a_match("Bamberg Teams")


def _valet_rows(path: Path) -> list[dict]:
    rows = []
    for record in read_valet(path.read_text(encoding="utf-8"), path):
        ident = len(rows) + 1 + hash(path.name) % 1000 * 100000
        rows.append(traveller_row(ident, record.values, str(path), 1900, 2100))
    return rows


def test_a_world_championship_pairs_every_table_and_scores_as_valet_does(shared_data):
    folder = shared_data("travellers", "valet", "2013-World", "Men")
    rows = _valet_rows(folder / "scores.txt")
    found = build_matches(rows)
    paired = 2 * sum(len(match.boards) for match in found.matches)
    assert paired >= 0.999 * len(rows)
    assert len(found.matches) == 21 * 11  # 22 teams, a round robin of 21 rounds
    # Valet's own output: each pair's IMPs a board against every other table of the board
    # (iaf.txt); the same from these scores for every pair it lists
    by_board = defaultdict(list)
    for row in rows:
        by_board[(row["round"], row["board_no"])].append((row, table_score(row)))
    total, count = defaultdict(float), defaultdict(int)
    for tables in by_board.values():
        for row, score in tables:
            others = [imps(score - other) for seen, other in tables if seen is not row]
            value = sum(others) / len(others)
            for pair, sign in (((row["north"], row["south"]), 1), ((row["east"], row["west"]), -1)):
                total[frozenset(pair)] += sign * value
                count[frozenset(pair)] += 1
    compared = 0
    for line in (folder / "iaf.txt").read_text(encoding="utf-8").splitlines():
        found_line = re.match(r"(.+?) - (.+?)\s*\|\s*(\d+)\s+(-?[\d.]+)", line)
        if not found_line:
            continue
        pair = frozenset((found_line.group(1).strip(), found_line.group(2).strip()))
        if pair in count:
            compared += 1
            assert count[pair] == int(found_line.group(3))
            assert round(total[pair] / count[pair], 2) == float(found_line.group(4))
    assert compared >= 70


def test_a_championship_split_into_groups_gives_each_match_once_with_its_own_names(shared_data):
    folder = shared_data("travellers", "valet", "2014-Euro", "Men")
    # the groups' files number their players afresh: id 100 is another player in each
    names = {}
    for part in ("scores.txt", "scoresA.txt", "scoresB.txt"):
        line = (folder / part).read_text(encoding="utf-8").splitlines()[0]
        record = next(read_valet(line, folder / part))
        names[part] = record.values["northname"]
    assert len(set(names.values())) == 3
    whole = _valet_rows(folder / "scores.txt")
    parts = _valet_rows(folder / "scoresA.txt") + _valet_rows(folder / "scoresB.txt")
    together = build_matches(whole + parts)
    groups = build_matches(parts)
    assert {m.margin for m in together.matches} >= {m.margin for m in groups.matches}
    assert len(together.matches) >= len(groups.matches) > 0
    signature = {(m.round, frozenset(m.open + m.closed), m.margin) for m in together.matches}
    assert len(signature) == len(together.matches)  # no match twice
    paired = 2 * sum(len(match.boards) for match in together.matches)
    copies = together.reasons()["match_copy"]
    assert paired >= 0.99 * (len(whole) + len(parts) - copies)


def _fixed_direction_field(teams: int, rounds: int) -> list[dict]:
    """A round robin whose pairs keep their direction: each team's first pair always
    North-South, its second always East-West (the 2019 Open's field)."""
    names = [f"T{team}" for team in range(teams)]
    records, ident = [], 0
    for round_no in range(1, rounds + 1):
        # the circle method: round r pairs team i with team (r - i) mod (teams - 1) ...
        order = [0] + [(i + round_no - 1) % (teams - 1) + 1 for i in range(teams - 1)]
        for k in range(teams // 2):
            home, away = names[order[k]], names[order[teams - 1 - k]]
            tables = (
                (f"{home}a", f"{away}c", f"{home}b", f"{away}d"),
                (f"{away}a", f"{home}c", f"{away}b", f"{home}d"),
            )
            for table, seats in enumerate(tables):
                ident += 1
                lead = "SHDC"[table] + "AKQJT98765432"[(round_no * teams + k) % 13]
                tricks = str(8 + (round_no + k + table) % 4)
                records.append(
                    _record(ident, "Open 2019", round_no, 1, seats, tricks=tricks, lead=lead)
                )
    return records


def test_a_field_whose_pairs_keep_their_direction_is_paired_by_the_consequences():
    # Each North-South pair has the same support with every East-West pair it never met;
    # only "their opponents are teammates too" in the other rounds tells its teammates.
    records = _fixed_direction_field(teams=8, rounds=3)
    found = build_matches(records)
    assert not found.excluded
    assert len(found.matches) == 3 * 4
    for match in found.matches:
        team_a = {match.open[0][:-1], match.closed[1][:-1]}
        team_b = {match.open[1][:-1], match.closed[0][:-1]}
        assert len(team_a) == 1 and len(team_b) == 1 and team_a != team_b


def test_a_name_seated_twice_on_one_board_is_two_players_and_their_teams_still_pair():
    records = _event(rounds=TWO_ROUNDS)
    # one name written for Alpha1 and Delta1 alike (a file giving two players one id)
    twice = [
        {seat: ("Zed" if r[seat] in ("Alpha1", "Delta1") else r[seat]) for seat in r}
        for r in records
    ]
    found = build_matches(twice)
    assert not found.excluded
    assert len(found.matches) == 4


def test_a_copy_under_one_name_written_another_way_is_a_copy():
    records = _event(rounds=TWO_ROUNDS)
    joined = [
        dict(r, id=r["id"] + 1000, source="Cup 2010/scores.txt")
        | {
            seat: r[seat].replace("Alpha1", "ALPHA One")
            for seat in ("north", "east", "south", "west")
        }
        for r in records
    ]
    parts = [dict(r, source="Cup 2010/scoresA.txt") for r in records]
    found = build_matches(parts + joined)
    assert len(found.matches) == 4
    assert found.reasons() == {"match_copy": len(joined)}


def test_a_later_year_replaying_a_round_under_its_own_name_is_a_copy():
    records = _event(rounds=TWO_ROUNDS)
    training = [
        dict(r, id=r["id"] + 1000, event="Training", source="Training/scores.txt", year=2023)
        | {"round": "round 7", "board_no": r["board_no"] + 10}
        for r in records
        if r["round"] == "round 1"  # one round replayed, its tables in another order
    ][::-1]
    found = build_matches(records + training)
    assert len(found.matches) == 4
    assert found.reasons() == {"match_copy": len(training)}


def test_nn_is_no_player():
    seats = ("NN", "Beta1", "Alpha2", "Beta2")
    row = _record(1, "Cup 2010", 1, 1, seats)
    assert row["north"] == ""
    assert build_matches([row]).reasons() == {"match_unknown_player": 1}


def _against_themselves(found) -> int:
    matches, boards, _ = match_rows(found)
    return teams_against_themselves(matches, boards)


def test_a_wrong_pairing_shows_as_a_team_against_itself():
    found = build_matches(_event(rounds=TWO_ROUNDS))
    assert _against_themselves(found) == 0
    # round 2's matches with their closed rooms swapped: Alpha's pairs now teammates of
    # Delta's, and Beta's of Gamma's, though Alpha met Beta and Gamma met Delta in round 1
    matches, boards, _ = match_rows(found)
    second = [m["id"] for m in matches if m["round"] == "round 2"]
    swapped = []
    for board in boards:
        if board["match_id"] in second:
            other = second[1 - second.index(board["match_id"])]
            twin = next(
                b for b in boards if b["match_id"] == other and b["board_no"] == board["board_no"]
            )
            board = board | {k: v for k, v in twin.items() if k.startswith("closed_")}
        swapped.append(board)
    assert teams_against_themselves(matches, swapped) > 0


@pytest.mark.parametrize(
    ("event", "files", "share"),
    [
        # one scores.txt for every group; a few players' ids given twice
        ("2004-Istanbul-Olympiad", ("scores.txt",), 0.999),
        # its pairs keep their direction all event
        ("2019-Open/2019-Open", ("scores.txt",), 0.999),
        # the groups' own files and the file joining them, names written another way
        ("2008-Mind/Men", ("scoresA.txt", "scoresB.txt", "scores.txt"), 0.99),
    ],
)
def test_real_fields_pair_with_rosters_that_hold(shared_data, event, files, share):
    folder = shared_data("travellers", "valet", *event.split("/"))
    rows = [row for name in files for row in _valet_rows(folder / name)]
    found = build_matches(rows)
    paired = 2 * sum(len(match.boards) for match in found.matches)
    reasons = found.reasons()
    kept = len(rows) - reasons["match_copy"] - reasons["match_unknown_player"]
    assert paired >= share * kept
    assert _against_themselves(found) <= 0.005 * len(found.matches)
