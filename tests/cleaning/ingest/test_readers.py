"""The three readers on real slices of ../shared/data and on crafted defects."""

import json

from bridgerank.cleaning.ingest.lin import read_lin
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.sources import decode, sniff
from bridgerank.cleaning.ingest.sqldump import read_sqldump


def _pbn(test_data, name):
    return list(read_pbn(decode((test_data / name).read_bytes())[0]))


def test_pbn_1955_records_and_sections(test_data):
    records = _pbn(test_data, "bermuda1955_head.pbn")
    assert len(records) == 12
    second = records[1]
    assert second.line == 27
    assert second.values["northname"] == "Clifford Bishop"
    assert second.values["bidstart"] == "N"
    assert second.values["auction"] == "1D 1H 2C 2S Pass Pass 2NT Pass 3S Pass 3NT Pass Pass Pass"
    assert second.values["play"] == ""  # [Play "W"] with no cards
    assert second.values["lead"] == "W"
    assert records[3].values["play"].split()[:4] == ["SK", "S5", "S6", "S3"]
    assert all(record.play_layout == "seat" for record in records)


def test_pbn_hash_inherits_previous_values(test_data):
    records = _pbn(test_data, "bb1997_sf04_head.pbn")
    first, second = records[0], records[1]
    assert second.values["event"] == first.values["event"] == "1997 Bermuda Bowl"
    assert second.values["site"] == "Hammamet TUN"
    assert second.values["deal"] == first.values["deal"]
    assert second.values["home_team"] == "USA 1"
    assert second.values["westname"] == "Rodwell"
    # the play section ends with the '*' marker, kept verbatim for the cleaner to ignore
    assert second.values["play"].endswith("SA *")


def test_pbn_latin1_names_are_decoded(test_data):
    data = (test_data / "capgemini1998_latin1.pbn").read_bytes()
    text, encoding = decode(data)
    assert encoding == "cp1252"
    records = list(read_pbn(text))
    assert records[-1].values["southname"] == "Lévy"
    assert records[-1].values["result"] == "NS 10"


def test_pbn_comments_and_escapes():
    text = (
        '% header comment\n[Event "Club \\"night\\""]\n[Deal "N:... ... ... ..."]\n'
        '[Auction "N"]\n1C {a comment\nover two lines} Pass ; rest of line\nPass Pass\n'
        '[Note "1:strong"]\n\n[Event "#"]\n[Board "2"]\n'
    )
    records = list(read_pbn(text))
    assert records[0].values["event"] == 'Club "night"'
    assert records[0].values["auction"] == "1C Pass Pass Pass"
    assert records[1].values["event"] == 'Club "night"'


def test_pbn_notes_and_commentary_belong_to_their_game():
    text = (
        '{the file\'s header}\n\n[Board "1"]\n[Deal "N:... ... ... ..."]\n{Story of board 1:\n'
        "    a diagram line\n}\n"
        '[Auction "N"]\n1C =1= 1S =2= Pass {first part} Pass {second\nover lines} Pass Pass\n'
        '[Note "1:clubs or 15-19 balanced"]\n[Note "2:0-5  hcp!"]\n[Play "E"]\nS2 S3 S4 S5\n*\n'
        '\n{Board 2 might be called routine.}\n[Board "2"]\n[Auction "N"]\nPass Pass Pass Pass\n'
    )
    first, second = read_pbn(text)
    # two Note tags are one game's two notes, not two games; the play stays with its game
    assert first.values["notes"] == "1:clubs or 15-19 balanced\n2:0-5 hcp!"
    assert first.values["play"] == "S2 S3 S4 S5 *"
    assert first.values["auction"] == "1C =1= 1S =2= Pass Pass Pass Pass"
    assert json.loads(first.values["commentary"]) == [
        "the file's header",
        "Story of board 1:\n    a diagram line",
        "first part",
        "second\nover lines",
    ]
    # a comment after a blank line is the next game's story
    assert json.loads(second.values["commentary"]) == ["Board 2 might be called routine."]
    assert "notes" not in second.values


