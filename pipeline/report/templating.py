"""The report's Jinja2 environment: templates from the package, autoescape on everywhere
(player and event names are untrusted text), control and bidi characters shown as escapes
(:mod:`bridgerank.core.untrusted`), and the number format people read."""

from __future__ import annotations

import json
import math
import numbers
import re
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


# The longest run of characters without a break opportunity a page shows: a name or a word
# of a note from the records may be any length (a 5,000-character name made the methods page
# 54,000 px wide), so a longer run gets an invisible <wbr> every this many characters. No
# real name or word is this long; a <wbr> is not copied with the text, nor read as a letter
# by the site's search and sort.
LONGEST_RUN = 40
_LONG_RUN = re.compile(r"\S{%d,}" % (LONGEST_RUN + 1))


def _breakable(text: str) -> Any:
    """``text`` escaped, with a ``<wbr>`` every :data:`LONGEST_RUN` characters of a longer
    run without whitespace (Markup then), or ``text`` itself when it has none."""
    if len(text) <= LONGEST_RUN or not _LONG_RUN.search(text):
        return text
    from markupsafe import Markup, escape

    pieces: list[str] = []
    start = 0
    for run in _LONG_RUN.finditer(text):
        pieces.append(str(escape(text[start : run.start()])))
        word = run.group()
        chunks = (word[at : at + LONGEST_RUN] for at in range(0, len(word), LONGEST_RUN))
        pieces.append("<wbr>".join(str(escape(chunk)) for chunk in chunks))
        start = run.end()
    pieces.append(str(escape(text[start:])))
    return Markup("".join(pieces))


def base64_data(value: Any) -> Any:
    """A base64 payload for a ``data:`` URL (a plot kept in the database): Markup, so no
    break opportunity is put in it, once checked to hold base64's characters only (a
    database is read as untrusted too); anything else is dropped."""
    from markupsafe import Markup

    text = "" if value is None else str(value)
    return Markup(text) if _BASE64.fullmatch(text) else ""


_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
# A summary value that names a place on a machine: an absolute or home path, a drive, a URL.
_MACHINE_PLACE = re.compile(r"(/|~|[A-Za-z]:[\\/]|\\\\|[a-z][a-z0-9+]*://)")


def summary_text(value: str) -> str:
    """A stage's JSON summary as short ``key: value`` text for the timings table."""
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        return ""

    def shown(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.4g}"
        if isinstance(value, str) and _MACHINE_PLACE.match(value):
            # a file or a database on the machine that built the report (the DD store's):
            # where it is there is nothing a reader can use, and no page should carry it
            return "(on the machine that built this report)"
        return str(value)

    parts = [
        f"{key}: {shown(val)}"
        for key, val in data.items()
        if not isinstance(val, (dict, list)) and key != "seconds"
    ]
    return "; ".join(parts)


def _shown(value: Any) -> Any:
    """Every ``{{ ... }}`` of every template, before autoescape: text with its control and
    bidi characters made visible, and a break opportunity in each run too long to fit a
    line (:func:`_breakable`). Markup (a plot, a macro's output) has its control characters
    made visible too: its own tags hold none, and an escape adds no markup, so it stays
    markup; its long runs are its own tags and data, left whole."""
    if not isinstance(value, str):  # Markup is a str too
        return value
    shown = visible(value, LAYOUT)
    if shown is value and len(value) <= LONGEST_RUN:
        return value  # nearly always: a site calls this millions of times, so no import
    from markupsafe import Markup

    if isinstance(value, Markup):  # our own markup: its long runs are tags and data URLs
        return value if shown is value else Markup(shown)
    return _breakable(shown)


def environment() -> Environment:
    """The Jinja2 environment of the report (autoescape on for every template, and every
    output made visible: :func:`_shown`)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    from bridgerank.pipeline.report.board_view import signed_score

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
    env.filters["base64"] = base64_data
    return env
