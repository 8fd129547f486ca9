"""The schema's history as Alembic revisions (``versions/``), run by
:mod:`bridgerank.pipeline.schema` on the connection it holds (``env.py``).

A schema change is a new file in ``versions/``: its ``revision``, its ``down_revision`` (the
head before it), ``upgrade()`` with Alembic's operations (``op.add_column`` ...; SQLite's
ALTER is limited, so use ``op.batch_alter_table`` for anything but adding a column), and
``rerun``, the stages whose tables it changes in shape, which then run again. A test
upgrades an empty database through every revision and finds the declared tables.
"""
