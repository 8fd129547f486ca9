"""The headline's familiarity term: ``headline_fit.familiarity``.

The headline now fits one term for every partnership that has played together before (a
familiar pair's bonus beside its players' strengths) and keeps its coefficient, which a
forecast of a new event (``bridgerank predict``) needs. The rate stage runs again to fill it.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa

from bridgerank.pipeline.migrations.columns import add_missing_columns

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Add ``headline_fit.familiarity`` (where not present)."""
    add_missing_columns("headline_fit", sa.Column("familiarity", sa.Float(), nullable=True))
