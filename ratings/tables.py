"""The rate stage's tables."""

from __future__ import annotations

from sqlalchemy import Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.core.store import Base, exported


@exported
class Rating(Base):
    """A player's rating by one method (log-strength for the BT family, share for win rate)."""

    __tablename__ = "ratings"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    low: Mapped[float | None] = mapped_column(Float)  # bootstrap interval, where computed
    high: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


@exported
class RatingValidation(Base):
    """How well a method fitted on the earliest games predicts the rest."""

    __tablename__ = "rating_validation"
    task: Mapped[str] = mapped_column(Text, primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    log_loss: Mapped[float | None] = mapped_column(Float)
    accuracy: Mapped[float | None] = mapped_column(Float)  # on decided games
    test_games: Mapped[int] = mapped_column(Integer)


class RatingHistory(Base):
    """A player's rating after each of the games (pair rankings) they played (Elo methods)."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    method: Mapped[str] = mapped_column(String(16))
    player: Mapped[str] = mapped_column(Text)
    game: Mapped[int] = mapped_column(Integer)  # the game's number in the replay
    rating: Mapped[float] = mapped_column(Float)


@exported
class HeadlineRating(Base):
    """A player's headline rating: session percentage points above 50 expected with an
    average partner against an average field, with its posterior standard deviation."""

    __tablename__ = "headline_ratings"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    sd: Mapped[float] = mapped_column(Float)
    boards: Mapped[int] = mapped_column(Integer)
    sessions: Mapped[int] = mapped_column(Integer)


@exported
class SessionValidation(Base):
    """A method's walk-forward predictions of held-out pair-session percentages, scored, and
    its difference to the headline rating with 95% intervals simultaneous over the table
    (resampling whole sessions; :mod:`~bridgerank.ratings.gains`)."""

    __tablename__ = "session_validation"
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    pearson: Mapped[float | None] = mapped_column(Float)
    spearman: Mapped[float | None] = mapped_column(Float)
    rmse: Mapped[float] = mapped_column(Float)
    within_session_spearman: Mapped[float | None] = mapped_column(Float)
    orders_right: Mapped[float | None] = mapped_column(Float)
    coverage_50: Mapped[float | None] = mapped_column(Float)
    coverage_80: Mapped[float | None] = mapped_column(Float)
    coverage_95: Mapped[float | None] = mapped_column(Float)
    pearson_gain: Mapped[float | None] = mapped_column(Float)  # headline minus this method
    pearson_gain_low: Mapped[float | None] = mapped_column(Float)
    pearson_gain_high: Mapped[float | None] = mapped_column(Float)
    rmse_gain: Mapped[float | None] = mapped_column(Float)  # this method's RMSE minus headline's
    rmse_gain_low: Mapped[float | None] = mapped_column(Float)
    rmse_gain_high: Mapped[float | None] = mapped_column(Float)
    pair_sessions: Mapped[int] = mapped_column(Integer)
    sessions: Mapped[int] = mapped_column(Integer)
    periods: Mapped[int] = mapped_column(Integer)
    # the same on the pair-sessions with a player never seen before, and on the pairs with
    # five sessions together or more before (:mod:`~bridgerank.ratings.headline.experience`)
    newcomer_pearson: Mapped[float | None] = mapped_column(Float)
    newcomer_sessions: Mapped[int | None] = mapped_column(Integer)
    regular_pearson: Mapped[float | None] = mapped_column(Float)
    regular_sessions: Mapped[int | None] = mapped_column(Integer)
    # the setting a rival chose on its first training dates, with the grid it tried
    setting: Mapped[str | None] = mapped_column(Text)


@exported
class SessionPrediction(Base):
    """The headline's walk-forward forecast of each held-out pair-session, beside what the
    pair scored: the points of the report's calibration plot."""

    __tablename__ = "session_predictions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    period: Mapped[int] = mapped_column(Integer)  # index of the test date, in order
    session: Mapped[int] = mapped_column(Integer)
    predicted: Mapped[float] = mapped_column(Float)  # session percentage
    actual: Mapped[float] = mapped_column(Float)
    sd: Mapped[float | None] = mapped_column(Float)  # of the prediction


class ActualResult(Base):
    """What a pair-session, a team match or a one-table pair scored, keyed as ``bridgerank
    predict`` names its forecasts (:mod:`~bridgerank.ratings.actual_results`): what a stored
    forecast is scored against once its event is rated."""

    __tablename__ = "actual_results"
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)  # session | imps | event
    event: Mapped[str] = mapped_column(Text, primary_key=True)
    session: Mapped[str] = mapped_column(Text, primary_key=True)
    side: Mapped[str] = mapped_column(Text, primary_key=True)  # a pair's first player, a team
    opponents: Mapped[str] = mapped_column(Text, primary_key=True)  # "" for a pair vs par
    actual: Mapped[float] = mapped_column(Float)  # a percentage, or IMPs


