"""What is known of a pair when it enters a session, as a term of the headline.

A club recap prints, beside every pair, the stratum it entered in (``open:A``, ``299:C``,
:mod:`~bridgerank.cleaning.ingest.recap_entry`): set from the players' masterpoint holdings
before the session, so a forecast may use it. It says most where the results say least: of a
player never seen before, the results say nothing, and the stratum places him among players
of his holdings.

Two terms use it, both fitted with the strengths.

*The pair's entry at the table.* ``d_t`` gains ``sum over codes c of beta_c * (w_NS [e_NS = c] -
w_EW [e_EW = c])``: one coefficient per entry code, not penalised (within a deal only the
differences between the pairs' entries count). ``w`` is the weight the entry carries for the
pair, ``1 / (1 + n / entry_sessions)`` (``[rate.headline] entry_sessions``, 1 by default), where
``n`` is the sessions its *less* experienced player had played before the table's period. A pair
with a player new to the data is known by its letter; once both players have results, the
results speak and the letter fades. Were the letter's full weight kept for every pair, a strong
player partnering a weak one would answer for the letter his own holding set (a pair's letter is
its stronger player's), and his rating would fall whenever he played with weaker partners - the
EBU's first check of fairness to partners
(:func:`~bridgerank.ratings.headline.checks.strong_partner_rose`).

*The player's entries so far.* A player covariate (:func:`entry_profile`) moves the centre of
his prior: the share of his boards whose pair's letter is his, shrunk by ``[rate.headline]
profile_boards`` pseudo-boards (5 by default) - a player who enters open games in A pairs starts
above one who enters 299er games in C pairs, on one scale across the games. A pair's letter is
set by its higher holding, and holdings grow with play: the letter is counted for the partner
who had played more sessions before the table (for both where they had played as many). So a
weak player partnering a strong one is not credited with the strong one's letter - were he, the
pair would be expected to score more than it can, and the strong player's rating would fall for
partnering him. Like every covariate of the headline it is fitted on earlier periods only
(:func:`~bridgerank.ratings.headline.past.past_columns`).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.field import FieldTables

__all__ = [
    "entry_columns",
    "entry_offset",
    "entry_profile",
    "sessions_before",
]

# ``[rate.headline] entry_sessions``: the sessions of the pair's less experienced player at
# which its entry weighs half. Chosen on the ACBL folder's held-out sessions among 0.5, 1 and
# 2 (Pearson 0.507, 0.506, 0.504 with the rest of the headline; newcomer pair-sessions 0.34,
# 0.35, 0.35): all alike. ``[rate.headline] profile_boards``: the pseudo-boards of no entry
# added to a player's entry profile (a player seen on two boards has a profile to speak of
# only as far as those boards go).


def sessions_before(tables: FieldTables, history: FieldTables | None = None) -> np.ndarray:
    """Each seat's player's sessions played before the table's period: shape (tables, 4),
    counted in ``history`` (all of it before ``tables``; two subsets of one
    :class:`~bridgerank.ratings.field.FieldTables`) and in the earlier periods of ``tables``."""
    parts = [(tables.seats, tables.session, tables.period + 1)]
    if history is not None and len(history):
        parts.append((history.seats, history.session, np.zeros(len(history), dtype=np.int64)))
    players = np.concatenate([seats.ravel() for seats, _, _ in parts])
    sessions = np.concatenate([np.repeat(session, 4) for _, session, _ in parts])
    # a session's period, as the first of the parts that holds it gives it
    when = np.zeros(len(tables.sessions) + 1, dtype=np.int64)
    for _, session, period in reversed(parts):
        when[session] = period
    # one entry per (player, session), keyed by player and the session's period
    width = np.int64(len(tables.sessions) + 1)
    player, session = np.divmod(np.unique(players * width + sessions), width)
    stride = np.int64(when.max() + 2)
    played = np.sort(player * stride + when[session])
    # where each player's entries start: the sessions before a table are those below its key
    starts = np.searchsorted(played, np.arange(len(tables.players) + 1) * stride)
    return (
        np.searchsorted(played, tables.seats * stride + (tables.period + 1)[:, None])
        - (starts[tables.seats])
    )


def _weights(before: np.ndarray, entry_sessions: float | None = None) -> np.ndarray:
    """Each side's entry weight (see the module) from each seat's sessions ``before``:
    shape (tables, 2); ``entry_sessions`` None: ``[rate.headline] entry_sessions`` of the
    shipped defaults."""
    if entry_sessions is None:
        entry_sessions = default_settings().rate.headline.entry_sessions
    less = before.reshape(-1, 2, 2).min(axis=2)
    return 1.0 / (1.0 + less / entry_sessions)


def entry_columns(
    tables: FieldTables,
    history: FieldTables | None = None,
    before: np.ndarray | None = None,
    entry_sessions: float | None = None,
) -> np.ndarray:
    """The term's columns, one per code of ``tables.entries``: shape (tables, codes); none
    (shape (tables, 0)) when no entry is known. Each seat's sessions before the table are
    counted in ``history`` and ``tables`` (:func:`sessions_before`) unless given as
    ``before`` (shape (tables, 4): a forecast's, from the stored ratings); an entry weighs
    half at ``entry_sessions`` sessions (None: ``[rate.headline] entry_sessions`` of the
    shipped defaults)."""
    codes = len(tables.entries)
    columns = np.zeros((len(tables), codes))
    if not codes or not len(tables):
        return columns
    entry = tables.entry_of()
    weights = _weights(
        sessions_before(tables, history) if before is None else before, entry_sessions
    )
    rows = np.arange(len(tables))
    for side, sign in ((0, 1.0), (1, -1.0)):
        known = entry[:, side] >= 0
        np.add.at(columns, (rows[known], entry[known, side]), sign * weights[known, side])
    return columns


def entry_offset(
    tables: FieldTables,
    effects: Mapping[str, float],
    history: FieldTables | None = None,
    before: np.ndarray | None = None,
    entry_sessions: float | None = None,
) -> np.ndarray:
    """Each table's term in ``d`` from the fitted ``effects`` by code (a code the fit never
    saw adds nothing); ``history``, ``before`` and ``entry_sessions`` as
    :func:`entry_columns` takes them."""
    beta = np.array([effects.get(code, 0.0) for code in tables.entries])
    if not len(beta):
        return np.zeros(len(tables))
    return entry_columns(tables, history, before, entry_sessions) @ beta


def entry_profile(tables: FieldTables, profile_boards: float | None = None) -> np.ndarray:
    """Every player's share of his boards of ``tables`` whose pair's letter is his (see the
    module), by entry code, shrunk by ``profile_boards`` pseudo-boards (None:
    ``[rate.headline] profile_boards`` of the shipped defaults): shape (players, codes); one
    column of zeros when no entry is known (a covariate has at least one column)."""
    if profile_boards is None:
        profile_boards = default_settings().rate.headline.profile_boards
    profile = np.zeros((len(tables.players), max(len(tables.entries), 1)))
    if not tables.entries or not len(tables):
        return profile
    entry = tables.entry_of()
    played = sessions_before(tables)
    boards = np.zeros(len(tables.players))
    for side in (0, 1):
        known = entry[:, side] >= 0
        first, second = 2 * side, 2 * side + 1
        for seat, partner in ((first, second), (second, first)):
            np.add.at(boards, tables.seats[known, seat], 1.0)
            his = known & (played[:, seat] >= played[:, partner])
            np.add.at(profile, (tables.seats[his, seat], entry[his, side]), 1.0)
    return profile / (boards + profile_boards)[:, None]
