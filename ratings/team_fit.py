"""The team headline's fit: player strengths in IMPs per board, and its choices.

A player's strength ``theta`` is the IMPs per board the player adds to a team: team A is
expected ``sum(theta_A) - sum(theta_B)`` IMPs. Strengths are ridge estimates (Gaussian
prior), fitted in one sparse least-squares solve (:func:`fit_imps`); the joint fit
(:func:`fit_joint`) adds the boards played at one table against par as rows and centres
each player's prior on his covariates (:mod:`~bridgerank.ratings.team_evidence`). The
penalty, and the one-table boards' weight, are chosen on the training dates alone (earlier
three quarters against the latest quarter: :func:`choose_penalty`, :func:`choose_joint`). A
match's forecast from a fit, with its variance, is :func:`match_forecast`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Hashable, Mapping, Sequence

import numpy as np
from scipy import sparse

from bridgerank.core.settings import default_settings
from bridgerank.ratings.holdout import Forecast, choose_on_latest_quarter
from bridgerank.ratings.team_boards import TeamBoards, board_design, match_margins
from bridgerank.ratings.team_evidence import OneTableBoards, TeamEvidence
from bridgerank.ratings.team_ridge import ImpFit, RidgeSystem

if TYPE_CHECKING:
    from bridgerank.core.sections import TeamSettings

__all__ = [
    "ImpFit",
    "choose_joint",
    "choose_penalty",
    "fit_imps",
    "fit_joint",
    "imps_system",
    "joint_system",
    "match_forecast",
    "team_settings",
]


def team_settings(settings: TeamSettings | None) -> TeamSettings:
    """``[rate.teams]``: the given, or the shipped defaults for a call without settings."""
    return settings if settings is not None else default_settings().rate.teams


def fit_imps(data: TeamBoards, penalty: float) -> ImpFit:
    """The ridge strengths of the team boards alone for ``penalty``."""
    return imps_system(data).fit(penalty)


def imps_system(data: TeamBoards) -> RidgeSystem:
    """The team boards alone as a ridge problem (:func:`fit_imps` at any penalty)."""
    return RidgeSystem(board_design(data), data.imps, np.ones(len(data)), team_rows=len(data))


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
    fit = joint_system(data, evidence, before, one_table_weight, points)[1].fit(penalty)
    team = len(data.players)
    return ImpFit(fit.theta[:team], fit.sd[:team], penalty, fit.residual_variance)


def joint_system(
    data: TeamBoards,
    evidence: TeamEvidence,
    before: str,
    one_table_weight: float = 0.0,
    points: Mapping[str, float] | None = None,
    extra: Sequence[Hashable] = (),
) -> tuple[list[Hashable], RidgeSystem]:
    """:func:`fit_joint`'s ridge problem, to be solved at any penalty, of every player it
    reads - the team boards' players first, then the one-table boards' and then ``extra``
    (players with no row in the fit: their strength is what their covariates say) - and the
    players in that order."""
    players = list(data.players)
    column = {player: number for number, player in enumerate(players)}
    design = board_design(data)
    blocks, outcome, weight = [design], [data.imps], [np.ones(len(data))]
    # each row's period as a string, the team boards' from their codes
    row_period = [np.asarray(data.periods, dtype=object)[data.period]]
    one_table = evidence.one_table
    if one_table is not None and one_table_weight > 0:
        count = one_table.before(before)
        blocks.append(_one_table_rows(one_table.pairs[:count], column))
        outcome.append(one_table.imps[:count])
        weight.append(np.full(count, one_table_weight))
        row_period.append(one_table.period[:count])
    fitted = len(column)  # the players with rows; the centring is theirs alone
    for player in extra:
        column.setdefault(player, len(column))
    players += [player for player in column if column[player] >= len(data.players)]
    full = sparse.vstack([_widened(block, len(players)) for block in blocks]).tocsr()
    rows = (full, np.concatenate(outcome), np.concatenate(weight))
    covariates = _player_covariates(evidence, points, players)
    if covariates is None:
        return players, RidgeSystem(*rows, team_rows=len(data))
    centres = covariates(before, None)
    # standardised, so that the ridge leaves every coefficient practically unpenalised
    # whatever its covariate's scale (a dd measure's spread is a tenth of a trick); a row's
    # players' signs sum to zero, so the centring cancels
    scale = centres[:fitted].std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    row_covariates = _row_covariates(full, np.concatenate(row_period), covariates)
    centred = (centres - centres[:fitted].mean(axis=0)) / scale
    return players, RidgeSystem(*rows, row_covariates / scale, centred, len(data))


def _one_table_rows(
    pairs: Sequence[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]],
    column: dict[Hashable, int],
) -> sparse.csr_matrix:
    """One row per one-table board: +1 for North-South's players, -1 for East-West's; a
    player not in ``column`` yet is given the next column."""
    sizes = [len(north_south) + len(east_west) for north_south, east_west in pairs]
    columns = [
        column.setdefault(player, len(column))
        for north_south, east_west in pairs
        for player in (*north_south, *east_west)
    ]
    signs = [
        sign
        for north_south, east_west in pairs
        for sign in (1.0,) * len(north_south) + (-1.0,) * len(east_west)
    ]
    pointers = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
    return sparse.csr_matrix(
        (np.asarray(signs, dtype=float), np.asarray(columns, dtype=np.int64), pointers),
        shape=(len(pairs), len(column)),
    )


def _widened(block: sparse.csr_matrix, columns: int) -> sparse.csr_matrix:
    """``block`` with empty columns appended up to ``columns``."""
    return sparse.csr_matrix(
        (block.data, block.indices, block.indptr), shape=(block.shape[0], columns)
    )


# The covariates of players (indices, None: every one) before a period: players by features.
Covariates = Callable[[str, "np.ndarray | None"], np.ndarray]


def _row_covariates(
    full: sparse.csr_matrix, periods: np.ndarray, covariates: Covariates
) -> np.ndarray:
    """Each row's signed sum of its players' covariates as they stood before the row's
    period (never the row's own boards or later ones)."""
    present, code = np.unique(periods.astype(str), return_inverse=True)
    entries = full.tocoo()
    # each stored entry's player's covariates of its row's period, period by period and for
    # the entries' players only (all players at every period was most of a fit's set-up)
    entry_period = code[entries.row]
    order = np.argsort(entry_period, kind="stable")
    bounds = np.searchsorted(entry_period[order], np.arange(len(present) + 1))
    features = covariates(str(present[0]), entries.col[:0]).shape[1] if len(present) else 0
    values = np.zeros((len(order), features))
    for number, period in enumerate(present):
        at = order[bounds[number] : bounds[number + 1]]
        values[at] = covariates(str(period), entries.col[at])
    values *= entries.data[:, None]  # times the entry's sign
    out = np.zeros((full.shape[0], features))
    for feature in range(out.shape[1]):
        out[:, feature] = np.bincount(
            entries.row, weights=values[:, feature], minlength=full.shape[0]
        )
    return out


def _player_covariates(
    evidence: TeamEvidence, points: Mapping[str, float] | None, players: Sequence[Hashable]
) -> Covariates | None:
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

    def before(period: str, which: np.ndarray | None = None) -> np.ndarray:
        chosen = slice(None) if which is None else which
        parts = [] if records is None else [records.covariates_of(index[chosen], period)]
        return np.hstack(parts + ([] if listed is None else [listed[chosen]]))

    return before


def choose_penalty(data: TeamBoards, penalties: tuple[float, ...] | None = None) -> float:
    """The penalty of ``penalties`` (None: ``[rate.teams] penalties`` of the shipped
    defaults) whose fit on the earlier three quarters of the dates best predicts the match
    margins of the latest quarter; the middle one when there is too little."""
    if penalties is None:
        penalties = team_settings(None).penalties

    systems: dict[int, RidgeSystem] = {}  # one per training set, whatever the penalty

    def errors(early: TeamBoards, late: TeamBoards, penalty: float) -> np.ndarray:
        actual, _ = match_margins(late, late.imps)
        system = systems.setdefault(id(early), imps_system(early))
        theta = system.fit(penalty).theta
        return match_margins(late, board_design(late) @ theta)[0] - actual

    return choose_on_latest_quarter(data, penalties, errors)


# The joint fit's choices, made on the training dates, are ``[rate.teams]``'s grids: the
# prior's tightness (``joint_penalties``) and the weight of a board played at one table
# beside a team board's (``one_table_weights``).


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
        one_table_weights = team_settings(None).one_table_weights
    if penalties is None:
        penalties = team_settings(None).joint_penalties
    weights = one_table_weights if evidence.one_table is not None else (0.0,)
    grid = [(penalty, weight) for penalty in penalties for weight in weights]
    last = data.periods[int(data.period.max())] if len(data) else ""
    # one ridge problem per training set and weight, solved at each penalty, with the rows
    # of the latest quarter's one-table boards over its players
    systems: dict[tuple[int, float], tuple[RidgeSystem, sparse.csr_matrix]] = {}

    def errors(early: TeamBoards, late: TeamBoards, choice: tuple[float, float]) -> np.ndarray:
        cut = early.periods[int(late.period.min())]
        pairs, imps = _late_one_table(evidence.one_table, cut, last)
        key = (id(early), choice[1])
        if key not in systems:
            # North-South's players of every board, then East-West's: the columns' order
            extra = [player for side in (0, 1) for pair in pairs for player in pair[side]]
            players, system = joint_system(early, evidence, cut, choice[1], points, extra)
            column = {player: number for number, player in enumerate(players)}
            systems[key] = (system, _one_table_rows(pairs, column))
        system, late_rows = systems[key]
        fit = system.fit(choice[0])
        team_errors = board_design(late) @ fit.theta[: len(early.players)] - late.imps
        if not len(imps):
            return team_errors
        return np.concatenate([team_errors, late_rows @ fit.theta - imps])

    return choose_on_latest_quarter(data, grid, errors)


def _late_one_table(
    one_table: OneTableBoards | None, start: str, last: str
) -> tuple[list[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]], np.ndarray]:
    """The one-table boards played from ``start`` to ``last`` (inclusive): the pairs
    (North-South's, East-West's) and North-South's IMPs against par."""
    if one_table is None or not len(one_table):
        return [], np.empty(0)
    first, end = one_table.before(start), int(np.searchsorted(one_table.period, last, "right"))
    return one_table.pairs[first:end], one_table.imps[first:end]


def match_forecast(fit: ImpFit, test: TeamBoards) -> Forecast:
    """Each test match's margin and its variance: its boards' luck plus the rating
    uncertainty of its players (each player's error counts once per board played, the same
    error on every board)."""
    margin, boards = match_margins(test, board_design(test) @ fit.theta)
    present, inverse = np.unique(test.match, return_inverse=True)
    weight = np.zeros((len(present), len(fit.theta)))
    signs = np.tile([1.0] * 4 + [-1.0] * 4, (len(test), 1)) * test.sign[:, None]
    np.add.at(weight, (np.repeat(inverse, 8), test.seats.ravel()), signs.ravel())
    rating = (weight**2) @ fit.sd**2
    return Forecast(margin, boards * fit.residual_variance + rating)
