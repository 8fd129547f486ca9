"""Ratings from results: the Bradley-Terry family and the multiplayer Elo family.

The library works without the pipeline (no database, no settings): fit a model with
:func:`fit` / :func:`fit_hbt_newton` on a :class:`Hypergraph`, replay multiplayer games with
:func:`replay`, read the skill-o-meter with :func:`skill_o_meter`. ``bridgerank.ratings.stage``
is the pipeline's ``rate`` stage and is not imported here.
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
    from bridgerank.ratings.games import (
        Ranking,
        TeamGame,
        pair_rankings,
        pairwise_scores,
        single_table_games,
        team_games,
    )
    from bridgerank.ratings.plackett_luce import order_log_probability, position_matrix
    from bridgerank.ratings.replay import Games, Replay, calibrate, replay
    from bridgerank.ratings.skill import SkillReading, read_spread, skill_o_meter
    from bridgerank.ratings.uncertainty import bootstrap_intervals, elo_spread

__all__, __getattr__, __dir__ = _lazy_face(
    __name__,
    {
        "ConvergenceWarning": "bt",
        "EloTracker": "elo",
        "Fit": "bt",
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
        "fit": "bt",
        "fit_bt": "bt",
        "fit_hbt_newton": "bt",
        "log_likelihood": "bt",
        "order_log_probability": "plackett_luce",
        "pair_rankings": "games",
        "pairwise_scores": "games",
        "position_matrix": "plackett_luce",
        "read_spread": "skill",
        "replay": "replay",
        "single_table_games": "games",
        "skill_o_meter": "skill",
        "team_games": "games",
    },
)
