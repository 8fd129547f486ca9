"""Alembic's environment: migrate on the connection the driver passes, never on a URL of
its own (:func:`bridgerank.pipeline.schema.prepare_database`)."""

from alembic import context

connection = context.config.attributes["connection"]
# batch mode: SQLite alters a table by copying it, which a revision may need
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
