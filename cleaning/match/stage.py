"""The ``match`` stage: raw player names in ``boards`` -> ``wbf_players``, ``players``,
``name_matches``.

Every raw name is resolved in each event it was seen in (:mod:`cleaning.match.persons`): a
full name is one person wherever it appears (the WBF player the matcher finds, else a player
of its own keyed by the folded name, so ``fORRESTER`` and ``Forrester`` are one), a short one
is whoever its event's context says (the standings files beside its boards among it), fields
that are no one person are players of kind ``robot`` or ``nobody`` (never rated).
``name_matches`` keeps the verdict on each (raw name, event). The outputs are replaced in one
transaction with the ledger row.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path

from sqlalchemy import func, inspect, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.cleaning.match.lookup import seat_persons
from bridgerank.cleaning.match.matcher import NameMatcher
from bridgerank.cleaning.match.occurrences import Occurrence, gather_occurrences
from bridgerank.cleaning.match.overrides import read_overrides
from bridgerank.cleaning.match.persons import Person, Resolution, resolve_persons
from bridgerank.cleaning.match.standings import read_standings
from bridgerank.cleaning.match.summary import MatchSummary
from bridgerank.cleaning.match.tables import NameMatch, Player, SeatPerson, WbfPlayer
from bridgerank.cleaning.match.wbf_lists import WbfEntry, read_pairs, read_wbf_lists
from bridgerank.core.sections import MatchSettings
from bridgerank.core.settings import resolve_path
from bridgerank.core.stage import Stage, StageContext

SEAT_COLUMNS = (Board.north, Board.east, Board.south, Board.west)


def _files(section: MatchSettings) -> list[Path]:
    files = [resolve_path(value) for value in section.wbf_lists]
    files += [
        resolve_path(value)
        for value in (section.wbf_codes, section.alternative_names, section.overrides)
        if value
    ]
    return files


def load_wbf(section: MatchSettings) -> tuple[list[WbfEntry], list[str], dict[str, str]]:
    """WBF entries (deduplicated, codes attached), problem lines, alternative names.

    Parameters
    ----------
    section : MatchSettings
        The ``[match]`` section: the list files.
    """
    wbf = read_wbf_lists([resolve_path(value) for value in section.wbf_lists])
    codes = read_pairs(resolve_path(section.wbf_codes)) if section.wbf_codes else {}
    alternatives = (
        read_pairs(resolve_path(section.alternative_names)) if section.alternative_names else {}
    )
    seen = set()
    entries = []
    for entry in wbf.entries:
        identity = (entry.name, entry.country, entry.mp, entry.pp)
        if identity in seen:
            continue
        seen.add(identity)
        entry.code = entry.code or codes.get(entry.name)
        entries.append(entry)
    return entries, wbf.problems, alternatives


def seat_counts(conn) -> Counter:
    """Board-seats per raw name (empty names left out)."""
    counts: Counter = Counter()
    for column in SEAT_COLUMNS:
        for name, count in conn.execute(select(column, func.count()).group_by(column)).all():
            if name:
                counts[name] += count
    return counts


def _player_names(persons: list[Person]) -> list[str]:
    """A name for each person, distinct: the WBF name, else the most played spelling - and,
    for a person known in one event only whose spelling another person shares, that event
    ("Moss (Forbo 2002)" and "Moss (Cavendish 1999)" are two)."""
    spellings = [
        person.name if person.wbf_index is not None else person.names.most_common(1)[0][0]
        for person in persons
    ]
    shared = Counter(spellings)
    names: list[str] = []
    taken: set[str] = set()
    for person, spelling in zip(persons, spellings):
        name = spelling
        if person.scope and shared[spelling] > 1:
            name = f"{spelling} ({person.scope})"
        if name in taken:
            name = f"{name} [{len(names) + 1}]"
        taken.add(name)
        names.append(name)
    return names


def _text(score) -> str | None:
    return None if score is None else ",".join(str(value) for value in score)


def _summary(
    occurrences: list[Occurrence],
    resolutions: dict[tuple[str, str], Resolution],
    persons: list[Person],
    entries: list[WbfEntry],
    problems: list[str],
) -> MatchSummary:
    """The run's counts: strings matched (in at least one of their events), seats covered."""
    by_string: dict[str, list[Resolution]] = defaultdict(list)
    for occurrence in occurrences:
        by_string[occurrence.raw].append(resolutions[occurrence.key])
    matched = {
        raw for raw, found in by_string.items() if any(r.wbf_index is not None for r in found)
    }
    first = {raw: found[0] for raw, found in by_string.items()}
    reasons = Counter(
        resolution.match.reason if resolution.match else resolution.reason
        for resolution in first.values()
    )
    seats = sum(occurrence.seats for occurrence in occurrences)
    covered = sum(
        occurrence.seats
        for occurrence in occurrences
        if resolutions[occurrence.key].wbf_index is not None
    )
    return MatchSummary(
        raw_names=len(by_string),
        matched=len(matched),
        ambiguous=reasons["ambiguous"],
        unmatched=len(by_string) - len(matched),
        robots=sum(1 for r in first.values() if r.reason == "robot"),
        handles=reasons["handle"],
        nobodies=sum(1 for r in first.values() if r.match is None and r.reason != "robot"),
        reasons=dict(Counter(resolutions[o.key].reason for o in occurrences).most_common()),
        wbf_players=len(entries),
        players=len(persons),
        seats=seats,
        seats_matched=covered,
        seat_share_matched=round(covered / seats, 4) if seats else 0.0,
        wbf_problems=problems,
    )


