"""The baseline: the tables of the user's records, forecasts and the ledger as they stood
when migrations began (main 47e544b).

Only those tables are migrated: what no stage can rebuild. Every other table is a stage's
result, created from its declaration and rebuilt by the repair path when its declared shape
changes (:mod:`bridgerank.pipeline.schema`). A database made before migrations existed
carries no version: it is checked against the declared tables, repaired where it differs
and stamped with the head revision.

Revision ID: 0001
Revises: none
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Stages whose tables this revision changes in shape, and so must run again (the driver
# reads it): none, a new database has run nothing.
rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Create the tables of the records, the forecasts and the ledger."""
    op.create_table(
        "pending_ingest",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sources", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "predictions",
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("session", sa.Text(), nullable=False),
        sa.Column("player_a", sa.Text(), nullable=False),
        sa.Column("player_b", sa.Text(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("predicted", sa.Float(), nullable=False),
        sa.Column("sd", sa.Float(), nullable=False),
        sa.Column("low_80", sa.Float(), nullable=False),
        sa.Column("high_80", sa.Float(), nullable=False),
        sa.Column("made_at", sa.String(length=32), nullable=False),
        sa.Column("ratings_of", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("event", "session", "player_a", "player_b"),
    )
    op.create_table(
        "skipped_files",
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("path"),
    )
    op.create_table(
        "source_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("encoding", sa.String(length=16), nullable=True),
        sa.Column("records", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("ingested_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sha256"),
    )
    op.create_table(
        "stage_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_stage_runs_stage"), "stage_runs", ["stage"], unique=False)
    op.create_table(
        "table_versions",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "raw_boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("record_no", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("play_layout", sa.String(length=8), nullable=False),
        sa.Column("parse_error", sa.Text(), nullable=True),
        sa.Column("extra", sa.Text(), nullable=True),
        sa.Column("event", sa.Text(), nullable=True),
        sa.Column("site", sa.Text(), nullable=True),
        sa.Column("date", sa.Text(), nullable=True),
        sa.Column("board", sa.Text(), nullable=True),
        sa.Column("stage", sa.Text(), nullable=True),
        sa.Column("dealer", sa.Text(), nullable=True),
        sa.Column("deal", sa.Text(), nullable=True),
        sa.Column("vulnerable", sa.Text(), nullable=True),
        sa.Column("bidstart", sa.Text(), nullable=True),
        sa.Column("auction", sa.Text(), nullable=True),
        sa.Column("contract", sa.Text(), nullable=True),
        sa.Column("lead", sa.Text(), nullable=True),
        sa.Column("play", sa.Text(), nullable=True),
        sa.Column("declarer", sa.Text(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("westname", sa.Text(), nullable=True),
        sa.Column("eastname", sa.Text(), nullable=True),
        sa.Column("northname", sa.Text(), nullable=True),
        sa.Column("southname", sa.Text(), nullable=True),
        sa.Column("scoring", sa.Text(), nullable=True),
        sa.Column("home_team", sa.Text(), nullable=True),
        sa.Column("visit_team", sa.Text(), nullable=True),
        sa.Column("room", sa.Text(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("score", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["source_files.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("source_id", "record_no"),
    )
    op.create_index(op.f("ix_raw_boards_source_id"), "raw_boards", ["source_id"], unique=False)