def test_pbn_a_comment_closed_and_another_opened_on_one_line():
    text = '[Board "1"]\n[Play "W"]\nC2 {one} C9 {two\nstill two} CQ CA {three\nends} H2\n'
    [record] = read_pbn(text)
    assert record.values["play"] == "C2 C9 CQ CA H2"
    assert json.loads(record.values["commentary"]) == ["one", "two\nstill two", "three\nends"]


def test_pbn_annotated_bulletin_keeps_every_game_whole(shared_data):
    path = shared_data("pbn", "1998-12th_Cap_Gemini_World_Top_Tournament-ANNOTATED", "Cap98bu2.pbn")
    records = list(read_pbn(decode(path.read_bytes())[0]))
    # nine games, as the file's nine Board tags: a second Note tag once began a tenth game,
    # without a board, that took the second board 21's play; a comment closed and another
    # opened on one line let prose into a play
    boards = ["21", "21", "22", "23", "24", "25", "26", "26", "27"]
    assert [r.values.get("board") for r in records] == boards
    assert all(len(r.values["play"].split()) >= 17 for r in records)
    assert {token[:1] for r in records for token in r.values["play"].split()} <= set("SHDC-*")
    assert sum("commentary" in r.values for r in records) == 9


def test_pbn_games_without_blank_lines_are_split_on_repeated_tags():
    text = '[Event "A"]\n[Board "1"]\n[Event "B"]\n[Board "2"]\n'
    assert [r.values["event"] for r in read_pbn(text)] == ["A", "B"]


def test_lin_vugraph_both_rooms(test_data):
    records = list(read_lin((test_data / "vugraph-00070.lin").read_text()))
    assert len(records) == 32  # boards 1-16, open and closed
    open1, closed1 = records[0], records[1]
    assert (open1.values["room"], open1.values["board"]) == ("Open", "1")
    assert (closed1.values["room"], closed1.values["board"]) == ("Closed", "1")
    # pn| lists S, W, N, E for the open room, then the closed room
    assert open1.values["southname"] == "BRINK" and open1.values["eastname"] == "LAURIA"
    assert closed1.values["southname"] == "DUBOIN" and closed1.values["eastname"] == "DRIJVER"
    assert open1.values["contract"] == "3N" and open1.values["declarer"] == "E"
    assert open1.values["result"] == "10"  # mc|10|
    assert open1.values["dealer"] == "N" and open1.values["vulnerable"] == "0"
    assert open1.values["event"] == "12th Olympiads" and open1.values["home_team"] == "Netherlands"
    assert open1.play_layout == "played"
    assert open1.values["play"].split()[:4] == ["h3", "h6", "h9", "hA"]


def test_lin_commentary_and_alerts(test_data):
    records = list(read_lin((test_data / "usbf_head.lin").read_text()))
    first = records[0]
    # the calls as read, the alert on its call; its explanation (an|jacoby 2N|) is the note
    # of the third call
    assert first.values["auction"] == "1H p 3C! p 4H p p p"
    assert first.values["call_notes"] == "2:jacoby 2N"
    assert "caitlin" not in first.values["auction"] + first.values["play"]
    commentary = json.loads(first.values["commentary"])
    assert commentary[:2] == [
        "caitlin: Hi all",
        "vugraphzfk: Hi everyone and welcome back, this is the last segment for today",
    ]
    # the closed room's chat is its own, not the open room's
    assert json.loads(records[1].values["commentary"])[0] == "jlall: hi all"
    assert first.values["northname"] == "Rodwell"
    assert records[1].values["room"] == "Closed" and records[1].values["northname"] == "Martel"


