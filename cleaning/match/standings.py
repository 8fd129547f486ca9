"""What an event's own bulletins say of its players, read from the text files beside its boards.

Championship archives keep, beside an event's board files, the bulletin's pages as plain
text. Two kinds of line name players:

* a standings' pair line, ``22  Fred Stewart - Steve Weinstein   782.82``: the boards often
  name the players by surname alone ("Weinstein" with "Stewart"); the standings say which
  Weinstein (Steve, not Howard, who played with Garner in the same event);
* a team roster under its country's heading (``Sweden`` then ``Open Eriksson, Fallenius,
  Fredin, Lindberg, Lindkvist, Nilsland``): the boards of an Olympiad name no team, and the
  roster says which country "Lindqvist" with "Lindberg" played for, and how the team spells him.

These files are no bridge data and ingest skips them; the match stage reads every ``.txt``
file in the folders its boards came from, and fingerprints the ones that name players as its
inputs.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Iterable, NamedTuple

__all__ = ["RosterTeam", "Standings", "read_pair_lines", "read_rosters", "read_standings"]

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


class RosterTeam(NamedTuple):
    """One team of a roster: the heading it stands under (a country), its series ("open",
    "ladies", ...) and its players as the roster writes them."""

    heading: str
    series: str
    players: tuple[str, ...]

    @property
    def womens(self) -> bool:
        """Whether it is a women's team."""
        return self.series in ("ladies", "women", "womens")


# "Open Eriksson, Fallenius, ..." / "Ladies Admirall M., Criado, ..." / "Open Baran - Molson,
# Gitelman - Mittelman": a series' word, then its players, by commas or in pairs
_SERIES_LINE = re.compile(
    r"^(open|ladies|women|womens|seniors|juniors|mixed)\s+(?=[A-Z])(.+)$", re.IGNORECASE
)
# The heading a team stands under: a line of one to three capitalised words ("Sweden",
# "Great Britain", "Ch.Taipei", "Czech Rep.")
_HEADING = re.compile(r"[A-Z][\w.'-]*(?:[ .][A-Z][\w.'-]*){0,2}\.?")
_BETWEEN_PLAYERS = re.compile(r"\s*,\s*|\s+[-–]\s+")


def read_rosters(text: str) -> list[RosterTeam]:
    """The teams a text lists under their headings (see the module docstring)."""
    teams: list[RosterTeam] = []
    heading = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        series = _SERIES_LINE.match(stripped)
        if series is not None and heading is not None:
            players = tuple(
                player.strip() for player in _BETWEEN_PLAYERS.split(series[2]) if player.strip()
            )
            teams.append(RosterTeam(heading, series[1].casefold(), players))
        elif series is None:
            heading = stripped if _HEADING.fullmatch(stripped) else None
    return teams


class Standings:
    """The full-name pairs of the standings, and the rosters, beside each folder's boards."""

    def __init__(
        self,
        pairs: dict[str, list[tuple[str, str]]],
        digests: list[str],
        rosters: dict[str, list[RosterTeam]] | None = None,
    ) -> None:
        self.pairs = pairs  # folder -> pairs
        self.digests = digests  # the files read, as content hashes (the stage's inputs)
        self.rosters = rosters or {}  # folder -> teams

    def of(self, folders: Iterable[str]) -> list[tuple[str, str]]:
        """Every pair the standings of these folders name."""
        return [pair for folder in sorted(folders) for pair in self.pairs.get(folder, ())]

    def teams_of(self, folders: Iterable[str]) -> list[RosterTeam]:
        """Every roster team of these folders."""
        return [team for folder in sorted(folders) for team in self.rosters.get(folder, ())]

    @property
    def pair_count(self) -> int:
        """How many pairs were read, in all folders."""
        return sum(len(pairs) for pairs in self.pairs.values())


def read_standings(folders: Iterable[str]) -> Standings:
    """Read the pair lines and rosters of the ``.txt`` files in each folder (unreadable or
    oversized files are passed over: they are no bulletins).

    Parameters
    ----------
    folders : iterable of str
        The folders the boards' source files are in.
    """
    pairs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    rosters: dict[str, list[RosterTeam]] = defaultdict(list)
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
            text = data.decode("utf-8", errors="replace")
            found, teams = read_pair_lines(text), read_rosters(text)
            if found or teams:
                pairs[folder] += found
                rosters[folder] += teams
                digests.append(f"{path.name}:{hashlib.sha256(data).hexdigest()}")
    return Standings(dict(pairs), digests, dict(rosters))
