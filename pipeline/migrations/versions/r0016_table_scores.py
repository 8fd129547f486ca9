"""Each table's score, matchpoints and IMPs: ``table_scores``.

The rate stage now stores what every table of a deal scored (North-South's score, its
matchpoint percentage, a team board's IMPs), which the deal pages showed by scoring every
table again. The rate stage runs again to fill the new table.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Create ``table_scores`` (where not present)."""
    if "table_scores" not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            "table_scores",
            sa.Column("board_id", sa.Integer(), nullable=False),
            sa.Column("ns_score", sa.Integer(), nullable=True),
            sa.Column("ns_percent", sa.Float(), nullable=True),
            sa.Column("imps", sa.Integer(), nullable=True),
            sa.PrimaryKeyConstraint("board_id"),
        )
