"""Source files by absolute path, and a name to show: ``source_files`` gains ``name``.

``path`` was stored as the user typed it (``../data/pbn/x.pbn``), so the match stage, which
reads the standings and rosters beside the boards' files, found none when run from another
folder and its results changed with the working folder. Paths are now stored resolved. A
relative path of an older database is resolved against the folder the upgrade runs in when
the file is there (the folder the database was built from, as a rule); otherwise it is kept
as it was, and the match stage finds no standings beside it, as before. ``name`` is what
pages show: the file's own name for the rows of an older database.

Revision ID: 0004
Revises: 0001
"""

from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0001"
branch_labels = None
depends_on = None

# No stage's tables change in shape; the match stage's own fingerprint (the standings it
# finds) reruns it when a resolved path finds standings the relative one did not.
rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Add ``source_files.name``; resolve the relative paths that still lead to a file."""
    connection = op.get_bind()
    present = {column["name"] for column in sa.inspect(connection).get_columns("source_files")}
    if "name" not in present:  # a database mended in place by a later version may have it
        with op.batch_alter_table("source_files") as batch:
            batch.add_column(sa.Column("name", sa.Text(), nullable=True))
    files = sa.table("source_files", sa.column("id"), sa.column("path"), sa.column("name"))
    rows = connection.execute(sa.select(files.c.id, files.c.path, files.c.name)).all()
    for source_id, path, name in rows:
        given = Path(path)
        resolved = given.resolve() if not given.is_absolute() and given.exists() else given
        connection.execute(
            files.update()
            .where(files.c.id == source_id)
            .values(path=str(resolved), name=name or given.name)
        )
