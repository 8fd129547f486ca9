"""Team events' matches forecast round by round: the matches the clean stage rebuilds from
traveller files (``team_matches``, ``match_boards``).

**Time.** The files give a year and a round number, no date. A round's time is ``(year,
round number)``: the rounds of one year's events that bear one number are taken as played
side by side, and a match of round ``r`` of year ``y`` is forecast from every match of the
years before and of the rounds before ``r`` of that year - all earlier events and the earlier
rounds of its own. (Where two events of one year were in fact months apart, the later one's
early rounds inform the earlier one's later rounds; the files cannot tell.)

**The forecast** (:class:`RoundRidge`): each player's strength is the IMPs a board he adds to
his team, fitted on the evidence before the round, a match's margin the sum over its boards of
team A's four strengths less team B's. The evidence, beside each match board's IMPs:

- *each table against its field*: every board of a round is played at every match's two
  tables, so each table's score is compared with all the others' (its cross-IMPs, the mean of
  the IMPs it gains on each other table); a row of its North-South pair against its East-West
  pair. A match board compares two tables; the field compares each with twenty or more.
- *teammates*: players who sat in one team (the earlier matches' and the forecast round's own
  line-ups, which are known before play) are drawn towards each other - a penalty on the
  squared difference of their strengths, beside the ridge's pull towards zero. A newcomer
  fielded beside known players is expected near them, not at the average.
- *experience*: a player's boards before the round (``log(1 + boards)``) and whether he has
  none, two practically free coefficients: a championship's newcomers are weaker than its
  regulars.

Beside it the study scores a variant that also reads each player's double dummy measures of
earlier rounds (:mod:`~bridgerank.ratings.event_evidence`, on the events whose deals are
known), and a reference that is no forecast: each team's form in the rest of its event, later
rounds included (:func:`event_form_in_hindsight`).

The normal equations are summed as the rounds go by and solved by conjugate gradients from the
previous round's strengths, so the walk-forward costs one pass. The two penalties are chosen
prequentially: each round by the setting whose forecasts of the earlier held-out rounds had the
least squared error. A forecast's variance is its boards times the mean squared error a board
of the earlier held-out matches (the first test round: the training boards' variance).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import cg

from bridgerank.bridge.scoring import IMP_STEPS
from bridgerank.ratings.holdout import Forecast, Kind, Target
from bridgerank.ratings.team_boards import TeamBoards, match_margins
from bridgerank.ratings.team_matches import match_ceiling

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings
    from bridgerank.ratings.summaries import EventMatchSummary

__all__ = [
    "EVENT_KINDS",
    "HEADLINE_SETTINGS",
    "HINDSIGHT",
    "DoubleDummyMeasures",
    "METHOD_DESCRIPTIONS",
    "PLAIN_SETTINGS",
    "EventMatchValidation",
    "EventMatches",
    "EventStrengths",
    "FieldRows",
    "RoundRidge",
    "RoundSetting",
    "WITH_DEALS",
    "cross_imps",
    "event_kind",
    "event_match_kind",
    "event_match_summary",
    "event_form_in_hindsight",
    "event_matches",
    "event_methods",
    "event_target",
    "experience_covariates",
    "experience_now",
    "imps_of",
    "round_number",
    "study_event_matches",
]

# The kinds of team event a validation is broken down by.
EVENT_KINDS = ("championships", "leagues", "open teams")
_LEAGUE = re.compile(r"league|liga|trophy", re.IGNORECASE)
_OPEN = re.compile(r"(^|/)\d{4}-open(/|$)|training", re.IGNORECASE)
# A match's team A seats, then team B's (TeamBoards.seats' order).
_TEAM_A = ("open_north", "open_south", "closed_east", "closed_west")
_TEAM_B = ("open_east", "open_west", "closed_north", "closed_south")


def event_kind(event: str) -> str:
    """The kind of a team event from its name: a national league (``League``, ``Bundesliga``,
    ``Trophy``), an open teams (a folder ``<year>-Open``, training rounds) or, else, a
    championship of national teams (Olympiads, world and European championships)."""
    if _LEAGUE.search(event):
        return "leagues"
    if _OPEN.search(event):
        return "open teams"
    return "championships"


def round_number(name: str) -> int:
    """The number of a round named ``round 7`` (its first number; 0 without one)."""
    found = re.search(r"\d+", name or "")
    return int(found.group(0)) if found else 0


def imps_of(differences: np.ndarray) -> np.ndarray:
    """The IMP scale of an array of score differences (sign kept)."""
    steps = np.searchsorted(np.asarray(IMP_STEPS), np.abs(differences), side="right")
    return np.sign(differences) * steps


def cross_imps(scores: np.ndarray, field: np.ndarray) -> np.ndarray:
    """Each table's cross-IMPs: the mean over the other tables of its field (``field``: one
    code per table) of the IMPs of its North-South score less theirs; 0 alone in its field."""
    result = np.zeros(len(scores))
    order = np.argsort(field, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(field[order]) != 0])
    for start, end in zip(starts, np.r_[starts[1:], len(order)]):
        rows = order[start:end]
        if len(rows) > 1:
            values = scores[rows]
            result[rows] = imps_of(values[:, None] - values[None, :]).sum(axis=1) / (len(rows) - 1)
    return result


@dataclass
class FieldRows:
    """Every table of the matches against its field: its North-South and East-West players
    (two columns each), its cross-IMPs, its period and its board id (``raw_boards``; -1 where
    unknown), the open room's tables first, in the order of the match boards."""

    north_south: np.ndarray
    east_west: np.ndarray
    cross: np.ndarray
    period: np.ndarray
    board: np.ndarray


