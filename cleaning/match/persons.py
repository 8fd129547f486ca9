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
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import Hashable, Iterable, Sequence

from bridgerank.cleaning.match.countries import country_key, plays_for, team_country
from bridgerank.cleaning.match.links import link_persons, typo_apart
from bridgerank.cleaning.match.matcher import Match, NameMatcher
from bridgerank.cleaning.match.names import (
    PARTICLES,
    NameParts,
    display_key,
    fold,
    forms,
    name_parts,
    surname_words,
)
from bridgerank.cleaning.match.non_persons import classify
from bridgerank.cleaning.match.occurrences import Occurrence, is_womens_event
from bridgerank.cleaning.match.overrides import Overrides, unknown_target
from bridgerank.cleaning.match.standings import RosterTeam, Standings
from bridgerank.cleaning.match.tables import UNRATED_KINDS
from bridgerank.cleaning.match.wbf_lists import WbfEntry

__all__ = ["UNRATED_KINDS", "Person", "Resolution", "resolve_persons"]


# An event is a country's when this share of at least this many of its listed players are.
_NATIONAL_SHARE = 0.6
_NATIONAL_EVENT_PLAYERS = 3
# An event with this many listed players, at most this share of a country, has no player
# of it.
_CHAMPIONSHIP_PLAYERS = 20
_STRAY_SHARE = 0.05


@dataclass
class Person:
    """One person (or one non-person field), with every string and event it was seen under."""

    key: Hashable
    kind: str  # wbf | raw | handle | robot | nobody
    wbf_index: int | None
    name: str = ""  # the WBF list's name, for a listed player
    scope: str = ""  # the one event a short name is known in, when that is all it is
    names: Counter[str] = field(default_factory=Counter)  # raw string -> board-seats
    events: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Resolution:
    """The verdict on one occurrence: its person, its WBF entry, and why."""

    person: int  # index into the persons
    wbf_index: int | None
    reason: str
    match: Match | None  # the matcher's verdict on the string alone


def _is_short(parts: NameParts) -> bool:
    """One name part in full only: a surname (with initials or not, with its particles or
    not: "Van der Nue"), or a mononym."""
    return len(_named(parts)) + len(parts.truncated) == 1


def _named(parts: NameParts) -> list[str]:
    """A name's tokens but the particles of a surname ("van", "der")."""
    named = [token for token in parts.tokens if token not in PARTICLES]
    return named if named else list(parts.tokens)


def _word(parts: NameParts) -> str:
    return (_named(parts) or parts.truncated)[0]


def _agrees(short: NameParts, full: str, typo: bool) -> bool:
    """Whether a full name can be the short one: it holds the short one's word (exactly, as
    a nickname's formal name, or - when ``typo`` - a typo away from its surname) and a given
    name for each of its initials."""
    word = _word(short)
    parts = name_parts(full)
    rest = list(parts.tokens)
    partner = next((token for token in rest if forms(word) & forms(token)), None)
    if partner is None and typo:  # typo_apart leaves out words under four letters
        partner = next(
            (token for token in surname_words(full) if typo_apart(word, token)),
            None,
        )
    if partner is None:
        return False
    rest.remove(partner)
    letters = [token[:1] for token in rest] + list(parts.initials)
    return all(initial in letters for initial in short.initials)


def _partner_named(partner_words: set[str], full: str) -> bool:
    """Whether a full name is the partner's: it holds a word of the partner's name."""
    return any(
        forms(word) & forms(token) for word in partner_words for token in name_parts(full).tokens
    )


def _same_player(raw: str, written: str) -> bool:
    """Whether a name and a roster's name of a player are one (a typo apart at most, the
    words run together: "Van der Nue" / "Van der Neut"), the roster's initials aside."""
    mine, theirs = "".join(name_parts(raw).tokens), "".join(name_parts(written).tokens)
    return bool(mine) and (mine == theirs or typo_apart(mine, theirs))


def _partner_words(occurrence: Occurrence) -> set[str]:
    """The name parts of the partners an occurrence sat with."""
    words: set[str] = set()
    for partner in occurrence.partners:
        parts = name_parts(partner)
        words.update(token for token in parts.tokens + parts.truncated if len(token) > 2)
    return words


