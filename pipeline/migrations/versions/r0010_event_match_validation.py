"""Team events' matches held out round by round: ``event_match_validation``.

The rate stage now forecasts the matches the clean stage rebuilds from traveller files, each
round from the rounds and years before it, and keeps every method's scores overall and by
kind of event in one new table. It runs again to fill it.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("rate",)

_MEASURES = (
    "pearson",
    "rmse",
    "winner_right",
    "coverage_80",
    "pearson_gain",
    "pearson_gain_low",
    "pearson_gain_high",
    "rmse_gain",
    "rmse_gain_low",
    "rmse_gain_high",
)


def upgrade() -> None:
    """Create ``event_match_validation`` (where not present)."""
    if "event_match_validation" in set(sa.inspect(op.get_bind()).get_table_names()):
        return
    op.create_table(
        "event_match_validation",
        sa.Column("subset", sa.String(length=16), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        *[sa.Column(name, sa.Float(), nullable=name != "rmse") for name in _MEASURES],
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.Column("split_half", sa.Float(), nullable=True),
        sa.Column("ceiling", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("subset", "method"),
    )