@dataclass
class EventMatches:
    """The matches as the walk-forward reads them: ``boards`` (periods are rounds' times,
    ``boards.matches[m]`` the event and time of match ``m``), each match's event index, the
    events' names and kinds, and the tables against their fields."""

    boards: TeamBoards
    event: np.ndarray
    events: list[str]
    kinds: list[str]
    tables: FieldRows
    # each match's row id in ``team_matches`` (empty where the rows gave none)
    match_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def kind_of_match(self) -> np.ndarray:
        """Each match's event kind."""
        return np.asarray(self.kinds, dtype=object)[self.event]


def event_matches(
    matches: Iterable[Mapping[str, Any]],
    boards: Iterable[Mapping[str, Any]],
    person: Callable[[str, str], Hashable] | None = None,
) -> EventMatches:
    """The ``team_matches`` rows and their ``match_boards`` rows as :class:`EventMatches`,
    each seat's player ``person(name, event)`` (the match stage's person; without it, or
    where it is blank, each name is its own player), in time order; matches without a year
    are left out (no time)."""
    info = {row["id"]: row for row in matches if row.get("year") is not None}
    rows = [row for row in boards if row["match_id"] in info]
    times = sorted(
        {
            (info[row["match_id"]]["year"], round_number(info[row["match_id"]]["round"]))
            for row in rows
        }
    )
    period_of = {time: number for number, time in enumerate(times)}
    rows.sort(
        key=lambda row: (period_of[_time(info[row["match_id"]])], row["match_id"], row["board_no"])
    )
    index: dict[Hashable, int] = {}

    def player(name: str, event: str) -> int:
        found = person(name, event) if person is not None else name
        return index.setdefault(found or name, len(index))

    seats = np.array(
        [
            [player(row[seat], info[row["match_id"]]["event"]) for seat in _TEAM_A + _TEAM_B]
            for row in rows
        ],
        dtype=np.int64,
    ).reshape(-1, 8)
    match_index: dict[int, int] = {}
    events: dict[str, int] = {}
    match_event, match_keys = [], []
    for row in rows:
        found = info[row["match_id"]]
        if row["match_id"] not in match_index:
            match_index[row["match_id"]] = len(match_index)
            match_event.append(events.setdefault(found["event"], len(events)))
            match_keys.append((found["event"], f"{found['year']} {found['round']}"))
    period = np.array([period_of[_time(info[row["match_id"]])] for row in rows], dtype=np.int64)
    data = TeamBoards(
        players=sorted(index, key=index.__getitem__),
        seats=seats,
        imps=np.array([row["imps"] for row in rows], dtype=float),
        match=np.array([match_index[row["match_id"]] for row in rows], dtype=np.int64),
        sign=np.ones(len(rows)),
        period=period,
        periods=[f"{year:04d} round {number:03d}" for year, number in times],
        matches=match_keys,
    )
    # the tables: a board's field is every table of its event's round that played it
    field_key: dict[tuple, int] = {}
    field = np.array(
        [
            field_key.setdefault(
                (info[row["match_id"]]["event"], info[row["match_id"]]["round"], row["board_no"]),
                len(field_key),
            )
            for row in rows
        ],
        dtype=np.int64,
    )
    scores = np.concatenate(
        [[row["open_score"] for row in rows], [row["closed_score"] for row in rows]]
    ).astype(float)
    tables = FieldRows(
        north_south=np.vstack([seats[:, [0, 1]], seats[:, [6, 7]]]),
        east_west=np.vstack([seats[:, [4, 5]], seats[:, [2, 3]]]),
        cross=cross_imps(scores, np.concatenate([field, field])),
        period=np.concatenate([period, period]),
        board=np.array(
            [row.get("open_id", -1) for row in rows] + [row.get("closed_id", -1) for row in rows],
            dtype=np.int64,
        ),
    )
    names = sorted(events, key=events.__getitem__)
    return EventMatches(
        data,
        np.array(match_event, dtype=np.int64),
        names,
        [event_kind(e) for e in names],
        tables,
        np.array(sorted(match_index, key=match_index.__getitem__), dtype=np.int64),
    )


