"""What a selector must know of the headline: ``rating_checks``.

The rate stage now keeps the headline's reliability and interval coverage by band of boards
played, the two partner-fairness checks the English Bridge Union publishes of its grading
scheme, and each regular partnership's own term, in one new table. It runs again to fill it.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Create ``rating_checks`` (where not present)."""
    if "rating_checks" in set(sa.inspect(op.get_bind()).get_table_names()):
        return
    op.create_table(
        "rating_checks",
        sa.Column("measure", sa.String(length=24), nullable=False),
        sa.Column("band", sa.Text(), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("low", sa.Float(), nullable=True),
        sa.Column("high", sa.Float(), nullable=True),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("measure", "band"),
    )
