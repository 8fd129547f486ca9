"""The baselines every rating is measured against, each written once: WBF masterpoints, the
win rate and multiplayer Elo.

Each baseline is one per-player standing (:func:`wbf_standing`, :func:`player_shares`,
:func:`calibrated_elo`), turned into a forecast by each kind of held-out unit in the way the
unit asks (:mod:`registry`): a pair's session percentage, a team match's IMP margin, who wins
a board. The names are the ones the validation tables store: ``wbf_points``, ``win_rate``,
``elo``, ``dlo`` (and ``elo_opponents``, ``dlo_opponents`` for pair sessions).
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Mapping, Sequence

import numpy as np
from scipy.optimize import minimize_scalar

from bridgerank.ratings.field import (
    FieldTables,
    deal_rows,
    field_share,
    pair_percent,
    pair_sessions,
)
from bridgerank.ratings.games import TeamGame, log_loss
from bridgerank.ratings.holdout import Forecast, Target
from bridgerank.ratings.plackett_luce import beat_chance, payoffs
from bridgerank.ratings.registry import Method, Rated, SplitMethod, StudyInputs
from bridgerank.ratings.replay import Games, Replay, calibrate, replay
from bridgerank.ratings.team_baselines import scaled_baseline
from bridgerank.ratings.team_boards import TeamBoards

__all__ = [
    "DLO_OPPONENTS_SESSIONS",
    "DLO_RANKINGS",
    "DLO_SESSIONS",
    "ELO_OPPONENTS_SESSIONS",
    "ELO_RANKINGS",
    "ELO_SESSIONS",
    "WBF_BOARDS",
    "WBF_MATCHES",
    "WBF_SESSIONS",
    "WIN_RATE_BOARDS",
    "WIN_RATE_RANKINGS",
    "WIN_RATE_SESSIONS",
    "board_shares",
    "calibrated_elo",
    "expected_beaten",
    "outcome",
    "pair_share_forecast",
    "player_shares",
    "ranking_games",
    "ranking_shares",
    "table_shares",
    "wbf_listed",
    "wbf_standing",
]


# --- WBF masterpoints ---------------------------------------------------------------------


def wbf_standing(points: Mapping[str, float], players: Iterable[Hashable]) -> np.ndarray:
    """Each player's ``log(1 + WBF open masterpoints)``, 0 for a player not on the lists."""
    return np.array([np.log1p(points.get(str(player)) or 0.0) for player in players])


def wbf_listed(
    points: Mapping[str, float], players: Sequence[Hashable], share: float | None = None
) -> bool:
    """Whether enough of the players are on the WBF lists for their points to be a baseline
    and a prior centre.

    Parameters
    ----------
    points : mapping
        Player name -> WBF open masterpoints.
    players : sequence
        The players of the data.
    share : float, optional
        The least share of ``players`` listed (None: ``[rate.rivals] wbf_min_listed_share``
        of the shipped defaults).

    Returns
    -------
    bool
    """
    if share is None:
        share = StudyInputs().rate.rivals.wbf_min_listed_share
    listed = sum(1 for player in players if str(player) in points)
    return bool(points) and listed >= share * len(players)


def _wbf_sessions(data: FieldTables, inputs: StudyInputs):
    """A pair's percentage is a straight line in its players' summed standing, fitted by least
    squares on the training pair-sessions; its variance is the training residuals'."""
    points = inputs.points
    if not wbf_listed(points, data.players, inputs.rate.rivals.wbf_min_listed_share):
        return None

    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        value = wbf_standing(points, train.players)  # one player list for train and test
        seen = pair_sessions(train)
        x = value[seen.pair].sum(axis=1)
        design = np.column_stack([np.ones_like(x), x])
        coefficients, *_ = np.linalg.lstsq(design, seen.percent, rcond=None)
        residual = seen.percent - design @ coefficients
        variance = float(residual @ residual / max(len(x) - 2, 1))
        predicted = coefficients[0] + coefficients[1] * value[target.detail.pair].sum(axis=1)
        return Forecast(predicted, np.full(len(predicted), variance))

    return predict


def _wbf_matches(data: TeamBoards, inputs: StudyInputs):
    """A board's IMPs are a straight line in the teams' summed standings' difference."""
    points = inputs.points
    if not points:
        return None
    return scaled_baseline(lambda train: wbf_standing(points, train.players))