def _time(match: Mapping[str, Any]) -> tuple[int, int]:
    return match["year"], round_number(match["round"])


def event_target(event_of_match: np.ndarray) -> Any:
    """The kind's target: every match of a test round and its margin; matches of one event
    are resampled together (they share teams and deals)."""

    def target(test: TeamBoards) -> Target:
        margin, count = match_margins(test, test.imps)
        present = np.unique(test.match)
        return Target(
            margin, event_of_match[present], count, np.full(len(margin), test.period[0]), present
        )

    return target


def event_kind_counts(run: Any) -> dict[str, int]:
    """The counts columns of a validation row: matches, boards and events held out."""
    return {
        "matches": len(run),
        "boards": int(run.boards.sum()),
        "events": len(np.unique(run.group)),
    }


@dataclass(frozen=True)
class RoundSetting:
    """One setting of :class:`RoundRidge`: the pull towards zero, towards teammates, the
    weight of a table-against-field row (a match board's is 1) and whether the players'
    covariates (experience, and whatever else the forecast is given) are fitted."""

    ridge: float
    teammates: float = 0.0
    field_weight: float = 0.0
    covariates: bool = False


# The headline's settings, among which it chooses round by round; the plain ridge's.
HEADLINE_SETTINGS = (
    RoundSetting(30.0, 30.0, 1.0, covariates=True),
    RoundSetting(100.0, 100.0, 1.0, covariates=True),
    RoundSetting(300.0, 300.0, 1.0, covariates=True),
    RoundSetting(1000.0, 300.0, 1.0, covariates=True),
)
PLAIN_SETTINGS = (RoundSetting(10.0), RoundSetting(30.0), RoundSetting(100.0), RoundSetting(300.0))


class _NormalEquations:
    """``X'X`` and ``X'y`` of the rows of one design, summed period by period as the rounds go
    by (rows of ``period`` before the one asked for, each added once)."""

    def __init__(self, design: sparse.csr_matrix, outcome: np.ndarray, period: np.ndarray) -> None:
        self.design, self.outcome, self.period = design, outcome, period
        self.order = np.argsort(period, kind="stable")
        self.seen = 0
        self.gram = sparse.csr_matrix((design.shape[1], design.shape[1]))
        self.right = np.zeros(design.shape[1])

    def add_before(self, period: int) -> None:
        """Add every row of a period before ``period`` not yet added."""
        end = int(np.searchsorted(self.period[self.order], period))
        rows = self.order[self.seen : end]
        if len(rows):
            design = self.design[rows]
            self.gram = self.gram + design.T @ design
            self.right += design.T @ self.outcome[rows]
            self.seen = end

    def seen_outcomes(self) -> np.ndarray:
        """The outcomes of the rows added so far."""
        return self.outcome[self.order[: self.seen]]


