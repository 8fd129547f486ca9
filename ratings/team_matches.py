"""The headline rating of team play: IMPs per board, and its validation on held-out matches.

Every team board played in both rooms (:func:`games.team_games`) is one row: team A (the
open room's North-South pair and the closed room's East-West pair) against team B, the
outcome team A's IMPs. A player's strength ``theta`` is the IMPs per board the player adds to
a team: team A is expected ``sum(theta_A) - sum(theta_B)`` IMPs. Strengths are ridge
estimates (Gaussian prior), fitted in one sparse least-squares solve; the penalty is chosen
on the training dates alone (earlier three quarters against the latest quarter, by match
error).

A *match* is every board of one event and date between the same two teams: boards join when
they share a player on each side (a match's segments, whatever line-ups each fields), never a
team's other match that day. Its margin is team A's IMPs summed over its boards, each board
oriented to the same team. Validation is walk-forward by date, as for pair sessions: each
later date's matches are predicted by methods re-fitted on all earlier dates.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import lsqr

from bridgerank.bridge.scoring import imps
from bridgerank.core.disjoint import DisjointSets
from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import field_tables, period_of
from bridgerank.ratings.games import team_games
from bridgerank.ratings.holdout import (
    Forecast,
    Kind,
    Predict,
    Target,
    choose_on_latest_quarter,
    pearson,
    score,
    validation_rows,
    walk_forward,
)
from bridgerank.ratings.registry import Method, StudyInputs, registry
from bridgerank.ratings.summaries import MatchSummary, MatchValidationSummary
from bridgerank.ratings.team_evidence import (
    EVIDENCE_VARIANTS,
    OneTableBoards,
    PlayerRecords,
    TeamEvidence,
)

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings, TeamSettings
    from bridgerank.ratings.card_evidence import CardCounts
    from bridgerank.ratings.dd_prior import BoardEvidence


def _teams(settings: TeamSettings | None) -> TeamSettings:
    """``[rate.teams]``: the given, or the shipped defaults for a call without settings."""
    return settings if settings is not None else default_settings().rate.teams


@dataclass
class TeamBoards:
    """Team boards as arrays: ``players[g]`` are the 8 player indices of board ``g`` (team A's
    four, then team B's), ``imps`` team A's IMPs, ``match`` and ``period`` indices, and
    ``sign`` +1 when team A is the match's reference team, -1 when it is the other;
    ``matches[m]`` is match ``m``'s event and period."""

    players: list[Hashable]
    seats: np.ndarray
    imps: np.ndarray
    match: np.ndarray
    sign: np.ndarray
    period: np.ndarray
    periods: list[str]
    matches: list[tuple[str, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.imps)

    def subset(self, mask: np.ndarray) -> TeamBoards:
        """The boards where ``mask`` holds (player and match numbering kept)."""
        return TeamBoards(
            self.players,
            self.seats[mask],
            self.imps[mask],
            self.match[mask],
            self.sign[mask],
            self.period[mask],
            self.periods,
            self.matches,
        )


def team_boards(
    boards: Iterable[Mapping[str, Any]], player_of: Mapping[str, Hashable]
) -> TeamBoards:
    """Every team board played in both rooms, grouped into matches (see the module
    docstring), in date order."""
    boards = list(boards)
    by_id = {board["id"]: board for board in boards}
    games = team_games(boards, player_of)
    index: dict[Hashable, int] = {}
    rows = []
    for game in games:
        board = by_id[game.board_ids[0]]
        seats = [index.setdefault(player, len(index)) for player in game.team_a + game.team_b]
        rows.append(((board["event"], period_of(board)), seats, imps(game.net)))
    # matches: within one event and date, boards joined when they share a player on each
    # side - the segments of one match between two teams, but never a team's match against
    # another team that day (whose opponents are others)
    joined: DisjointSets[int] = DisjointSets()
    seen: dict[tuple, int] = {}
    for number, (when, seats, _) in enumerate(rows):
        for first in seats[:4]:
            for second in seats[4:]:
                key = (when, min(first, second), max(first, second))
                joined.union(seen.setdefault(key, number), number)
    root = joined.find
    match_of: dict[int, int] = {}
    reference: dict[int, set[int]] = {}
    match, sign, matches = [], [], []
    for number, (when, seats, _) in enumerate(rows):
        if root(number) not in match_of:
            matches.append(when)
        group = match_of.setdefault(root(number), len(match_of))
        side = reference.setdefault(group, set(seats[:4]))
        same = len(side & set(seats[:4])) >= len(side & set(seats[4:]))
        side.update(seats[:4] if same else seats[4:])
        match.append(group)
        sign.append(1 if same else -1)
    periods = sorted({when[1] for when, _, _ in rows})
    period_index = {period: number for number, period in enumerate(periods)}
    return TeamBoards(
        players=sorted(index, key=index.__getitem__),
        seats=np.array([seats for _, seats, _ in rows], dtype=np.int64).reshape(-1, 8),
        imps=np.array([value for _, _, value in rows], dtype=float),
        match=np.array(match, dtype=np.int64),
        sign=np.array(sign, dtype=float),
        period=np.array([period_index[when[1]] for when, _, _ in rows], dtype=np.int64),
        periods=periods,
        matches=matches,
    )


def _design(data: TeamBoards) -> sparse.csr_matrix:
    count = len(data)
    signs = np.tile([1.0] * 4 + [-1.0] * 4, count)
    return sparse.csr_matrix(
        (signs, (np.repeat(np.arange(count), 8), data.seats.ravel())),
        shape=(count, len(data.players)),
    )


@dataclass
class ImpFit:
    """Strengths in IMPs per board, their standard deviations, the penalty and the residual
    variance of a board's IMPs."""

    theta: np.ndarray
    sd: np.ndarray
    penalty: float
    residual_variance: float


# Covariate columns are scaled up by this much so that the ridge's one damping leaves their
# coefficients practically unpenalised (the penalty on them is divided by its square).
_FREE = 100.0


def fit_imps(data: TeamBoards, penalty: float) -> ImpFit:
    """The ridge strengths of the team boards alone for ``penalty`` (one sparse
    least-squares solve)."""
    return _ridge(_design(data), data.imps, np.ones(len(data)), penalty, None, None, len(data))


def _ridge(
    design: sparse.csr_matrix,
    outcome: np.ndarray,
    weight: np.ndarray,
    penalty: float,
    row_covariates: np.ndarray | None,
    centres: np.ndarray | None,
    team_rows: int,
) -> ImpFit:
    """Weighted ridge strengths of every column of ``design``, beside the practically
    unpenalised coefficients ``gamma`` of ``row_covariates`` (each row's players' covariates,
    signed as the row's); each strength is ``centres @ gamma + u``. The residual variance is
    the first ``team_rows`` rows' (the team boards', whatever else was fitted beside them)."""
    root = np.sqrt(weight)
    weighted = sparse.diags(root) @ design
    full = weighted
    covariates_weighted = None if row_covariates is None else row_covariates * root[:, None]
    if covariates_weighted is not None:
        extra = sparse.csr_matrix(covariates_weighted) * _FREE
        full = sparse.hstack([weighted, extra]).tocsr()
    solution = lsqr(full, outcome * root, damp=np.sqrt(penalty), atol=1e-10, btol=1e-10)[0]
    players = design.shape[1]
    u = solution[:players]
    gamma = solution[players:] * _FREE
    theta = u + centres @ gamma if centres is not None else u
    fitted = design @ u + (row_covariates @ gamma if row_covariates is not None else 0.0)
    residual = (outcome - fitted)[:team_rows]
    variance = float(residual @ residual / max(team_rows - 1, 1))
    # the diagonal of the precision: what the ratings' intervals are read from at any size
    diagonal = np.asarray(weighted.multiply(weighted).sum(axis=0)).ravel() + penalty
    own = variance / diagonal
    if covariates_weighted is not None and centres is not None:
        # and the uncertainty of gamma, which a player's centre carries: where the penalty is
        # large, a strength is mostly its centre, and its interval mostly gamma's
        gram = covariates_weighted.T @ covariates_weighted
        gamma_covariance = variance * np.linalg.pinv(gram)
        own = own + np.einsum("ij,jk,ik->i", centres, gamma_covariance, centres)
    return ImpFit(theta, np.sqrt(own), penalty, variance)


def fit_joint(
    data: TeamBoards,
    penalty: float,
    evidence: TeamEvidence,
    before: str,
    one_table_weight: float = 0.0,
    points: Mapping[str, float] | None = None,
) -> ImpFit:
    """The team headline's fit: the team boards, with the boards played at one table before
    ``before`` beside them at ``one_table_weight`` (a team board's weight is 1), each
    player's strength ``Z gamma + u``. ``Z`` holds their
    :data:`~bridgerank.ratings.team_evidence.COVARIATES` (and, with ``points``, their WBF
    masterpoints: log(1 + points) and whether listed); on each row it is taken from the
    periods before that row's, as a forecast would have had it - never from the row's own
    boards or later ones, whose results it would carry - and for the strengths returned,
    from the periods before ``before``. The strengths are of the team boards' players."""
    _, fit = fit_joint_all(data, penalty, evidence, before, one_table_weight, points)
    team = len(data.players)
    return ImpFit(fit.theta[:team], fit.sd[:team], penalty, fit.residual_variance)


def fit_joint_all(
    data: TeamBoards,
    penalty: float,
    evidence: TeamEvidence,
    before: str,
    one_table_weight: float = 0.0,
    points: Mapping[str, float] | None = None,
    extra: Sequence[Hashable] = (),
) -> tuple[list[Hashable], ImpFit]:
    """:func:`fit_joint`'s strengths of every player it reads - the team boards' players
    first, then the one-table boards' and then ``extra`` (players with no row in the fit:
    their strength is what their covariates say) - and the players in that order."""
    players = list(data.players)
    column = {player: number for number, player in enumerate(players)}
    design = _design(data).tocoo()
    rows, columns, values = list(design.row), list(design.col), list(design.data)
    outcome, weight = [data.imps], [np.ones(len(data))]
    row_period = [np.asarray(data.periods, dtype=object)[data.period]]
    one_table = evidence.one_table
    if one_table is not None and one_table_weight > 0:
        count = one_table.before(before)
        for number, (north_south, east_west) in enumerate(one_table.pairs[:count]):
            for sign, pair in ((1.0, north_south), (-1.0, east_west)):
                for player in pair:
                    rows.append(len(data) + number)
                    columns.append(column.setdefault(player, len(column)))
                    values.append(sign)
        outcome.append(one_table.imps[:count])
        weight.append(np.full(count, one_table_weight))
        row_period.append(one_table.period[:count])
    fitted = len(column)  # the players with rows; the centring is theirs alone
    for player in extra:
        column.setdefault(player, len(column))
    players += [player for player in column if column[player] >= len(data.players)]
    total = sum(len(part) for part in outcome)
    full = sparse.csr_matrix((values, (rows, columns)), shape=(total, len(players)))
    covariates = _player_covariates(evidence, points, players)
    if covariates is None:
        fit = _ridge(
            full, np.concatenate(outcome), np.concatenate(weight), penalty, None, None, len(data)
        )
        return players, fit
    centres = covariates(before)
    # standardised, so that the ridge leaves every coefficient practically unpenalised
    # whatever its covariate's scale (a dd measure's spread is a tenth of a trick); a row's
    # players' signs sum to zero, so the centring cancels
    scale = centres[:fitted].std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    periods = np.concatenate(row_period)
    row_covariates = np.zeros((total, centres.shape[1]))
    for period in np.unique(periods):
        at = np.flatnonzero(periods == period)
        row_covariates[at] = full[at] @ covariates(str(period))
    fit = _ridge(
        full,
        np.concatenate(outcome),
        np.concatenate(weight),
        penalty,
        row_covariates / scale,
        (centres - centres[:fitted].mean(axis=0)) / scale,
        len(data),
    )
    return players, fit


def _player_covariates(
    evidence: TeamEvidence, points: Mapping[str, float] | None, players: Sequence[Hashable]
) -> Callable[[str], np.ndarray] | None:
    """The players' covariates before a period (None: there are none)."""
    records = evidence.records
    index = np.array(
        [records.players.get(player, -1) if records else -1 for player in players],
        dtype=np.int64,
    )
    listed = None
    if points is not None:
        mp = np.array([points.get(str(player)) or 0.0 for player in players])
        listed = np.column_stack([np.log1p(mp), mp > 0])
    if records is None and listed is None:
        return None

    def before(period: str) -> np.ndarray:
        parts = [] if records is None else [records.covariates_of(index, period)]
        return np.hstack(parts + ([] if listed is None else [listed]))

    return before


def match_margins(data: TeamBoards, board_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each match's sum of ``board_values`` oriented to its reference team, and its boards;
    indexed by the matches present, in match order."""
    present, inverse = np.unique(data.match, return_inverse=True)
    margin = np.bincount(inverse, weights=data.sign * board_values, minlength=len(present))
    return margin, np.bincount(inverse, minlength=len(present))


def choose_penalty(data: TeamBoards, penalties: tuple[float, ...] | None = None) -> float:
    """The penalty of ``penalties`` (None: ``[rate.teams] penalties`` of the shipped
    defaults) whose fit on the earlier three quarters of the dates best predicts the match
    margins of the latest quarter; the middle one when there is too little."""
    if penalties is None:
        penalties = _teams(None).penalties

    def errors(early: TeamBoards, late: TeamBoards, penalty: float) -> np.ndarray:
        actual, _ = match_margins(late, late.imps)
        theta = fit_imps(early, penalty).theta
        return match_margins(late, _design(late) @ theta)[0] - actual

    return choose_on_latest_quarter(data, penalties, errors)


def match_ceiling(test: TeamBoards) -> tuple[float | None, float | None]:
    """How far held-out matches' margins can be predicted at all: the correlation of each
    match's odd and even boards' sums (oriented to its reference team) across the matches,
    stepped up to the whole match (Spearman-Brown) - the share of a margin's variance that is
    the two teams' difference on the day - and its root, above which no forecast's
    correlation with the margins can be expected. (None, None) for fewer than three."""
    # each board's place within its match (in the order of the rows), without a loop over
    # the matches: a folder of team events holds some 18,000
    order = np.argsort(test.match, kind="stable")
    match, values = test.match[order], (test.sign * test.imps)[order]
    starts = np.flatnonzero(np.r_[True, match[1:] != match[:-1]])
    sizes = np.diff(np.r_[starts, len(match)])
    position = np.arange(len(match)) - np.repeat(starts, sizes)
    unit = np.repeat(np.arange(len(starts)), sizes)
    odd = np.bincount(unit, weights=values * (position % 2 == 0), minlength=len(starts))
    even = np.bincount(unit, weights=values * (position % 2 == 1), minlength=len(starts))
    half = pearson(odd, even) if len(starts) > 2 else None
    reliability = None if half is None else 2 * half / (1 + half)
    bound = float(np.sqrt(reliability)) if reliability is not None and reliability > 0 else None
    return reliability, bound


def match_target(test: TeamBoards) -> Target:
    """Every match of ``test`` and its margin, oriented to its reference team; a match is
    resampled alone."""
    margin, count = match_margins(test, test.imps)
    present = np.unique(test.match)
    return Target(margin, present, count, np.full(len(margin), test.period[0]))


MATCHES: Kind[TeamBoards] = Kind(
    "matches",
    match_target,
    ("pearson", "rmse", "winner_right"),
    (0.8,),
    ("rmse",),
    lambda run: {"matches": len(run), "boards": int(run.boards.sum())},
)


def match_forecast(fit: ImpFit, test: TeamBoards) -> Forecast:
    """Each test match's margin and its variance: its boards' luck plus the rating
    uncertainty of its players (each player's error counts once per board played, the same
    error on every board)."""
    margin, boards = match_margins(test, _design(test) @ fit.theta)
    present, inverse = np.unique(test.match, return_inverse=True)
    weight = np.zeros((len(present), len(fit.theta)))
    signs = np.tile([1.0] * 4 + [-1.0] * 4, (len(test), 1)) * test.sign[:, None]
    np.add.at(weight, (np.repeat(inverse, 8), test.seats.ravel()), signs.ravel())
    rating = (weight**2) @ fit.sd**2
    return Forecast(margin, boards * fit.residual_variance + rating)


def headline_imps(
    train: TeamBoards,
    test: TeamBoards,
    target: Target | None = None,
    penalties: tuple[float, ...] | None = None,
) -> Forecast:
    """The IMP rating of the team boards alone: ridge strengths, penalty (of ``penalties``,
    None: the shipped defaults') chosen on the training dates."""
    return match_forecast(fit_imps(train, choose_penalty(train, penalties)), test)


# The joint fit's choices, made on the training dates, are ``[rate.teams]``'s grids: the
# prior's tightness (``joint_penalties``) and the weight of a board played at one table
# beside a team board's (``one_table_weights``).


def joint_headline_method(
    evidence: TeamEvidence,
    points: Mapping[str, float] | None = None,
    one_table_weights: tuple[float, ...] | None = None,
    penalties: tuple[float, ...] | None = None,
) -> Predict:
    """The team headline (:func:`fit_joint`; with ``points``, the WBF masterpoints among the
    covariates), its choices made on the training dates (:func:`choose_joint`, of
    ``penalties`` and ``one_table_weights``; None: the shipped defaults' grids)."""

    def predict(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
        penalty, weight = choose_joint(train, evidence, points, one_table_weights, penalties)
        before = train.periods[int(test.period[0])]
        return match_forecast(fit_joint(train, penalty, evidence, before, weight, points), test)

    return predict


def choose_joint(
    data: TeamBoards,
    evidence: TeamEvidence,
    points: Mapping[str, float] | None = None,
    one_table_weights: tuple[float, ...] | None = None,
    penalties: tuple[float, ...] | None = None,
) -> tuple[float, float]:
    """The penalty (one of ``penalties``) and the one-table boards' weight (one of
    ``one_table_weights``) of :func:`fit_joint`, chosen together (None: ``[rate.teams]
    joint_penalties`` and ``one_table_weights`` of the shipped defaults): fitted on the
    earlier three quarters of the dates, each board of the latest quarter predicted (a board,
    not a match: 40 times the units, so the choice is steady) - the team boards' and the
    one-table boards' of those dates alike.

    The fit serves both forecasts (a match's and a one-table pair's), so both judge it: chosen
    on the team boards alone, a fit that leaves the one-table boards out could win by a hair,
    and then a player seen only at one table is rated by his covariates alone, which on the
    corpus turned some 2001 pair events' forecasts upside down (r = -0.86 on one).
    """
    if one_table_weights is None:
        one_table_weights = _teams(None).one_table_weights
    if penalties is None:
        penalties = _teams(None).joint_penalties
    weights = one_table_weights if evidence.one_table is not None else (0.0,)
    grid = [(penalty, weight) for penalty in penalties for weight in weights]
    last = data.periods[int(data.period.max())] if len(data) else ""

    def errors(early: TeamBoards, late: TeamBoards, choice: tuple[float, float]) -> np.ndarray:
        cut = early.periods[int(late.period.min())]
        pairs = _late_one_table(evidence.one_table, cut, last)
        extra = [player for pair in pairs[0] + pairs[1] for player in pair]
        players, fit = fit_joint_all(
            early, choice[0], evidence, cut, choice[1], points, extra=extra
        )
        column = {player: number for number, player in enumerate(players)}
        team = fit.theta[: len(early.players)]
        team_errors = _design(late) @ team - late.imps
        if not len(pairs[2]):
            return team_errors
        strength = [fit.theta[[column[p] for p in pair]].sum() for pair in pairs[0]]
        against = [fit.theta[[column[p] for p in pair]].sum() for pair in pairs[1]]
        return np.concatenate([team_errors, np.subtract(strength, against) - pairs[2]])

    return choose_on_latest_quarter(data, grid, errors)


def _late_one_table(
    one_table: OneTableBoards | None, start: str, last: str
) -> tuple[list[tuple[Hashable, ...]], list[tuple[Hashable, ...]], np.ndarray]:
    """The one-table boards played from ``start`` to ``last`` (inclusive): North-South's
    pairs, East-West's, and North-South's IMPs against par."""
    if one_table is None or not len(one_table):
        return [], [], np.empty(0)
    first, end = one_table.before(start), int(np.searchsorted(one_table.period, last, "right"))
    pairs = one_table.pairs[first:end]
    return [ns for ns, _ in pairs], [ew for _, ew in pairs], one_table.imps[first:end]


# After every period: what a fit on all the boards reads its covariates before.
_AFTER_ALL = "\U0010ffff"
_Z95 = 1.959963984540054


@dataclass
class TeamRatings:
    """The team headline fitted on every board: ``ratings`` rows (method ``team_imps``, the
    team boards' players), ``strengths`` rows (every player of the records) and the
    ``team_fit`` row (empty lists: no team board)."""

    ratings: list[dict[str, Any]]
    strengths: list[dict[str, Any]]
    fit: list[dict[str, Any]]


# The player no record has seen, as a column of the fit: its strength is a newcomer's.
_NEWCOMER = ("a player never seen",)


def team_ratings(
    data: TeamBoards, evidence: TeamEvidence, settings: RateSettings | None = None
) -> TeamRatings:
    """The team headline fitted on every team board (its choices made as in the
    walk-forward, on the grids of ``settings``' ``[rate.teams]``, None: the shipped
    defaults), with every other player of the records beside them (their strength is
    what their covariates and one-table boards say): the team boards' players' ``ratings``
    rows - the IMPs per board they add to a team, a 95% interval, their team boards - and
    what a forecast reads (:mod:`~bridgerank.ratings.imp_forecast`)."""
    if not len(data):
        return TeamRatings([], [], [])
    teams = _teams(None if settings is None else settings.teams)
    penalty, weight = choose_joint(
        data, evidence, one_table_weights=teams.one_table_weights, penalties=teams.joint_penalties
    )
    others = [] if evidence.records is None else list(evidence.records.players)
    players, fit = fit_joint_all(
        data, penalty, evidence, _AFTER_ALL, weight, extra=[*others, _NEWCOMER]
    )
    team = len(data.players)
    boards = np.bincount(data.seats.ravel(), minlength=team)
    rated = [
        {
            "player": str(player),
            "method": "team_imps",
            "rating": float(fit.theta[index]),
            "low": float(fit.theta[index] - _Z95 * fit.sd[index]),
            "high": float(fit.theta[index] + _Z95 * fit.sd[index]),
            "games": int(boards[index]),
        }
        for index, player in enumerate(data.players)
        if boards[index]
    ]
    strengths = [
        {
            "player": str(player),
            "strength": float(fit.theta[index]),
            "sd": float(fit.sd[index]),
            "team_boards": int(boards[index]) if index < team else 0,
        }
        for index, player in enumerate(players)
        if player is not _NEWCOMER
    ]
    newcomer = players.index(_NEWCOMER)
    strength = dict(zip(players, fit.theta))
    one_table = evidence.one_table
    one_table_variance = None
    if one_table is not None and len(one_table):
        expected = np.array(
            [
                sum(strength[player] for player in north_south)
                - sum(strength[player] for player in east_west)
                for north_south, east_west in one_table.pairs
            ]
        )
        one_table_variance = float(np.mean((one_table.imps - expected) ** 2))
    fitted = {
        "id": 1,
        "penalty": penalty,
        "one_table_weight": weight,
        "board_variance": fit.residual_variance,
        "one_table_variance": one_table_variance,
        "newcomer": float(fit.theta[newcomer]),
        "newcomer_sd": float(fit.sd[newcomer]),
        "team_boards": len(data),
        "one_table_boards": 0 if one_table is None else len(one_table),
    }
    return TeamRatings(rated, strengths, [fitted])


def coin_imps(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
    """Every match level."""
    return Forecast(np.zeros(len(np.unique(test.match))))


def imp_average(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
    """Each player's past IMPs per board for their team (unseen: 0); a board is expected the
    mean of team A's four minus the mean of team B's, times four (the teams' sums)."""
    players = len(train.players)
    credit = np.concatenate([np.repeat(train.imps, 4), -np.repeat(train.imps, 4)])
    who = np.concatenate([train.seats[:, :4].ravel(), train.seats[:, 4:].ravel()])
    total = np.bincount(who, weights=credit, minlength=players)
    count = np.bincount(who, minlength=players)
    mean = total / np.maximum(count, 1) / 4  # a board's IMPs shared among four players
    board = mean[test.seats[:, :4]].sum(axis=1) - mean[test.seats[:, 4:]].sum(axis=1)
    return Forecast(match_margins(test, board)[0])


def scaled_baseline(strength: Callable[[TeamBoards], np.ndarray]) -> Predict:
    """A method from any per-player standing (``strength(train)``, one value a player): a
    board's expected IMPs are a straight line in the standings' difference (team A's sum
    minus team B's), fitted on the training boards."""

    def predict(train: TeamBoards, test: TeamBoards, target: Target | None = None) -> Forecast:
        value = strength(train)

        def difference(data: TeamBoards) -> np.ndarray:
            return value[data.seats[:, :4]].sum(axis=1) - value[data.seats[:, 4:]].sum(axis=1)

        x = difference(train)
        slope = float(x @ train.imps / (x @ x)) if x @ x > 0 else 0.0
        return Forecast(match_margins(test, slope * difference(test))[0])

    return predict


def match_metrics(
    predicted: np.ndarray, actual: np.ndarray, variance: np.ndarray | None
) -> dict[str, float | None]:
    """Pearson, RMSE (IMPs), the share of decided matches whose winner was predicted, and the
    coverage of the 80% intervals (:func:`holdout.score` with this kind's measures)."""
    group = np.arange(len(actual))
    return score(predicted, actual, group, variance, MATCHES.measures, MATCHES.levels)


def hbt_strength(train: TeamBoards) -> np.ndarray:
    """Hypergraph Bradley-Terry log-strengths from the training boards won and lost (ties
    half each), with the prior; for :func:`scaled_baseline`."""
    from bridgerank.ratings.bt import Hypergraph, fit_hbt_newton

    edges = []
    for seats, value in zip(train.seats.tolist(), train.imps):
        a, b = seats[:4], seats[4:]
        if value > 0:
            edges.append((a, b, 1.0))
        elif value < 0:
            edges.append((b, a, 1.0))
        else:
            edges.extend([(a, b, 0.5), (b, a, 0.5)])
    # the sparse solve: the dense one is cubic in the players, and this runs once per date
    graph = Hypergraph(edges, len(train.players))
    strength = fit_hbt_newton(graph, prior=True, solver="sparse").s
    return np.nan_to_num(strength)


HEADLINE = Method(
    "headline",
    "IMP headline rating: team boards, boards played at one table against par, and each "
    "player's experience and double dummy measures as the prior's centre",
    lambda data, inputs: joint_headline_method(
        inputs.team_evidence or TeamEvidence(),
        one_table_weights=inputs.rate.teams.one_table_weights,
        penalties=inputs.rate.teams.joint_penalties,
    ),
)
HEADLINE_ONE_TABLE = Method(
    "headline_1table",
    "the IMP headline with the boards played at one table always as rows (weight 1)",
    lambda data, inputs: joint_headline_method(
        inputs.team_evidence or TeamEvidence(),
        one_table_weights=(1.0,),
        penalties=inputs.rate.teams.joint_penalties,
    ),
)


def _variant(name: str) -> Method:
    """The team headline on a variant of its evidence (:data:`~bridgerank.ratings.
    team_evidence.EVIDENCE_VARIANTS`): the dd question, its card-level form, the scales'
    tie."""
    what, transform = EVIDENCE_VARIANTS[name]

    def make(data: TeamBoards, inputs: StudyInputs) -> Predict | None:
        evidence = inputs.team_evidence
        changed = None if evidence is None else transform(evidence)
        if changed is None:
            return None
        teams = inputs.rate.teams
        return joint_headline_method(changed, None, teams.one_table_weights, teams.joint_penalties)

    return Method(name, what, make)


HEADLINE_NO_DD = _variant("headline_no_dd")
HEADLINE_CARDS = _variant("headline_cards")  # the card-level dd question
HEADLINE_FIELDS = _variant("headline_fields")  # the matchpoint scale tied to IMPs
HEADLINE_PLAIN = Method(
    "headline_plain",
    "IMP rating of the team boards alone (player strengths in IMPs per board, ridge)",
    lambda data, inputs: functools.partial(headline_imps, penalties=inputs.rate.teams.penalties),
)
COIN = Method("coin", "every match level", lambda data, inputs: coin_imps)
IMP_AVERAGE = Method(
    "imp_average", "each player's past IMPs per board", lambda data, inputs: imp_average
)
HBT = Method(
    "hbt",
    "hypergraph Bradley-Terry on boards won and lost, scaled to IMPs",
    lambda data, inputs: scaled_baseline(hbt_strength),
)
# the federation's points as every player's prior centre: what results add to them
HEADLINE_WBF = Method(
    "headline_wbf",
    "IMP headline with WBF masterpoints among each player's covariates",
    lambda data, inputs: (
        joint_headline_method(
            inputs.team_evidence or TeamEvidence(),
            inputs.points,
            inputs.rate.teams.one_table_weights,
            inputs.rate.teams.joint_penalties,
        )
        if inputs.points
        else None
    ),
)


def team_inputs(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    evidence: BoardEvidence | None = None,
    par_of: Callable[[Mapping[str, Any]], int | None] | None = None,
    cards: CardCounts | None = None,
    min_tables: int = 3,
) -> tuple[TeamBoards, TeamEvidence]:
    """The team boards of ``boards`` and what the rest of them says of their players (the dds
    stage's ``evidence`` per board, the boards' par by ``par_of`` and the card counters per
    board and seat, where it has run; the boards played in a field of ``min_tables``
    tables or more, matchpointed)."""
    boards = list(boards)
    data = team_boards(boards, player_of)
    if not len(data):
        return data, TeamEvidence()  # no team player to say anything of
    return data, TeamEvidence(
        PlayerRecords.of(boards, player_of, evidence),
        OneTableBoards.of(boards, player_of, par_of) if par_of is not None else None,
        cards,
        field_tables(boards, player_of, min_tables),
    )


def match_study(
    boards: Iterable[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    points: Mapping[str, float] | None = None,
    bootstrap: int = 10_000,
    min_periods: int | None = None,
    settings: RateSettings | None = None,
    evidence: BoardEvidence | None = None,
    par_of: Callable[[Mapping[str, Any]], int | None] | None = None,
) -> tuple[list[dict[str, Any]], MatchSummary]:
    """The ``match_validation`` rows (one per method of the matches registry,
    :mod:`registry`) and a summary, on the team boards of ``boards``; no rows with fewer than
    ``min_periods`` dates (None: ``[rate.teams] min_periods`` of ``settings``, or of the
    shipped defaults). Every method's gains are the headline's over it. The headline
    reads every board besides (:mod:`team_evidence`): the dds stage's ``evidence`` per
    board and the boards' double dummy par (``par_of``), where the dds stage has run."""
    data, team_evidence = team_inputs(boards, player_of, evidence, par_of)
    return study_matches(data, team_evidence, points, bootstrap, min_periods, settings)


def study_matches(
    data: TeamBoards,
    team_evidence: TeamEvidence,
    points: Mapping[str, float] | None = None,
    bootstrap: int = 10_000,
    min_periods: int | None = None,
    settings: RateSettings | None = None,
) -> tuple[list[dict[str, Any]], MatchSummary]:
    """:func:`match_study` on inputs already gathered (:func:`team_inputs`)."""
    summary = MatchSummary(team_boards=len(data), players=len(data.players))
    inputs = StudyInputs(settings, points or {}, team_evidence=team_evidence)
    if min_periods is None:
        min_periods = inputs.rate.teams.min_periods
    if len(np.unique(data.period)) < min_periods:
        summary.not_validated = f"fewer than {min_periods} dates of team matches: not validated"
        return [], summary
    run = walk_forward(data, registry("matches").make(data, inputs), match_target)
    if not len(run):
        return [], summary
    rows = validation_rows(run, MATCHES, "headline", bootstrap)
    headline = next(row for row in rows if row["method"] == "headline")
    reliability, bound = match_ceiling(data.subset(np.isin(data.period, np.unique(run.period))))
    summary.validation = MatchValidationSummary(
        matches=headline["matches"],
        pearson=headline["pearson"],
        rmse=headline["rmse"],
        coverage_80=headline["coverage_80"],
        split_half=reliability,
        ceiling=bound,
    )
    return rows, summary
