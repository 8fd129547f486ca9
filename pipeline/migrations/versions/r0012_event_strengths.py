"""The team events' players as rated now, and each held-out match's forecast:
``event_strengths``, ``event_fit`` and ``event_match_forecasts``.

The rate stage now keeps the headline of the team events' matches fitted on every match
(each player's IMPs a board, a newcomer's, a match's noise), which ``bridgerank predict``
reads to forecast a match of a round file not yet rated, or of two line-ups named; and the
walk-forward's forecast of every held-out match, which the site's team-event pages set
against the margins. The rate stage runs again to fill the three new tables.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Create ``event_strengths``, ``event_fit`` and ``event_match_forecasts`` (where not
    present)."""
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "event_strengths" not in present:
        op.create_table(
            "event_strengths",
            sa.Column("player", sa.Text(), nullable=False),
            sa.Column("strength", sa.Float(), nullable=False),
            sa.Column("boards", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("player"),
        )
    if "event_fit" not in present:
        op.create_table(
            "event_fit",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("board_variance", sa.Float(), nullable=False),
            sa.Column("newcomer", sa.Float(), nullable=False),
            sa.Column("matches", sa.Integer(), nullable=False),
            sa.Column("players", sa.Integer(), nullable=False),
            sa.Column("through", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
    if "event_match_forecasts" not in present:
        op.create_table(
            "event_match_forecasts",
            sa.Column("match_id", sa.Integer(), nullable=False),
            sa.Column("predicted", sa.Float(), nullable=False),
            sa.Column("sd", sa.Float(), nullable=True),
            sa.PrimaryKeyConstraint("match_id"),
        )
