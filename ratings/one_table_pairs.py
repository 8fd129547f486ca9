"""Pairs in events played at one table a deal, held out: each pair's IMPs against the double
dummy par over its boards of a session, predicted walk-forward by date.

A vugraph pairs event records each deal at one table, so it has no field to matchpoint: a
pair's result is North-South's score less par, turned to IMPs, from its side, summed over the
boards it played that session (:func:`~bridgerank.ratings.games.single_table_games`). The
team headline's strengths (IMPs per board a player adds to a side,
:func:`~bridgerank.ratings.team_fit.joint_system`) predict it as ``sum(theta_pair) -
sum(theta_opponents)`` over those boards - what ``bridgerank predict`` forecasts
(:mod:`~bridgerank.ratings.imp_forecast`) - and this study checks that forecast on held-out
sessions beside a coin (every pair level with par) and each player's past IMPs against par.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping

import numpy as np

from bridgerank.ratings.evidence_variants import evidence_variants
from bridgerank.ratings.field import rows_where
from bridgerank.ratings.holdout import Forecast, Kind, Target, validation_rows, walk_forward
from bridgerank.ratings.registry import Method, Registry, StudyInputs, registry
from bridgerank.ratings.summaries import OneTableValidationSummary

__all__ = ["PairBoards", "PairUnits", "pair_forecast", "pair_target", "pair_units", "study_pairs"]

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings, TeamSettings
    from bridgerank.ratings.team_boards import TeamBoards
    from bridgerank.ratings.team_evidence import OneTableBoards, TeamEvidence


@dataclass
class PairBoards:
    """Boards played at one table as held-out data: North-South's and East-West's pair
    (player indices), North-South's IMPs against par, the session (an index into
    ``sessions``: event and period) and the period index of each."""

    players: list[Hashable]
    north_south: np.ndarray  # (boards, 2)
    east_west: np.ndarray  # (boards, 2)
    imps: np.ndarray
    session: np.ndarray
    period: np.ndarray
    periods: list[str]
    sessions: list[tuple[str, str]]  # each session's event and period

    def __len__(self) -> int:
        return len(self.imps)

    def subset(self, mask: np.ndarray) -> PairBoards:
        """The boards where ``mask`` holds (player and session numbering kept)."""
        return rows_where(self, mask)

    @classmethod
    def of(cls, one_table: OneTableBoards) -> PairBoards:
        """From the team evidence's boards at one table (sorted by period)."""
        index: dict[Hashable, int] = {}
        north_south = [[index.setdefault(p, len(index)) for p in ns] for ns, _ in one_table.pairs]
        east_west = [[index.setdefault(p, len(index)) for p in ew] for _, ew in one_table.pairs]
        events = one_table.event if one_table.event is not None else [""] * len(one_table)
        sessions: dict[tuple[str, str], int] = {}
        session = [
            sessions.setdefault((event, period), len(sessions))
            for event, period in zip(events, one_table.period)
        ]
        periods = sorted(set(one_table.period))
        number = {period: position for position, period in enumerate(periods)}
        return cls(
            players=sorted(index, key=index.__getitem__),
            north_south=np.array(north_south, dtype=np.int64).reshape(-1, 2),
            east_west=np.array(east_west, dtype=np.int64).reshape(-1, 2),
            imps=np.asarray(one_table.imps, dtype=float),
            session=np.array(session, dtype=np.int64),
            period=np.array([number[period] for period in one_table.period], dtype=np.int64),
            periods=periods,
            sessions=list(sessions),
        )


@dataclass
class PairUnits:
    """Each pair-session of some boards (a pair's boards of one session): the pair (player
    indices), its session, its boards, its IMPs against par from its side, and the board
    weights of every player (+1 a board on the pair's side, -1 on its opponents'): a forecast
    from any strengths is ``weights @ strengths``."""

    pairs: list[tuple[int, int]]
    session: np.ndarray
    boards: np.ndarray
    actual: np.ndarray
    weights: np.ndarray  # (units, players)


