"""The pairs an event's own standings name in full, read from the text files beside its boards.

Championship archives keep, beside an event's board files, the bulletin's standings as plain
text: ``22  Fred Stewart - Steve Weinstein   782.82``. The boards themselves often name the
players by surname alone ("Weinstein" with "Stewart"); the standings say which Weinstein
(Steve, not Howard, who played with Garner in the same event). These files are no bridge
data and ingest skips them; the match stage reads the pair lines of every ``.txt`` file in
the folders its boards came from, and fingerprints them as its inputs.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Iterable

__all__ = ["Standings", "read_pair_lines", "read_standings"]

# A name as standings write it: capitalised words, a particle or an initial among them
# ("Jaap van der Neut", "Paul J. Lewis", "Ishmael Del'Monte").
_WORD = r"[A-Z][\w'`.-]*"
_NAME = rf"{_WORD}(?:\s+(?:{_WORD}|(?:van|der|de|den|von|di|da|du|la|le)\b)){{1,3}}"
_PAIR_LINE = re.compile(rf"(?<![\w-])({_NAME})\s+[-–]\s+({_NAME})(?![\w-])")
# Standings files are small (a bulletin's page); anything larger is no standings file.
_MAX_BYTES = 1 << 20


def read_pair_lines(text: str) -> list[tuple[str, str]]:
    """The pairs of full names (two words or more each) a text writes as ``A B - C D``."""
    pairs = []
    for line in text.splitlines():
        for first, second in _PAIR_LINE.findall(line):
            pairs.append((" ".join(first.split()), " ".join(second.split())))
    return pairs


class Standings:
    """The full-name pairs of the standings beside each folder's boards."""

    def __init__(self, pairs: dict[str, list[tuple[str, str]]], digests: list[str]) -> None:
        self.pairs = pairs  # folder -> pairs
        self.digests = digests  # the files read, as content hashes (the stage's inputs)

    def of(self, folders: Iterable[str]) -> list[tuple[str, str]]:
        """Every pair the standings of these folders name."""
        return [pair for folder in sorted(folders) for pair in self.pairs.get(folder, ())]

    @property
    def pair_count(self) -> int:
        """How many pairs were read, in all folders."""
        return sum(len(pairs) for pairs in self.pairs.values())


def read_standings(folders: Iterable[str]) -> Standings:
    """Read the pair lines of the ``.txt`` files in each folder (unreadable or oversized
    files are passed over: they are no standings).

    Parameters
    ----------
    folders : iterable of str
        The folders the boards' source files are in.
    """
    pairs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    digests = []
    for folder in sorted(set(folders)):
        try:
            files = sorted(path for path in Path(folder).iterdir() if path.suffix.lower() == ".txt")
        except OSError:
            continue
        for path in files:
            try:
                if path.stat().st_size > _MAX_BYTES:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            found = read_pair_lines(data.decode("utf-8", errors="replace"))
            if found:
                pairs[folder] += found
                digests.append(f"{path.name}:{hashlib.sha256(data).hexdigest()}")
    return Standings(dict(pairs), digests)