class RoundRidge:
    """The forecast of :mod:`this module <bridgerank.ratings.event_matches>` as a walk-forward
    method (``predict(train, test, target)``): it keeps its normal equations between calls and
    adds the rounds it has not seen, so the test rounds must come in time order.

    Parameters
    ----------
    data : EventMatches
        The matches and their tables.
    settings : sequence of RoundSetting
        The settings it chooses among, round by round, by their earlier held-out errors.
    covariates : sequence of ndarray, optional
        The players' covariates, each players by periods, a value known before the period
        (default: :func:`experience_covariates`); a player's strength is his own term plus
        their coefficients' sum.
    """

    def __init__(
        self,
        data: EventMatches,
        settings: Sequence[RoundSetting],
        covariates: Sequence[np.ndarray] | None = None,
    ) -> None:
        self.data = data
        self.settings = tuple(settings)
        boards = data.boards
        self.players = len(boards.players)
        if covariates is None:
            covariates = experience_covariates(boards)
        size = self.players + len(covariates)
        board_design = _signed_design(
            boards.seats,
            4,
            self.players,
            _row_covariates(covariates, boards.seats, boards.period, 4),
        )
        tables = data.tables
        seated = np.hstack([tables.north_south, tables.east_west])
        table_design = _signed_design(
            seated, 2, self.players, _row_covariates(covariates, seated, tables.period, 2)
        )
        self.size = size
        self.match_boards = _NormalEquations(board_design, boards.imps, boards.period)
        self.tables = _NormalEquations(table_design, tables.cross, tables.period)
        self.links = sparse.csr_matrix((size, size))
        self.links_through = -1
        self.solutions = [np.zeros(size) for _ in self.settings]
        self.pending: list[tuple[np.ndarray, list[np.ndarray]]] = []
        self.squared_errors = np.zeros(len(self.settings))
        self.board_errors = [0.0, 0]  # squared match errors, boards of those matches

    def __call__(
        self, train: TeamBoards, test: TeamBoards, target: Target | None = None
    ) -> Forecast:
        period = int(test.period[0])
        self.match_boards.add_before(period)
        self.tables.add_before(period)
        self._link(period)
        self._score_pending()
        laplacian = sparse.diags(np.asarray(self.links.sum(axis=1)).ravel()) - self.links
        # the test round's rows, in the order of the data (as the harness's subset keeps them)
        design = self.match_boards.design[np.flatnonzero(self.data.boards.period == period)]
        forecasts = []
        for number, setting in enumerate(self.settings):
            self.solutions[number] = self._solve(setting, laplacian, self.solutions[number])
            forecasts.append(match_margins(test, design @ self.solutions[number])[0])
        present = np.unique(test.match)
        self.pending.append((present, forecasts))
        best = (
            int(np.argmin(self.squared_errors))
            if self.squared_errors.any()
            else len(self.settings) // 2
        )
        margin = forecasts[best]
        boards = np.bincount(np.unique(test.match, return_inverse=True)[1])
        return Forecast(margin, boards * self._board_variance())

    def _board_variance(self) -> float:
        """A match's squared error a board: the earlier held-out rounds' (before the first:
        the training boards' variance)."""
        if self.board_errors[1]:
            return self.board_errors[0] / self.board_errors[1]
        return float(np.var(self.match_boards.seen_outcomes()))

    def current(
        self, covariates_now: Callable[[np.ndarray], list[np.ndarray]] | None = None
    ) -> EventStrengths:
        """Every player's strength after the last round: the setting the walk-forward chose
        (the least squared error of its held-out rounds), fitted on every match.

        ``covariates_now(boards_played)`` gives the covariates' values of players who have
        played so many match boards, in the order of the constructor's (default: the
        experience, :func:`experience_now`); a player never seen has played none. Call it
        after the walk-forward: its errors choose the setting and give a match's noise.
        """
        if covariates_now is None:
            covariates_now = experience_now
        boards = self.data.boards
        after = int(boards.period.max()) + 1
        self.match_boards.add_before(after)
        self.tables.add_before(after)
        self._link(after)
        self._score_pending()
        best = int(np.argmin(self.squared_errors)) if self.squared_errors.any() else 0
        laplacian = sparse.diags(np.asarray(self.links.sum(axis=1)).ravel()) - self.links
        solution = self._solve(self.settings[best], laplacian, self.solutions[best])
        terms, coefficients = solution[: self.players], solution[self.players :]
        played = np.bincount(boards.seats.ravel(), minlength=self.players)

        def from_covariates(counts: np.ndarray) -> np.ndarray:
            if not len(coefficients):
                return np.zeros(len(counts))
            return np.column_stack(covariates_now(counts)) @ coefficients

        strength = terms + from_covariates(played)
        # a player never seen: no term of his own, the covariates of no boards
        newcomer = float(from_covariates(np.zeros(1))[0])
        return EventStrengths(
            {str(name): float(value) for name, value in zip(boards.players, strength)},
            {str(name): int(count) for name, count in zip(boards.players, played)},
            self._board_variance(),
            newcomer,
            len(boards.matches),
            str(boards.periods[-1]),
        )

    def _link(self, period: int) -> None:
        """Link the teammates of every match up to ``period``, its own line-ups included."""
        boards = self.data.boards
        new = (boards.period > self.links_through) & (boards.period <= period)
        if not new.any():
            return
        first, second = [], []
        for side in (boards.seats[new, :4], boards.seats[new, 4:]):
            for a in range(4):
                for b in range(a + 1, 4):
                    first.append(side[:, a])
                    second.append(side[:, b])
        rows, columns = np.concatenate(first), np.concatenate(second)
        keep = rows != columns
        pairs = sparse.csr_matrix(
            (np.ones(int(keep.sum())), (rows[keep], columns[keep])), (self.size, self.size)
        )
        links = self.links + pairs + pairs.T
        links.data = np.minimum(links.data, 1.0)  # a link, however many boards
        self.links = links
        self.links_through = period

    def _solve(
        self, setting: RoundSetting, laplacian: sparse.spmatrix, start: np.ndarray
    ) -> np.ndarray:
        # the covariates' coefficients are penalised as a player's strength: negligible beside
        # their columns' weight in a folder of events, but a few newcomers cannot swing them
        diagonal = np.full(self.size, setting.ridge)
        if not setting.covariates:
            diagonal[self.players :] = 1e12  # the covariates held at zero
        system = self.match_boards.gram + sparse.diags(diagonal) + setting.teammates * laplacian
        right = self.match_boards.right
        if setting.field_weight:
            system = system + setting.field_weight * self.tables.gram
            right = right + setting.field_weight * self.tables.right
        solution, _ = cg(system.tocsr(), right, x0=start, rtol=1e-7, maxiter=2000)
        return solution

    def _score_pending(self) -> None:
        """The errors of the earlier test rounds' forecasts, whose results are now known."""
        boards = self.data.boards
        for present, forecasts in self.pending:
            mask = np.isin(boards.match, present)
            actual, count = match_margins(boards.subset(mask), boards.imps[mask])
            for number, forecast in enumerate(forecasts):
                self.squared_errors[number] += float(np.sum((forecast - actual) ** 2))
            best = int(np.argmin(self.squared_errors))
            self.board_errors[0] += float(np.sum((forecasts[best] - actual) ** 2))
            self.board_errors[1] += int(count.sum())
        self.pending = []


