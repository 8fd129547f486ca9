"""The rate stage's readings as tables: the headline's fit, the games rated, the skill-o-meter.

What ``bridgerank predict`` and the report need of a rate run (the headline's penalty and
variances, the counts of games of each kind, the skill-o-meter's reading) was read back from
the run log's JSON; it is now in three tables of the rate stage. The synthetic games of who
beats whom leave the rate stage (``benchmarks/bench_gamematrix_synthetic.py``): the stage
runs again, so its tables hold the bridge games only and the new tables are filled.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Stages whose tables this revision changes in shape, and so must run again (the driver
# reads it).
rerun: tuple[str, ...] = ("rate",)


def upgrade() -> None:
    """Create ``headline_fit``, ``rate_inputs`` and ``skill_o_meter``."""
    op.create_table(
        "headline_fit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.Column("penalty", sa.Float(), nullable=True),
        sa.Column("newcomer_prior", sa.Float(), nullable=True),
        sa.Column("residual_variance", sa.Float(), nullable=True),
        sa.Column("form_variance", sa.Float(), nullable=True),
        sa.Column("not_fitted", sa.Text(), nullable=True),
        sa.Column("not_validated", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "rate_inputs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_games", sa.Integer(), nullable=False),
        sa.Column("single_table_games", sa.Integer(), nullable=False),
        sa.Column("pair_rankings", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "skill_o_meter",
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("k", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("p", sa.Float(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("method"),
    )
