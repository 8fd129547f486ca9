"""Every opening lead valued: ``table_evidence.lead_best_cards``.

Where a record gives the opening lead alone (a traveller's lead card), the dds stage now
values every card of the leader's hand (once a deal, strain and leader, kept in the DD
store) and keeps, per board, how many of them are a double dummy best lead: the baseline a
lead's figure is read against. No stage is named to run again: the code that fills the
column is new, so every board's analysis digest changed and the dds stage analyses every
board again on its own (a database already analysed by this code has the column filled).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa

from bridgerank.pipeline.migrations.columns import add_missing_columns

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Add ``table_evidence.lead_best_cards`` (where not present)."""
    add_missing_columns("table_evidence", sa.Column("lead_best_cards", sa.Integer(), nullable=True))
