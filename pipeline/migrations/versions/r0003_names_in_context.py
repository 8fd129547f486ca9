"""Names resolved in their context: ``name_matches`` gets one row per raw name and event.

A surname alone ("Moss") was one player across every event; it is now resolved in the event
it was seen in (the partners, the fuller forms of the same event), so the audit trail is
keyed by the raw name and the event. Its reasons grow longer ("fuller form in event"), and
``players.kind`` gains ``nobody`` (a team string, a placeholder: never rated). The match
stage runs again and fills the new table; what reads it runs after it.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# Stages whose tables this revision changes in shape, and so must run again.
rerun: tuple[str, ...] = ("match",)


def upgrade() -> None:
    """Rebuild ``name_matches`` keyed by (raw name, event); widen ``players.kind``."""
    op.drop_index(op.f("ix_name_matches_reason"), table_name="name_matches")
    op.drop_index(op.f("ix_name_matches_player_id"), table_name="name_matches")
    op.drop_table("name_matches")
    with op.batch_alter_table("players") as batch:
        batch.alter_column("kind", existing_type=sa.String(length=8), type_=sa.String(length=16))
    op.create_table(
        "name_matches",
        sa.Column("raw_name", sa.Text(), nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("wbf_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("score", sa.Text(), nullable=True),
        sa.Column("runner_up", sa.Text(), nullable=True),
        sa.Column("runner_up_score", sa.Text(), nullable=True),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["wbf_id"], ["wbf_players.id"]),
        sa.PrimaryKeyConstraint("raw_name", "event"),
    )
    op.create_index(op.f("ix_name_matches_player_id"), "name_matches", ["player_id"], unique=False)
    op.create_index(op.f("ix_name_matches_reason"), "name_matches", ["reason"], unique=False)