def _signed_design(
    seated: np.ndarray, side: int, players: int, covariates: np.ndarray
) -> sparse.csr_matrix:
    """Rows of ``seated`` players (one row each, player indices): +1 for each of the first
    ``side`` seats, -1 for the others, then the rows' ``covariates`` as columns."""
    count, seats = seated.shape
    signs = np.tile(np.r_[np.ones(side), -np.ones(seats - side)], count)
    incidence = sparse.csr_matrix(
        (signs, (np.repeat(np.arange(count), seats), seated.ravel())), (count, players)
    )
    return sparse.hstack([incidence, sparse.csr_matrix(covariates)]).tocsr()


def experience_covariates(boards: TeamBoards) -> list[np.ndarray]:
    """A player's experience before each period (players by periods, two arrays):
    ``log(1 + match boards before)`` and whether that is none."""
    players, periods = len(boards.players), len(boards.periods)
    played = np.zeros((players, periods))
    np.add.at(played, (boards.seats.ravel(), np.repeat(boards.period, 8)), 1.0)
    return experience_now(np.cumsum(played, axis=1) - played)


def experience_now(boards_played: np.ndarray) -> list[np.ndarray]:
    """The experience of players who have played ``boards_played`` match boards (any
    shape): ``log(1 + boards)`` and whether that is none."""
    played = np.asarray(boards_played, dtype=float)
    return [np.log1p(played), (played == 0).astype(float)]


def _row_covariates(
    covariates: Sequence[np.ndarray], seated: np.ndarray, period: np.ndarray, side: int
) -> np.ndarray:
    """Each row's covariates (each array players by periods): the first ``side`` players'
    values at the row's period summed, less the others'."""
    signs = np.r_[np.ones(side), -np.ones(seated.shape[1] - side)]
    columns = [(values[seated, period[:, None]] * signs).sum(axis=1) for values in covariates]
    return np.column_stack(columns) if columns else np.zeros((len(seated), 0))


# --- the study ----------------------------------------------------------------------------


def event_match_kind(event_of_match: np.ndarray) -> Kind[TeamBoards]:
    """The held-out kind: a match's margin, its measures, gains and counts; matches resampled
    by event (``event_of_match``: each match's event index)."""
    return Kind(
        "event matches",
        event_target(event_of_match),
        ("pearson", "rmse", "winner_right"),
        (0.8,),
        ("pearson", "rmse"),
        event_kind_counts,
    )


