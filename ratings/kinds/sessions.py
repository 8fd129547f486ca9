"""The methods forecasting a pair's session percentage, walked forward beside the headline."""

from bridgerank.ratings import baselines
from bridgerank.ratings.headline import partnerships, sessions
from bridgerank.ratings.registry import Registry
from bridgerank.ratings.rivals import glicko2, ngs, openskill_pairs, pair_elo, ttt

METHODS = Registry(
    "sessions",
    [
        sessions.HEADLINE,
        sessions.COIN,
        baselines.WIN_RATE_SESSIONS,
        sessions.SHRUNK_MEAN,
        baselines.ELO_SESSIONS,
        baselines.ELO_OPPONENTS_SESSIONS,
        baselines.DLO_SESSIONS,
        baselines.DLO_OPPONENTS_SESSIONS,
        baselines.WBF_SESSIONS,
        sessions.HEADLINE_WBF,
        sessions.HEADLINE_PLAIN,
        sessions.HEADLINE_UNFAMILIAR,
        sessions.HEADLINE_NO_DD,
        sessions.HEADLINE_NO_ENTRY,
        partnerships.HEADLINE_PARTNERSHIPS,
        pair_elo.PAIR_ELO,
        openskill_pairs.OPENSKILL,
        ngs.NGS,
        glicko2.GLICKO2,
        ttt.TTT,
    ],
)
