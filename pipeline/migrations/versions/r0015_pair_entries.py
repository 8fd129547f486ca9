"""What a recap says of each pair before play, read again from the stored recaps.

The recap reader now keeps each pair's entry - the game's population and the pair's stratum
(:mod:`bridgerank.cleaning.ingest.recap_entry`) - and the headline rating uses it as evidence
known before the session. The records an older reader stored lack it: each stored recap is
read again where it is still at its stored path with the same content, and its records gain
their entries (:mod:`bridgerank.cleaning.ingest.recap_reread`); a recap no longer there keeps
its records as they were, its pairs' entries unknown (ingesting the file again does not add
them: the file is stored). The clean stage runs again to carry them into ``boards`` (whose
new columns, as every stage's, come from their declarations).

Revision ID: 0015
Revises: 0005
"""

import logging

import sqlalchemy as sa
from alembic import op

from bridgerank.cleaning.ingest.recap_reread import add_recap_entries

revision = "0015"
down_revision = "0005"
branch_labels = None
depends_on = None

# the records changed, not their shape: the stages after ingest take them in
rerun: tuple[str, ...] = ("clean",)

log = logging.getLogger(__name__)


def upgrade() -> None:
    """Read the stored recaps again for their entries."""
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