def run(context: StageContext) -> MatchSummary:
    """Resolve every name occurrence of ``boards`` (see the module docstring)."""
    entries, problems, alternatives = load_wbf(context.settings.match)
    matcher = NameMatcher(
        [entry.name for entry in entries], alternatives, settings=context.settings.match
    )
    with context.engine.connect() as conn:
        occurrences = list(gather_occurrences(conn).values())
    section = context.settings.match
    overrides = read_overrides(resolve_path(section.overrides) if section.overrides else None)
    standings = read_standings(folder for o in occurrences for folder in o.folders)
    persons, resolutions = resolve_persons(
        context.progress(occurrences, "match names", len(occurrences)),
        matcher,
        entries,
        overrides,
        standings,
    )
    names = _player_names(persons)
    players = [
        {
            "id": index + 1,
            "name": names[index],
            "kind": person.kind,
            "wbf_id": None if person.wbf_index is None else person.wbf_index + 1,
            "seats": sum(person.names.values()),
        }
        for index, person in enumerate(persons)
    ]
    rows = []
    for occurrence in occurrences:
        resolution = resolutions[occurrence.key]
        match = resolution.match
        rows.append(
            {
                "raw_name": occurrence.raw,
                "event": occurrence.event,
                "player_id": resolution.person + 1,
                "wbf_id": None if resolution.wbf_index is None else resolution.wbf_index + 1,
                "reason": resolution.reason,
                "score": _text(match.score) if match else None,
                "runner_up_score": _text(match.runner_up_score) if match else None,
                "runner_up": (
                    entries[match.runner_up].name if match and match.runner_up is not None else None
                ),
                "seats": occurrence.seats,
            }
        )
    summary = _summary(occurrences, resolutions, persons, entries, problems)
    # players and name_matches hold keys of the tables before them: finish empties the
    # three last-first and fills them first-last
    wbf_rows = [
        {
            "id": index + 1,
            "name": entry.name,
            "country": entry.country,
            "mp": entry.mp,
            "pp": entry.pp,
            "source": f"{entry.source}:{entry.line}",
            "code": entry.code,
        }
        for index, entry in enumerate(entries)
    ]
    with context.engine.begin() as conn:
        context.finish(
            conn,
            summary,
            replace={
                WbfPlayer: wbf_rows,
                Player: players,
                NameMatch: rows,
                SeatPerson: seat_persons(rows, players),
            },
        )
    return summary


def _extra_input(context: StageContext) -> list[str]:
    """Content hashes of the WBF files, the name overrides and the standings beside the
    boards' files: a change to any reruns the stage."""
    digests = []
    for path in _files(context.settings.match):
        try:
            digests.append(hashlib.sha256(path.read_bytes()).hexdigest())
        except OSError:
            digests.append(f"missing:{path}")
    if "source_files" in inspect(context.engine).get_table_names():
        with context.engine.connect() as conn:
            paths = conn.execute(select(SourceFile.path)).scalars().all()
        digests += read_standings(str(Path(path).parent) for path in paths).digests
    return digests


MATCH_STAGE = Stage(
    name="match",
    run=run,
    reads=(Board,),
    optional_reads=(RawBoard, SourceFile),  # the boards' files: their folders' standings
    writes=(WbfPlayer, Player, NameMatch, SeatPerson),
    settings_sections=("match",),
    extra_input=_extra_input,
    summary_type=MatchSummary,
)
