"""The step most revisions take: columns added to a table that lacks them."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

__all__ = ["add_missing_columns"]


def add_missing_columns(table: str, *columns: sa.Column) -> None:
    """Add each of ``columns`` to ``table`` where the table exists and lacks it (a database
    a stage has not made the table in yet has nothing to add to; one mended in place by a
    later version may have the column already)."""
    inspector = sa.inspect(op.get_bind())
    if table not in set(inspector.get_table_names()):
        return
    present = {column["name"] for column in inspector.get_columns(table)}
    missing = [column for column in columns if column.name not in present]
    if not missing:
        return
    with op.batch_alter_table(table) as batch:
        for column in missing:
            batch.add_column(column)