class TableScore(Base):
    """What a table of a deal scored (:mod:`~bridgerank.ratings.table_scores`): North-South's
    score, its matchpoint percentage among the event's tables of the deal (three or more
    scored) and, for a team board's open room, the IMPs North-South won against the closed
    room."""

    __tablename__ = "table_scores"
    board_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ns_score: Mapped[int | None] = mapped_column(Integer)
    ns_percent: Mapped[float | None] = mapped_column(Float)
    imps: Mapped[int | None] = mapped_column(Integer)


@exported
class PairScorecard(Base):
    """Each pair's session, as a scorecard shows it (:mod:`~bridgerank.ratings.headline.
    scorecard`): percentage, place among the session's pairs and, where the walk-forward held
    the session out, the headline's forecast of it from the dates before."""

    __tablename__ = "pair_scorecards"
    event: Mapped[str] = mapped_column(Text, primary_key=True)
    session: Mapped[str] = mapped_column(Text, primary_key=True)  # date, else year and round
    player_a: Mapped[str] = mapped_column(Text, primary_key=True)
    player_b: Mapped[str] = mapped_column(Text, primary_key=True)
    boards: Mapped[int] = mapped_column(Integer)
    percent: Mapped[float] = mapped_column(Float)
    place: Mapped[int] = mapped_column(Integer)  # 1 the best; pairs level share a place
    pairs: Mapped[int] = mapped_column(Integer)  # ranked with it: its direction's, or all
    direction: Mapped[str] = mapped_column(String(2))  # NS, EW (a Mitchell) or "" (one ranking)
    forecast: Mapped[float | None] = mapped_column(Float)  # held out: the headline's forecast
    forecast_sd: Mapped[float | None] = mapped_column(Float)


@exported
class ValidationCeiling(Base):
    """How predictable session percentages are at all (see :mod:`ratings.headline.ceiling`),
    and held-out team matches' margins (``team_match_*``, :func:`~bridgerank.ratings.
    team_matches.match_ceiling`)."""

    __tablename__ = "validation_ceiling"
    measure: Mapped[str] = mapped_column(String(24), primary_key=True)
    value: Mapped[float | None] = mapped_column(Float)
    n: Mapped[int] = mapped_column(Integer)


@exported
class RatingCheck(Base):
    """What a selector must know of the headline and whether it is fair to partners
    (:mod:`~bridgerank.ratings.headline.checks`): reliability and interval coverage by band
    of boards played, the two partner-fairness checks of the EBU's grading scheme, and each
    regular partnership's own term (``band`` names the pair)."""

    __tablename__ = "rating_checks"
    measure: Mapped[str] = mapped_column(String(24), primary_key=True)
    band: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[float | None] = mapped_column(Float)
    low: Mapped[float | None] = mapped_column(Float)
    high: Mapped[float | None] = mapped_column(Float)
    n: Mapped[int] = mapped_column(Integer)


