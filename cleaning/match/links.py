"""Persons linked across events: one person under several spellings.

The resolution of each occurrence (:mod:`cleaning.match.persons`) leaves one person split
wherever the spellings differ beyond what a string alone may settle: a typo ("Cynthia
Molstae" / "Cynthia Molstad"), a transliteration ("HESHMAT Mohamed" / "HISHMAT Mohamed"), a
name cut or extended ("ZONCA Martin" / "ZONCA Martin Ignacio"), a short name in an event
with no fuller form ("Wang" beside Fu in one event, "X. Wang" beside Fu in another). This
module joins such persons, two at a time, where the names agree and so does the context:

* **the same name**: every word of each spelling paired with the other's as written, as
  sounded, or as the same given name in another language ("ORLOV Sergei" / "ORLOV Sergey",
  "FILIP Florin" / "FLORIN Filip", "KNAP Andres" / "KNAP Andrzej") - joined on the names
  alone;
* **a near name** - a word a typo away, a word or initials missing, a surname alone - joined
  only when the context agrees as well: a partner in common ("Mark Issacs" and "Mark Isaacs"
  both with Richard Wilmington), partners of near names too (a recurring partnership under
  typos: "Molstae - Roosi" and "Molstad - Roos"), or, for two full names whose given
  names are a typo apart, a surname no one else bears in full ("Barry" / "Berry Westra")
  or sessions of one club's recurring game ("Maria" / "Marie Cheng").

Never joined: two persons of different WBF entries, two persons who partnered each other
(the Roos brothers), a robot or a field that names no one, a handle, a user's correction.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Iterable, NamedTuple, Sequence

from rapidfuzz import fuzz

from bridgerank.cleaning.match.names import (
    PARTICLES,
    NameParts,
    forms,
    name_parts,
    sound,
    surname_words,
)
from bridgerank.cleaning.match.occurrences import Occurrence, is_womens_event

__all__ = ["NEAR", "SAME", "compare_names", "link_persons", "typo_apart"]

SAME, NEAR = "same", "near"
# A token shared by more persons than this is a given name, not a way to find namesakes.
_COMMON_TOKEN = 60
_TYPO_RATIO = 80.0
_TYPO_RATIO_LONG = 75.0
_LONG_WORD = 7
# A word more persons hold than this is a common surname: near names sharing only it are
# joined by a partner in common alone, never by their partners' names
_COMMON_SURNAME = 8
_TYPO_MIN_LENGTH = 4
_ROUNDS = 3
# Partners of one string in one event beyond which it is an individual event, not a pair's
_PARTNERS_OF_A_PAIR = 3


def typo_apart(left: str, right: str) -> bool:
    """Two words a typo apart: same first letter, close as they sound, neither the other
    with a syllable added ("Christian" / "Christiansen")."""
    shorter, longer = sorted((left, right), key=len)
    if len(shorter) < _TYPO_MIN_LENGTH or left[:1] != right[:1]:
        return False
    if longer.startswith(shorter) and len(longer) - len(shorter) > 2:
        return False
    # a long word may carry two slips ("Proojian" for "Prooijen")
    least = _TYPO_RATIO_LONG if len(shorter) >= _LONG_WORD else _TYPO_RATIO
    return max(fuzz.ratio(left, right), fuzz.ratio(sound(left), sound(right))) >= least


class _Pairing(NamedTuple):
    """Two spellings' words set side by side."""

    pairs: list[tuple[str, str]]  # (left word, right word) taken for one name
    left_alone: list[str]  # the left's words with no partner
    right_alone: list[str]
    typos: int  # pairs made by a typo or a cut word


@lru_cache(maxsize=262144)
def _pairing(left: str, right: str) -> _Pairing:
    a, b = name_parts(left), name_parts(right)
    rest_b = list(b.tokens)
    alone: list[str] = []
    pairs: list[tuple[str, str]] = []
    typos = 0
    for token in a.tokens:
        partner = next((other for other in rest_b if forms(token) & forms(other)), None)
        if partner is None:
            partner = next((other for other in rest_b if typo_apart(token, other)), None)
            typos += partner is not None
        if partner is None:
            alone.append(token)
            continue
        rest_b.remove(partner)
        pairs.append((token, partner))
    for prefix in a.truncated:
        partner = next((other for other in rest_b if other.startswith(prefix)), None)
        if partner is None:
            alone.append(prefix)
            continue
        rest_b.remove(partner)
        pairs.append((prefix, partner))
        typos += 1
    return _Pairing(pairs, alone, rest_b, typos)


