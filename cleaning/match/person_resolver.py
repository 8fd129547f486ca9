"""Each occurrence of a name resolved to a person, by the evidence around it, strongest first.

The evidence and its order are told in :mod:`cleaning.match.persons`; the country an event
says is read by :class:`~bridgerank.cleaning.match.event_context.EventContext`, which the
resolver extends.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Sequence

from bridgerank.cleaning.match.event_context import EventContext
from bridgerank.cleaning.match.matcher import Match, NameMatcher
from bridgerank.cleaning.match.names import NameParts, display_key, fold, name_parts, surname_words
from bridgerank.cleaning.match.occurrences import Occurrence
from bridgerank.cleaning.match.overrides import Overrides, unknown_target
from bridgerank.cleaning.match.person_types import Person, Resolution
from bridgerank.cleaning.match.short_names import (
    agrees_with,
    is_short,
    partner_named,
    same_player,
    short_word,
    words_of_partners,
)
from bridgerank.cleaning.match.standings import Standings
from bridgerank.cleaning.match.wbf_lists import WbfEntry

__all__ = ["PersonResolver"]


class PersonResolver(EventContext):
    """Each occurrence to its person: a user's correction, a full name, else the evidence
    around a short name, strongest first (:mod:`cleaning.match.persons`)."""

    def __init__(
        self,
        occurrences: Sequence[Occurrence],
        matcher: NameMatcher,
        entries: Sequence[WbfEntry],
        overrides: Overrides,
        standings: Standings,
    ) -> None:
        super().__init__(occurrences, matcher, entries, standings)
        self.occurrences = occurrences
        self.overrides = overrides
        self.wbf_by_name = {fold(entry.name): index for index, entry in enumerate(entries)}
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
        for occurrence in occurrences:
            raw = occurrence.raw
            if raw not in self.match or not self._stands_alone(occurrence):
                continue
            key = self._full_key(raw)
            self.full_key[raw] = key
            self.in_event[occurrence.scope].append(raw)
            if occurrence.series is not None:
                self.in_series[occurrence.series].add(raw)
            words = words_of_partners(occurrence)
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
        if not is_short(parts):
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
        """The person an occurrence is, and why.

        Parameters
        ----------
        occurrence : Occurrence
            The string, its event, and the partners and teams it was seen with.

        Returns
        -------
        Resolution
            Its person (an index into ``persons``), WBF entry and reason.
        """
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
        partner_words = words_of_partners(occurrence)
        # 1. a fuller form in the same event
        fuller = {
            self.full_key[raw]
            for raw in self.in_event.get(occurrence.scope, ())
            if agrees_with(parts, raw, typo=False)
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
            if any(agrees_with(parts, spelling, typo=True) for spelling in self.spellings[key])
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
            written = next(p for p in roster.players if same_player(occurrence.raw, p))
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
                if agrees_with(parts, name, typo=False) and partner_named(partner_words, other):
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
            if agrees_with(parts, raw, typo=False)
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

    def _namesakes(self, raw: str, wbf_index: int) -> bool:
        """Whether someone other than the listed player was seen under a full name with the
        short name's surname (then the surname alone does not say which)."""
        word = short_word(self.parts[raw])
        return any(key != ("wbf", wbf_index) for key in self.by_word.get(word, ()))