def pair_units(data: PairBoards) -> PairUnits:
    """The pair-sessions of ``data``, in order of first appearance: two a board (North-South's
    and East-West's)."""
    index: dict[tuple[int, tuple[int, int]], int] = {}
    entries = []
    for ns, ew, session, imps in zip(data.north_south, data.east_west, data.session, data.imps):
        for own, other, result in ((ns, ew, imps), (ew, ns, -imps)):
            key = (int(session), (int(min(own)), int(max(own))))
            entries.append((index.setdefault(key, len(index)), own, other, result))
    weights = np.zeros((len(index), len(data.players)))
    actual = np.zeros(len(index))
    boards = np.zeros(len(index), dtype=np.int64)
    for unit, own, other, result in entries:
        # np.add.at: a name in both seats of a pair counts twice, as in the fit's rows
        np.add.at(weights[unit], own, 1.0)
        np.add.at(weights[unit], other, -1.0)
        actual[unit] += result
        boards[unit] += 1
    return PairUnits(
        [pair for _, pair in index],
        np.array([session for session, _ in index], dtype=np.int64),
        boards,
        actual,
        weights,
    )


def pair_target(test: PairBoards) -> Target:
    """Every pair-session of ``test`` and its IMPs against par; resampled by session."""
    units = pair_units(test)
    return Target(
        units.actual, units.session, units.boards, np.full(len(units.actual), test.period[0])
    )


def pair_forecast(
    units: PairUnits, theta: np.ndarray, sd: np.ndarray | None = None, board_variance: float = 0.0
) -> Forecast:
    """Each pair-session's IMPs against par from strengths ``theta`` (one a player): the
    pair's less its opponents', board by board; with ``sd``, the variance of its boards'
    luck (``board_variance`` each) and of the strengths."""
    value = units.weights @ theta
    if sd is None:
        return Forecast(value)
    return Forecast(value, units.boards * board_variance + (units.weights**2) @ sd**2)


def coin_pairs(train: PairBoards, test: PairBoards, target: Target | None = None) -> Forecast:
    """Every pair level with par."""
    return Forecast(np.zeros(len(pair_units(test).actual)))


def past_average(train: PairBoards, test: PairBoards, target: Target | None = None) -> Forecast:
    """Each player's past IMPs against par per board from their side, halved (a board's
    result is the pair's); a player never seen: 0."""
    count = len(train.players)
    who = np.concatenate([train.north_south.ravel(), train.east_west.ravel()])
    credit = np.concatenate([np.repeat(train.imps, 2), -np.repeat(train.imps, 2)])
    total = np.bincount(who, weights=credit, minlength=count)
    played = np.bincount(who, minlength=count)
    return pair_forecast(pair_units(test), total / np.maximum(played, 1) / 2)


def headline_pairs(
    team: TeamBoards, evidence: TeamEvidence, settings: TeamSettings | None = None
) -> Callable[[PairBoards, PairBoards, Target | None], Forecast]:
    """The team headline (:func:`~bridgerank.ratings.team_fit.joint_system`) fitted on
    the team boards and the one-table boards of the dates before each test date, with the
    test's players beside them; its choices made on those team boards, as for the matches
    (on the grids of ``settings``, ``[rate.teams]``; None: the shipped defaults')."""
    from bridgerank.ratings.team_fit import choose_joint, joint_system, team_settings

    teams = team_settings(settings)
    chosen: dict[int, tuple[float, float]] = {}

    def predict(train: PairBoards, test: PairBoards, target: Target | None = None) -> Forecast:
        before = test.periods[int(test.period[0])]
        earlier = np.array([period < before for period in team.periods], dtype=bool)
        team_train = team.subset(earlier[team.period])
        if not len(team_train):
            return coin_pairs(train, test)
        seen = int(earlier.sum())  # the choice is the same for every test of these team dates
        if seen not in chosen:
            chosen[seen] = choose_joint(
                team_train, evidence, None, teams.one_table_weights, teams.joint_penalties
            )
        penalty, weight = chosen[seen]
        players, system = joint_system(team_train, evidence, before, weight, extra=test.players)
        fit = system.fit(penalty)
        column = {player: number for number, player in enumerate(players)}
        at = np.array([column[player] for player in test.players], dtype=np.int64)
        theta, sd = fit.theta[at], fit.sd[at]
        # the noise of a board against par: the training boards' around these strengths
        residual = train.imps - (
            theta[train.north_south].sum(axis=1) - theta[train.east_west].sum(axis=1)
        )
        variance = float(residual @ residual / max(len(residual) - 1, 1))
        return pair_forecast(pair_units(test), theta, sd, variance)

    return predict


