"""The headline's familiarity term: ``headline_fit.familiarity``.

The headline now fits one term for every partnership that has played together before (a
familiar pair's bonus beside its players' strengths) and keeps its coefficient, which a
forecast of a new event (``bridgerank predict``) needs. The rate stage runs again to fill it.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Add ``headline_fit.familiarity`` (where not present)."""
    inspector = sa.inspect(op.get_bind())
    if "headline_fit" not in set(inspector.get_table_names()):
        return
    if "familiarity" in {column["name"] for column in inspector.get_columns("headline_fit")}:
        return
    with op.batch_alter_table("headline_fit") as batch:
        batch.add_column(sa.Column("familiarity", sa.Float(), nullable=True))
