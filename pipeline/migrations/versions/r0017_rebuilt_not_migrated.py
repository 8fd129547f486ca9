"""Derived tables are rebuilt, not migrated.

From this revision on, only the tables no stage can rebuild have revisions: the user's
records (ingest's), the forecasts ``bridgerank predict`` keeps and the ledger. A stage's
tables are created from their declarations and, when their declared shape changes, rebuilt
by the repair path, which reruns the stage (:mod:`bridgerank.pipeline.schema`). The
revisions of earlier versions that changed only such tables (0002, 0003, 0006 to 0014 and
0016) are retired: a database stamped with one is taken from the kept revision before it
(:data:`bridgerank.pipeline.schema.RETIRED`), and the repair path brings its stages' tables
to their declared shape.

Revision ID: 0017
Revises: 0015
"""

revision = "0017"
down_revision = "0015"
branch_labels = None
depends_on = None

# No table changes here: the repair path reruns what it rebuilds.
rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Nothing to change: the revision marks the policy."""