def event_methods(
    data: EventMatches,
    points: Mapping[str, float] | None,
    rivals: bool = True,
    dd: DoubleDummyMeasures | None = None,
    settings: RateSettings | None = None,
) -> dict[str, Any]:
    """The methods every held-out round is forecast by: the headline, the plain ridge over
    match boards, a coin, each player's past IMPs a board, with WBF lists the players'
    masterpoints (a line in the teams' summed log points, fitted on the training boards),
    with ``dd`` the headline with the players' double dummy measures beside experience
    (:mod:`~bridgerank.ratings.event_evidence`) and, with
    ``rivals``, the online ratings players know, each reading a match board as a deal at
    two tables (:mod:`~bridgerank.ratings.rivals.team_play`; TrueSkill Through Time refits
    its history once a year, not at each of some 400 rounds). ``settings``: the ``[rate]``
    settings the rivals' grids and the WBF baseline's threshold are read from (None: the
    shipped defaults)."""
    from bridgerank.ratings.baselines import wbf_listed, wbf_standing
    from bridgerank.ratings.registry import StudyInputs
    from bridgerank.ratings.rivals import team_play
    from bridgerank.ratings.team_baselines import coin_imps, imp_average, scaled_baseline

    methods: dict[str, Any] = {
        "headline": RoundRidge(data, HEADLINE_SETTINGS),
        "headline_plain": RoundRidge(data, PLAIN_SETTINGS),
        "coin": coin_imps,
        "imp_average": imp_average,
    }
    if dd is not None:
        methods["headline_dd"] = RoundRidge(
            data, HEADLINE_SETTINGS, experience_covariates(data.boards) + list(dd.covariates)
        )
        if dd.lead is not None:
            methods[LEADS] = RoundRidge(
                data, HEADLINE_SETTINGS, experience_covariates(data.boards) + [dd.lead]
            )
    inputs = StudyInputs(settings, dict(points or {}))
    listed = wbf_listed(points or {}, data.boards.players, inputs.rate.rivals.wbf_min_listed_share)
    if points and listed:
        methods["wbf_points"] = scaled_baseline(lambda train: wbf_standing(points, train.players))
    if rivals:
        for rival in ONLINE_RIVALS:
            method = getattr(team_play, rival)
            methods[method.name] = method.make(data.boards, inputs)
    return methods


# The subset of the matches of events whose deals are known, where the double dummy question
# is asked.
WITH_DEALS = "with deals"


@dataclass
class DoubleDummyMeasures:
    """The players' double dummy measures before each period (players by periods arrays, as
    :func:`~bridgerank.ratings.event_evidence.dd_measures` reads them) and whether each
    event's deals are known (most of its tables have measures)."""

    covariates: Sequence[np.ndarray]
    events_with_deals: np.ndarray
    # the opening leads' measure alone (one of ``covariates``), when any lead was valued
    lead: np.ndarray | None = None


# A reference, not a forecast: each team's results in the other matches of its event.
HINDSIGHT = "hindsight_form"
# The headline with the opening leads' measure alone beside experience.
LEADS = "headline_leads"


def event_form_in_hindsight(data: EventMatches) -> np.ndarray:
    """Each match's margin as the teams' form in the rest of their event says it: team A's
    IMPs a board in its other matches of the event (earlier and later rounds alike) less team
    B's, times the match's boards; a team is the players who sat on one side in the event,
    joined through every line-up they shared. Model-free and knowing the future, it is a
    reference for what the results of an event say of its matches, not a forecast."""
    from bridgerank.core.disjoint import DisjointSets

    boards = data.boards
    event = data.event[boards.match]
    teams: DisjointSets[tuple[int, int]] = DisjointSets()
    for side in (boards.seats[:, :4], boards.seats[:, 4:]):
        for seat in range(1, 4):
            for number, first, other in zip(event, side[:, 0], side[:, seat]):
                teams.union((int(number), int(first)), (int(number), int(other)))
    code: dict[tuple[int, int], int] = {}
    team_of = [
        np.array(
            [
                code.setdefault(teams.find((int(number), int(player))), len(code))
                for number, player in zip(event, side)
            ]
        )
        for side in (boards.seats[:, 0], boards.seats[:, 4])
    ]
    matches = len(boards.matches)
    team_a, team_b = np.zeros(matches, np.int64), np.zeros(matches, np.int64)
    team_a[boards.match], team_b[boards.match] = team_of
    margin = np.bincount(boards.match, weights=boards.imps, minlength=matches)
    count = np.bincount(boards.match, minlength=matches).astype(float)
    total = np.bincount(team_a, margin, len(code)) - np.bincount(team_b, margin, len(code))
    played = np.bincount(team_a, count, len(code)) + np.bincount(team_b, count, len(code))
    # each side's IMPs a board in its other matches (a team of one match: none, 0)
    rate_a = (total[team_a] - margin) / np.maximum(played[team_a] - count, 1.0)
    rate_b = (total[team_b] + margin) / np.maximum(played[team_b] - count, 1.0)
    return (rate_a - rate_b) * count


# Fewer events than this held out: no intervals (resampling two or three events says nothing
# of the next one's teams and deals).
MIN_EVENTS = 5