class StoredForecast(Base):
    """A forecast of a pair's session percentage, made by ``bridgerank predict`` before the
    event's results were rated (:mod:`bridgerank.ratings.headline.forecast`); kept to be scored once
    the event is ingested. Not a stage's output: the stages never clear it."""

    __tablename__ = "predictions"
    event: Mapped[str] = mapped_column(Text, primary_key=True)
    session: Mapped[str] = mapped_column(Text, primary_key=True)  # the session's date
    player_a: Mapped[str] = mapped_column(Text, primary_key=True)
    player_b: Mapped[str] = mapped_column(Text, primary_key=True)
    boards: Mapped[int] = mapped_column(Integer)
    rated: Mapped[int] = mapped_column(Integer)  # how many of the two had a rating
    predicted: Mapped[float] = mapped_column(Float)
    sd: Mapped[float] = mapped_column(Float)
    low_80: Mapped[float] = mapped_column(Float)
    high_80: Mapped[float] = mapped_column(Float)
    made_at: Mapped[str] = mapped_column(String(32))  # UTC, ISO 8601
    ratings_of: Mapped[str] = mapped_column(String(32))  # when the ratings used were fitted


class ImpForecast(Base):
    """A forecast in IMPs, made by ``bridgerank predict`` before the event's results were
    rated (:mod:`bridgerank.ratings.imp_forecast`): a team match's margin (``kind`` "match",
    ``side`` the team it is oriented to, ``opponents`` the other), or a pair's IMPs against
    the double dummy par over its boards of an event played at one table a deal (``kind``
    "pair", ``opponents`` empty). Sides are named as the file names them. Not a stage's
    output: the stages never clear it."""

    __tablename__ = "imp_forecasts"
    event: Mapped[str] = mapped_column(Text, primary_key=True)
    session: Mapped[str] = mapped_column(Text, primary_key=True)  # the date (or round)
    side: Mapped[str] = mapped_column(Text, primary_key=True)
    opponents: Mapped[str] = mapped_column(Text, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    boards: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)  # of the side and, in a match, its opponents
    rated: Mapped[int] = mapped_column(Integer)  # how many of them have a team strength
    predicted: Mapped[float] = mapped_column(Float)
    sd: Mapped[float] = mapped_column(Float)
    low_80: Mapped[float] = mapped_column(Float)
    high_80: Mapped[float] = mapped_column(Float)
    made_at: Mapped[str] = mapped_column(String(32))  # UTC, ISO 8601
    ratings_of: Mapped[str] = mapped_column(String(32))  # when the strengths used were fitted


class TeamFit(Base):
    """The team headline fitted on every board (:func:`~bridgerank.ratings.team_ratings.
    team_ratings`): its choices, the noise of a board in IMPs, and a newcomer's strength -
    what a forecast of a match or a one-table event needs beside the players' strengths."""

    __tablename__ = "team_fit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    penalty: Mapped[float] = mapped_column(Float)
    one_table_weight: Mapped[float] = mapped_column(Float)
    board_variance: Mapped[float] = mapped_column(Float)  # a team board's IMPs, squared
    one_table_variance: Mapped[float | None] = mapped_column(Float)  # IMPs against par
    newcomer: Mapped[float] = mapped_column(Float)  # the strength of a player never seen
    newcomer_sd: Mapped[float] = mapped_column(Float)
    # of newcomer_sd, each newcomer's own part: the rest is the covariates' coefficients',
    # one error shared by every newcomer (None: a fit of an older version)
    newcomer_own_sd: Mapped[float | None] = mapped_column(Float)
    team_boards: Mapped[int] = mapped_column(Integer)
    one_table_boards: Mapped[int] = mapped_column(Integer)


