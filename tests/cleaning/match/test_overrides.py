"""A user's corrections to name resolution: the overrides file, read strictly, applied before
any evidence, and rerunning exactly what depends on it."""

import sqlite3

import pytest
from click.testing import CliRunner

from bridgerank.cleaning.match.overrides import read_overrides
from bridgerank.core.errors import SettingsError
from bridgerank.pipeline.cli import main


def test_a_file_of_corrections_is_read(tmp_path):
    path = tmp_path / "o.csv"
    path.write_text(
        "action,name,event,target\n"
        "same,Weinstein,*,wbf:Steve Weinstein\n"
        "different,Moss,Forbo 2002,\n"
        "not a person,Team Smith,Monday,\n"
    )
    overrides = read_overrides(path)
    assert overrides.same_as("Weinstein", "any event") == "wbf:Steve Weinstein"
    assert overrides.is_different("Moss", "Forbo 2002") and not overrides.is_different("Moss", "X")
    assert overrides.is_nobody("Team Smith", "Monday")
    assert read_overrides(None).same == {}


@pytest.mark.parametrize(
    "text,message",
    [
        ("name,action\n", r"o\.csv: the name overrides' header must be action,name,event,target"),
        ("action,name,event,target\nmerge,A,*,B\n", r"o\.csv:2: action 'merge' must be one of"),
        ("action,name,event,target\nsame,A,*,\n", r"o\.csv:2: 'same' needs a target"),
        ("action,name,event,target\n\ndifferent,A,,\n", r"o\.csv:3: a correction names a name"),
        # review 4's defect 10: contradictions, cycles and a field past any real one
        (
            "action,name,event,target\nsame,Bill Rosen,*,wbf:William Rosen\n"
            "not a person,Bill Rosen,*,\n",
            r"o\.csv:3: 'Bill Rosen' in '\*' is said to be 'not a person' here and the same as "
            r"'wbf:William Rosen' on line 2",
        ),
        (
            "action,name,event,target\nsame,Bill Rosen,*,Lew Mathe\nsame,Lew Mathe,*,Bill Rosen\n",
            r"o\.csv: 'same' rows on lines 2, 3 go round in a circle "
            r"\(Bill Rosen -> Lew Mathe -> Bill Rosen\)",
        ),
        ("action,name,event,target\nsame," + "x" * 200_000 + ",*,B\n", r"o\.csv:2: "),
    ],
)
def test_a_bad_row_is_one_error_naming_the_line(tmp_path, text, message):
    path = tmp_path / "o.csv"
    path.write_text(text)
    with pytest.raises(SettingsError, match=message) as raised:
        read_overrides(path)
    assert raised.value.hint == "Fix the overrides file ([match] overrides) and run again"
    assert "\n" not in str(raised.value)


def test_the_same_row_twice_is_no_contradiction_and_dev_zero_is_refused_at_once(tmp_path):
    path = tmp_path / "o.csv"
    path.write_text("action,name,event,target\n" + "same,A,*,wbf:B\n" * 2)
    assert read_overrides(path).same_as("A", "e") == "wbf:B"
    with pytest.raises(SettingsError, match="larger than 16 MiB"):
        read_overrides("/dev/zero")


def _weinstein(out):
    with sqlite3.connect(out / "bridgerank.db") as db:
        return db.execute(
            "select m.reason, w.name from name_matches m left join wbf_players w "
            "on w.id = m.wbf_id where m.raw_name = 'Weinstein'"
        ).fetchall()


def test_an_override_changes_the_resolution_and_reruns_what_depends_on_it(tmp_path):
    out = tmp_path / "out"
    runner = CliRunner()
    first = runner.invoke(main, ["run", "--to", "rate", "--out", str(out)])
    assert first.exit_code == 0, first.output
    # two listed Weinsteins, nothing in the 2010 USBF file to tell them apart
    assert _weinstein(out) == [("short name, no context", None)]
    overrides = tmp_path / "overrides.csv"
    overrides.write_text("action,name,event,target\nsame,Weinstein,*,wbf:Steve Weinstein\n")
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[match]\noverrides = "{overrides}"\n')
    corrected = runner.invoke(
        main, ["run", "--to", "rate", "--out", str(out), "--config", str(settings)]
    )
    assert corrected.exit_code == 0, corrected.output
    assert _weinstein(out) == [("override: same person", "Steve Weinstein")]
    # exactly what reads the names runs again: match, then dds's counters and rate
    assert "ingest: no sources given; using what is stored" in corrected.output
    assert "clean: up to date, nothing to do" in corrected.output
    for stage in ("match", "dds", "rate"):
        assert f"{stage}: up to date" not in corrected.output, stage
        assert f"\n{stage}: " in "\n" + corrected.output, stage
    again = runner.invoke(
        main, ["run", "--to", "rate", "--out", str(out), "--config", str(settings)]
    )
    for stage in ("clean", "match", "dds", "rate"):
        assert f"{stage}: up to date, nothing to do" in again.output, again.output
    overrides.write_text("action,name,event,target\nnot a person,Weinstein,*,\n")
    edited = runner.invoke(
        main, ["run", "--to", "match", "--out", str(out), "--config", str(settings)]
    )
    assert "match: up to date" not in edited.output
    assert _weinstein(out) == [("override: not a person", None)]
    # a target that names no one is a typo: applied, it would make up a player
    for target, where in (("Stve Weinstien", "hand records"), ("wbf:Stve Weinstien", "WBF lists")):
        overrides.write_text(f"action,name,event,target\nsame,Weinstein,*,{target}\n")
        typo = runner.invoke(
            main, ["run", "--to", "match", "--out", str(out), "--config", str(settings)]
        )
        assert typo.exit_code == 2  # the settings' error, as every bad overrides file
        assert (
            f"error: name overrides: the target '{target}' is no name of the {where}" in typo.output
        ), typo.output
        assert "Fix the overrides file" in typo.output
        assert "Resume with" not in typo.output
    assert _weinstein(out) == [("override: not a person", None)]  # the last good run stays


def test_names_lists_the_doubtful_resolutions_with_their_evidence(tmp_path):
    """`bridgerank names` on the sample: the weakly resolved first, with their evidence."""
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(main, ["run", "--to", "match", "--out", str(out)]).exit_code == 0
    listed = runner.invoke(main, ["names", "--out", str(out)])
    assert listed.exit_code == 0, listed.output
    lines = " ".join(listed.output.split())
    assert (
        "Weinstein in USBF SF A 2010 (15 seats): -> Weinstein (not Howard Weinstein); "
        "short name, no context; partners Levin" in lines
    )
    assert (
        "Levin in USBF SF A 2010 (15 seats): -> Bobby Levin; surname only, country agrees; "
        "partners Weinstein" in lines
    )
    # a spelling joined to its person by a partner in common, with that partner
    assert (
        "Milton Elleby in Bermuda Bowl Final 1955 (4 seats): -> Milton Ellenby; linked: shared "
        "partner; partners Bill Rosen" in lines
    )
    # full names matched exactly are not doubts, nor the spelling a typo was joined to
    assert "Lew Mathe in" not in lines and "Clifford Bishop in" not in lines
    assert "Milton Ellenby in" not in lines
    assert (
        len(runner.invoke(main, ["names", "--limit", "2", "--out", str(out)]).output.splitlines())
        <= 4
    )
