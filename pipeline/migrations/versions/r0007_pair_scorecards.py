"""Every pair's sessions as a scorecard: ``pair_scorecards``.

The rate stage now keeps each pair's session - percentage, place among the session's pairs
and, where the walk-forward held it out, the headline's forecast of it - for the player
pages' scorecards and ``bridgerank show``. It runs again to fill the new table.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Create ``pair_scorecards`` (where not present)."""
    if "pair_scorecards" in set(sa.inspect(op.get_bind()).get_table_names()):
        return
    op.create_table(
        "pair_scorecards",
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("session", sa.Text(), nullable=False),
        sa.Column("player_a", sa.Text(), nullable=False),
        sa.Column("player_b", sa.Text(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("percent", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("pairs", sa.Integer(), nullable=False),
        sa.Column("direction", sa.String(length=2), nullable=False),
        sa.Column("forecast", sa.Float(), nullable=True),
        sa.Column("forecast_sd", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("event", "session", "player_a", "player_b"),
    )
