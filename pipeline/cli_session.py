"""What every command opens: the options it takes (after its name or before it), its
settings, and its database - never one it was not asked to build."""

from __future__ import annotations

import functools
import shlex
import sys
from typing import Any, Callable, Sequence

import click

from bridgerank.core.errors import SettingsError, StoreError
from bridgerank.core.settings import load_settings
from bridgerank.core.summary import WIDTH

__all__ = [
    "COMMON",
    "Session",
    "common",
    "echo_wrapped",
    "group_options",
    "no_database",
    "refuse_a_missing_database",
    "wrapped",
]

# The common options' parameter names, as the commands receive them.
COMMON = ("db", "out", "config_file", "jobs")


def common_options() -> list[Callable]:
    """The options every command takes, before its name or after it."""
    return [
        click.option(
            "--db",
            help="SQLAlchemy URL or SQLite file (default: $BRIDGERANK_DB, else OUT/bridgerank.db).",
        ),
        click.option(
            "--out",
            type=click.Path(file_okay=False),
            help="Folder for the database and reports (default: $BRIDGERANK_OUT, else out).",
        ),
        click.option(
            "--config",
            "config_file",
            type=click.Path(dir_okay=False),
            help="TOML settings file over the defaults (see config/defaults.toml).",
        ),
        click.option(
            "--jobs", type=click.IntRange(min=1), help="Worker processes for parallel stages."
        ),
    ]


def common(command: Callable) -> Callable:
    """Options every subcommand takes; one given before the command's name (``bridgerank
    --db X status``) counts where the command's own is not given."""

    @functools.wraps(command)
    def with_the_group_s(*args: Any, **kwargs: Any) -> Any:
        context = click.get_current_context()
        before = context.find_root().obj or {}
        for name in COMMON:
            if kwargs.get(name) is None and before.get(name) is not None:
                kwargs[name] = before[name]
                # as if given after the name: what reads the command's options (the resume
                # hint) sees it too
                context.params[name] = before[name]
        return command(*args, **kwargs)

    for option in reversed(common_options()):
        with_the_group_s = option(with_the_group_s)
    return with_the_group_s


class Session:
    """Settings and engine from the common options."""

    def __init__(
        self,
        db: str | None,
        out: str | None,
        config_file: str | None,
        jobs: int | None,
        read_only: bool = False,
        existing: bool = False,
        database: bool = True,
        sources: Sequence[str] = (),
    ) -> None:
        """``read_only``: the command changes nothing; ``existing``: it works on a database
        that must be there already (a stage, a forecast), so a SQLite file that is not there
        is an error, not a new database; ``database``: False for a command on files alone,
        which opens none; ``sources``: what the command will read, each of which must be
        there with something to read before a database is opened (a run that can read
        nothing must not leave an empty database behind)."""
        # The flags are the top layer, over the environment (BRIDGERANK_DB, BRIDGERANK_OUT),
        # the --config file and the defaults; a flag not given leaves the layers below it.
        flags: dict[str, dict[str, object]] = {
            "store": {"out": out, "db": db},
            "run": {"jobs": jobs},
        }
        self.settings = load_settings(
            config_file,
            {
                section: {key: value for key, value in values.items() if value}
                for section, values in flags.items()
            },
        )
        # SQLAlchemy loads here, not at start-up: `bridgerank --help` needs no database.
        from bridgerank.core.store import database_url
        from bridgerank.pipeline.stages import open_store

        store = self.settings.store
        self.url = database_url(store.db or None, store.out)
        self.jobs = self.settings.run.jobs
        if not database:
            return
        if sources:
            from bridgerank.cleaning.ingest.sources import discover

            discover(list(sources), self.settings.ingest.extensions)
        if read_only or existing:
            # a typo must not become a database (nor a lock beside one)
            missing = no_database(self.url, store.db or None, out)
            if missing:
                raise StoreError(missing)
        notes: list[str] = []
        what = shlex.join(["bridgerank", *sys.argv[1:]])
        self.engine = open_store(
            self.url, create=not read_only, notes=notes, what=what, backups=store.backups
        )
        click.get_current_context().call_on_close(self.engine.dispose)  # no connection left
        for note in notes:
            echo_wrapped(note)


def wrapped(text: str, indent: str) -> str:
    """``text`` on lines of at most ``WIDTH`` characters, continued under ``indent`` and two
    spaces; never broken inside a word or at its hyphens, so a wrapped path stays copyable."""
    import textwrap

    return textwrap.fill(
        text,
        WIDTH,
        subsequent_indent=indent + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def echo_wrapped(text: str, indent: str = "  ") -> None:
    """``text`` on lines of at most ``WIDTH`` characters, continued under ``indent``."""
    click.echo(wrapped(text, indent))


def group_options(group: Callable) -> Callable:
    """The common options on the command group, so they may come before a command's name."""
    for option in reversed(common_options()):
        group = option(group)
    return group


def refuse_a_missing_database(db: str) -> None:
    """``--db`` naming a SQLite file that does not exist, with no sources: most likely a typo,
    so nothing is built (SOURCES ask for a new database; the embedded sample fills one only
    in the default place)."""
    from bridgerank.core.store import database_url

    missing = no_database(database_url(db, "."), db)
    if missing:
        raise SettingsError(missing)


def no_database(url: str, db: str | None, out: str | None = None) -> str | None:
    """The one line for a SQLite database that is not there, with the command that builds
    one there (``out``: the ``--out`` given; None: it is there, or the database is no
    file)."""
    from bridgerank.core.store import sqlite_file

    file = sqlite_file(url)
    if file is None or file.exists():
        return None
    if db:
        return f"no database at {file} (to build one there, name what to read: " + (
            f"bridgerank run SOURCES --db {db})"
        )
    where = f" --out {shlex.quote(out)}" if out else ""
    return (
        f"no database at {file} (to build one: bridgerank run SOURCES{where}, or bridgerank "
        f"run{where} alone for the embedded sample)"
    )
