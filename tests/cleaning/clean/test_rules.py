"""Every reason code and derived field of the cleaning rules, from the case table."""

import json

import pytest

from bridgerank.cleaning.clean.reasons import REASONS
from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.core.settings import default_settings
from tests.paths import TEST_DATA

CLEAN = default_settings().clean
CASES = json.loads((TEST_DATA / "clean_cases.json").read_text())


def _record(case):
    values = dict(CASES["bases"][case["base"]]["values"])
    values.update(case["change"])
    return values


@pytest.mark.parametrize("case", CASES["cases"], ids=[case["desc"] for case in CASES["cases"]])
def test_case(case):
    outcome = clean_record(_record(case), case.get("layout", "seat"), settings=CLEAN)
    assert [list(issue[:2]) for issue in outcome.issues] == case["issues"]
    board_dropped = any(level == "board" for level, _ in case["issues"])
    assert (outcome.board is None) == board_dropped
    for name, expected in case.get("fields", {}).items():
        assert outcome.board[name] == expected, name


def test_every_reason_code_has_a_case():
    """Each reason the stage can record is exercised by at least one case (the two that
    need the stage's cross-record view are tested in tests/pipeline/test_end_to_end.py, a
    team match's in tests/cleaning/clean/test_team_matches.py)."""
    covered = {code for case in CASES["cases"] for _, code in case["issues"]}
    stage_only = {"unparseable_record", "duplicate_record"}
    records = {reason.code for reason in REASONS if reason.level != "match"}
    assert records - covered == stage_only


def test_lin_layout_reads_cards_in_playing_order():
    values = _record({"base": "bermuda", "change": {}})
    # The same first two tricks in playing order: trick 2 is led by South, who won trick 1.
    values["play"] = "sk s5 s6 s3 hk h2 h8 h9"
    outcome = clean_record(values, "played", settings=CLEAN)
    assert outcome.board["play_order"] == "SWNESWNE"
    assert outcome.board["claim"] == 8


def test_token_counts_are_collected():
    from collections import Counter

    counts = Counter()
    clean_record(
        _record({"base": "bermuda", "change": {"auction": "1C X 3CPASS Pass Pass =1="}}),
        token_counts=counts,
        settings=CLEAN,
    )
    assert counts[("call", "3CPASS", "normalised")] == 1
    assert counts[("call", "=1=", "ignored")] == 1
    assert counts[("card", "SK", "valid")] == 1