@lru_cache(maxsize=262144)
def compare_names(left: str, right: str) -> str | None:
    """How two spellings compare as names: :data:`SAME`, :data:`NEAR` or None.

    SAME: each has at least two words, all paired as written, as sounded or as one given
    name's forms. NEAR: the words paired allow a typo, or one spelling has words or initials
    the other lacks - but a surname of each is among the pairs, and no given name of one
    contradicts the other's. None: anything else.
    """
    a, b = name_parts(left), name_parts(right)
    if not a.tokens and not a.truncated or not b.tokens and not b.truncated:
        return None
    pairs, unpaired_a, rest_b, typos = _pairing(left, right)
    if not pairs or (unpaired_a and rest_b):
        return None  # nothing in common, or each has a name the other lacks
    whole = len(a.tokens) >= 2 and len(b.tokens) >= 2
    if whole and not typos and not unpaired_a and not rest_b and not a.initials + b.initials:
        return SAME  # every word paired, in any order ("FILIP Florin" / "FLORIN Filip")
    surnames_a, surnames_b = surname_words(left), surname_words(right)
    if not any(x in surnames_a and y in surnames_b for x, y in pairs):
        return None  # no surname in common ("Lew Mathe" is no "Lev")
    return None if _initials_clash(a, b, unpaired_a, rest_b) else NEAR


@lru_cache(maxsize=262144)
def contradicts(left: str, right: str) -> bool:
    """Whether two spellings cannot be one person's: each has a given name the other lacks
    and no initial of the other stands for ("Jens Auken" / "AUKEN Sabine", "Lixin Yang" /
    "THOMSON Ian"), the surnames left unpaired begin with different letters, or an initial
    begins no word of the other. A spelling that says less ("Adam Z" beside
    "Zmudzinksi") or a surname cut or misspelt ("Van Prooije", "Van Proojian") contradicts
    nothing."""
    a, b = name_parts(left), name_parts(right)
    _, unpaired_a, rest_b, _ = _pairing(left, right)
    surnames_a, surnames_b = surname_words(left), surname_words(right)

    def given(words: Sequence[str], surnames: frozenset[str], initials: Sequence[str]) -> list[str]:
        return [
            word
            for word in words
            if word not in surnames and word not in PARTICLES and word[:1] not in initials
        ]

    if given(unpaired_a, surnames_a, b.initials) and given(rest_b, surnames_b, a.initials):
        return True
    left_surnames = {
        word[:1] for word in unpaired_a if word in surnames_a and word[:1] not in b.initials
    }
    right_surnames = {
        word[:1] for word in rest_b if word in surnames_b and word[:1] not in a.initials
    }
    if left_surnames and right_surnames and not left_surnames & right_surnames:
        return True
    return _initials_clash(a, b, unpaired_a, rest_b)


def _initials_clash(
    a: NameParts, b: NameParts, unpaired_a: Sequence[str], rest_b: Sequence[str]
) -> bool:
    """Whether an initial of either spelling begins none of the other's unpaired words (or
    forms of them) and is none of its initials."""
    return not _initials_fit(a.initials, rest_b, b.initials) or not _initials_fit(
        b.initials, unpaired_a, a.initials
    )


def _initials_fit(initials: Sequence[str], words: Sequence[str], other: Sequence[str]) -> bool:
    """Whether each initial is the first letter of one of the other's unpaired words (or of
    a form of it: "J" for Yury, whose French form is Jouri) or one of its initials."""
    letters = list(other) + [form[:1] for word in words for form in forms(word)]
    return all(initial in letters for initial in initials) if letters else True


@dataclass
class _Profile:
    spellings: set[str]
    wbf: int | None
    events: set[str] = field(default_factory=set)
    series: set[str] = field(default_factory=set)  # clubs' recurring games it played in
    partners: set[int] = field(default_factory=set)
    womens: bool = False  # seen in women's events only
    seats: int = 0  # board-seats
    words: set[str] = field(default_factory=set)  # words of three letters or more, as sounded
    full_surnames: set[str] = field(default_factory=set)  # surnames of its full spellings


