"""Persons from name occurrences: each string resolved in the context it was seen in.

A full name ("Alfredo Versace", "VERSACE Alfredo") means one person wherever it appears, and
the WBF matcher (:mod:`cleaning.match.matcher`) says whether the lists hold them. A short one -
a surname alone, a surname and initials, a mononym ("Versace", "Versace A", "Zia") - means
whoever it meant in its event, so it is resolved per event (:class:`Occurrence`), by the
evidence around it, strongest first:

1. **a fuller form in the same event**: the one full name of that event that contains the
   short one's surname (and agrees with its initials) is the same person; several such
   names are told apart by the partners; or the one full name the event's standings give it
   in a pair with its partner (:mod:`cleaning.match.standings`);
2. **a partnership seen elsewhere**: the one person with that name (or a name a typo away)
   who partnered, somewhere, a player of the same name as the short one's partner here
   ("Zia" with Rosenwasser is the Zia Mahmood who partnered Michael Rosenwasser);
3. **the WBF lists, where the context agrees**: the matcher's one listed player for the short
   name, when the event's team names, the partner's country or the country of most of the
   event's listed players (a national trial) say the same country, or when no one else was
   ever seen under a full name with that surname - where the lists hold namesakes, never
   when the teams or the listed partners say another country; never in a women's event;
   a **mononym** ("Zia") is the one listed player of that given name when the records hold
   them in full, no one bears it as a surname and the country agrees;
4. otherwise **no one known**: a person of that event alone, never one of the lists.

Persons are then linked across events (:mod:`cleaning.match.links`): one person under
several spellings, where the names and the context agree.

Fields that are no person (:mod:`cleaning.match.non_persons`) are kept apart and never rated,
and so is a string that sits in both seats of a pair in an event ("Hackett - Hackett", the
twins): two people under one name.
A user's corrections (:mod:`cleaning.match.overrides`) come before all of it.

The parts: the types (:mod:`cleaning.match.person_types`), a short name against the full
ones (:mod:`cleaning.match.short_names`), the country an event says
(:mod:`cleaning.match.event_context`), the resolution of each occurrence by that evidence
(:mod:`cleaning.match.person_resolver`); here, the whole run and the persons once linked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Sequence

from bridgerank.cleaning.match.links import link_persons
from bridgerank.cleaning.match.matcher import NameMatcher
from bridgerank.cleaning.match.occurrences import Occurrence
from bridgerank.cleaning.match.overrides import Overrides
from bridgerank.cleaning.match.person_resolver import PersonResolver
from bridgerank.cleaning.match.person_types import Person, Resolution
from bridgerank.cleaning.match.standings import Standings
from bridgerank.cleaning.match.tables import UNRATED_KINDS
from bridgerank.cleaning.match.wbf_lists import WbfEntry

__all__ = ["UNRATED_KINDS", "Person", "Resolution", "resolve_persons"]


def resolve_persons(
    occurrences: Iterable[Occurrence],
    matcher: NameMatcher,
    entries: Sequence[WbfEntry],
    overrides: Overrides | None = None,
    standings: Standings | None = None,
) -> tuple[list[Person], dict[tuple[str, str], Resolution]]:
    """Resolve every occurrence to a person (see the module docstring).

    Parameters
    ----------
    occurrences : iterable of Occurrence
        From :func:`~bridgerank.cleaning.match.occurrences.gather_occurrences`.
    matcher : NameMatcher
        The WBF names' matcher.
    entries : sequence of WbfEntry
        The WBF entries, in the matcher's order (for their countries).
    overrides : Overrides, optional
        The user's corrections, which come before any evidence.
    standings : Standings, optional
        The pairs the events' standings files name in full.

    Returns
    -------
    persons : list of Person
    resolutions : dict
        ``(raw, event)`` -> its :class:`Resolution`.
    """
    listed = sorted(occurrences, key=lambda occurrence: occurrence.key)
    resolver = PersonResolver(
        listed, matcher, entries, overrides or Overrides(), standings or Standings({}, [])
    )
    resolutions = {occurrence.key: resolver.resolve(occurrence) for occurrence in listed}
    _gather(resolver.persons, listed, resolutions)
    fixed = {
        resolution.person
        for resolution in resolutions.values()
        if resolution.reason.startswith("override")
    } | {index for index, person in enumerate(resolver.persons) if person.kind in _NEVER_LINKED}
    fixed |= {
        resolution.person
        for resolution in resolutions.values()
        if resolution.match is not None and resolution.match.reason == "handle"
    }
    joins = link_persons(resolver.persons, resolutions, listed, fixed)
    return _joined(resolver.persons, resolutions, listed, joins)


# Persons the links never touch: no one to rate, or an online identity of its own.
_NEVER_LINKED = UNRATED_KINDS | {"handle"}


def _gather(persons: list[Person], occurrences: Sequence[Occurrence], resolutions: dict) -> None:
    """Each person's spellings (with their board-seats) and events."""
    for occurrence in occurrences:
        person = persons[resolutions[occurrence.key].person]
        person.names[occurrence.raw] += occurrence.seats
        person.events.add(occurrence.scope)


def _joined(
    persons: list[Person],
    resolutions: dict[tuple[str, str], Resolution],
    occurrences: Sequence[Occurrence],
    joins: dict[int, tuple[int, str]],
) -> tuple[list[Person], dict[tuple[str, str], Resolution]]:
    """The persons once the joined ones are one (numbered afresh, in their first order), and
    each occurrence's resolution moved to its person."""
    kept = [index for index in range(len(persons)) if index not in joins]
    number = {index: position for position, index in enumerate(kept)}
    merged: list[Person] = []
    for index in kept:
        person = persons[index]
        merged.append(Person(person.key, person.kind, person.wbf_index, person.name, person.scope))
    moved: dict[tuple[str, str], Resolution] = {}
    for key, resolution in resolutions.items():
        target, why = joins.get(resolution.person, (resolution.person, ""))
        person = merged[number[target]]
        if why:
            resolution = replace(
                resolution,
                person=number[target],
                wbf_index=person.wbf_index,
                reason=f"linked: {why}",
            )
        else:
            resolution = replace(resolution, person=number[target])
        moved[key] = resolution
    for index, (target, _) in joins.items():
        if persons[index].scope != merged[number[target]].scope:
            merged[number[target]].scope = ""  # known beyond one event now
    _gather(merged, occurrences, moved)
    return merged, moved
