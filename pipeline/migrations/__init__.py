"""The history of the tables no stage can rebuild, as Alembic revisions (``versions/``), run
by :mod:`bridgerank.pipeline.schema` on the connection it holds (``env.py``).

Only the user's records (the ingest stage's tables), the forecasts ``bridgerank predict``
keeps and the ledger are migrated. A stage's tables are not: they are created from their
declarations, and when a declaration changes, the repair path rebuilds the table and reruns
its stage (step 3 of :mod:`bridgerank.pipeline.schema`). A new stage table, or a new column
of one, needs no revision.

A change to a kept table is a new file in ``versions/`` (``rNNNN_what.py``; never a number in
:data:`bridgerank.pipeline.schema.RETIRED`): its ``revision``, its ``down_revision`` (the head
before it), ``upgrade()`` with Alembic's operations (``op.add_column`` ...; SQLite alters
little in place, so use ``op.batch_alter_table`` for anything but adding a column or a
table), and ``rerun``, the stages to run again when it changes the records they read (the
others do not). To draft the operations, compare the declared tables with a database at the
current head::

    from alembic.autogenerate import produce_migrations, render_python_code
    from alembic.migration import MigrationContext
    from bridgerank.core.store import Base, open_engine
    from bridgerank.pipeline.stages import all_stages

    all_stages()  # every table declared
    engine = open_engine("sqlite:///old.db", create=False)  # the previous version's, unchanged
    with engine.connect() as conn:
        migration = produce_migrations(MigrationContext.configure(conn), Base.metadata)
    print(render_python_code(migration.upgrade_ops))

Tests upgrade an empty database through every revision and find the kept tables as declared
(``tests/pipeline/test_migrations.py``), and carry databases of earlier versions forward.
"""