# The ratings players know that learn one match at a time (team_play's forms of them).
ONLINE_RIVALS = ("PAIR_ELO", "NGS", "GLICKO2", "OPENSKILL", "ELO", "ELO_OPPONENTS", "TTT_YEARLY")


METHOD_DESCRIPTIONS = {
    "headline": "IMPs a board from match boards, every table against its field, teammates "
    "drawn together and experience, penalties chosen round by round",
    "headline_plain": "ridge over players on the match boards alone",
    "headline_dd": "the headline with each player's double dummy measures of earlier rounds "
    "(declarer play, defence, contract against par, opening leads) beside experience",
    LEADS: "the headline with each player's opening leads of earlier rounds (tricks lost "
    "to the double dummy best lead) beside experience",
    "coin": "every match level",
    "imp_average": "each player's past IMPs per board",
    HINDSIGHT: "a reference, not a forecast: each team's IMPs a board in its other matches "
    "of the event, later rounds included",
    "wbf_points": "WBF open masterpoints (a line in the teams' summed log points; the lists "
    "of 2014 and after flatter earlier years' players)",
    "pair_elo": "the Common Game's partnership Elo, each match board a deal at two tables",
    "ngs": "the EBU's National Grading Scheme, each match graded",
    "glicko2": "Glicko-2, a pair its players' mean, each match one game",
    "openskill": "OpenSkill (Plackett-Luce, teams of two), each match board a deal at two tables",
    "elo": "multiplayer Elo, a pair its players' mean, each match board a ranking of the two "
    "North-South pairs and of the two East-West pairs",
    "ttt": "TrueSkill Through Time, each line-up of a match a game of two teams of four, "
    "refitted once a year, TrueSkill's one-game update between",
    "elo_opponents": "multiplayer Elo as above, a pair judged by its rating less its "
    "opponents' at the table",
}


