"""A call's cost against the field on matchpointed boards: ``call_analysis.cost_mp``.

On a board of a matchpointed pair event with a field, what a call gave away is the share of a
top between the two pars matchpointed against the other tables (``dds.call_values``). No
stage is named to run again: the analysis code is new, so every board's analysis digest
changed and the dds stage analyses every board again on its own, filling the column.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa

from bridgerank.pipeline.migrations.columns import add_missing_columns

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Add ``cost_mp`` to ``call_analysis`` (where not present)."""
    add_missing_columns("call_analysis", sa.Column("cost_mp", sa.Float(), nullable=True))