class _Resolver:
    def __init__(
        self,
        occurrences: Sequence[Occurrence],
        matcher: NameMatcher,
        entries: Sequence[WbfEntry],
        overrides: Overrides,
        standings: Standings,
    ) -> None:
        self.occurrences = occurrences
        self.entries = entries
        self.overrides = overrides
        self.wbf_by_name = {fold(entry.name): index for index, entry in enumerate(entries)}
        self.countries = {country_key(entry.country) for entry in entries if entry.country}
        self.listed_with = matcher.by_token  # token -> the entries holding it
        self.matcher = matcher
        self.standings = standings
        self.roster_of: dict[tuple[str, str], RosterTeam | None] = {}
        raws = sorted({occurrence.raw for occurrence in occurrences})
        self.kind = {raw: classify(raw) for raw in raws}
        self.match = {raw: matcher.match(raw) for raw in raws if self.kind[raw] is None}
        self.parts = {raw: name_parts(raw) for raw in self.match}
        self.persons: list[Person] = []
        self.index: dict[Hashable, int] = {}
        # the full names' persons: by event, their partners' words, by word
        self.full_key: dict[str, Hashable] = {}
        self.in_event: dict[str, list[str]] = defaultdict(list)
        self.in_series: dict[str, set[str]] = defaultdict(set)  # a club's game, every date
        self.partners: dict[Hashable, set[str]] = defaultdict(set)
        self.partnered: dict[str, set[Hashable]] = defaultdict(set)  # partner's word -> keys
        self.spellings: dict[Hashable, set[str]] = defaultdict(set)  # full names by key
        self.by_word: dict[str, set[Hashable]] = defaultdict(set)  # full names' words
        # the countries of the listed players an event's full names are (a national event)
        self.event_countries: dict[str, Counter[str]] = defaultdict(Counter)
        for occurrence in occurrences:
            raw = occurrence.raw
            listed = self.match[raw].wbf_index if raw in self.match else None
            if listed is not None:  # the lists' reading of every string, short ones too
                self.event_countries[occurrence.scope][country_key(entries[listed].country)] += 1
        for occurrence in occurrences:
            raw = occurrence.raw
            if raw not in self.match or not self._stands_alone(occurrence):
                continue
            key = self._full_key(raw)
            self.full_key[raw] = key
            self.in_event[occurrence.scope].append(raw)
            if occurrence.series is not None:
                self.in_series[occurrence.series].add(raw)
            words = _partner_words(occurrence)
            self.partners[key] |= words
            for word in words:
                self.partnered[word].add(key)
            self.spellings[key].add(raw)
            for token in self.parts[raw].tokens:
                self.by_word[token].add(key)

    def _stands_alone(self, occurrence: Occurrence) -> bool:
        """Whether a string names its person wherever it appears: a full name; or a surname
        with initials that the lists read as one player ("Hallberg G." - Gunnar Hallberg)
        whose partner here is not of another country."""
        parts = self.parts[occurrence.raw]
        if not _is_short(parts):
            return True
        match = self.match[occurrence.raw]
        return (
            bool(parts.initials)
            and match.wbf_index is not None
            and match.reason == "tuple"
            and not self._country_differs(occurrence, match.wbf_index)
        )

    def _full_key(self, raw: str) -> Hashable:
        match = self.match.get(raw) or self.matcher.match(raw)
        if match.wbf_index is not None:
            return ("wbf", match.wbf_index)
        kind = "handle" if match.reason == "handle" else "raw"
        return (kind, display_key(raw))

    def _person(self, key: Hashable, kind: str, wbf_index: int | None, scope: str = "") -> int:
        if key not in self.index:
            name = self.entries[wbf_index].name if wbf_index is not None else ""
            self.index[key] = len(self.persons)
            self.persons.append(Person(key, kind, wbf_index, name, scope))
        return self.index[key]

    def _keyed(self, key: Hashable) -> tuple[int, int | None]:
        """The person of a full name's key: ``("wbf", index)``, ``("raw", name)``, ..."""
        assert isinstance(key, tuple)
        kind = str(key[0])
        wbf_index = int(key[1]) if kind == "wbf" else None
        return self._person(key, kind, wbf_index), wbf_index

    def resolve(self, occurrence: Occurrence) -> Resolution:
        corrected = self._corrected(occurrence)
        if corrected is not None:
            return corrected
        raw = occurrence.raw
        if self.kind[raw] is not None:
            kind = "robot" if self.kind[raw] == "robot" else "nobody"
            person = self._person(("none", display_key(raw) or raw), kind, None)
            return Resolution(person, None, self.kind[raw] or "", None)
        if 2 * occurrence.partners.get(raw, 0) >= occurrence.seats:
            # one string in both seats of a pair ("Hackett - Hackett": the twins; "Bessis -
            # Bessis", father and son) on most of its boards: two people no one can tell apart,
            # so neither is rated under it (a few such boards are an entry error, passed over)
            key = ("one name, two players", display_key(raw), occurrence.scope)
            person = self._person(key, "nobody", None, scope=occurrence.scope)
            return Resolution(person, None, "two players under one name", None)
        match = self.match[raw]
        if raw in self.full_key and self._stands_alone(occurrence):
            person, wbf_index = self._keyed(self.full_key[raw])
            return Resolution(person, wbf_index, match.reason, match)
        return self._short(occurrence, match)

    def _corrected(self, occurrence: Occurrence) -> Resolution | None:
        """The user's correction of an occurrence (:mod:`cleaning.match.overrides`), if any."""
        raw, event = occurrence.raw, occurrence.event
        match = self.match.get(raw)
        if self.overrides.is_nobody(raw, event):
            person = self._person(("none", display_key(raw) or raw), "nobody", None)
            return Resolution(person, None, "override: not a person", match)
        if self.overrides.is_different(raw, event):
            alone = ("override", display_key(raw), occurrence.scope)
            person = self._person(alone, "raw", None, scope=occurrence.scope)
            return Resolution(person, None, "override: different person", match)
        target = self.overrides.same_as(raw, event)
        if target is None:
            return None
        if target.startswith("wbf:"):
            index = self.wbf_by_name.get(fold(target[4:]))
            if index is None:
                raise unknown_target(target)
            key: Hashable = ("wbf", index)
        elif target in self.full_key:
            key = self.full_key[target]
        elif target in self.kind:  # a name of the records, never a full one alone
            key = ("raw", display_key(target))
        else:
            raise unknown_target(target)
        person, wbf_index = self._keyed(key)
        return Resolution(person, wbf_index, "override: same person", match)

    def _short(self, occurrence: Occurrence, match: Match) -> Resolution:
        parts = self.parts[occurrence.raw]
        partner_words = _partner_words(occurrence)
        # 1. a fuller form in the same event
        fuller = {
            self.full_key[raw]
            for raw in self.in_event.get(occurrence.scope, ())
            if _agrees(parts, raw, typo=False)
        }
        if len(fuller) > 1:
            fuller = {key for key in fuller if self.partners[key] & partner_words}
        if len(fuller) == 1:
            person, wbf_index = self._keyed(fuller.pop())
            return Resolution(person, wbf_index, "fuller form in event", match)
        # 1b. the event's own standings, which name its pairs in full
        listed_pair = self._in_standings(occurrence, parts, partner_words)
        if listed_pair is not None:
            key = self._full_key(listed_pair)
            person, wbf_index = self._keyed(key)
            return Resolution(person, wbf_index, "standings of the event", match)
        # 1c. a club's recurring game: the one full name of its other sessions that agrees
        # ("Freeman" one Monday, "Gary Freeman" on twenty-five others and no other Freeman)
        regular = self._in_series(occurrence, parts)
        if regular is not None:
            person, wbf_index = self._keyed(regular)
            return Resolution(person, wbf_index, "fuller form in the club's game", match)
        # 2. a partnership seen elsewhere (a typo away at most)
        candidates = {
            key
            for word in partner_words
            for key in self.partnered.get(word, ())
            if any(_agrees(parts, spelling, typo=True) for spelling in self.spellings[key])
        }
        if len(candidates) == 1:
            person, wbf_index = self._keyed(candidates.pop())
            return Resolution(person, wbf_index, "partnership", match)
        # 3. the WBF lists, where the country agrees - never in a women's event, where a
        # surname is no one of the open lists read here ("Cronier" of the Venice Cup is
        # Benedicte, not the listed Philippe). A roster beside the event spells the name as
        # its team does ("Lindqvist" with Lindberg: Sweden's "Lindkvist")
        roster = self._roster_team(occurrence)
        if roster is not None and not parts.initials:
            written = next(p for p in roster.players if _same_player(occurrence.raw, p))
            if name_parts(written).tokens != parts.tokens:
                match, parts = self.matcher.match(written), name_parts(written)
        listed = match.wbf_index if not self._womens(occurrence) else None
        if (
            listed is not None
            and self._country_agrees(occurrence, listed)
            and not self._country_differs(occurrence, listed)
        ):
            person, wbf_index = self._keyed(("wbf", listed))
            return Resolution(person, wbf_index, f"{match.reason}, country agrees", match)
        # 3b. the lists' one player of that surname, when no one else of it was ever seen
        if (
            listed is not None
            and not self._country_differs(occurrence, listed)
            and not self._namesakes(occurrence.raw, listed)
        ):
            person, wbf_index = self._keyed(("wbf", listed))
            return Resolution(person, wbf_index, f"{match.reason}, no namesake", match)
        # 3b'. a surname the lists hold several times: the one of them these records know
        # in full, where the country agrees ("Weinstein": Steve, seen; Howard, never)
        known = self._the_one_seen(occurrence, parts, match)
        if known is not None:
            person, wbf_index = self._keyed(("wbf", known))
            return Resolution(person, wbf_index, "surname only, the one seen", match)
        # 3c. a mononym ("Zia"): the one listed player of that given name, when the records
        # hold them under a full name, no one has it as a surname, and the country agrees
        mononym = self._mononym(occurrence, parts, match)
        if mononym is not None:
            person, wbf_index = self._keyed(("wbf", mononym))
            return Resolution(person, wbf_index, "mononym", match)
        # 4. no one known beyond this event
        key = ("event", display_key(occurrence.raw), occurrence.scope)
        person = self._person(key, "raw", None, scope=occurrence.scope)
        return Resolution(person, None, "short name, no context", match)

    def _in_standings(
        self, occurrence: Occurrence, parts: NameParts, partner_words: set[str]
    ) -> str | None:
        """The one full name the standings beside the event's boards give a short name,
        in a pair whose other name is its partner's ("Weinstein" with "Stewart": "Fred
        Stewart - Steve Weinstein")."""
        found = set()
        for first, second in self.standings.of(occurrence.folders):
            for name, other in ((first, second), (second, first)):
                if _agrees(parts, name, typo=False) and _partner_named(partner_words, other):
                    found.add(name)
        return found.pop() if len(found) == 1 else None

    def _in_series(self, occurrence: Occurrence, parts: NameParts) -> Hashable | None:
        """The one person a short name's full forms name in the other sessions of its club's
        recurring game, if the session is one of such a game."""
        if occurrence.series is None:
            return None
        found = {
            self.full_key[raw]
            for raw in self.in_series.get(occurrence.series, ())
            if _agrees(parts, raw, typo=False)
        }
        return found.pop() if len(found) == 1 else None

    def _the_one_seen(self, occurrence: Occurrence, parts: NameParts, match: Match) -> int | None:
        """The one listed bearer of an ambiguous surname the records hold in full."""
        if match.reason != "ambiguous" or parts.initials or len(parts.tokens) != 1:
            return None
        if self._womens(occurrence):
            return None
        word = parts.tokens[0]
        seen = [
            index
            for index in self.listed_with.get(word, ())
            if word in surname_words(self.entries[index].name) and ("wbf", index) in self.spellings
        ]
        if len(seen) != 1 or any(key != ("wbf", seen[0]) for key in self.by_word.get(word, ())):
            return None  # none or several seen, or someone unlisted bears it in full
        agrees = self._country_agrees(occurrence, seen[0])
        return seen[0] if agrees and not self._country_differs(occurrence, seen[0]) else None

    def _mononym(self, occurrence: Occurrence, parts: NameParts, match: Match) -> int | None:
        """The listed player a lone given name stands for, if exactly one can be meant."""
        if parts.initials or parts.truncated or len(parts.tokens) != 1 or match.score:
            return None  # not a lone word, or one the lists read as a surname
        if match.reason == "handle":
            return None
        if self._womens(occurrence):
            return None
        word = parts.tokens[0]
        if any(
            word in surname_words(spelling)
            for key in self.by_word.get(word, ())
            for spelling in self.spellings[key]
        ):
            return None  # someone bears it as a surname: "Zia" may be them
        holders = [
            index
            for index in self.listed_with.get(word, ())
            if name_parts(self.entries[index].name).tokens[:1] == (word,)
        ]
        if len(holders) != 1:
            return None
        if ("wbf", holders[0]) not in self.spellings and self._roster_team(occurrence) is None:
            return None  # neither seen in full nor named so on its team's roster
        agrees = self._country_agrees(occurrence, holders[0])
        return holders[0] if agrees and not self._country_differs(occurrence, holders[0]) else None

    def _roster_team(self, occurrence: Occurrence) -> RosterTeam | None:
        """The one team of the rosters beside the event's boards that lists both a short
        name and its partner (a typo apart at most), if any."""
        if occurrence.key not in self.roster_of:
            found = [
                team
                for team in self.standings.teams_of(occurrence.folders)
                if any(_same_player(occurrence.raw, player) for player in team.players)
                and any(
                    _same_player(partner, player)
                    for partner in occurrence.partners
                    for player in team.players
                )
            ]
            self.roster_of[occurrence.key] = found[0] if len(found) == 1 else None
        return self.roster_of[occurrence.key]

    def _womens(self, occurrence: Occurrence) -> bool:
        """Whether an occurrence is of a women's event, or of a women's team on its roster."""
        team = self._roster_team(occurrence)
        return is_womens_event(occurrence.scope) or (team is not None and team.womens)

    def _teams(self, occurrence: Occurrence) -> Iterable[str]:
        """The team names of an occurrence's boards, else its roster team's heading."""
        if occurrence.teams:
            return occurrence.teams
        team = self._roster_team(occurrence)
        return (team.heading,) if team is not None else ()

    def _namesakes(self, raw: str, wbf_index: int) -> bool:
        """Whether someone other than the listed player was seen under a full name with the
        short name's surname (then the surname alone does not say which)."""
        word = _word(self.parts[raw])
        return any(key != ("wbf", wbf_index) for key in self.by_word.get(word, ()))

    def _partner_countries(self, occurrence: Occurrence) -> set[str]:
        """The countries of the listed players the partners' strings name."""
        countries = set()
        for partner in occurrence.partners:
            partner_match = self.match.get(partner)
            if partner_match is not None and partner_match.wbf_index is not None:
                countries.add(country_key(self.entries[partner_match.wbf_index].country))
        return countries

    def _team_countries(self, occurrence: Occurrence) -> set[str] | None:
        """The countries of the teams an occurrence's boards were played between, or None
        when a team name is no country (a sponsor's, a captain's)."""
        countries = {team_country(team, self.countries) for team in self._teams(occurrence)}
        return None if not countries or None in countries else {c for c in countries if c}

    def _country_differs(self, occurrence: Occurrence, wbf_index: int) -> bool:
        """Whether the context says another country than the entry's, where the lists hold
        namesakes of the entry: every team of its boards is a country and none is the
        entry's, every listed partner is of another country, or the event's many listed
        players include next to none of it. (A surname the lists hold
        once is not vetoed: players change federations - Pszczola, Multon - and the lists
        give the latest.)"""
        word = _word(self.parts[occurrence.raw])
        if len(self.listed_with.get(word, ())) < 2:
            return False
        country = country_key(self.entries[wbf_index].country)
        teams = self._team_countries(occurrence)
        if teams and not plays_for(country) & teams:
            return True
        partners = self._partner_countries(occurrence)
        if partners and country not in partners:
            return True
        # a championship of many listed players, next to none of the entry's country (an
        # American "Kaplan A" in a European championship is a European Kaplan; the few
        # Americans it lists are players who moved there later)
        listed = self.event_countries.get(occurrence.scope, Counter())
        total = sum(listed.values())
        if total < _CHAMPIONSHIP_PLAYERS or listed[country] > _STRAY_SHARE * total:
            return False
        return not self._country_agrees(occurrence, wbf_index)  # unless the context agrees

    def _country_agrees(self, occurrence: Occurrence, wbf_index: int) -> bool:
        country = country_key(self.entries[wbf_index].country)
        if not country:
            return False
        teams = self._team_countries(occurrence) or {
            found
            for team in self._teams(occurrence)
            if (found := team_country(team, self.countries)) is not None
        }
        if plays_for(country) & teams:
            return True
        listed = self.event_countries.get(occurrence.scope, Counter())
        total = sum(listed.values())
        if total >= _NATIONAL_EVENT_PLAYERS and listed[country] >= _NATIONAL_SHARE * total:
            return True  # an event of that country's players (a national trial)
        return country in self._partner_countries(occurrence)


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
    resolver = _Resolver(
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
