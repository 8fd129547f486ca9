"""Persons resolved from name occurrences in their context (cleaning.match.persons), and the
fields that are no one person (cleaning.match.non_persons)."""

from collections import Counter

import pytest

from bridgerank.cleaning.match.matcher import NameMatcher
from bridgerank.cleaning.match.non_persons import NonPerson, classify, parts_of
from bridgerank.cleaning.match.occurrences import Occurrence
from bridgerank.cleaning.match.persons import resolve_persons
from bridgerank.cleaning.match.wbf_lists import WbfEntry
from bridgerank.core.settings import load_settings

LISTED = [
    ("Alfredo Versace", "Italy"),
    ("Lorenzo Lauria", "Italy"),
    ("Zia Mahmood", "U.S.A."),
    ("Michael Rosenberg", "U.S.A."),
    ("Brad Moss", "U.S.A."),
    ("Mike Moss", "Sweden"),
    ("Charles Goren", "U.S.A."),
    ("Bob Hamman", "U.S.A."),
    ("Adam Kaplan", "U.S.A."),
    ("Edgar Kaplan", "U.S.A."),
    ("Jacek Pszczola", "U.S.A."),
    ("Tor Helness", "Norway"),
    ("Steven De Donder", "Belgium"),
]


def _occurrence(raw, event, partners=(), teams=()):
    return Occurrence(raw, event, 10, Counter(partners), Counter(teams))


def _resolve(occurrences):
    entries = [
        WbfEntry(name, country, 1.0, 1.0, "list", n) for n, (name, country) in enumerate(LISTED)
    ]
    matcher = NameMatcher([e.name for e in entries], {}, settings=load_settings().match)
    persons, resolutions = resolve_persons(occurrences, matcher, entries)

    def who(raw, event):
        resolution = resolutions[(raw, event)]
        return (
            resolution.reason,
            (None if resolution.wbf_index is None else entries[resolution.wbf_index].name),
            resolution.person,
        )

    return persons, who


def test_a_surname_is_the_fuller_form_of_its_event():
    _, who = _resolve(
        [
            _occurrence("Versace", "EC 1997", ["Lauria"]),
            _occurrence("Alfredo Versace", "EC 1997", ["Lorenzo Lauria"]),
        ]
    )
    assert who("Versace", "EC 1997")[:2] == ("fuller form in event", "Alfredo Versace")
    assert who("Versace", "EC 1997")[2] == who("Alfredo Versace", "EC 1997")[2]


def test_a_partnership_seen_elsewhere_names_a_mononym_and_a_typo():
    _, who = _resolve(
        [
            _occurrence("Zia", "Cavendish 1997", ["Rosenberg"]),
            _occurrence("Zia Mahmood", "Spingold 1996", ["Michael Rosenberg"]),
            _occurrence("Laura", "Forbo 2000", ["Versace"]),
            _occurrence("Lorenzo Lauria", "EC 1997", ["Alfredo Versace"]),
        ]
    )
    assert who("Zia", "Cavendish 1997")[:2] == ("partnership", "Zia Mahmood")
    assert who("Laura", "Forbo 2000")[:2] == ("partnership", "Lorenzo Lauria")


def test_one_surname_in_two_events_is_two_people_without_context():
    persons, who = _resolve(
        [
            _occurrence("Moss", "Forbo 2002", ["Gitelman"]),
            _occurrence("Moss", "Cavendish 1999", ["Fallenius"]),
        ]
    )
    first, second = who("Moss", "Forbo 2002"), who("Moss", "Cavendish 1999")
    assert first[:2] == second[:2] == ("short name, no context", None)  # two listed Mosses
    assert first[2] != second[2]
    assert {persons[first[2]].scope, persons[second[2]].scope} == {"Forbo 2002", "Cavendish 1999"}


def test_the_lists_name_a_surname_only_where_the_country_agrees():
    _, who = _resolve(
        [
            _occurrence("Helness", "Olympiad 1996", ["Helgemo"], ["Norway", "Italy"]),
            _occurrence("Goren", "Some Pairs 1997", ["Gitelman"]),
            _occurrence("Barry Goren", "Spingold 1998", ["Hamman"]),
            _occurrence("Hamman", "Some Pairs 1997", ["Gitelman"]),
            _occurrence("Kaplan A", "EC 1997", ["Tor Helness"]),
            _occurrence("Tor Helness", "EC 1997", ["Kaplan A"]),
            _occurrence("Kaplan A", "EC 2001", ["Delforge C"], ["Belgium", "Netherlnd"]),
            _occurrence("Pszczola J", "EC 1997 Poland", ["Kwiecien M"], ["Poland", "G.Britain"]),
        ]
    )
    assert who("Helness", "Olympiad 1996")[:2] == ("surname only, country agrees", "Tor Helness")
    # a Goren who is not the listed one was seen: the surname alone says nothing
    assert who("Goren", "Some Pairs 1997")[:2] == ("short name, no context", None)
    # Hamman: the one listed player of that surname, and no one else seen under it
    assert who("Hamman", "Some Pairs 1997")[:2] == ("surname only, no namesake", "Bob Hamman")
    # an initial the list agrees with, but a partner of another country: not the American
    assert who("Kaplan A", "EC 1997")[1] is None
    # ... nor where every team of its boards is a country and none is his
    assert who("Kaplan A", "EC 2001")[1] is None
    # a surname the lists hold once is not vetoed so: players change federations
    assert who("Pszczola J", "EC 1997 Poland")[1] == "Jacek Pszczola"