PAIRS: Kind[PairBoards] = Kind(
    "one-table pairs",
    pair_target,
    ("pearson", "rmse"),
    (0.8,),
    ("rmse",),
    lambda run: {"pairs": len(run), "boards": int(run.boards.sum())},
)

HEADLINE = Method(
    "headline",
    "IMP headline rating (the team fit's strengths, as bridgerank predict forecasts a pair)",
    lambda data, inputs: (
        headline_pairs(inputs.team_boards, inputs.team_evidence, inputs.rate.teams)
        if inputs.team_boards is not None and inputs.team_evidence is not None
        else None
    ),
)


def _pairs_on(evidence: TeamEvidence, inputs: StudyInputs) -> Callable | None:
    """The headline's pair forecast on ``evidence`` (a variant of the study's)."""
    if inputs.team_boards is None:
        return None
    return headline_pairs(inputs.team_boards, evidence, inputs.rate.teams)


_VARIANTS = evidence_variants(_pairs_on)
HEADLINE_NO_DD = _VARIANTS["headline_no_dd"]
HEADLINE_CARDS = _VARIANTS["headline_cards"]  # the card-level dd question
HEADLINE_FIELDS = _VARIANTS["headline_fields"]  # the scales tied
COIN = Method("coin", "every pair level with par", lambda data, inputs: coin_pairs)
PAST_AVERAGE = Method(
    "imp_average",
    "each player's past IMPs against par per board",
    lambda data, inputs: past_average,
)


def study_pairs(
    data: TeamBoards,
    evidence: TeamEvidence,
    bootstrap: int = 10_000,
    min_periods: int | None = None,
    settings: RateSettings | None = None,
    points: Mapping[str, float] | None = None,
    methods: Registry | None = None,
) -> tuple[list[dict[str, Any]], OneTableValidationSummary | None]:
    """The ``one_table_validation`` rows (one per method of the ``one_table`` registry) and
    the headline's scores; none without boards at one table on ``min_periods`` dates (None:
    ``[rate.teams] min_periods`` of ``settings``, or of the shipped defaults), or without
    team boards (the headline's strengths are fitted on them)."""
    one_table = evidence.one_table
    if one_table is None or not len(one_table) or not len(data):
        return [], None
    pairs = PairBoards.of(one_table)
    inputs = StudyInputs(settings, points or {}, team_evidence=evidence, team_boards=data)
    if min_periods is None:
        min_periods = inputs.rate.teams.min_periods
    if len(np.unique(pairs.period)) < min_periods:
        return [], None
    run = walk_forward(pairs, (methods or registry("one_table")).make(pairs, inputs), pair_target)
    if not len(run):
        return [], None
    rows = validation_rows(run, PAIRS, "headline", bootstrap)
    headline = next(row for row in rows if row["method"] == "headline")
    summary = OneTableValidationSummary(
        pairs=headline["pairs"],
        pearson=headline["pearson"],
        rmse=headline["rmse"],
        coverage_80=headline["coverage_80"],
    )
    return rows, summary
