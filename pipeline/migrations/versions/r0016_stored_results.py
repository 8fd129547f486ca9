"""What every table and every event scored, stored by the rate stage: ``table_scores`` and
``actual_results``.

The rate stage now stores what each table of a deal scored (North-South's score, its
matchpoint percentage, a team board's IMPs), which the deal pages showed by scoring every
table again, and what each pair-session, team match and one-table pair scored, keyed as
``bridgerank predict`` names its forecasts, which ``predict`` and the forecasts page computed
again from every board. The rate stage runs again to fill the two new tables.

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
    """Create ``table_scores`` and ``actual_results`` (where not present)."""
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "table_scores" not in present:
        op.create_table(
            "table_scores",
            sa.Column("board_id", sa.Integer(), nullable=False),
            sa.Column("ns_score", sa.Integer(), nullable=True),
            sa.Column("ns_percent", sa.Float(), nullable=True),
            sa.Column("imps", sa.Integer(), nullable=True),
            sa.PrimaryKeyConstraint("board_id"),
        )
    if "actual_results" not in present:
        op.create_table(
            "actual_results",
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("event", sa.Text(), nullable=False),
            sa.Column("session", sa.Text(), nullable=False),
            sa.Column("side", sa.Text(), nullable=False),
            sa.Column("opponents", sa.Text(), nullable=False),
            sa.Column("actual", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("kind", "event", "session", "side", "opponents"),
        )
