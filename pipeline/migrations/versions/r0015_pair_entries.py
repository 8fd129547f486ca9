"""What a recap says of each pair before play: ``boards.ns_entry`` and ``ew_entry``.

The recap reader now keeps each pair's entry - the game's population and the pair's stratum
(:mod:`bridgerank.cleaning.ingest.recap_entry`) - and the headline rating uses it as evidence
known before the session. The records an older reader stored lack it: each stored recap is
read again where it is still at its stored path with the same content, and its records gain
their entries (:mod:`bridgerank.cleaning.ingest.recap_reread`); a recap no longer there keeps
its records as they were, its pairs' entries unknown (ingesting the file again does not add
them: the file is stored). The clean stage runs again to carry them into ``boards``.

The rate stage's tables gain what it now reports: ``headline_fit.entry_effects`` (each
entry's term), and per method in ``session_validation`` its figures on newcomers and regular
partnerships and the setting it chose; the stage runs again to fill them.

Revision ID: 0015
Revises: 0014
"""

import logging

import sqlalchemy as sa
from alembic import op

from bridgerank.cleaning.ingest.recap_reread import add_recap_entries
from bridgerank.pipeline.migrations.columns import add_missing_columns

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("clean", "rate")

log = logging.getLogger(__name__)


def upgrade() -> None:
    """Add the two columns to ``boards`` (where not present); read the stored recaps again
    for their entries."""
    add_missing_columns(
        "boards",
        *(
            sa.Column(name, sa.String(24), nullable=False, server_default="")
            for name in ("ns_entry", "ew_entry")
        ),
    )
    add_missing_columns("headline_fit", sa.Column("entry_effects", sa.Text(), nullable=True))
    add_missing_columns(
        "session_validation",
        sa.Column("newcomer_pearson", sa.Float(), nullable=True),
        sa.Column("newcomer_sessions", sa.Integer(), nullable=True),
        sa.Column("regular_pearson", sa.Float(), nullable=True),
        sa.Column("regular_sessions", sa.Integer(), nullable=True),
        sa.Column("setting", sa.Text(), nullable=True),
    )
    carry_forward(op.get_bind())


def carry_forward(connection: sa.Connection) -> None:
    """Read the stored recaps again for their pairs' entries (also run for a database made
    before the revisions, :mod:`bridgerank.pipeline.schema`)."""
    _, missing = add_recap_entries(connection)
    if missing:
        log.warning(
            "%d stored recap file(s) are no longer where they were read (first: %s): their "
            "pairs' strata stay unknown to the ratings",
            len(missing),
            missing[0],
        )
