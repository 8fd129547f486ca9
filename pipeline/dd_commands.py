"""``bridgerank dd``: the double dummy store every database on this machine shares - where
it is and what it holds, its export to a CSV file and a colleague's file imported into it.

These commands read settings, never the database; ``bridgerank`` registers the group
(:mod:`bridgerank.pipeline.cli`).
"""

from __future__ import annotations

from typing import Callable

import click

from bridgerank.core.settings import load_settings
from bridgerank.core.untrusted import visible
from bridgerank.pipeline.exit_codes import fail_cleanly


@click.group()
def dd() -> None:
    """The double dummy store every database on this machine shares.

    Export its solved tables and play traces to a CSV file (gzip when the name ends in .gz)
    and import a colleague's, checked against the solver first (docs/dds.md).

    \b
    Where it is: $BRIDGERANK_DD_STORE, else [dds] store in a --config file,
    else dd-store.sqlite in the user's cache folder.
    """


def _config_option(command: Callable) -> Callable:
    """The one option the dd commands take: they read settings, never the database."""
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False),
        help="TOML settings file over the defaults (its [dds] store names the store).",
    )(command)


def _dd_store_setting(config_file: str | None) -> str:
    """The store's place as the settings name it: the environment over ``config_file``."""
    return load_settings(config_file, {}).dds.store


@dd.command("info")
@_config_option
@fail_cleanly
def dd_info(config_file: str | None) -> None:
    """Where the store is and what it holds.

    Its location, then its tables, par scores and play traces of this solver version.
    """
    from bridgerank.dds.exchange import store_info

    click.echo(visible(store_info(_dd_store_setting(config_file)).line()))


@dd.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--no-traces", is_flag=True, help="Write the tables only, not the play traces.")
@_config_option
@fail_cleanly
def dd_export(file: str, no_traces: bool, config_file: str | None) -> None:
    """Write the store's solved deals to FILE.

    The tables and play traces of this solver version, as CSV (gzip when FILE ends in .gz).
    """
    from bridgerank.dds.exchange import export_store, open_store

    store = open_store(_dd_store_setting(config_file), write=False)
    try:
        counts = export_store(store, file, traces=not no_traces)
    finally:
        store.close()
    click.echo(visible(counts.line()))


@dd.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--check",
    type=click.IntRange(min=0),
    default=300,
    show_default=True,
    help="New tables, and new play traces, to solve again before importing (drawn at "
    "random; 300 refuse a file with 1% of either wrong with probability 95%); one "
    "difference refuses the file.",
)
@_config_option
@fail_cleanly
def dd_import(file: str, check: int, config_file: str | None) -> None:
    """Read a colleague's FILE into the store.

    FILE is a CSV file `bridgerank dd export` wrote. Bad rows are skipped and counted, rows
    of another solver version too; a table or trace that differs from the store's or, among
    --check new tables and --check new traces drawn at random, from the solver's refuses the
    whole file.
    """
    from bridgerank.cleaning.ingest.limits import Limits
    from bridgerank.dds.exchange import import_file, open_store

    settings = load_settings(config_file, {})
    store = open_store(settings.dds.store, write=True)
    try:
        counts = import_file(
            store,
            file,
            check=check,
            limits=Limits.of(settings.ingest),
            say=lambda text: click.echo(text, err=True),
        )
    finally:
        store.close()
    click.echo(visible(counts.line()))
    for reason in counts.reasons:  # the rows' own text: shown, never obeyed
        click.echo(f"  rejected: {visible(reason)}", err=True)