def _wbf_boards(games: list[TeamGame], inputs: StudyInputs) -> SplitMethod:
    """P(team A wins) = sigma(beta (A's summed standing - B's)), beta fitted on the training
    games by log-loss."""
    players = list(dict.fromkeys(p for game in games for p in game.team_a + game.team_b))
    value = dict(zip(players, wbf_standing(inputs.points, players)))

    def difference(game: TeamGame) -> float:
        return float(sum(value[p] for p in game.team_a)) - float(sum(value[p] for p in game.team_b))

    def predict(train: list[TeamGame], test: list[TeamGame]) -> np.ndarray:
        x_train = np.array([difference(game) for game in train])
        y_train = np.array([outcome(game) for game in train])

        def loss(beta: float) -> float:
            return log_loss(1 / (1 + np.exp(-beta * x_train)), y_train)

        beta = minimize_scalar(loss, bounds=(-5, 5), method="bounded").x if train else 0.0
        return np.array([1 / (1 + np.exp(-beta * difference(game))) for game in test])

    return SplitMethod(predict)


WBF_SESSIONS = Method(
    "wbf_points", "WBF open masterpoints (a line in the pair's summed log points)", _wbf_sessions
)
WBF_MATCHES = Method(
    "wbf_points", "WBF open masterpoints (a line in the teams' summed log points)", _wbf_matches
)
WBF_BOARDS = Method(
    "wbf_points", "WBF open masterpoints (logistic in the teams' summed log points)", _wbf_boards
)


# --- win rate -----------------------------------------------------------------------------


def player_shares(
    who: np.ndarray,
    score: np.ndarray,
    players: int,
    weight: np.ndarray | None = None,
    shrink: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Each player's share won: the (``weight``-ed) mean of the ``score`` (0 to 1; a tie 1/2)
    of every entry ``who`` played, shrunk toward 1/2 by ``shrink`` entries' weight (a player
    with none: 1/2); and each player's total weight.

    The one win rate: of boards (score 1, 1/2 or 0), of tables against the field (a
    matchpoint share), of pairs beaten in a ranking (weight: the pairs met)."""
    weight = np.ones(len(who)) if weight is None else weight
    total = np.bincount(who, weights=weight * (score - 0.5), minlength=players)
    count = np.bincount(who, weights=weight, minlength=players)
    return 0.5 + total / np.maximum(count + shrink, 1), count


def table_shares(tables: FieldTables, shrink: float = 0.0) -> np.ndarray:
    """Each player's mean matchpoint share at the tables played (share of tables beaten)."""
    who = np.concatenate([tables.seats[:, seat] for seat in range(4)])
    score = np.concatenate([tables.share] * 2 + [1 - tables.share] * 2)
    return player_shares(who, score, len(tables.players), shrink=shrink)[0]


def pair_share_forecast(shares: np.ndarray, target: Target) -> Forecast:
    """A pair's percentage: the mean of its two players' shares, times 100."""
    return Forecast(100 * shares[target.detail.pair].mean(axis=1))


def _win_rate_sessions(data: FieldTables, inputs: StudyInputs):
    def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
        return pair_share_forecast(table_shares(train), target)

    return predict


def outcome(game: TeamGame) -> float:
    """Team A's result of a board: 1 won, 1/2 tied, 0 lost."""
    return 1.0 if game.net > 0 else 0.0 if game.net < 0 else 0.5


def board_shares(games: Sequence[TeamGame]) -> dict[Hashable, tuple[float, int]]:
    """Each player's share of boards won (ties half) and boards played, in first-seen order."""
    index: dict[Hashable, int] = {}
    who, score = [], []
    for game in games:
        result = outcome(game)
        for team, value in ((game.team_a, result), (game.team_b, 1 - result)):
            for player in team:
                who.append(index.setdefault(player, len(index)))
                score.append(value)
    shares, count = player_shares(
        np.array(who, dtype=np.int64), np.array(score, dtype=float), len(index)
    )
    return {player: (float(shares[i]), int(count[i])) for player, i in index.items()}