class _Clusters:
    """Union-find over persons that refuses joins the constraints forbid."""

    def __init__(self, profiles: dict[int, _Profile]) -> None:
        self.profiles = profiles
        self.parent = {index: index for index in profiles}
        self.wbf = {index: profile.wbf for index, profile in profiles.items()}
        self.members = {index: {index} for index in profiles}
        self.partners = {index: set(profile.partners) for index, profile in profiles.items()}

    def root(self, index: int) -> int:
        while self.parent[index] != index:
            self.parent[index] = self.parent[self.parent[index]]
            index = self.parent[index]
        return index

    def join(self, left: int, right: int) -> set[int]:
        """Join two persons' clusters if nothing forbids it; the members of the one that
        joined the other (none when refused)."""
        a, b = self.root(left), self.root(right)
        if a == b:
            return set()
        if self.wbf[a] is not None and self.wbf[b] is not None and self.wbf[a] != self.wbf[b]:
            return set()
        if self.partners[a] & self.members[b] or self.partners[b] & self.members[a]:
            return set()  # they sat at one table: two people
        if not self._agree(a, b):
            return set()
        # a listed person absorbs, so keys and names follow the lists; else the more played
        if (self.wbf[b] is not None, self._seats(b)) > (self.wbf[a] is not None, self._seats(a)):
            a, b = b, a
        moved = self.members.pop(b)
        self.parent[b] = a
        self.members[a] |= moved
        self.partners[a] |= self.partners.pop(b)
        self.wbf[a] = self.wbf[a] if self.wbf[a] is not None else self.wbf[b]
        return moved

    def _seats(self, root: int) -> int:
        return sum(self.profiles[member].seats for member in self.members[root])

    def _agree(self, a: int, b: int) -> bool:
        """Whether every spelling of one cluster is the same or a near name of every
        spelling of the other: one person's names all agree, so a chain of near names
        never joins "Jens Auken" and "Sabine Auken" through a bare "Auken"."""
        left = {s for member in self.members[a] for s in self.profiles[member].spellings}
        right = {s for member in self.members[b] for s in self.profiles[member].spellings}
        return not any(contradicts(x, y) for x in left for y in right)


def _profiles(
    persons: Sequence, resolutions: dict, occurrences: Iterable[Occurrence], open_: set[int]
) -> dict[int, _Profile]:
    profiles = {
        index: _Profile(
            set(persons[index].names),
            persons[index].wbf_index,
            seats=sum(persons[index].names.values()),
        )
        for index in open_
    }
    for index in open_:
        if persons[index].name:
            profiles[index].spellings.add(persons[index].name)
    for occurrence in occurrences:
        index = resolutions[occurrence.key].person
        if index not in profiles:
            continue
        profile = profiles[index]
        profile.events.add(occurrence.scope)
        if occurrence.series is not None:
            profile.series.add(occurrence.series)
        if len(occurrence.partners) > _PARTNERS_OF_A_PAIR:
            continue  # an individual event: a passing partner says nothing
        for partner in occurrence.partners:
            found = resolutions.get((partner, occurrence.event))
            if found is not None:
                profile.partners.add(found.person)
    for profile in profiles.values():
        profile.womens = bool(profile.events) and all(map(is_womens_event, profile.events))
        profile.words = _words(profile.spellings)
        profile.full_surnames = _full_surnames(profile.spellings)
    return profiles


def _relation(left: _Profile, right: _Profile) -> str | None:
    found = {compare_names(a, b) for a in left.spellings for b in right.spellings}
    return SAME if SAME in found else NEAR if NEAR in found else None


def _words(spellings: Iterable[str]) -> set[str]:
    """The words of three letters or more of a person's spellings, as they sound."""
    return {
        sound(token)
        for spelling in spellings
        for token in name_parts(spelling).tokens + name_parts(spelling).truncated
        if len(token) >= 3
    }


def _holders(profiles: dict[int, _Profile]) -> dict[str, set[int]]:
    """Each word (as it sounds) -> the persons whose spellings hold it."""
    by_word: dict[str, set[int]] = defaultdict(set)
    for index, profile in profiles.items():
        for word in profile.words:
            by_word[word].add(index)
    return by_word


def _candidates(by_word: dict[str, set[int]]) -> set[tuple[int, int]]:
    """Pairs of persons sharing a word as it sounds, or a word a typo away."""
    words = sorted(word for word, holders in by_word.items() if len(holders) <= _COMMON_TOKEN)
    by_start: dict[str, list[str]] = defaultdict(list)
    for word in words:
        by_start[word[:1]].append(word)
    pairs: set[tuple[int, int]] = set()
    for word in words:
        close = [word] + [
            other for other in by_start[word[:1]] if other > word and typo_apart(word, other)
        ]
        group = set().union(*(by_word[other] for other in close))
        if len(group) > 1:
            pairs.update(combinations(sorted(group), 2))
    return pairs


