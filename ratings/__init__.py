"""Ratings from results: the headline rating, the methods it is judged against, and the
held-out harness that judges them all.

The library works without the pipeline (no database): build the field tables of pair events
with :func:`field_tables` and fit the headline with :func:`fit_headline`; validate any
registered method walk-forward with :func:`walk_forward` (the registries: :func:`registry`,
one per kind of unit - a pair's session, a team match, a board, a pair ranking); fit the
Bradley-Terry family with :func:`fit` / :func:`fit_hbt_newton` on a :class:`Hypergraph`, replay
multiplayer Elo games with :func:`replay`, read the skill-o-meter with :func:`skill_o_meter`.
Who beats whom is :mod:`bridgerank.ratings.gamematrix`. ``bridgerank.ratings.stage`` is the
pipeline's ``rate`` stage and is not imported here.
"""

from typing import TYPE_CHECKING

from bridgerank.core.lazy import lazy_face as _lazy_face

if TYPE_CHECKING:  # the names, for type checkers and editors
    from bridgerank.ratings.bt import (
        ConvergenceWarning,
        Fit,
        Hypergraph,
        NoEstimate,
        fit,
        fit_bt,
        fit_hbt_newton,
        log_likelihood,
    )
    from bridgerank.ratings.elo import EloTracker
    from bridgerank.ratings.field import FieldTables, field_tables
    from bridgerank.ratings.games import (
        Ranking,
        TeamGame,
        pair_rankings,
        pairwise_scores,
        single_table_games,
        team_games,
    )
    from bridgerank.ratings.headline.fit import HeadlineFit, fit_headline
    from bridgerank.ratings.holdout import Forecast, HeldOut, Target, walk_forward
    from bridgerank.ratings.plackett_luce import order_log_probability, position_matrix
    from bridgerank.ratings.registry import Method, StudyInputs, method_descriptions, registry
    from bridgerank.ratings.replay import Games, Replay, calibrate, replay
    from bridgerank.ratings.skill import SkillReading, read_spread, skill_o_meter
    from bridgerank.ratings.uncertainty import bootstrap_intervals, elo_spread

__all__, __getattr__, __dir__ = _lazy_face(
    __name__,
    {
        "ConvergenceWarning": "bt",
        "EloTracker": "elo",
        "FieldTables": "field",
        "Fit": "bt",
        "Forecast": "holdout",
        "HeadlineFit": "headline.fit",
        "HeldOut": "holdout",
        "Method": "registry",
        "StudyInputs": "registry",
        "Target": "holdout",
        "Games": "replay",
        "Hypergraph": "bt",
        "NoEstimate": "bt",
        "Ranking": "games",
        "Replay": "replay",
        "SkillReading": "skill",
        "TeamGame": "games",
        "bootstrap_intervals": "uncertainty",
        "calibrate": "replay",
        "elo_spread": "uncertainty",
        "field_tables": "field",
        "fit": "bt",
        "fit_bt": "bt",
        "fit_hbt_newton": "bt",
        "fit_headline": "headline.fit",
        "log_likelihood": "bt",
        "method_descriptions": "registry",
        "order_log_probability": "plackett_luce",
        "pair_rankings": "games",
        "pairwise_scores": "games",
        "position_matrix": "plackett_luce",
        "read_spread": "skill",
        "registry": "registry",
        "replay": "replay",
        "single_table_games": "games",
        "skill_o_meter": "skill",
        "team_games": "games",
        "walk_forward": "holdout",
    },
)