def _win_rate_boards(games: list[TeamGame], inputs: StudyInputs) -> SplitMethod:
    def predict(train: list[TeamGame], test: list[TeamGame]) -> np.ndarray:
        rates = board_shares(train)

        def mean(team) -> float:
            return float(np.mean([rates.get(p, (0.5, 0))[0] for p in team]))

        return np.array(
            [float(np.clip(0.5 + mean(g.team_a) - mean(g.team_b), 0.01, 0.99)) for g in test]
        )

    def rate(games: list[TeamGame]) -> Rated:
        return Rated(
            {player: (share, None, None) for player, (share, _) in board_shares(games).items()}
        )

    return SplitMethod(predict, rate)


WIN_RATE_SESSIONS = Method(
    "win_rate", "share of other tables beaten (the players' mean)", _win_rate_sessions
)
WIN_RATE_BOARDS = Method("win_rate", "share of boards won (ties half)", _win_rate_boards)


def ranking_shares(rankings: Sequence[Any]) -> dict[Hashable, float]:
    """Each player's share of the opponents his pairs finished ahead of in the rankings (ties
    half), weighted by the opponents met."""
    index: dict[Hashable, int] = {}
    who, score, weight = [], [], []
    for ranking in rankings:
        others = len(ranking.teams) - 1
        for team, wins in zip(ranking.teams, payoffs(ranking.places)):
            for player in team:
                who.append(index.setdefault(player, len(index)))
                score.append(wins / others)
                weight.append(others)
    shares, _ = player_shares(
        np.array(who, dtype=np.int64),
        np.array(score, dtype=float),
        len(index),
        np.array(weight, dtype=float),
    )
    return {player: float(shares[i]) for player, i in index.items()}


def _win_rate_rankings(rankings: list[Any], inputs: StudyInputs) -> SplitMethod:
    """A pair's strength: the logit of its players' mean share of pairs beaten, in Elo
    points (unseen: 1/2)."""

    def predict(train: list[Any], test: list[Any]):
        share = ranking_shares(train)

        def logit(team) -> float:
            value = float(np.clip(np.mean([share.get(p, 0.5) for p in team]), 0.01, 0.99))
            return 400 * np.log10(value / (1 - value))

        return logit

    return SplitMethod(predict)


WIN_RATE_RANKINGS = Method(
    "win_rate", "share of the other pairs beaten on a deal (the players' mean)", _win_rate_rankings
)


# --- multiplayer Elo ------------------------------------------------------------------------


def calibrated_elo(
    games: Games,
    kind: str,
    calibration: Games | None = None,
    k: float | None = None,
    xatol: float = 1e-6,
    keep_history: bool = False,
) -> tuple[float, Replay]:
    """Multiplayer Elo (``elo``: multielo; ``dlo``: ranking probabilities) replayed over
    ``games``, K calibrated by prequential loss on ``calibration`` (default: the games) unless
    given; returns K and the replay."""
    if k is None:
        k = calibrate(calibration if calibration is not None else games, kind, xatol=xatol)[0]
    return k, replay(games, kind, k, keep_history=keep_history)


def ranking_games(tables: FieldTables) -> Games:
    """Each deal twice, as a ranking of its North-South pairs and of its East-West pairs."""
    members, places = [], []
    for rows in deal_rows(tables, np.arange(len(tables))):
        shares = tables.share[rows]
        for seats, sign in (((0, 1), 1.0), ((2, 3), -1.0)):
            values = sign * shares
            members.append(tables.seats[rows][:, list(seats)])
            places.append(1 + (values[None, :] > values[:, None]).sum(axis=1))
    return Games(list(range(len(tables.players))), members, places)


def expected_beaten(tables: FieldTables, ratings: np.ndarray, seats, opponents=()) -> np.ndarray:
    """Each table's expected share of the same-direction pairs beaten, from the Elo ratings
    of the pair at ``seats`` (less its ``opponents``' at the table, if any)."""
    team = ratings[tables.seats[:, list(seats)]].mean(axis=1)
    if opponents:
        team = team - ratings[tables.seats[:, list(opponents)]].mean(axis=1)
    return field_share(tables.group, lambda i, j: beat_chance(team[i], team[j]))


