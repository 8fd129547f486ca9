"""Untrusted text shown safely: names, events and file names from hand records keep every
character in the database, and are shown with their invisible characters made visible.

A hand record may carry control characters (NUL, BEL, ESC and the rest of C0 and C1, DEL)
and Unicode format characters (the bidi overrides and isolates U+202A-U+202E and
U+2066-U+2069, the marks U+200E, U+200F and U+061C, zero-width spaces, byte order marks).
Written raw they ring a terminal's bell, move its cursor or recolour it, reverse the text
around them in a page or a spreadsheet, or hide that two names differ. :func:`visible`
replaces each by its hexadecimal escape in a Python string literal:

- ``\\x1b`` for a code point below U+0100 (``\\x00`` NUL, ``\\x07`` BEL, ``\\x7f`` DEL),
- ``\\u202e`` for one up to U+FFFF,
- ``\\U000e0001`` for one above.

Hidden are the Unicode categories Cc (controls), Cf (format), Cs (lone surrogates: an
undecodable byte of a file name) and Zl, Zp (line and paragraph separators); kept are the
zero-width non-joiner and joiner (U+200C, U+200D), which Persian and Indic names and emoji
need, and whatever the caller keeps (a page keeps tabs and newlines, a terminal line does
not). A backslash already in the text is left as it is: the escapes are for reading, and the
database holds the exact text.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["LAYOUT", "visible"]

# Whitespace that a page or a CSV file shows as whitespace, not as a control.
LAYOUT = "\t\n\r"
# Categories whose characters are invisible or act on the text around them.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# Format characters of ordinary writing: they join or part letters and move nothing.
_WRITING = frozenset("\u200c\u200d")
# Candidates for a look (every character but printable ASCII): a regular expression finds
# them far faster than a loop in Python over a whole page.
_CANDIDATE = re.compile(r"[^\x20-\x7e]")


def visible(text: str, keep: str = "") -> str:
    """``text`` with its control and format characters written as visible escapes.

    Parameters
    ----------
    text : str
        Text from an input file (a name, an event, a path), or a page holding such text.
    keep : str
        Characters left as they are although hidden (e.g. :data:`LAYOUT` in a page).

    Returns
    -------
    str
        ``text`` itself when nothing in it is hidden, else a copy with each hidden character
        replaced by its escape (see the module docstring).

    Examples
    --------
    >>> visible("Bell\\x07 \\u202eesreveR")
    'Bell\\\\x07 \\\\u202eesreveR'
    """
    if text.isprintable():  # the common case, in C: no control, format or separator
        return text

    def shown(found: re.Match[str]) -> str:
        char = found.group()
        if char in keep or char in _WRITING or unicodedata.category(char) not in _HIDDEN:
            return char
        return _escape(char)

    return _CANDIDATE.sub(shown, text)


def _escape(char: str) -> str:
    """``char``'s hexadecimal escape: ``\\x1b``, ``\\u202e``, ``\\U000e0001``."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
