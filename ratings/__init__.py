"""Ratings from results: the Bradley-Terry family and the multiplayer Elo family.

The library works without the pipeline (no database, no settings): fit a model with
:func:`fit` / :func:`fit_hbt_newton` on a :class:`Hypergraph`, replay multiplayer games with
:func:`replay`, read the skill-o-meter with :func:`skill_o_meter`. ``bridgerank.ratings.stage``
is the pipeline's ``rate`` stage and is not imported here.
"""

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

__all__ = [
    "ConvergenceWarning", "EloTracker", "Fit", "Games", "Hypergraph", "NoEstimate", "Ranking",
    "Replay", "SkillReading", "TeamGame", "bootstrap_intervals", "calibrate", "elo_spread",
    "fit", "fit_bt", "fit_hbt_newton", "log_likelihood", "order_log_probability",
    "pair_rankings", "pairwise_scores", "position_matrix", "read_spread", "replay",
    "single_table_games", "skill_o_meter", "team_games",
]