def _elo_sessions(kind: str, opponents: bool):
    """Elo replayed over the training deals: a pair's expected share at a table is its
    expected fraction of the same-direction pairs beaten, judged by its own rating alone or
    (``opponents``) by its rating minus its opponents' at that table - in a field
    matchpointed on one deal, who sat opposite moves a pair's score, and the headline counts
    it, so a fair baseline does too. K is calibrated on the first training set and kept for
    the later, larger ones; the two predictions of a kind share one replay per training set
    (through the study's ``shared``). A training set that adds only deals after those
    replayed before (:func:`_later_deals`) goes on from their ratings over the new deals."""

    def make(data: FieldTables, inputs: StudyInputs):
        state = inputs.shared.setdefault(("elo sessions", kind), {})

        def ratings_of(train: FieldTables) -> np.ndarray:
            key = (len(train), int(train.period.max()))
            if state.get("key") != key:
                deals = np.unique(train.group)
                new = _later_deals(state.get("deals"), deals)
                if new is None:
                    games = ranking_games(train)
                    k, run = calibrated_elo(games, kind, k=state.get("k"))
                else:
                    k = state["k"]
                    later = train.subset(np.isin(train.group, new))
                    run = replay(ranking_games(later), kind, k, start=state["ratings"])
                state.update(key=key, k=k, ratings=run.ratings, deals=deals)
            return state["ratings"]

        def predict(train: FieldTables, test: FieldTables, target: Target) -> Forecast:
            ratings = ratings_of(train)
            ns = expected_beaten(test, ratings, (0, 1), (2, 3) if opponents else ())
            ew = expected_beaten(test, ratings, (2, 3), (0, 1) if opponents else ())
            return Forecast(pair_percent(test, ns, ew))

        return predict

    return make


def _later_deals(replayed: np.ndarray | None, deals: np.ndarray) -> np.ndarray | None:
    """The deals of ``deals`` (sorted) past the ``replayed`` ones, when ``deals`` holds every
    replayed deal and the others all come after them (a replay orders games by deal): then a
    replay of them goes on from the replayed ratings. None when it cannot."""
    if replayed is None or not len(replayed):
        return None
    if not np.array_equal(deals[: len(replayed)], replayed):  # shorter: not equal either
        return None
    return deals[len(replayed) :]


def _elo_rankings(kind: str):
    """Elo replayed over the pair rankings, a pair's strength its players' mean rating (0:
    unseen); K calibrated (to 1e-3) on the first ``[rate] calibration_rankings`` rankings of
    each set (0: all): the search replays them some twenty times."""

    def make(rankings: list[Any], inputs: StudyInputs) -> SplitMethod:
        settings = inputs.settings
        calibration = settings.calibration_rankings if settings is not None else 0

        def head(items: list[Any]) -> Games:
            return Games.from_rankings(items[:calibration] if calibration else items)

        def predict(train: list[Any], test: list[Any]):
            games = Games.from_rankings(train)
            _, run = calibrated_elo(games, kind, head(train), xatol=1e-3)
            by_player = run.by_player(games)
            return lambda team: float(np.mean([by_player.get(p, 0.0) for p in team]))

        def rate(rankings: list[Any]) -> Rated:
            games = Games.from_rankings(rankings)
            k, run = calibrated_elo(games, kind, head(rankings), xatol=1e-3, keep_history=True)
            ratings = {
                player: (value, None, None) for player, value in run.by_player(games).items()
            }
            return Rated(ratings, run.history_by_player(games), k)

        return SplitMethod(predict, rate)

    return make


ELO_RANKINGS = Method("elo", "multiplayer Elo (multielo)", _elo_rankings("elo"))
DLO_RANKINGS = Method("dlo", "multiplayer Elo by ranking probabilities", _elo_rankings("dlo"))
ELO_SESSIONS = Method("elo", "multiplayer Elo (multielo)", _elo_sessions("elo", False))
ELO_OPPONENTS_SESSIONS = Method(
    "elo_opponents",
    "multiplayer Elo (multielo), less the opponents' Elo at the table",
    _elo_sessions("elo", True),
)
DLO_SESSIONS = Method(
    "dlo", "multiplayer Elo by ranking probabilities", _elo_sessions("dlo", False)
)
DLO_OPPONENTS_SESSIONS = Method(
    "dlo_opponents",
    "Elo by ranking probabilities, less the opponents' at the table",
    _elo_sessions("dlo", True),
)
