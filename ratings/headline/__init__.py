"""The headline rating and what judges it: the fit (:mod:`.fit`) with its covariates
(:mod:`.covariates`, :mod:`.entry`), its forecasts (:mod:`.forecast`), the pair-session kind it
is validated on walk-forward with its variants (:mod:`.sessions`) and by experience
(:mod:`.experience`), references that are not the headline itself (:mod:`.ceiling`) and the
rate stage's study of it (:mod:`.session_study`).

Below it, shared with the other methods: the field tables of pair events
(:mod:`bridgerank.ratings.field`), the team-match kind and its IMP headline
(:mod:`bridgerank.ratings.team_matches`), the double dummy evidence
(:mod:`bridgerank.ratings.dd_prior`), the baselines (:mod:`bridgerank.ratings.baselines`) and the
held-out harness (:mod:`bridgerank.ratings.holdout`).
"""
