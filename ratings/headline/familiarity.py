"""A partnership's familiarity: one term of the headline for every pair that has played
together before.

The headline adds two players' strengths. A regular partnership scores a little more than
that and a scratch one a little less (the English Bridge Union's second published check of
its grades, :func:`~bridgerank.ratings.headline.checks.regular_gap`, measures it): left out,
the difference lands in the players' ratings, so a player who always sits with the same
partner is rated above one who plays the same cards with many. One coefficient for all
partnerships takes it out of the ratings: at a table, ``d_t`` gains ``beta * (f_NS -
f_EW)``, where ``f`` is 1 for a pair that had played ``[rate.headline] familiar_sessions``
sessions (3 by default) or more together *before* the table's period (its past only: a count
that includes the session itself would carry its result, as a team's boards played carry how
far it went) and 0 otherwise. ``beta`` is fitted with the strengths and not penalised; where
partnerships gain nothing from playing together it comes out near zero.

A term of each partnership's own (:mod:`~bridgerank.ratings.headline.partnerships`) asks more
of the data - a regular pair's bonus, pair by pair - and predicts no better; one term for all
of them is what the data can carry.
"""

from __future__ import annotations

from typing import Collection

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import FieldTables, partnership_codes

__all__ = ["familiar_pairs", "familiarity_column", "named_column"]


def _least(familiar_sessions: int | None) -> int:
    """The sessions together that make a pair familiar: ``familiar_sessions``, or
    ``[rate.headline] familiar_sessions`` of the shipped defaults for a call without it."""
    if familiar_sessions is None:
        return default_settings().rate.headline.familiar_sessions
    return familiar_sessions


def _once_a_session(codes: np.ndarray, sessions: np.ndarray, session_count: int) -> np.ndarray:
    """The index of one entry per (partnership, session) among ``codes`` and ``sessions``
    (however many boards the pair played there)."""
    _, first = np.unique(codes * (session_count + 1) + sessions, return_index=True)
    return first


def familiarity_column(
    tables: FieldTables, history: FieldTables | None = None, familiar_sessions: int | None = None
) -> np.ndarray:
    """Each table's familiarity column ``f_NS - f_EW`` (see the module): shape (tables,).

    A pair's sessions together are counted in ``history`` (all of it played before
    ``tables``: a walk-forward's training tables) and in the periods of ``tables`` before the
    table's own; ``familiar_sessions`` of them or more make it familiar (None:
    ``[rate.headline] familiar_sessions`` of the shipped defaults). ``history`` must index
    players and sessions as ``tables`` does (two subsets of one
    :class:`~bridgerank.ratings.field.FieldTables`). Computed once for the same tables,
    history and threshold (every headline method of a walk-forward's date asks)."""
    least = _least(familiar_sessions)
    return tables.kept_with(
        history, ("familiarity", least), lambda: _familiarity(tables, history, least)
    )


def _familiarity(tables: FieldTables, history: FieldTables | None, least: int) -> np.ndarray:
    if not len(tables):
        return np.zeros(0)
    parts = [(tables, tables.period)]
    if history is not None and len(history):
        parts.append((history, np.full(len(history), -1)))  # every history period comes first
    codes = np.concatenate(
        [partnership_codes(part, len(tables.players)).ravel() for part, _ in parts]
    )
    sessions = np.concatenate([np.repeat(part.session, 2) for part, _ in parts])
    periods = np.concatenate([np.repeat(period, 2) for _, period in parts])
    # one entry per (partnership, session), with the session's period (shifted to be >= 0)
    first = _once_a_session(codes, sessions, len(tables.sessions))
    stride = np.int64(periods.max() + 2)
    played = np.sort(codes[first] * stride + periods[first] + 1)
    # the table's partnership's sessions in periods before its own: those keyed below it
    table_codes = partnership_codes(tables)
    table_periods = (tables.period + 1)[:, None]
    before = np.searchsorted(played, table_codes * stride + table_periods) - np.searchsorted(
        played, table_codes * stride
    )
    familiar = (before >= least).astype(float)
    return familiar[:, 0] - familiar[:, 1]


def familiar_pairs(
    tables: FieldTables, familiar_sessions: int | None = None
) -> set[tuple[str, str]]:
    """The partnerships of ``tables`` that played ``familiar_sessions`` sessions or more
    together (None: ``[rate.headline] familiar_sessions`` of the shipped defaults), as their
    two players' names in sorted order (a later event's tables are familiar for them)."""
    least = _least(familiar_sessions)
    players = len(tables.players)
    codes = partnership_codes(tables).ravel()
    first = _once_a_session(codes, np.repeat(tables.session, 2), len(tables.sessions))
    together, count = np.unique(codes[first], return_counts=True)
    return {
        _named(str(tables.players[code // players]), str(tables.players[code % players]))
        for code in together[count >= least].tolist()
    }


def _named(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first <= second else (second, first)


def named_column(
    tables: FieldTables, names: list[str], familiar: Collection[tuple[str, str]]
) -> np.ndarray:
    """Each table's familiarity column when the familiar partnerships are given by name
    (``names[i]`` is player ``i`` of ``tables``): the forecast of an event not yet rated."""
    sides = tables.seats.reshape(-1, 2, 2)
    known = np.array(
        [
            [_named(names[first], names[second]) in familiar for first, second in row]
            for row in sides.tolist()
        ],
        dtype=float,
    ).reshape(-1, 2)
    return known[:, 0] - known[:, 1]