def test_sql_dump_defects_are_recovered(test_data):
    records = list(read_sqldump((test_data / "defects_dump.sql").read_text()))
    assert len(records) == 8
    by_no = {record.record_no: record for record in records}
    assert by_no[1].values["scoring"] == "IMP;Cross"
    assert by_no[1].values["westname"] == "Adam Meredith"
    assert by_no[2].values["westname"] == "O'Brien"  # escaped with a backslash
    assert by_no[2].values["eastname"] == "D'Alessio"  # escaped by doubling
    assert by_no[2].values["northname"] == "O'Rourke"  # not escaped at all
    assert by_no[3].values["westname"] == "Smith J"  # stray backslash dropped
    assert by_no[4].values["description"] == "first halfsecond half"  # broken line joined
    assert by_no[5].values["westname"] == "'); DROP TABLE boards; --"
    assert by_no[5].values["eastname"] == "Robert'); ATTACH DATABASE 'x.db' AS y; --"
    assert by_no[6].parse_error.startswith("not a row")
    assert by_no[7].parse_error == "3 values for 30 columns"
    assert by_no[8].values["note"] == "it's a note; with semicolons"
    assert by_no[8].values["result"] == "8" and "id" not in by_no[8].values
    assert [record.line for record in records] == [2, 3, 4, 5, 7, 8, 9, 10]


def test_sniff():
    assert sniff(b'% PBN\n[Event "x"]\n') == "pbn"
    assert sniff(b"vg|x|\npn|a,b,c,d|") == "lin"
    assert sniff(b"INSERT INTO bridgedeals VALUES (1);") == "sql"
    assert sniff(b"# a readme\nnothing here") is None
    assert sniff(b"\x00\x01[Event") is None


def test_valet_travellers_with_names_and_deals(tmp_path, test_data):
    from pathlib import Path

    from bridgerank.cleaning.ingest.sources import discover
    from bridgerank.cleaning.ingest.valet import read_valet

    folder = test_data / "valet" / "2006-Euro" / "Men"
    found = [
        candidate.path.relative_to(folder).as_posix()
        for candidate in discover([str(folder)], [".txt", ".pbn"])
    ]
    assert found == ["names.txt", "scores.txt"]  # hands/ and the altnames/ copy are skipped
    source = folder / "scores.txt"
    records = list(read_valet(source.read_text(), source))
    assert len(records) == 24
    first = records[0].values
    assert first["event"] == "2006-Euro/Men" and first["stage"] == "round 1"
    assert first["northname"] == "MARSAL Reiner"  # id 103 in names.txt
    assert first["contract"] == "4SX" and first["declarer"] == "N" and first["result"] == "10"
    assert first["deal"] == "N:QT98652.Q864.93. 3.732.T74.J98654 KJ4.J5.KQ652.KQ7 A7.AKT9.AJ8.AT32"
    assert sniff(source.read_bytes()[:200]) == "valet"
    assert sniff((folder / "names.txt").read_bytes()[:200]) is None
    broken = list(read_valet("1|1|2|3|4|5|4S|N|10\nnot a line\n", Path(tmp_path) / "scores.txt"))
    assert broken[1].parse_error.startswith("not a traveller line")
    assert broken[0].values["northname"] == ""  # no names.txt beside it


def test_a_valet_part_is_read_with_its_own_names(shared_data):
    """2014-Euro/Men splits its results into scoresA.txt and scoresB.txt, each numbering its
    players afresh (namesA.txt, namesB.txt): a part's ids read against names.txt named the
    wrong players (id 106 is Loukas Zotos in part A, Simin Lassaberg in the whole)."""
    from bridgerank.cleaning.ingest.valet import read_valet

    folder = shared_data("travellers", "valet", "2014-Euro", "Men")
    part = folder / "scoresA.txt"
    first = next(iter(read_valet(part.read_text(), part))).values
    seats = [first[f"{seat}name"] for seat in ("north", "east", "south", "west")]
    assert seats == ["ZOTOS Loukas", "HELNESS Tor", "SAPOUNAKIS Aris", "HELGEMO Geir"]
    whole = folder / "scores.txt"
    assert any(
        record.values["northname"] == "ZOTOS Loukas"
        and record.values["eastname"] == "HELNESS Tor"
        and (record.values["stage"], record.values["board"]) == ("round 1", "17")
        for record in read_valet(whole.read_text(), whole)
    )
