"""Held-out figures by what was known of a pair: pair-sessions with a player never seen
before, and pairs that had played together often.

A rating is judged overall on held-out sessions (:mod:`~bridgerank.ratings.headline.
sessions`); the overall figure hides where a method earns it. A newcomer is where results say
nothing and information known at entry is all there is; a regular partnership is where the
results say most. Each method's Pearson correlation is reported on both, on the same
pair-sessions (``session_validation``'s ``newcomer_*`` and ``regular_*`` columns).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import FieldTables, pair_sessions
from bridgerank.ratings.holdout import HeldOut

__all__ = ["experience_masks", "experience_scores"]
# Fewer pair-sessions than this in a group: no correlation (a handful is noise).
MIN_SESSIONS = 10


def experience_masks(
    tables: FieldTables, run: HeldOut, regular_sessions: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """For every unit of ``run`` (a walk-forward of ``tables``' pair-sessions, in its order):
    whether a player of the pair had never been seen before the session's date, and whether
    the pair had played ``regular_sessions`` sessions or more together before it (None:
    ``[rate.headline] regular_sessions`` of the shipped defaults)."""
    if regular_sessions is None:
        regular_sessions = default_settings().rate.headline.regular_sessions
    players = len(tables.players)
    newcomer, regular = [], []
    for period in np.unique(run.period):
        before = tables.subset(tables.period < period)
        sessions = pair_sessions(tables.subset(tables.period == period))
        seen = np.zeros(players, dtype=bool)
        seen[np.unique(before.seats)] = True
        newcomer.append(~seen[sessions.pair].all(axis=1))
        earlier = pair_sessions(before).pair
        codes, counts = np.unique(earlier[:, 0] * players + earlier[:, 1], return_counts=True)
        wanted = sessions.pair[:, 0] * players + sessions.pair[:, 1]
        together = np.zeros(len(wanted), dtype=np.int64)
        if len(codes):
            position = np.minimum(np.searchsorted(codes, wanted), len(codes) - 1)
            found = codes[position] == wanted
            together[found] = counts[position[found]]
        regular.append(together >= regular_sessions)
    if not newcomer:
        return np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
    return np.concatenate(newcomer), np.concatenate(regular)


def _pearson(predicted: np.ndarray, actual: np.ndarray) -> float | None:
    if len(actual) < MIN_SESSIONS or np.std(predicted) == 0 or np.std(actual) == 0:
        return None
    return float(np.corrcoef(predicted, actual)[0, 1])


def experience_scores(
    tables: FieldTables, run: HeldOut, regular_sessions: int | None = None
) -> dict[str, dict[str, Any]]:
    """Each method's Pearson correlation on the newcomers' and the regulars' pair-sessions
    (:func:`experience_masks`, with ``regular_sessions``) with their counts: method -> the
    four columns."""
    newcomer, regular = experience_masks(tables, run, regular_sessions)
    scores = {}
    for method in run.forecasts:
        predicted = run.predicted(method)
        scores[method] = {
            "newcomer_pearson": _pearson(predicted[newcomer], run.actual[newcomer]),
            "newcomer_sessions": int(newcomer.sum()),
            "regular_pearson": _pearson(predicted[regular], run.actual[regular]),
            "regular_sessions": int(regular.sum()),
        }
    return scores
