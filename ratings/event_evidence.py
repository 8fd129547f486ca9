"""Double dummy evidence of the team events' own tables, as covariates of their forecast.

Every table of a Valet match whose deal is known (``hands/*.pbn``) has a ``table_evidence``
row (:mod:`bridgerank.dds.table_evidence`): declarer's tricks against double dummy in the
contract played, the contract's double dummy score against par and, where the traveller
gives the lead card, the tricks the opening lead cost against the best lead. From them each
player's three measures of :mod:`~bridgerank.ratings.dd_prior` (declarer play, defence,
bidding) and a fourth, the opening leader's tricks lost, read before each round of the
walk-forward: the tables of earlier rounds only, each measure's mean
over the earlier rounds' terms taken off (so a measure says how a player stands against the
players of the data, not how often he was seen), shrunk toward zero by ``[rate.teams]
dd_shrinks`` pseudo-terms (the lead's by as many as defence's: the team events are a study of
the team matches, fingerprinted on ``[rate.teams]``).

They enter :class:`~bridgerank.ratings.round_ridge.RoundRidge` beside experience, as
covariates whose coefficients the ridge fits: the question they answer is whether double
dummy measures of earlier play forecast a match's margin beyond the earlier results.
"""

from __future__ import annotations

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.dd_prior import FEATURES, BoardEvidence, measure_terms
from bridgerank.ratings.event_match_data import EventMatches, FieldRows
from bridgerank.ratings.event_matches import DoubleDummyMeasures

__all__ = [
    "EVENT_FEATURES",
    "LEAD",
    "dd_coverage",
    "dd_covariates",
    "dd_measures",
    "lead_terms",
    "tables_with_evidence",
]

# The fourth measure: the opening leader's tricks lost to the best lead, negated (higher is
# better, as for the others); shrunk by as many pseudo-leads as defence has pseudo-boards.
LEAD = "opening_lead"
EVENT_FEATURES = (*FEATURES, LEAD)
_DEFENCE = FEATURES.index("defence")
# The opening leader sits after declarer: FieldTables' columns are N, S, E, W.
_LEADER_OF = np.array([2, 3, 1, 0])


def tables_with_evidence(tables: FieldRows, evidence: BoardEvidence) -> np.ndarray:
    """Whether each table has double dummy evidence."""
    return evidence.rows_of(tables.board)[1]


def dd_coverage(tables: FieldRows, evidence: BoardEvidence) -> float:
    """The share of the tables with double dummy evidence."""
    return float(tables_with_evidence(tables, evidence).mean()) if len(tables.board) else 0.0


def dd_covariates(
    tables: FieldRows,
    evidence: BoardEvidence,
    players: int,
    periods: int,
    shrinks: tuple[float, ...] | None = None,
) -> list[np.ndarray]:
    """Each player's double dummy measures before each period.

    Parameters
    ----------
    tables : FieldRows
        The matches' tables (their players, periods and board ids).
    evidence : BoardEvidence
        The dds stage's evidence, by board id.
    players, periods : int
        The walk-forward's players and periods.
    shrinks : tuple of float, optional
        The pseudo-terms of :data:`~bridgerank.ratings.dd_prior.FEATURES`' measures; the
        lead's is defence's (None: ``[rate.teams] dd_shrinks`` of the shipped defaults).

    Returns
    -------
    list of ndarray
        One (players, periods) array per measure of :data:`EVENT_FEATURES`: at ``[p, t]``
        the player's terms of periods before ``t``, less that many times the mean term of
        those periods, over their count plus the measure's shrinkage.
    """
    if shrinks is None:
        shrinks = default_settings().rate.teams.dd_shrinks
    position, found = evidence.rows_of(tables.board)
    rows = np.flatnonzero(found)
    seats = np.hstack([tables.north_south, tables.east_west])[rows]
    declarer = evidence.declarer[position[rows]]
    terms = measure_terms(
        seats,
        declarer,
        evidence.tricks_vs_dd[position[rows]],
        evidence.bidding_imps[position[rows]],
    )
    lead_cost = evidence.lead_cost
    costs = np.full(len(rows), np.nan) if lead_cost is None else lead_cost[position[rows]]
    terms.append(lead_terms(seats, declarer, costs))
    period = tables.period[rows]
    out = []
    for (table, who, values), shrink in zip(terms, (*shrinks, shrinks[_DEFENCE])):
        total = np.zeros((players, periods))
        count = np.zeros((players, periods))
        np.add.at(total, (who, period[table]), values)
        np.add.at(count, (who, period[table]), 1.0)
        total_before = np.cumsum(total, axis=1) - total
        count_before = np.cumsum(count, axis=1) - count
        # the mean term of the earlier periods, known before each period
        everyone = count_before.sum(axis=0)
        mean = np.divide(
            total_before.sum(axis=0), everyone, out=np.zeros(periods), where=everyone > 0
        )
        out.append((total_before - mean * count_before) / (count_before + shrink))
    return out


def lead_terms(
    seats: np.ndarray, declarer: np.ndarray, lead_cost: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The opening leads' terms on tables: each valued lead's table, its leader and the
    tricks it lost, negated.

    Parameters
    ----------
    seats : ndarray
        (tables, 4) player indices of North, South, East and West.
    declarer : ndarray
        Each table's declarer column (0-3), -1 when passed out or unknown.
    lead_cost : ndarray
        Tricks each table's opening lead cost against the best lead; NaN where unknown.
    """
    rows = np.flatnonzero((declarer >= 0) & ~np.isnan(lead_cost))
    leaders = seats[rows, _LEADER_OF[declarer[rows]]]
    return rows, leaders, -lead_cost[rows]


def dd_measures(
    data: EventMatches, evidence: BoardEvidence, shrinks: tuple[float, ...] | None = None
) -> DoubleDummyMeasures | None:
    """The players' measures by period (shrunk by ``shrinks``, as :func:`dd_covariates` takes
    them) and the events whose deals are known (at least half of their tables with evidence);
    None when no table has evidence."""
    found = tables_with_evidence(data.tables, evidence)
    if not found.any():
        return None
    boards = data.boards
    event_of_table = np.tile(data.event[boards.match], 2)
    share = np.bincount(event_of_table, weights=found, minlength=len(data.events)) / np.maximum(
        np.bincount(event_of_table, minlength=len(data.events)), 1
    )
    covariates = dd_covariates(
        data.tables, evidence, len(boards.players), len(boards.periods), shrinks
    )
    lead = covariates[EVENT_FEATURES.index(LEAD)]
    return DoubleDummyMeasures(covariates, share >= 0.5, lead if lead.any() else None)
