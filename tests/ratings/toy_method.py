"""A toy rating method of every kind, the field mean: what adding a method takes (this module
and one line in the list of its kind, :mod:`bridgerank.ratings.kinds`).

Each predicts every unit from the training data's mean alone: a pair's session percentage is
the training pair-sessions' mean, a match's margin the training boards' mean IMPs times its
boards, a board's winner team A with the share of training boards team A won, and in a
ranking every pair as strong as any other.
"""

from __future__ import annotations

import numpy as np

from bridgerank.ratings.baselines import outcome
from bridgerank.ratings.field import pair_sessions
from bridgerank.ratings.holdout import Forecast
from bridgerank.ratings.registry import Method, SplitMethod


def _sessions(data, inputs):
    def predict(train, test, target):
        return Forecast(np.full(len(target.actual), pair_sessions(train).percent.mean()))

    return predict


def _matches(data, inputs):
    def predict(train, test, target):
        return Forecast(train.imps.mean() * target.boards)

    return predict


def _boards(games, inputs):
    def predict(train, test):
        return np.full(len(test), np.mean([outcome(game) for game in train]))

    return SplitMethod(predict)


def _rankings(rankings, inputs):
    def predict(train, test):
        return lambda pair: 0.0  # every pair as strong as the field

    return SplitMethod(predict)


FIELD_MEAN_SESSIONS = Method("field_mean", "the training pair-sessions' mean (a toy)", _sessions)
FIELD_MEAN_MATCHES = Method("field_mean", "the training boards' mean IMPs (a toy)", _matches)
FIELD_MEAN_BOARDS = Method("field_mean", "the training boards' share won by A (a toy)", _boards)
FIELD_MEAN_RANKINGS = Method("field_mean", "every pair as strong as the field (a toy)", _rankings)
