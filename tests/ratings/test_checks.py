"""What a selector must know and fairness to partners (ratings.headline.checks), on a
simulated club whose players' true strengths are known and where partners do not matter
beyond their strengths: the checks must find it fair, and reliability must grow with boards."""

from __future__ import annotations

import pytest

from bridgerank.ratings.headline.checks import (
    rating_checks,
    regular_gap,
    reliability_by_band,
    strong_partner_rose,
)
from bridgerank.ratings.headline.fit import fit_headline
from bridgerank.ratings.headline.sessions import HEADLINE, session_target
from bridgerank.ratings.holdout import walk_forward
from bridgerank.ratings.registry import StudyInputs
from tests.ratings.club_tables import simulated_club


@pytest.fixture(scope="module")
def club():
    tables = simulated_club()
    return tables, fit_headline(tables)


def test_reliability_grows_with_boards_played(club):
    tables, fit = club
    rows = {row["band"]: row for row in reliability_by_band(tables, fit.penalty)}
    # the occasional players have 100-300 boards, the regulars 300-1000
    assert rows["100-299"]["n"] > 10 and rows["300-999"]["n"] > 10
    assert 0 < rows["100-299"]["value"] < rows["300-999"]["value"] < 1


def test_a_fair_world_passes_both_partner_checks(club):
    tables, fit = club
    periods = tables.period[tables.period >= 50]
    strong = strong_partner_rose(tables, periods, fit.penalty)
    assert strong["n"] > 30 and 0.3 < strong["value"] < 0.7
    gap = regular_gap(tables, fit)
    assert gap["n"] > 10 and abs(gap["value"]) < 1 and gap["low"] < 0 < gap["high"]


def test_every_check_is_a_row_of_the_table(club):
    tables, fit = club
    late = tables.subset(tables.period >= 40)
    run = walk_forward(
        late, {"headline": HEADLINE.make(late, StudyInputs(None, {}))}, session_target
    )
    rows = rating_checks(late, fit_headline(late), run)
    measures = {row["measure"] for row in rows}
    assert {"reliability", "coverage_80", "strong_partner_rose", "regular_gap"} <= measures
    assert all(set(row) == {"measure", "band", "value", "low", "high", "n"} for row in rows)
    cover = [row for row in rows if row["measure"] == "coverage_80" and row["n"]]
    assert sum(row["n"] for row in cover) == len(run)
