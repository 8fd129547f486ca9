"""The forecasts of team matches and one-table events that ``bridgerank predict`` keeps:
``imp_forecasts`` (the user's: no stage clears it).

The rate stage's tables of that change (``team_fit``, ``team_strengths``,
``one_table_validation``) are created from their declarations and filled when it runs.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Create ``imp_forecasts`` (where not present)."""
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "imp_forecasts" not in present:
        op.create_table(
            "imp_forecasts",
            sa.Column("event", sa.Text(), nullable=False),
            sa.Column("session", sa.Text(), nullable=False),
            sa.Column("side", sa.Text(), nullable=False),
            sa.Column("opponents", sa.Text(), nullable=False),
            sa.Column("kind", sa.String(length=8), nullable=False),
            sa.Column("boards", sa.Integer(), nullable=False),
            sa.Column("players", sa.Integer(), nullable=False),
            sa.Column("rated", sa.Integer(), nullable=False),
            sa.Column("predicted", sa.Float(), nullable=False),
            sa.Column("sd", sa.Float(), nullable=False),
            sa.Column("low_80", sa.Float(), nullable=False),
            sa.Column("high_80", sa.Float(), nullable=False),
            sa.Column("made_at", sa.String(length=32), nullable=False),
            sa.Column("ratings_of", sa.String(length=32), nullable=False),
            sa.PrimaryKeyConstraint("event", "session", "side", "opponents"),
        )
