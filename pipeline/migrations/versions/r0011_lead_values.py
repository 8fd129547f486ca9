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
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Add ``table_evidence.lead_best_cards`` (where not present)."""
    inspector = sa.inspect(op.get_bind())
    if "table_evidence" not in set(inspector.get_table_names()):
        return
    if "lead_best_cards" in {column["name"] for column in inspector.get_columns("table_evidence")}:
        return
    with op.batch_alter_table("table_evidence") as batch:
        batch.add_column(sa.Column("lead_best_cards", sa.Integer(), nullable=True))
