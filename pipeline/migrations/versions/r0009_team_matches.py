"""Team matches rebuilt from traveller files: ``team_matches`` and ``match_boards``.

The clean stage now pairs each round's tables of a team event's traveller files (Valet's)
into matches and keeps them, with each board's scores and IMPs; the tables in no match keep
their reason in ``exclusions`` (level ``match``). It runs again to fill the new tables.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

rerun: tuple[str, ...] = ("clean",)

_SEATS = ("north", "east", "south", "west")


def _seats() -> list[sa.Column]:
    return [
        sa.Column(f"{room}_{seat}", sa.Text(), nullable=False)
        for room in ("open", "closed")
        for seat in _SEATS
    ]


def upgrade() -> None:
    """Create ``team_matches`` and ``match_boards`` (where not present)."""
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "team_matches" not in tables:
        op.create_table(
            "team_matches",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("event", sa.Text(), nullable=False),
            sa.Column("round", sa.Text(), nullable=False),
            sa.Column("year", sa.Integer(), nullable=True),
            sa.Column("boards", sa.Integer(), nullable=False),
            sa.Column("margin", sa.Integer(), nullable=False),
            *_seats(),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_team_matches_event", "team_matches", ["event"])
    if "match_boards" not in tables:
        op.create_table(
            "match_boards",
            sa.Column("match_id", sa.Integer(), nullable=False),
            sa.Column("board_no", sa.Integer(), nullable=False),
            sa.Column("open_id", sa.Integer(), nullable=False),
            sa.Column("closed_id", sa.Integer(), nullable=False),
            *_seats(),
            sa.Column("open_score", sa.Integer(), nullable=False),
            sa.Column("closed_score", sa.Integer(), nullable=False),
            sa.Column("imps", sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(["match_id"], ["team_matches.id"]),
            sa.ForeignKeyConstraint(["open_id"], ["raw_boards.id"]),
            sa.ForeignKeyConstraint(["closed_id"], ["raw_boards.id"]),
            sa.PrimaryKeyConstraint("match_id", "board_no"),
        )
