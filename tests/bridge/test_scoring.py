"""Scoring: every contract x doubling x vulnerability x tricks against endplay where the rules
agree (from 1988 on), and the pre-1988 undertrick table by hand."""

import itertools

import pytest

from bridgerank.bridge.scoring import (
    contract_score,
    matchpoint_share,
    north_south_score,
    score,
    scored_in_matchpoints,
)

endplay_types = pytest.importorskip("endplay.types")
Contract, Denom, Penalty, Player, Vul = (
    endplay_types.Contract,
    endplay_types.Denom,
    endplay_types.Penalty,
    endplay_types.Player,
    endplay_types.Vul,
)
DENOMS = {
    "C": Denom.clubs,
    "D": Denom.diamonds,
    "H": Denom.hearts,
    "S": Denom.spades,
    "N": Denom.nt,
}
PENALTIES = (Penalty.passed, Penalty.doubled, Penalty.redoubled)


def test_every_result_equals_endplay_from_1988():
    checked = 0
    for level, strain, doubled, vulnerable, tricks in itertools.product(
        range(1, 8), "CDHSN", range(3), (False, True), range(14)
    ):
        theirs = Contract(
            level=level,
            denom=DENOMS[strain],
            declarer=Player.north,
            penalty=PENALTIES[doubled],
            result=tricks - level - 6,
        )
        expected = theirs.score(Vul.ns if vulnerable else Vul.none)
        assert score(level, strain, doubled, vulnerable, tricks, 1988) == expected
        assert score(level, strain, doubled, vulnerable, tricks, None) == expected
        checked += 1
    assert checked == 7 * 5 * 3 * 2 * 14


@pytest.mark.parametrize(
    "contract,vulnerable,tricks,year,expected",
    [
        # non-vulnerable doubled undertricks: 100, 300, 500, then +300 each from 1988 ...
        ("4SX", False, 6, 1988, -800),
        ("4SX", False, 5, 1988, -1100),
        # ... but +200 each up to 1987
        ("4SX", False, 6, 1987, -700),
        ("4SX", False, 5, 1955, -900),
        ("4SR", False, 6, 1955, -1400),
        # the first three undertricks and vulnerable ones are the same in both eras
        ("4SX", False, 7, 1955, -500),
        ("4SX", True, 6, 1955, -1100),
        ("4S", False, 6, 1955, -200),
        # an unknown year (None, or the thesis's 0) is scored by the current rules
        ("4SX", False, 6, None, -800),
        ("4SX", False, 6, 0, -800),
        # made contracts by hand: game, partscore, slams, insult, overtricks
        ("3N", False, 9, None, 400),
        ("3N", True, 10, None, 630),
        ("2SX", False, 8, None, 470),
        ("1NR", True, 8, None, 1160),
        ("6H", True, 12, None, 1430),
        ("7NR", True, 13, None, 2980),
        ("1C", False, 13, None, 190),
        ("5DX", False, 11, None, 550),
    ],
)
def test_by_hand(contract, vulnerable, tricks, year, expected):
    assert contract_score(contract, vulnerable, tricks, year) == expected


def test_north_south_score_takes_the_declaring_sides_vulnerability_and_sign():
    # 4S making 10: North non-vulnerable (East-West vulnerable) +420; East vulnerable -620.
    assert north_south_score(4, "S", 0, 0, False, True, 10) == 420
    assert north_south_score(4, "S", 0, 1, False, True, 10) == -620
    # 3NT doubled two down by West, East-West non-vulnerable: North-South +300.
    assert north_south_score(3, "N", 1, 3, True, False, 7) == 300


def test_a_matchpoint_share_counts_each_table_beaten_and_half_each_tie():
    assert matchpoint_share(620, [600, 620, 650]) == 0.5
    assert matchpoint_share(-50, [-100, -100]) == 1.0
    assert matchpoint_share(-200, [-150, -110, 50, 50]) == 0.0
    with pytest.raises(ValueError):
        matchpoint_share(100, [])


@pytest.mark.parametrize(
    "tag, matchpoints",
    [("MP", True), ("Matchpoints", True), ("MatchPoints", True), ("##MP", True)]
    + [("IMP", False), ("##IMP", False), ("BAM", False), ("", False), (None, False)],
)
def test_the_scoring_tags_that_name_matchpoints(tag, matchpoints):
    # the spellings the corpus's PBN files use
    assert scored_in_matchpoints(tag) is matchpoints