@exported
class TeamStrength(Base):
    """Every player's strength in the team headline's fit, IMPs per board added to a side:
    the team boards' players (also in ``ratings`` as ``team_imps``) and every other player
    of the records, whose strength is what their one-table boards, experience and double
    dummy measures say."""

    __tablename__ = "team_strengths"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    strength: Mapped[float] = mapped_column(Float)
    sd: Mapped[float] = mapped_column(Float)
    team_boards: Mapped[int] = mapped_column(Integer)


@exported
class MatchValidation(Base):
    """Held-out team matches, walk-forward by date: the IMP headline and each baseline
    (:mod:`bridgerank.ratings.team_matches`); margins in IMPs."""

    __tablename__ = "match_validation"
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    pearson: Mapped[float | None] = mapped_column(Float)
    rmse: Mapped[float] = mapped_column(Float)
    winner_right: Mapped[float | None] = mapped_column(Float)  # decided matches; level = half
    coverage_80: Mapped[float | None] = mapped_column(Float)
    rmse_gain: Mapped[float | None] = mapped_column(Float)  # this method's RMSE minus headline's
    rmse_gain_low: Mapped[float | None] = mapped_column(Float)
    rmse_gain_high: Mapped[float | None] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    boards: Mapped[int] = mapped_column(Integer)


class EventStrength(Base):
    """Every player of the team events' matches as the events' headline rates him after the
    last round (:meth:`~bridgerank.ratings.round_ridge.RoundRidge.current`): the IMPs a
    board he adds to his side, experience counted, and the match boards he played."""

    __tablename__ = "event_strengths"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    strength: Mapped[float] = mapped_column(Float)
    boards: Mapped[int] = mapped_column(Integer)


class EventFit(Base):
    """The team events' headline fitted on every match: a match's squared error a board
    (from the walk-forward's held-out rounds), a newcomer's strength, what was fitted."""

    __tablename__ = "event_fit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    board_variance: Mapped[float] = mapped_column(Float)
    newcomer: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    through: Mapped[str] = mapped_column(Text)  # the last round fitted: its year and round


class EventMatchForecast(Base):
    """The team events' headline's walk-forward forecast of each held-out match (from the
    earlier rounds and years only): team A's margin (``team_matches.margin``'s side) and its
    standard deviation, IMPs."""

    __tablename__ = "event_match_forecasts"
    match_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    predicted: Mapped[float] = mapped_column(Float)
    sd: Mapped[float | None] = mapped_column(Float)


