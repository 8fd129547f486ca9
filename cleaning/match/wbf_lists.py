"""Readers for WBF ranking lists, player codes and alternative names.

The 2014 open lists come in three layouts, with malformed lines among them:

* ``Name,Country MP PP`` (grand masters, international masters);
* ``Name<TAB>Country<TAB>MP<TAB>PP`` with ``First SURNAME`` casing (world masters);
* a CSV with a header naming ``name``, ``mp`` and ``pp`` columns (and optionally
  ``country``, ``code``), for newer lists users bring.

A line whose separators are wrong (``Boye Brogeland Norway 1456 15.5``, ``Jie Li China,734
0.5``) is recovered when its country is one seen on a well-formed line; a line that still
cannot be split into name, country and points is reported, never guessed.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bridgerank.cleaning.ingest.sources import decode
from bridgerank.core.errors import SourceError

_NUMBER = r"\d+(?:\.\d+)?"
_POINTS_TAIL = re.compile(rf"^(?P<head>.*?)[\s,]+(?P<mp>{_NUMBER})[\s,]+(?P<pp>{_NUMBER})\s*$")


@dataclass
class WbfEntry:
    """One player of a WBF list."""

    name: str
    country: str
    mp: float | None
    pp: float | None
    source: str
    line: int
    code: str | None = None


@dataclass
class WbfList:
    """Entries read from one or more files, and the lines that could not be read."""

    entries: list[WbfEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)


def _proper_case(name: str) -> str:
    """``Andrey GROMOV`` -> ``Andrey Gromov``; mixed-case names are left alone."""
    return " ".join(
        word.title() if word.isupper() and len(word) > 1 else word for word in name.split()
    )


def _header_csv(text: str, source: str, result: WbfList) -> None:
    reader = csv.DictReader(io.StringIO(text))
    columns = {name.strip().lower(): name for name in reader.fieldnames or []}
    for number, row in enumerate(reader, start=2):
        name = (row.get(columns["name"]) or "").strip()
        try:
            mp = float(row[columns["mp"]]) if row.get(columns["mp"]) else None
            pp = float(row[columns["pp"]]) if row.get(columns["pp"]) else None
        except ValueError:
            result.problems.append(f"{source}:{number}: points are not numbers")
            continue
        if not name:
            result.problems.append(f"{source}:{number}: no name")
            continue
        country = (row.get(columns.get("country", ""), "") or "").strip()
        code = (row.get(columns.get("code", ""), "") or "").strip() or None
        result.entries.append(WbfEntry(_proper_case(name), country, mp, pp, source, number, code))


def _ranking_lines(
    text: str,
    source: str,
    result: WbfList,
    countries: set[str],
    pending: list[tuple[str, int, str, str, str]],
) -> None:
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cells = [cell.strip() for cell in line.split("\t")]
        if len(cells) == 4:
            name, country, mp, pp = cells
        else:
            match = _POINTS_TAIL.match(line)
            if not match:
                result.problems.append(f"{source}:{number}: no points at the end: {line!r}")
                continue
            head, mp, pp = match.group("head"), match.group("mp"), match.group("pp")
            # settled once every file's countries are known: a comma may sit inside the name
            # ("Jean-christophe,QUANTIN France", "Ching-Hsiang Wu Chinese,Taipei")
            pending.append((source, number, head, mp, pp))
            continue
        countries.add(country)
        _add(result, name, country, mp, pp, source, number)


def _split_comma(head: str) -> tuple[str, str]:
    """``Name,Country`` split at its one comma; a name suffix written after it moves back
    ("Ari David Greenberg,JR U.S.A." -> "Ari David Greenberg JR", "U.S.A.")."""
    name, country = (part.strip() for part in head.split(",", 1))
    suffix, _, rest = country.partition(" ")
    if suffix.upper() in {"JR", "SR", "JNR", "SNR"} and rest:
        return f"{name} {suffix}", rest
    return name, country


def _settle(
    pending: list[tuple[str, int, str, str, str]], countries: set[str], result: WbfList
) -> None:
    """Read the comma-separated lines, knowing every country the lists name.

    A country is known when a tab-separated line names it or two comma lines do (a surname
    that slipped past its comma, "QUANTIN France", is one line's). A line whose part after
    the comma is a known country is read as it is split; otherwise the longest known country
    that ends the line is its country and everything before it, commas dropped, its name;
    failing that, a part after the comma with no surname in capitals is a country the lists
    name once ("Bermuda").
    """
    candidates = Counter(_split_comma(head)[1] for _, _, head, _, _ in pending if "," in head)
    known = countries | {country for country, count in candidates.items() if count >= 2 and country}
    for source, number, head, mp, pp in pending:
        if head.count(",") == 1:
            name, country = _split_comma(head)
            if country in known and name:
                _add(result, name, country, mp, pp, source, number)
                continue
        flat = " ".join(head.replace(",", " ").split())
        ending = next(
            (c for c in sorted(known, key=len, reverse=True) if flat.endswith(" " + c)), None
        )
        if ending is not None:
            name = flat[: -len(ending)].strip()
            _add(result, name, ending, mp, pp, source, number)
            result.recovered.append(f"{source}:{number}: read {head!r} as {name!r}, {ending!r}")
            continue
        if head.count(",") == 1:
            name, country = _split_comma(head)
            if name and country and not any(_is_surname(word) for word in country.split()):
                # a country the lists name once ("Bermuda"): as split
                _add(result, name, country, mp, pp, source, number)
                continue
        result.problems.append(f"{source}:{number}: cannot split name and country: {head!r}")


def _is_surname(word: str) -> bool:
    """A word in capitals, as the lists write surnames (``QUANTIN``; not ``U.S.A.``)."""
    return len(word) > 1 and word.isalpha() and word.isupper()


def _add(
    result: WbfList, name: str, country: str, mp: str, pp: str, source: str, number: int
) -> None:
    result.entries.append(
        WbfEntry(_proper_case(name), country, float(mp), float(pp), source, number)
    )


def read_wbf_lists(paths: list[Path]) -> WbfList:
    """Read ranking lists in any of the layouts (see the module docstring).

    Raises
    ------
    SourceError
        When a file cannot be read.
    """
    result = WbfList()
    countries: set[str] = set()
    # Lines with wrong separators wait until every file's countries are known.
    pending: list[tuple[str, int, str, str, str]] = []
    for path in paths:
        try:
            text, _ = decode(Path(path).read_bytes())
        except OSError as problem:
            raise SourceError(path, f"cannot read WBF list ({problem.strerror})") from None
        first = next((line for line in text.splitlines() if line.strip()), "")
        header = {cell.strip().lower() for cell in first.split(",")}
        if {"name", "mp", "pp"} <= header:
            _header_csv(text, Path(path).name, result)
        else:
            _ranking_lines(text, Path(path).name, result, countries, pending)
    _settle(pending, countries, result)
    # in the lists' own order (files as given, then lines), whichever pass read a line
    rank = {Path(path).name: index for index, path in enumerate(paths)}
    result.entries.sort(key=lambda entry: (rank.get(entry.source, len(rank)), entry.line))
    return result


def read_pairs(path: Path) -> dict[str, str]:
    """A two-column CSV (``#`` comments) as a dict: WBF codes or alternative names."""
    try:
        text, _ = decode(Path(path).read_bytes())
    except OSError as problem:
        raise SourceError(path, f"cannot read ({problem.strerror})") from None
    pairs = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        left, _, right = line.partition(",")
        if right.strip():
            pairs[left.strip()] = right.strip()
    return pairs