def link_persons(
    persons: list, resolutions: dict, occurrences: Sequence[Occurrence], fixed: set[int]
) -> dict[int, tuple[int, str]]:
    """Which persons are one: each joined person's index -> (the person it joins, why).

    Parameters
    ----------
    persons : list of Person
        From the resolution of each occurrence.
    resolutions : dict
        ``(raw, event)`` -> Resolution.
    occurrences : sequence of Occurrence
    fixed : set of int
        Persons never joined (non-persons, handles, a user's corrections).
    """
    open_ = {index for index in range(len(persons)) if index not in fixed}
    profiles = _profiles(persons, resolutions, occurrences, open_)
    clusters = _Clusters(profiles)
    why: dict[int, str] = {}
    relation_of: dict[tuple[int, int], str | None] = {}
    holders = _holders(profiles)
    pairs = sorted(_candidates(holders))
    bearers: dict[str, set[int]] = defaultdict(set)  # surname -> persons bearing it in full
    for index, profile in profiles.items():
        for word in profile.full_surnames:
            bearers[word].add(index)

    def relation(a: int, b: int) -> str | None:
        key = (a, b) if a < b else (b, a)
        if key not in relation_of:
            relation_of[key] = _relation(profiles[key[0]], profiles[key[1]])
        return relation_of[key]

    for _ in range(_ROUNDS):
        joined = False
        for a, b in pairs:
            if clusters.root(a) == clusters.root(b):
                continue
            kind = relation(a, b)
            if kind is None:
                continue
            reason = (
                "same name"
                if kind == SAME
                else _context(a, b, profiles, clusters, relation, bearers, holders)
            )
            moved = clusters.join(a, b) if reason else set()
            joined = joined or bool(moved)
            for index in moved:  # the spellings that joined another person: linked, and why
                why.setdefault(index, reason)
        if not joined:
            break
    return {
        index: (clusters.root(index), why.get(index, "linked"))
        for index in open_
        if clusters.root(index) != index
    }


def _context(
    a: int,
    b: int,
    profiles: dict[int, _Profile],
    clusters: _Clusters,
    relation,
    bearers: dict[str, set[int]],
    holders: dict[str, set[int]],
) -> str:
    """What context, if any, backs joining two persons of near names: a partner in common;
    partners of near names; for two full names with a given name a typo apart, a surname
    no one else bears in full ("Barry Westra", "Berry Westra") or one club's recurring game.
    A player of women's events only is never joined so to a player of the open lists read
    here."""
    if (profiles[a].womens and clusters.wbf[clusters.root(b)] is not None) or (
        profiles[b].womens and clusters.wbf[clusters.root(a)] is not None
    ):
        return ""
    partners_a = {clusters.root(p) for p in profiles[a].partners if p in clusters.parent}
    partners_b = {clusters.root(p) for p in profiles[b].partners if p in clusters.parent}
    if partners_a & partners_b:
        return "shared partner"
    shared = profiles[a].words & profiles[b].words
    if shared and all(len(holders[word]) > _COMMON_SURNAME for word in shared):
        return ""  # "Wang" beside "Fu" is too many people for partners' names to tell
    for p in profiles[a].partners:
        for q in profiles[b].partners:
            if p in profiles and q in profiles and p != q and p != b and q != a:
                if relation(p, q) is not None:
                    return "partners' names agree"
    given_typo = any(
        _given_typo(x, y) for x in profiles[a].spellings for y in profiles[b].spellings
    )
    rare = profiles[a].full_surnames & profiles[b].full_surnames
    if given_typo and any(bearers[word] <= {a, b} for word in rare):
        return "rare surname"
    if given_typo and profiles[a].series & profiles[b].series:
        return "one club's game"  # "Maria Cheng" and "Marie Cheng" of one club's Mondays
    return ""


def _given_typo(left: str, right: str) -> bool:
    """Two full names, every word paired, a given name among the pairs a typo apart
    ("Barry Westra" / "Berry Westra", "MOHIUDDIN Khaled" / "MOHIUDDIN Khalid")."""
    pairs, left_alone, right_alone, typos = _pairing(left, right)
    if left_alone or right_alone or not typos:
        return False
    surnames = surname_words(left)
    return any(
        x not in surnames and x not in PARTICLES and y not in PARTICLES and x != y for x, y in pairs
    )


def _full_surnames(spellings: Iterable[str]) -> set[str]:
    """The surnames (as they sound) of a person's full spellings."""
    return {
        sound(word)
        for spelling in spellings
        if len(name_parts(spelling).tokens) >= 2
        for word in surname_words(spelling)
    }