@exported
class EventMatchValidation(Base):
    """Held-out matches of team events rebuilt from traveller files, walk-forward by round
    (:mod:`bridgerank.ratings.event_matches`): per ``subset`` (``all``, ``championships``,
    ``leagues``, ``open teams``, ``with deals``) each method's scores (and those of a
    reference that is no forecast, ``hindsight_form``), the headline's gains over it with
    95% intervals that resample whole events (simultaneous over the subset's table), and the
    subset's split-half reliability of a margin and the ceiling it sets (the same on each of
    its rows)."""

    __tablename__ = "event_match_validation"
    subset: Mapped[str] = mapped_column(String(16), primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    pearson: Mapped[float | None] = mapped_column(Float)
    rmse: Mapped[float] = mapped_column(Float)
    winner_right: Mapped[float | None] = mapped_column(Float)  # decided matches; level = half
    coverage_80: Mapped[float | None] = mapped_column(Float)
    pearson_gain: Mapped[float | None] = mapped_column(Float)  # headline minus this method
    pearson_gain_low: Mapped[float | None] = mapped_column(Float)
    pearson_gain_high: Mapped[float | None] = mapped_column(Float)
    rmse_gain: Mapped[float | None] = mapped_column(Float)  # this method's RMSE minus headline's
    rmse_gain_low: Mapped[float | None] = mapped_column(Float)
    rmse_gain_high: Mapped[float | None] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    boards: Mapped[int] = mapped_column(Integer)
    events: Mapped[int] = mapped_column(Integer)
    split_half: Mapped[float | None] = mapped_column(Float)
    ceiling: Mapped[float | None] = mapped_column(Float)


@exported
class OneTableValidation(Base):
    """Held-out pairs in events played at one table a deal, walk-forward by date: a pair's
    IMPs against par over its boards of a session, by the IMP headline and each baseline
    (:mod:`bridgerank.ratings.one_table_pairs`)."""

    __tablename__ = "one_table_validation"
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    pearson: Mapped[float | None] = mapped_column(Float)
    rmse: Mapped[float] = mapped_column(Float)
    coverage_80: Mapped[float | None] = mapped_column(Float)
    rmse_gain: Mapped[float | None] = mapped_column(Float)  # this method's RMSE minus headline's
    rmse_gain_low: Mapped[float | None] = mapped_column(Float)
    rmse_gain_high: Mapped[float | None] = mapped_column(Float)
    pairs: Mapped[int] = mapped_column(Integer)  # pair-sessions
    boards: Mapped[int] = mapped_column(Integer)


@exported
class GameStructure(Base):
    """A game matrix of who beats whom (the strongest pairs, or a team event): transitive,
    cyclic or hybrid, how much of its logits ratings explain, its discs, the best method."""

    __tablename__ = "game_structure"
    game: Mapped[str] = mapped_column(Text, primary_key=True)
    entity: Mapped[str] = mapped_column(String(16))  # pair or team
    players: Mapped[int] = mapped_column(Integer)
    observed: Mapped[float] = mapped_column(Float)  # share of the pairs with an entry
    comparisons: Mapped[int] = mapped_column(Integer)  # boards compared among them
    kind: Mapped[str] = mapped_column(String(24))
    transitive_share: Mapped[float] = mapped_column(Float)
    # 5%, mean and 95% of the share in transitive games measured on the same boards
    noise_low: Mapped[float | None] = mapped_column(Float)
    noise_mean: Mapped[float | None] = mapped_column(Float)
    noise_high: Mapped[float | None] = mapped_column(Float)
    lambda_1: Mapped[float | None] = mapped_column(Float)  # the strongest discs of the logits
    lambda_2: Mapped[float | None] = mapped_column(Float)
    lambda_3: Mapped[float | None] = mapped_column(Float)
    transitive_discs: Mapped[int] = mapped_column(Integer)
    cyclic_lambda: Mapped[float] = mapped_column(Float)  # strongest disc once ratings removed
    best_method: Mapped[str | None] = mapped_column(String(16))
    sentence: Mapped[str] = mapped_column(Text)


@exported
class GameMethodScore(Base):
    """One method on one game matrix: sign accuracy (overall, training and held-out entries,
    mean and sd over the hold-outs) and held-out log-loss (spec 6.6)."""

    __tablename__ = "game_method_scores"
    game: Mapped[str] = mapped_column(Text, primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    seeds: Mapped[int] = mapped_column(Integer)
    overall: Mapped[float | None] = mapped_column(Float)
    overall_sd: Mapped[float | None] = mapped_column(Float)
    train: Mapped[float | None] = mapped_column(Float)
    test: Mapped[float | None] = mapped_column(Float)
    test_sd: Mapped[float | None] = mapped_column(Float)
    test_log_loss: Mapped[float | None] = mapped_column(Float)


@exported
class DiscPoint(Base):
    """A player (pair, team) in the strongest cyclic disc of a game: ``(x, y)``; ``x_i y_j -
    y_i x_j`` is how much ``i`` beats ``j`` by this cycle, ``rating`` the transitive part."""

    __tablename__ = "disc_points"
    game: Mapped[str] = mapped_column(Text, primary_key=True)
    label: Mapped[str] = mapped_column(Text, primary_key=True)
    x: Mapped[float] = mapped_column(Float)
    y: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)


@exported
class FittedHeadline(Base):
    """The headline rating's fit: one row, what it was fitted on and what a forecast of a new
    event needs besides the ratings (``bridgerank predict``).

    Attributes
    ----------
    id : int
        Always 1: the table holds the last fit only.
    tables, players, sessions : int
        Matchpointed tables (a deal at three or more tables of one event), players and
        sessions fitted on; ``tables`` is 0 when no deal was played at enough tables.
    penalty : float or None
        The ridge penalty chosen (the strengths minimise the squared error plus ``penalty *
        |theta|^2``, :mod:`bridgerank.ratings.headline.fit`).
    newcomer_prior : float or None
        The prior centre's coefficient on log(1 + sessions played), chosen on the tables'
        latest quarter (None: newcomers start where the regulars do).
    residual_variance : float or None
        A board's residual variance (matchpoint shares squared).
    form_variance : float or None
        What a pair's form on the day adds to a session's variance beyond the ratings'
        uncertainty and the boards' luck (squared percentage points).
    familiarity : float or None
        A familiar partnership's bonus (``[rate.headline] familiar_sessions`` sessions
        together or more before), in matchpoint share of the table's ``d``
        (:mod:`bridgerank.ratings.headline.familiarity`; None: no pair had played together
        before, so there was nothing to learn it from).
    entry_effects : str or None
        JSON: each entry code's term at full weight, in matchpoint share of a table's ``d``
        (:mod:`bridgerank.ratings.headline.entry`; None: the tables knew no entry).
    not_fitted : str or None
        Why there is no fit (then every value above is empty).
    not_validated : str or None
        Why the fit was not validated on held-out sessions (None: it was, see
        ``session_validation``).
    """

    __tablename__ = "headline_fit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tables: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    sessions: Mapped[int] = mapped_column(Integer)
    penalty: Mapped[float | None] = mapped_column(Float)
    newcomer_prior: Mapped[float | None] = mapped_column(Float)
    residual_variance: Mapped[float | None] = mapped_column(Float)
    form_variance: Mapped[float | None] = mapped_column(Float)
    familiarity: Mapped[float | None] = mapped_column(Float)
    entry_effects: Mapped[str | None] = mapped_column(Text)
    not_fitted: Mapped[str | None] = mapped_column(Text)
    not_validated: Mapped[str | None] = mapped_column(Text)


class RateInputs(Base):
    """What the methods of ``ratings`` were rated on: one row, the games of each kind.

    Attributes
    ----------
    id : int
        Always 1: the table holds the last run only.
    team_games : int
        Team boards played in both rooms (two pairs against two pairs, by the net score).
    single_table_games : int
        Single-table boards scored against their double dummy par (none before dds runs).
    pair_rankings : int
        Deals played at three or more tables, each ranking its North-South pairs and its
        East-West pairs by score (the multiplayer Elo methods' games).
    players : int
        Players with a rating by at least one method.
    """

    __tablename__ = "rate_inputs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_games: Mapped[int] = mapped_column(Integer)
    single_table_games: Mapped[int] = mapped_column(Integer)
    pair_rankings: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)


class SkillOMeter(Base):
    """The skill-o-meter's reading (Duersch, Lambrecht and Oechssler) on the pair rankings,
    from the ratings of one Elo method (:mod:`bridgerank.ratings.skill`); no row without pair
    rankings.

    Attributes
    ----------
    method : str
        The Elo method whose ratings are read (``dlo``: by ranking probabilities).
    k : float
        Its K, calibrated on the results.
    sigma : float
        The spread (sample standard deviation) of the regular players' ratings, Elo points.
    p : float
        In the benchmark of p-deterministic games (the stronger side wins with probability
        p, otherwise chance decides), the p this spread corresponds to.
    players : int
        The regular players: those with at least ``[rate] regular_games`` games.
    """

    __tablename__ = "skill_o_meter"
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    k: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    p: Mapped[float] = mapped_column(Float)
    players: Mapped[int] = mapped_column(Integer)
