"""The report's Jinja2 environment: templates from the package, autoescape on everywhere
(player and event names are untrusted text), control and bidi characters shown as escapes
(:mod:`bridgerank.core.untrusted`), and the number format people read."""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

from bridgerank.core.untrusted import LAYOUT, visible

if TYPE_CHECKING:  # Jinja2 loads when a report is written
    from jinja2 import Environment


def _fmt(value: Any) -> str:
    """Numbers for people: thousands separators, 4 significant decimals for fractions."""
    if isinstance(value, numbers.Number) and not isinstance(value, (bool, int, float)):
        value = value.item() if hasattr(value, "item") else value  # numpy scalars
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) or (
        isinstance(value, float) and value.is_integer() and abs(value) >= 1
    ):
        return f"{int(value):,}"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1 else f"{value:,.4f}"
    return str(value)


def decimals(value: Any, places: int = 3) -> str:
    """A small figure in prose at a fixed number of decimals (a gain of 0.0004 reads "0.000",
    not the "0.0004018" of four significant digits); empty when there is none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{float(value):.{places}f}"


def chance(value: Any) -> str:
    """A probability as people read it: a whole percentage, "<1%" and ">99%" at the ends
    (a draw's share is never proof of 0 or 1); empty when there is none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    percent = 100 * float(value)
    if percent < 0.5:
        return "<1%"
    if percent > 99.5:
        return ">99%"
    return f"{percent:.0f}%"


def _shown(value: Any) -> Any:
    """Every ``{{ ... }}`` of every template, before autoescape: text with its control and
    bidi characters made visible. Markup (a plot, a macro's output) is treated too: its own
    tags hold none, and an escape adds no markup, so it stays markup."""
    if not isinstance(value, str):  # Markup is a str too
        return value
    shown = visible(value, LAYOUT)
    if shown is value:  # nearly always: a site calls this millions of times, so no import
        return value
    from markupsafe import Markup

    return Markup(shown) if isinstance(value, Markup) else shown


def environment() -> Environment:
    """The Jinja2 environment of the report (autoescape on for every template, and every
    output made visible: :func:`_shown`)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    from bridgerank.pipeline.report.board_view import signed_score
    from bridgerank.pipeline.report.methods_page import summary_text

    env = Environment(
        loader=PackageLoader("bridgerank.pipeline.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=_shown,
    )
    env.filters["fmt"] = _fmt
    env.filters["decimals"] = decimals
    env.filters["summary"] = summary_text
    env.filters["signed"] = signed_score
    env.filters["chance"] = chance
    return env
