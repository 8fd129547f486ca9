"""The DD store's layout: its SQL tables, each named as in the database, and their creation.

One module holds the layout so that the store (:mod:`bridgerank.dds.dd_store`) and anything
that reads its tables agree on the columns: a value keyed by the deal's canonical PBN and the
solver's version, the deal leading every primary key so a lookup by deal is an index lookup.
"""

from __future__ import annotations

from sqlalchemy import Column, Engine, Integer, MetaData, String, Table, Text, select
from sqlalchemy.exc import OperationalError

from bridgerank.core.store import insert_missing

__all__ = [
    "SCHEMA",
    "create_schema",
    "dd_leads",
    "dd_pars",
    "dd_tables",
    "dd_traces",
    "metadata",
    "store_info",
]

# The store's own layout; a store written by a newer layout is left alone, with a warning.
SCHEMA = 1

metadata = MetaData()
store_info = Table(
    "store_info",
    metadata,
    Column("key", String(80), primary_key=True),
    Column("value", Text, nullable=False),
)
dd_tables = Table(
    "dd_tables",
    metadata,
    Column("solver", String(40), primary_key=True),
    Column("deal", String(70), primary_key=True),  # canonical PBN, North first
    # 20 hex digits: strains S H D C N, each for declarer North East South West
    Column("tricks", String(20), nullable=False),
)
dd_pars = Table(
    "dd_pars",
    metadata,
    Column("solver", String(40), primary_key=True),
    Column("deal", String(70), primary_key=True),
    Column("dealer", String(1), primary_key=True),  # N E S W
    Column("vulnerable", String(2), primary_key=True),  # "", NS, EW or NS+EW as "B"
    Column("par", Integer, nullable=False),  # North-South's par score
)
dd_traces = Table(
    "dd_traces",
    metadata,
    Column("solver", String(40), primary_key=True),
    Column("deal", String(70), primary_key=True),
    Column("trump", String(1), primary_key=True),  # S H D C N
    Column("leader", String(1), primary_key=True),  # N E S W
    Column("cards", Text, primary_key=True),  # the cards played, space-separated
    Column("trace", Text, nullable=False),  # hex digit a value: declarer side's tricks
)
dd_leads = Table(
    "dd_leads",
    metadata,
    Column("solver", String(40), primary_key=True),
    Column("deal", String(70), primary_key=True),
    Column("trump", String(1), primary_key=True),  # S H D C N
    Column("leader", String(1), primary_key=True),  # N E S W
    # every card of the leader's hand and declarer side's tricks after it: "SA9 SKa ..."
    Column("leads", Text, nullable=False),
)


def create_schema(engine: Engine, attempts: int = 3) -> None:
    """Create the store's tables and record its layout, unless they are there already (no
    write at all then: an opening never waits for another run's writes)."""
    for attempt in range(attempts):
        try:
            metadata.create_all(engine)
            break
        except OperationalError as problem:
            # two runs creating a new store at the same instant: the second finds the table
            # its check missed; its next check sees it
            if "already exists" not in str(problem) or attempt == attempts - 1:
                raise
    with engine.connect() as conn:
        known = conn.execute(
            select(store_info.c.value).where(store_info.c.key == "schema")
        ).scalar()
    if known is None:
        with engine.begin() as conn:
            insert_missing(conn, store_info, [{"key": "schema", "value": str(SCHEMA)}])
