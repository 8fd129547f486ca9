"""The ratings players and rating researchers know, as rivals of the headline in the same
walk-forward (the ``sessions`` registry): each learns from the training dates only, in date
order, and forecasts every held-out pair-session from what it learned.

- :mod:`~bridgerank.ratings.rivals.online`: the driver every online rival shares (what it
  has learned is kept from one test date to the next, so the whole walk-forward is one pass
  over the dates);
- :mod:`~bridgerank.ratings.rivals.pair_elo`: the partnership Elo of the Common Game (ACBL
  clubs), from its published description;
- :mod:`~bridgerank.ratings.rivals.openskill_pairs`: OpenSkill's Plackett-Luce model with
  teams of two (the model of the ``openskill`` package, its update on plain floats by
  :mod:`~bridgerank.ratings.rivals.openskill_update`);
- :mod:`~bridgerank.ratings.rivals.ngs`: the English Bridge Union's National Grading Scheme,
  from its published method;
- :mod:`~bridgerank.ratings.rivals.glicko2`: Glicko-2 from Glickman's published algorithm,
  a pair its players' mean;
- :mod:`~bridgerank.ratings.rivals.ttt`: TrueSkill Through Time (the model of the
  ``trueskillthroughtime`` package, its messages passed on plain floats by
  :mod:`~bridgerank.ratings.rivals.ttt_messages` and
  :mod:`~bridgerank.ratings.rivals.ttt_history`) on each session's order of pairs, the whole
  history smoothed;
- :mod:`~bridgerank.ratings.rivals.team_play`: the same five in the ``matches`` registry, each
  team board read as a deal at two tables, a match's forecast calibrated to IMPs.
"""