@dataclass
class EventStrengths:
    """The headline of the team events fitted on every match: what a forecast of a match
    not yet rated needs (``bridgerank predict``).

    Attributes
    ----------
    strength : dict
        Player (person) -> IMPs a board he adds to his side now, his experience counted.
    boards : dict
        Player -> match boards he played.
    board_variance : float
        A match's squared error a board, from the walk-forward's held-out rounds (the
        players' rating uncertainty and the boards' luck together).
    newcomer : float
        The strength of a player never seen.
    matches : int
        Matches fitted.
    through : str
        The last round fitted (its year and round).
    """

    strength: dict[str, float]
    boards: dict[str, int]
    board_variance: float
    newcomer: float
    matches: int
    through: str

    def rows(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The rows of ``event_strengths`` and ``event_fit``."""
        players = [
            {"player": name, "strength": value, "boards": self.boards[name]}
            for name, value in self.strength.items()
        ]
        fit = {
            "id": 1,
            "board_variance": self.board_variance,
            "newcomer": self.newcomer,
            "matches": self.matches,
            "players": len(players),
            "through": self.through,
        }
        return players, [fit]


@dataclass
class EventMatchValidation:
    """The study's rows (``event_match_validation``), each subset's headline figures and
    the headline fitted on every match (None: no round was held out)."""

    rows: list[dict[str, Any]]
    headline: dict[str, dict[str, Any]]
    strengths: EventStrengths | None = None
    # the headline's forecast of each held-out match (``event_match_forecasts``)
    forecasts: list[dict[str, Any]] = field(default_factory=list)


def study_event_matches(
    data: EventMatches,
    points: Mapping[str, float] | None = None,
    bootstrap: int = 10_000,
    progress: Any = None,
    rivals: bool = True,
    dd: DoubleDummyMeasures | None = None,
    settings: RateSettings | None = None,
) -> EventMatchValidation:
    """Every match after the first year forecast walk-forward by round (see the module
    docstring), scored overall, by event kind and (with ``dd``) on the matches of the events
    with deals, each method's gains the headline's over it with
    intervals that resample whole events, simultaneous over each subset's table; beside each
    subset, its margins' split-half reliability and ceiling. ``settings``: the ``[rate]``
    settings of the rivals' grids and the WBF baseline (None: the shipped defaults)."""
    from bridgerank.ratings.holdout import HeldOut, validation_rows, walk_forward

    boards = data.boards
    if not len(boards):
        return EventMatchValidation([], {})
    years = np.array([int(name[:4]) for name in boards.periods])
    tests = int(np.sum(years > years.min()))
    if tests == 0 or len(np.unique(data.event)) < 2:
        return EventMatchValidation([], {})
    kind = event_match_kind(data.event)
    methods = event_methods(data, points, rivals, dd, settings)
    run = walk_forward(
        boards,
        methods,
        kind.target,
        test_share=(tests - 0.5) / len(years),
        progress=progress,
    )
    if not len(run):
        return EventMatchValidation([], {})
    held = np.concatenate(
        [np.unique(boards.match[boards.period == p]) for p in np.unique(run.period)]
    )
    # beside the forecasts, the reference that knows each event's other matches
    run.forecasts[HINDSIGHT] = [Forecast(event_form_in_hindsight(data)[held], None)]
    kinds = data.kind_of_match()[held]
    subsets = {"all": np.ones(len(held), bool)} | {kind: kinds == kind for kind in EVENT_KINDS}
    if dd is not None:
        subsets[WITH_DEALS] = dd.events_with_deals[data.event[held]]
    rows: list[dict[str, Any]] = []
    headline: dict[str, dict[str, Any]] = {}
    for subset, mask in subsets.items():
        if mask.sum() < 3:
            continue
        part = HeldOut(
            run.actual[mask],
            run.group[mask],
            run.boards[mask],
            run.period[mask],
            {
                name: [Forecast(run.predicted(name)[mask], _masked(run.variance(name), mask))]
                for name in run.forecasts
            },
        )
        reliability, ceiling = match_ceiling(boards.subset(np.isin(boards.match, held[mask])))
        few = len(np.unique(part.group)) < MIN_EVENTS
        found = validation_rows(part, kind, "headline", 0 if few else bootstrap)
        for row in found:
            row |= {"subset": subset, "split_half": reliability, "ceiling": ceiling}
        rows += found
        headline[subset] = next(row for row in found if row["method"] == "headline") | {
            "coin_rmse": next(row["rmse"] for row in found if row["method"] == "coin"),
            "dd": next((row for row in found if row["method"] == "headline_dd"), None),
            "leads": next((row for row in found if row["method"] == LEADS), None),
            "hindsight": next(row["pearson"] for row in found if row["method"] == HINDSIGHT),
        }
    strengths = methods["headline"].current()
    return EventMatchValidation(rows, headline, strengths, _held_out_forecasts(data, run, held))


def _held_out_forecasts(data: EventMatches, run: Any, held: np.ndarray) -> list[dict[str, Any]]:
    """The headline's walk-forward forecast of each held-out match, team A's margin with its
    standard deviation, by ``team_matches`` row (none where the rows gave no ids)."""
    if len(data.match_ids) != len(data.boards.matches):
        return []
    predicted, variance = run.predicted("headline"), run.variance("headline")
    return [
        {
            "match_id": int(data.match_ids[match]),
            "predicted": float(predicted[number]),
            "sd": float(np.sqrt(variance[number])) if variance is not None else None,
        }
        for number, match in enumerate(held)
    ]


def _masked(values: np.ndarray | None, mask: np.ndarray) -> np.ndarray | None:
    return None if values is None else values[mask]


def _added(
    variant: Mapping[str, Any], headline: Mapping[str, Any]
) -> tuple[float, float | None, float | None]:
    """What a variant of the headline adds to its Pearson, with the interval: the table
    gives the headline's gain over the variant, so the variant's gain is its negative."""
    gain = variant["pearson"] - headline["pearson"]
    if variant["pearson_gain_low"] is None:
        return gain, None, None
    return gain, -variant["pearson_gain_high"], -variant["pearson_gain_low"]


def event_match_summary(data: EventMatches, found: EventMatchValidation) -> EventMatchSummary:
    """The rate stage's summary of the study (:class:`~bridgerank.ratings.summaries.
    EventMatchSummary`)."""
    from bridgerank.ratings.summaries import EventMatchSummary

    summary = EventMatchSummary(matches=len(data.boards.matches), events=len(data.events))
    overall = found.headline.get("all")
    if overall is not None:
        summary.held_out = overall["matches"]
        summary.pearson = overall["pearson"]
        summary.coin_gain = overall["coin_rmse"] - overall["rmse"]
        summary.ceiling = overall["ceiling"]
        summary.hindsight_pearson = overall["hindsight"]
    with_deals = found.headline.get(WITH_DEALS)
    if with_deals is not None and with_deals["dd"] is not None:
        summary.dd_matches = with_deals["matches"]
        summary.dd_gain, summary.dd_gain_low, summary.dd_gain_high = _added(
            with_deals["dd"], with_deals
        )
        if with_deals["leads"] is not None:
            summary.lead_gain, summary.lead_gain_low, summary.lead_gain_high = _added(
                with_deals["leads"], with_deals
            )
    championships = found.headline.get("championships")
    if championships is not None:
        summary.championship_pearson = championships["pearson"]
        summary.championship_ceiling = championships["ceiling"]
    return summary
