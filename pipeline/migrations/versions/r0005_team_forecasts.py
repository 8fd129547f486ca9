"""Forecasts of team matches and one-table events: the team fit kept, IMP forecasts, and the
validation of pairs at one table a deal.

``bridgerank predict`` forecasts a team match's margin and a pair's IMPs against par in an
event played at one table a deal. It reads the team headline's strength of every player
(``team_strengths``) and its fit (``team_fit``: the noise of a board, a newcomer's strength),
which the rate stage now keeps, and stores its forecasts in ``imp_forecasts`` (the user's:
no stage clears it). The forecast of a pair at one table a deal is validated walk-forward
(``one_table_validation``). The rate stage runs again to fill its new tables.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Create ``team_fit``, ``team_strengths``, ``imp_forecasts`` and
    ``one_table_validation`` (where not present)."""
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "team_fit" not in present:
        op.create_table(
            "team_fit",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("penalty", sa.Float(), nullable=False),
            sa.Column("one_table_weight", sa.Float(), nullable=False),
            sa.Column("board_variance", sa.Float(), nullable=False),
            sa.Column("one_table_variance", sa.Float(), nullable=True),
            sa.Column("newcomer", sa.Float(), nullable=False),
            sa.Column("newcomer_sd", sa.Float(), nullable=False),
            sa.Column("team_boards", sa.Integer(), nullable=False),
            sa.Column("one_table_boards", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
    if "team_strengths" not in present:
        op.create_table(
            "team_strengths",
            sa.Column("player", sa.Text(), nullable=False),
            sa.Column("strength", sa.Float(), nullable=False),
            sa.Column("sd", sa.Float(), nullable=False),
            sa.Column("team_boards", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("player"),
        )
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
    if "one_table_validation" not in present:
        op.create_table(
            "one_table_validation",
            sa.Column("method", sa.String(length=16), nullable=False),
            sa.Column("pearson", sa.Float(), nullable=True),
            sa.Column("rmse", sa.Float(), nullable=False),
            sa.Column("coverage_80", sa.Float(), nullable=True),
            sa.Column("rmse_gain", sa.Float(), nullable=True),
            sa.Column("rmse_gain_low", sa.Float(), nullable=True),
            sa.Column("rmse_gain_high", sa.Float(), nullable=True),
            sa.Column("pairs", sa.Integer(), nullable=False),
            sa.Column("boards", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("method"),
        )
