"""The rate stage's typed summary: its closing lines and status line, and the ledger's JSON of
this version and of earlier ones read back."""

from __future__ import annotations

import json

from bridgerank.ratings.summaries import (
    CycleSummary,
    GameSummary,
    HeadlineSummary,
    HeadlineValidationSummary,
    MatchSummary,
    MatchValidationSummary,
    RateSummary,
    ResultsSummary,
    SkillSummary,
)

SUMMARY = RateSummary(
    seconds=12.345,
    results=ResultsSummary(
        team_games=1234,
        single_table_games=1,
        pair_rankings=55,
        players=321,
        validation={"boards: hbt": 0.6812, "boards: gbt": 0.69, "pair rankings: dlo": 0.66},
        skill_o_meter=SkillSummary(k=12.3, sigma=45.6, p=0.31, players=40),
    ),
    headline=HeadlineSummary(
        tables=1500,
        players=200,
        sessions=30,
        penalty=0.5,
        residual_variance=0.08,
        form_variance=2.0,
        validation=HeadlineValidationSummary(1000, 0.3, 5.5, 0.79),
    ),
    matches=MatchSummary(100, 20, MatchValidationSummary(30, None, 12.34, 0.8)),
    cycles=CycleSummary([GameSummary("Teams: X", "team", "hybrid", 12, 0.8, 0.7, 0.9, "elo")]),
)


def test_the_closing_lines_and_the_status_line():
    assert SUMMARY.lines() == [
        "rate: 321 players rated in 12.3 s from 1,234 team boards, 55 pair rankings, "
        "1 board vs par",
        "  held-out log-loss per board (a coin: 0.693): boards: hbt 0.681, gbt 0.690; "
        "pair rankings: dlo 0.660",
        "  headline rating: 200 players from 1,500 matchpointed tables in 30 sessions "
        "(penalty 0.5)",
        "  held-out sessions (1,000 pair-sessions, walk-forward): Pearson 0.300, RMSE 5.50 "
        "points, 80% intervals cover 79%",
        "  held-out team matches (30, walk-forward): IMP headline Pearson -, RMSE 12.3 IMPs",
        "  who beats whom, Teams: X (12): hybrid, 80% transitive (a transitive game on these "
        "boards: 70-90%)",
        "  skill-o-meter: K* 12.30, rating spread 45.6 over 40 regular players: like a game "
        "decided by skill 31% of the time",
    ]
    assert SUMMARY.brief() == "321 players from 1,234 team boards and 55 pair rankings"


def test_a_study_that_found_nothing_says_so_in_fewer_lines():
    empty = RateSummary(
        headline=HeadlineSummary(tables=3, penalty=1.0, not_validated="fewer than 4 dates"),
        matches=MatchSummary(not_validated="fewer than 4 dates of team matches"),
    )
    assert empty.lines()[1:] == [
        "  headline rating: 0 players from 3 matchpointed tables in 0 sessions (penalty 1)",
        "  held-out sessions: fewer than 4 dates",
    ]


def test_the_ledgers_json_reads_back_and_so_does_an_earlier_versions():
    assert RateSummary.from_json(json.loads(json.dumps(SUMMARY.to_json()))) == SUMMARY
    # the untyped summary of earlier versions: the reasons in place of the validation, the
    # cycles keyed by game, an empty skill-o-meter for none
    old = {
        "team_games": 6,
        "pair_rankings": 2,
        "players": 8,
        "skill_o_meter": {},
        "seconds": 1.0,
        "headline": {"tables": 4, "validation": "fewer than 4 dates: not validated"},
        "matches": {"team_boards": 6, "validation": "fewer than 4 dates of team matches"},
        "cycles": {"Pairs": {"entity": "pair", "kind": "transitive", "transitive_share": 1.0}},
        "fingerprint_parts": {"code": "x"},
    }
    read = RateSummary.from_json(old)
    assert read.brief() == "8 players from 6 team boards and 2 pair rankings"
    assert read.results.skill_o_meter is None
    assert read.headline.validation is None
    assert read.headline.not_validated == "fewer than 4 dates: not validated"
    assert read.matches.not_validated == "fewer than 4 dates of team matches"
    assert read.cycles.games == [GameSummary("Pairs", "pair", "transitive", 0, 1.0)]
