"""Player covariates of the headline rating that need nothing but the results: how much a
player has played. A newcomer to a field is, on average, weaker than its regulars (the
regulars are the ones who kept coming back, and who reached the later rounds); the headline's
prior centre can say so instead of placing every unknown player at the field's average.

A covariate maps tables to one row per player
(:data:`~bridgerank.ratings.headline.past.Covariates`); the headline computes it on earlier
periods only for each table it fits. Whether the newcomer prior is used is chosen on the
training data of each fit (:func:`newcomer_choice`): it is taken where newcomers are weaker
than the regulars; where they are not, only by chance, and then with a coefficient near zero.
"""

from __future__ import annotations

import numpy as np

from bridgerank.ratings.field import FieldTables, unique_rows
from bridgerank.ratings.headline.past import Covariates, joined


def experience(tables: FieldTables) -> np.ndarray:
    """``log(1 + sessions played)`` of every player in ``tables``: shape (players, 1)."""
    players = len(tables.players)
    played = np.zeros(players)
    if len(tables):
        # one entry per (session, player), however many boards they played there
        seen = np.column_stack([np.repeat(tables.session, 4), tables.seats.ravel()])
        pairs, _, _ = unique_rows(seen)
        played = np.bincount(pairs[:, 1], minlength=players).astype(float)
    return np.log1p(played)[:, None]


def newcomer_choice(covariates: Covariates | None = None) -> tuple[Covariates | None, ...]:
    """The two priors the headline chooses between (on its training data, see
    :func:`~bridgerank.ratings.headline.fit.choose_model`): ``covariates`` alone (None: centred
    on the average player) and the same with :func:`experience` beside them."""
    with_experience = experience if covariates is None else joined(experience, covariates)
    return (covariates, with_experience)
