"""The methods forecasting a team match's IMP margin, walked forward beside the team headline."""

from bridgerank.ratings import baselines, team_matches
from bridgerank.ratings.registry import Registry
from bridgerank.ratings.rivals import team_play

METHODS = Registry(
    "matches",
    [
        team_matches.HEADLINE,
        team_matches.COIN,
        team_matches.IMP_AVERAGE,
        team_matches.HBT,
        baselines.WBF_MATCHES,
        team_matches.HEADLINE_WBF,
        team_matches.HEADLINE_ONE_TABLE,
        team_matches.HEADLINE_NO_DD,
        team_matches.HEADLINE_CARDS,
        team_matches.HEADLINE_FIELDS,
        team_matches.HEADLINE_PLAIN,
        team_play.PAIR_ELO,
        team_play.OPENSKILL,
        team_play.NGS,
        team_play.GLICKO2,
        team_play.TTT,
    ],
)
