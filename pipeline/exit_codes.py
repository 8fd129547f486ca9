"""How a ``bridgerank`` command ends on a bridgerank error: one line on standard error, the
error's hint, and its exit code (:mod:`bridgerank.core.errors`), never a traceback.

The main command's subcommands and the ``dd`` group's share it, so it sits below both.
"""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable

import click

from bridgerank.core.errors import BridgerankError
from bridgerank.core.untrusted import visible


def fail_cleanly(command: Callable) -> Callable:
    """Wrap a click command so that a :class:`~bridgerank.core.errors.BridgerankError` it
    raises exits with the error's code after one line and its hint on standard error.

    Parameters
    ----------
    command : callable
        The command's function, before click's decorators make it a command (its name and
        docstring, the help text, are kept).

    Returns
    -------
    callable
        The wrapped function.
    """

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BridgerankError as problem:
            # errors name files, and file names are untrusted text: shown, never obeyed
            click.echo(f"error: {visible(str(problem))}", err=True)
            if problem.hint:
                click.echo(visible(problem.hint), err=True)
            sys.exit(problem.exit_code)

    return wrapper
