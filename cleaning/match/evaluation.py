"""How well names are resolved, measured on name strings labelled by hand.

A labelled row is one occurrence of a raw name (its source file, its event, the string) with
the truth about it: the WBF entry it is, or ``not listed`` (a person the lists do not hold), or
``not a person`` (a team string, a robot, a placeholder); and a person key - two rows with the
same key are one person, two with different keys are two. ``tests/data/names/`` holds the set;
each row says why it was labelled so.

Two questions, each with a precision and a recall:

* **WBF entries**: of the occurrences the resolution attributes to a WBF entry, the share it
  attributes to the right one (precision); of the occurrences that are a WBF entry, the share
  attributed to it (recall);
* **persons**: over every pair of labelled occurrences of persons, the pairs the resolution
  puts together that are one person (precision), and the pairs that are one person that it
  puts together (recall). An occurrence of a non-person put with a person, or given a person
  at all, counts against precision as well (:attr:`Scores.rated_non_persons`).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Callable, Hashable, Iterable, Sequence

from sqlalchemy import Connection, select

from bridgerank.cleaning.clean.fields import event_name
from bridgerank.cleaning.match.tables import UNRATED_KINDS, NameMatch, Player, WbfPlayer

__all__ = [
    "NOT_A_PERSON",
    "NOT_LISTED",
    "Labelled",
    "Resolved",
    "Scores",
    "database_resolution",
    "read_labelled",
    "score",
]

NOT_LISTED = "not listed"
NOT_A_PERSON = "not a person"
_COLUMNS = ("source", "file", "event", "raw_name", "label", "person", "chosen", "reason")


@dataclass(frozen=True)
class Labelled:
    """One labelled occurrence: where the string was seen, and the truth about it."""

    source: str
    file: str  # relative to ../shared/data
    event: str
    raw_name: str
    label: str  # a WBF name, NOT_LISTED or NOT_A_PERSON
    person: str  # person key; empty for NOT_A_PERSON
    chosen: str  # random | hard case
    reason: str


@dataclass(frozen=True)
class Resolved:
    """What a resolution says of one occurrence: its WBF entry's name (None: not listed) and
    its person (None: not a person, never rated)."""

    wbf_name: str | None
    person: Hashable | None


@dataclass(frozen=True)
class Scores:
    """Precision and recall of WBF entries and of persons (pairs), with their counts."""

    rows: int
    wbf_attributed: int
    wbf_correct: int
    wbf_labelled: int
    pairs_predicted: int
    pairs_correct: int
    pairs_true: int
    rated_non_persons: int

    @property
    def wbf_precision(self) -> float:
        """Correct attributions per attribution (1.0 when none was made)."""
        return self.wbf_correct / self.wbf_attributed if self.wbf_attributed else 1.0

    @property
    def wbf_recall(self) -> float:
        """Correct attributions per occurrence labelled with a WBF entry."""
        return self.wbf_correct / self.wbf_labelled if self.wbf_labelled else 1.0

    @property
    def person_precision(self) -> float:
        """Pairs put together that are one person, per pair put together."""
        return self.pairs_correct / self.pairs_predicted if self.pairs_predicted else 1.0

    @property
    def person_recall(self) -> float:
        """Pairs of one person put together, per such pair."""
        return self.pairs_correct / self.pairs_true if self.pairs_true else 1.0

    def lines(self) -> list[str]:
        """The four figures with their counts, a line each."""
        return [
            f"WBF entries: precision {self.wbf_precision:.1%} ({self.wbf_correct} of "
            f"{self.wbf_attributed} attributions), recall {self.wbf_recall:.1%} (of "
            f"{self.wbf_labelled} labelled)",
            f"persons (pairs): precision {self.person_precision:.1%} ({self.pairs_correct} of "
            f"{self.pairs_predicted}), recall {self.person_recall:.1%} (of {self.pairs_true})",
            f"non-persons given a person: {self.rated_non_persons} of "
            f"{self.rows} labelled occurrences",
        ]


def read_labelled(folder: Path) -> list[Labelled]:
    """Every ``*.csv`` of ``folder`` (header :data:`_COLUMNS`), in file order.

    Raises
    ------
    ValueError
        When a file's header is not the labelled set's.
    """
    rows: list[Labelled] = []
    for path in sorted(folder.glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            if tuple(reader.fieldnames or ()) != _COLUMNS:
                raise ValueError(f"{path}: the header is not {','.join(_COLUMNS)}")
            # the event as the boards keep it, whichever order of its words the label wrote
            for row in reader:
                fields = {key: row[key] for key in _COLUMNS}
                rows.append(Labelled(**fields | {"event": event_name(row["event"])}))
    return rows


def _folded(name: str | None) -> str:
    """A WBF name as compared: the lists write surnames in capitals (``Alfredo VERSACE``) and
    a few lines with a stray comma (``Marius,IONITA``), the database as a name is written."""
    words = (name or "").replace(",", " ").casefold().split()
    # "Ari David Greenberg,JR U.S.A.": the suffix may be read as the name's or the country's
    return " ".join(words[:-1] if words[-1:] in (["jr"], ["sr"]) else words)


def _pairs(keys: Sequence[Hashable | None]) -> set[tuple[int, int]]:
    """Index pairs with the same (not None) key."""
    groups: dict[Hashable, list[int]] = {}
    for index, key in enumerate(keys):
        if key is not None:
            groups.setdefault(key, []).append(index)
    return {pair for members in groups.values() for pair in combinations(members, 2)}


def score(labelled: Iterable[Labelled], resolve: Callable[[Labelled], Resolved]) -> Scores:
    """Score a resolution on the labelled occurrences (see the module docstring).

    Parameters
    ----------
    labelled : iterable of Labelled
    resolve : callable
        The resolution's verdict on one occurrence.
    """
    rows = list(labelled)
    verdicts = [resolve(row) for row in rows]
    is_listed = [row.label not in (NOT_LISTED, NOT_A_PERSON) for row in rows]
    attributed = [verdict.wbf_name is not None for verdict in verdicts]
    correct = [
        listed and _folded(verdict.wbf_name) == _folded(row.label)
        for row, verdict, listed in zip(rows, verdicts, is_listed)
    ]
    truth = [row.person or None for row in rows]
    # a non-person given a person is a person too many: its pairs count as predicted
    predicted = [verdict.person for verdict in verdicts]
    true_pairs, predicted_pairs = _pairs(truth), _pairs(predicted)
    return Scores(
        rows=len(rows),
        wbf_attributed=sum(attributed),
        wbf_correct=sum(correct),
        wbf_labelled=sum(is_listed),
        pairs_predicted=len(predicted_pairs),
        pairs_correct=len(true_pairs & predicted_pairs),
        pairs_true=len(true_pairs),
        rated_non_persons=sum(
            1
            for row, verdict in zip(rows, verdicts)
            if row.label == NOT_A_PERSON and verdict.person is not None
        ),
    )


def database_resolution(conn: Connection) -> Callable[[Labelled], Resolved]:
    """The verdict a database's match stage gave each occurrence (its ``name_matches``).

    Parameters
    ----------
    conn : Connection
        A database the match stage has run on, with the labelled occurrences' sources.
    """
    rows = conn.execute(
        select(
            NameMatch.raw_name, NameMatch.event, NameMatch.player_id, WbfPlayer.name, Player.kind
        )
        .join(Player, Player.id == NameMatch.player_id)
        .outerjoin(WbfPlayer, WbfPlayer.id == NameMatch.wbf_id)
    ).all()
    verdicts = {
        (raw, event): Resolved(wbf, None if kind in UNRATED_KINDS else person)
        for raw, event, person, wbf, kind in rows
    }

    def resolve(row: Labelled) -> Resolved:
        return verdicts.get((row.raw_name, row.event), Resolved(None, None))

    return resolve
