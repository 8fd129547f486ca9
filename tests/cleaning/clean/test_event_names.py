"""One event, one name: the files of the 1955 Bermuda Bowl write "1955 Bermuda Bowl Final" and
"Bermuda Bowl Final 1955", which the pages showed as two events; the boards now keep one form
(the year last), and what a user wrote against the other form still reaches them."""

import sqlite3

import pytest
from click.testing import CliRunner

from bridgerank.cleaning.clean.fields import event_name
from bridgerank.cleaning.match.overrides import read_overrides
from bridgerank.pipeline.cli import main
from tests.paths import TESTS


@pytest.mark.parametrize(
    "written,kept",
    [
        ("1955 Bermuda Bowl Final", "Bermuda Bowl Final 1955"),
        ("Bermuda Bowl Final 1955", "Bermuda Bowl Final 1955"),
        ("  2001 ING  BANK Top Circuit ", "ING BANK Top Circuit 2001"),
        ("Bermuda Bowl 1955 - Seg 1", "Bermuda Bowl 1955 - Seg 1"),
        ("Orbis 2000 Bermuda Bowl", "Orbis 2000 Bermuda Bowl"),  # no year first: as written
        ("1999 MSN Cup 2000", "1999 MSN Cup 2000"),  # two years: which one is the event's?
        ("2005-World/Men", "2005-World/Men"),  # Valet's folders
        ("1955", "1955"),
        ("", ""),
        (None, ""),
    ],
)
def test_an_event_name_is_kept_with_its_year_last(written, kept):
    assert event_name(written) == kept
    assert event_name(kept) == kept


def test_the_sample_bermuda_bowl_is_one_event_under_one_name(tmp_path):
    sample = TESTS.parent / "data" / "sample" / "1955-Bermuda_Bowl.pbn"
    result = CliRunner().invoke(main, ["run", str(sample), "--to", "clean", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "bridgerank.db") as db:
        events = dict(db.execute("select event, count(*) from boards group by event"))
    # the file's four names: "1955 Bermuda Bowl Final" (320 boards) joins "Bermuda Bowl Final
    # 1955" (64), "1955 Bermuda Bowl" (31) becomes "Bermuda Bowl 1955"; the segment stays
    assert events == {
        "Bermuda Bowl Final 1955": 384,
        "Bermuda Bowl 1955": 31,
        "Bermuda Bowl 1955 - Seg 1": 32,
    }


def test_an_override_written_with_the_year_first_reaches_the_boards(tmp_path):
    path = tmp_path / "overrides.csv"
    path.write_text("action,name,event,target\nsame,Milton Elleby,1955 Bermuda Bowl Final,x\n")
    overrides = read_overrides(path)
    assert overrides.same_as("Milton Elleby", "Bermuda Bowl Final 1955") == "x"