def test_fields_that_are_no_one_are_persons_of_their_own_never_rated():
    persons, who = _resolve(
        [
            _occurrence("Daniel Kroll - Kimberly Fanady - Steven Kipperman", "Monday"),
            _occurrence("GIB 2.6.3", "GIB Tournament"),
            _occurrence("North", "Monday"),
        ]
    )
    kinds = {
        persons[who(raw, event)[2]].kind
        for raw, event in [
            ("Daniel Kroll - Kimberly Fanady - Steven Kipperman", "Monday"),
            ("North", "Monday"),
        ]
    }
    assert kinds == {"nobody"}
    assert persons[who("GIB 2.6.3", "GIB Tournament")[2]].kind == "robot"


@pytest.mark.parametrize(
    "raw,kind",
    [
        ("Daniel Kroll - Kimberly Fanady - Steven Kipperman", NonPerson.SEVERAL),
        ("GIB 2.6.3 & Hervé", NonPerson.SEVERAL),
        ("Anna Smith, Bob Jones", NonPerson.SEVERAL),
        ("GIB 2.6.3", NonPerson.ROBOT),
        ("SmBrV3.1", NonPerson.ROBOT),
        ("North", NonPerson.PLACEHOLDER),
        ("##?", NonPerson.PLACEHOLDER),
        ("", NonPerson.EMPTY),
        ("S Dion Smith, M.D.", None),
        ("Smith, Anna", None),
        ("Koch-Palmund", None),
        ("Jack Zhao", None),
        ("Meers-O'Hara", None),
    ],
)
def test_what_is_no_one_person(raw, kind):
    assert classify(raw) == kind


def test_a_team_string_splits_into_its_names():
    assert parts_of("Daniel Kroll - Kimberly Fanady - Steven Kipperman") == [
        "Daniel Kroll",
        "Kimberly Fanady",
        "Steven Kipperman",
    ]


def test_one_string_in_both_seats_of_a_pair_is_two_people_never_rated():
    """The Hackett twins written "Hackett" and "Hackett" (Cap Gemini 1998): no one can tell
    which seat is whose, so the string names no one to rate there - a few boards of a name
    beside itself elsewhere are an entry error and change nothing."""
    twins = Occurrence("Hackett", "Cap Gemini 1998", 10, Counter({"Hackett": 10}), Counter())
    slip = Occurrence("Helness", "EC 1997", 10, Counter({"Helgemo": 9, "Helness": 1}), Counter())
    persons, who = _resolve([twins, slip])
    reason, wbf, person = who("Hackett", "Cap Gemini 1998")
    assert (reason, wbf, persons[person].kind) == ("two players under one name", None, "nobody")
    assert persons[who("Helness", "EC 1997")[2]].kind != "nobody"


def test_a_clubs_recurring_game_names_its_regulars():
    monday = "MONDAY STRATIFIED PAIRS Monday Eve Session"
    _, who = _resolve(
        [
            _occurrence("Gary Freeman", f"{monday} March 6, 2017", ["Dennis Brydon"]),
            # the club writes its game's name in capitals some weeks
            _occurrence("Gary Freeman", f"{monday.title()} May 1, 2017", ["Kate Jeffus"]),
            _occurrence("Freeman", f"{monday} September 25, 2017", ["Nancy Zakim"]),
            _occurrence("Maria Cheng", f"{monday} March 13, 2017", ["Chester Chwang"]),
            _occurrence("Marie Cheng", f"{monday} August 14, 2017", ["David Chan"]),
            _occurrence("Lisa Cheng", "Spring Regional 2017", ["Ann Li"]),  # Cheng is no rare name
            # another club's Monday game, and a championship: no regular of this one
            _occurrence("Freeman", "Thursday Pairs Session March 9, 2017", ["Nickell"]),
            _occurrence("Freeman", "1997 Bermuda Bowl", ["Nickell"]),
        ]
    )
    regular = who("Gary Freeman", f"{monday} March 6, 2017")[2]
    assert who("Freeman", f"{monday} September 25, 2017") == (
        "fuller form in the club's game",
        None,
        regular,
    )
    assert who("Freeman", "Thursday Pairs Session March 9, 2017")[2] != regular
    assert who("Freeman", "1997 Bermuda Bowl")[2] != regular
    # a given name a typo apart, in one club's game: one player
    maria = who("Maria Cheng", f"{monday} March 13, 2017")
    marie = who("Marie Cheng", f"{monday} August 14, 2017")
    assert maria[2] == marie[2]
    assert "linked: one club's game" in (maria[0], marie[0])
