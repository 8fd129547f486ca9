"""Each call judged by the par of the auction after it: ``call_analysis.par_before``,
``par_after`` and ``cost_imps``.

A call's verdict was a one-step comparison ("if the auction had stopped here"); it is now the
par of the auction before and after the call, both sides free to bid on (``dds.call_values``),
its cost in IMPs. No stage is named to run again: the analysis code is new, so every board's
analysis digest changed and the dds stage analyses every board again on its own, filling the
columns (the DD store keeps that cheap: nothing is solved again).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa

from bridgerank.pipeline.migrations.columns import add_missing_columns

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ()

_COLUMNS = ("par_before", "par_after", "cost_imps")


def upgrade() -> None:
    """Add the three columns to ``call_analysis`` (where not present)."""
    add_missing_columns(
        "call_analysis", *(sa.Column(name, sa.Integer(), nullable=True) for name in _COLUMNS)
    )
