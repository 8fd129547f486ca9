"""The headline's player covariates, seen from the past only, computed once per run.

A covariate maps tables to one row per player (:data:`Covariates`: e.g. his double dummy
measures, his entries so far, how much he has played). A table of period ``q`` sees its
players' covariates computed from the tables of earlier periods only (:func:`past_columns`):
a covariate computed on the boards the fit learns from carries their results (a player's
boards played follow from how far his team went), and the fit would learn that leak instead
of what the covariate says in advance.

A walk-forward fits many training sets that share their earlier periods, several variants of
the headline fit each, and each fit tries several penalties: the same covariate of the same
tables was computed again and again (a sixth of the rate stage on the club sessions). So each
is kept, by the covariate and a digest of the tables it was computed on (:data:`_KNOWN`), and
covariates side by side (:func:`joined`) are kept part by part: the variants that share a
part share its columns.
"""

from __future__ import annotations

import hashlib
import weakref
from typing import Callable, Hashable

import numpy as np

from bridgerank.ratings.field import FieldTables

__all__ = ["Covariates", "Joined", "SEAT_SIGNS", "covariate_values", "joined", "past_columns"]

# Player covariates from a set of tables: shape (players, features).
Covariates = Callable[[FieldTables], np.ndarray]
# Sign of each seat's strength in a table's strength difference: North, South, East, West
# (the headline's design has the same).
SEAT_SIGNS = np.array([1.0, 1.0, -1.0, -1.0])
# Values kept per covariate before its store is emptied: a bound on a long-lived covariate's
# (a module's function's) memory over many data sets.
_MOST_KEPT = 20_000


class Joined:
    """Covariates side by side: one column block per part, in the order given."""

    def __init__(self, *parts: Covariates) -> None:
        self.parts = parts

    def __call__(self, tables: FieldTables) -> np.ndarray:
        return np.hstack([np.asarray(part(tables), dtype=float) for part in self.parts])


def joined(*covariates: Covariates) -> Covariates:
    """The covariates side by side (:class:`Joined`), kept part by part."""
    return Joined(*covariates)


# Each covariate's values already computed, by a key of the tables they were computed on.
# Weak keys: a covariate made for one study goes with its values.
_KNOWN: weakref.WeakKeyDictionary[Covariates, dict[Hashable, np.ndarray]] = (
    weakref.WeakKeyDictionary()
)


def _kept(covariates: Covariates, key: Hashable, compute: Callable[[], np.ndarray]) -> np.ndarray:
    known = _KNOWN.setdefault(covariates, {})
    value = known.get(key)
    if value is None:
        if len(known) >= _MOST_KEPT:
            known.clear()
        value = known[key] = compute()
    return value


def _players(tables: FieldTables) -> bytes:
    """A digest of the players ``tables`` number (a covariate has a row for each): tables of
    two data sets may share their boards' numbers and seats."""
    return hashlib.blake2b("\n".join(map(str, tables.players)).encode(), digest_size=16).digest()


def _digest(tables: FieldTables, rows: np.ndarray, before: bytes) -> bytes:
    """A digest of which tables ``rows`` are (their boards, seats, sessions, periods and
    entries: a covariate reads nothing else of a table), after the digest ``before`` of the
    players and of the tables before them."""
    digest = hashlib.blake2b(before, digest_size=16)
    for values in (tables.board, tables.seats, tables.session, tables.period):
        digest.update(np.ascontiguousarray(values[rows]).tobytes())
    digest.update(b"none" if tables.entry is None else tables.entry[rows].tobytes())
    return digest.digest()


def covariate_values(tables: FieldTables, covariates: Covariates) -> np.ndarray:
    """``covariates(tables)`` as floats, computed once for the same tables."""
    if isinstance(covariates, Joined):
        return np.hstack([covariate_values(tables, part) for part in covariates.parts])
    # the same tables come back for every fit of a training set
    digest = tables.kept(
        "digest", lambda: _digest(tables, np.arange(len(tables)), _players(tables))
    )
    key = ("all", digest)
    return _kept(covariates, key, lambda: np.asarray(covariates(tables), dtype=float))


def past_columns(tables: FieldTables, covariates: Covariates) -> np.ndarray:
    """Each table's covariate columns, ``sum over seats of sign * z[player]``, with ``z``
    computed from the tables of earlier periods only: shape (tables, features).

    The first period sees an empty past (every covariate as for a newcomer). A period's
    columns are computed once for a covariate and the same past; all of them once for the
    same tables."""
    return tables.kept_with(covariates, "past columns", lambda: _past_columns(tables, covariates))


def _past_columns(tables: FieldTables, covariates: Covariates) -> np.ndarray:
    if isinstance(covariates, Joined):
        blocks = [past_columns(tables, part) for part in covariates.parts]
        return np.hstack(blocks) if blocks else np.zeros((len(tables), 0))
    columns: np.ndarray | None = None
    past = _players(tables)  # then the digest of the periods before, in order
    order = np.argsort(tables.period, kind="stable")  # each period's rows in table order
    starts = np.flatnonzero(np.diff(tables.period[order])) + 1
    for rows in np.split(order, starts) if len(order) else []:
        period = int(tables.period[rows[0]])
        here = _digest(tables, rows, past)

        def compute(period: int = period, rows: np.ndarray = rows) -> np.ndarray:
            z = np.asarray(covariates(tables.subset(tables.period < period)), dtype=float)
            return np.einsum("tsf,s->tf", z[tables.seats[rows]], SEAT_SIGNS)

        block = _kept(covariates, (period, here), compute)
        if columns is None:
            columns = np.zeros((len(tables), block.shape[1]))
        columns[rows] = block
        past = here
    return columns if columns is not None else np.zeros((0, 0))
