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
            if head.count(",") != 1:
                pending.append((source, number, head, mp, pp))
                continue
            name, country = (part.strip() for part in head.split(","))
            suffix, _, rest = country.partition(" ")
            if suffix.upper() in {"JR", "SR", "JNR", "SNR"} and rest:
                # "Ari David Greenberg,JR U.S.A.": the suffix belongs to the name
                name, country = f"{name} {suffix}", rest
        countries.add(country)
        result.entries.append(
            WbfEntry(_proper_case(name), country, float(mp), float(pp), source, number)
        )


def _recover(
    number: int, head: str, mp: str, pp: str, source: str, result: WbfList, countries: set[str]
) -> None:
    flat = " ".join(head.replace(",", " ").split())
    for country in sorted(countries, key=len, reverse=True):
        if country and flat.endswith(" " + country):
            name = head[: head.rfind(country.split()[0])].strip(" ,")
            if "," in name or not name:
                break
            result.entries.append(
                WbfEntry(_proper_case(name), country, float(mp), float(pp), source, number)
            )
            result.recovered.append(f"{source}:{number}: read {head!r} as {name!r}, {country!r}")
            return
    result.problems.append(f"{source}:{number}: cannot split name and country: {head!r}")


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
    for source, number, head, mp, pp in pending:
        _recover(number, head, mp, pp, source, result, countries)
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
