"""Player names split into the parts the matcher compares: name tokens and initials.

``"Versace A"``, ``"A. Versace"``, ``"VERSACE Alfredo"`` and ``"Alfredo Versace"`` all become
the token ``versace`` plus an initial or a token starting with ``a``; order never matters.
Accents are transliterated (unidecode), case is folded, hyphenated names are split,
apostrophes dropped (``d'Ovidio`` -> ``dovidio``), a token ending in a full stop
(``Sigurhjart.``) is kept as a truncated name that matches by prefix, and generational
suffixes (``Jr``, ``III``) are dropped.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from unidecode import unidecode

_SPLIT = re.compile(r"[\s,/&()\"\[\]-]+")
# "H.Weinstein" -> "H. Weinstein"; "ThorvaldssonM" (an initial glued on) -> "Thorvaldsson M".
_DOT_GLUED = re.compile(r"\.(?=[^\s.])")
_INITIAL_GLUED = re.compile(r"(?<=[a-z]{3})([A-Z])$")
# "PP. Branco": two initials written as one word
_INITIALS_TOGETHER = re.compile(r"\b([A-Z])([A-Z])\.")
# "D AVOSSA Mario": an elided particle whose apostrophe the source dropped (D'Avossa)
_PARTICLE_APART = re.compile(r"\b([DL]) (?=[A-Z]{3,}\b)")
_NICKNAME_AFTER = re.compile(r"(?<=\S)\s*\([^()]*\)\s*$")
# Words before a surname that are no given name ("van Prooijen", "DE SCHRIJVER Luc").
PARTICLES = frozenset("de da di del della der den du van von ter ten la le el al mac mc st".split())
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "jnr", "snr"})
# A program's name alone or followed by a version or a setting ("GIB 2.6.3", "GIB 60 Seconds"),
# never by a word: "Jack Zhao" and "Jack Waters" are people.
_ROBOT = re.compile(
    r"^(gib|jack|wbridge ?5|q-?plus|micro ?bridge|bridge ?baron|shark ?bridge|robot|computer|"
    r"argine|synrey|bbo ?robot|smbr)(\s*v?\d[\w.]*(\s+\w+)?)?$|^\S+ \d+(\.\d+)+$",
    re.IGNORECASE,
)

# Common given-name short forms, each to the formal names it may stand for.
NICKNAMES: dict[str, tuple[str, ...]] = {
    "al": ("albert", "alan", "alvin", "alfred", "alfredo"),
    "alex": ("alexander", "alexandre"),
    "andy": ("andrew", "andreas"),
    "bart": ("bartholomew",),
    "ben": ("benjamin",),
    "bill": ("william",),
    "billy": ("william",),
    "bob": ("robert",),
    "bobby": ("robert",),
    "rob": ("robert",),
    "chip": ("charles",),
    "charlie": ("charles",),
    "chuck": ("charles",),
    "chris": ("christopher", "christian"),
    "cliff": ("clifford",),
    "dan": ("daniel",),
    "danny": ("daniel",),
    "dave": ("david",),
    "dick": ("richard",),
    "rich": ("richard",),
    "richie": ("richard",),
    "rick": ("richard",),
    "don": ("donald",),
    "ed": ("edward", "edwin", "edgar"),
    "eddie": ("edward",),
    "fred": ("frederick", "frederic"),
    "geoff": ("geoffrey",),
    "greg": ("gregory",),
    "jeff": ("jeffrey",),
    "jim": ("james",),
    "jimmy": ("james",),
    "joe": ("joseph",),
    "jon": ("jonathan",),
    "ken": ("kenneth",),
    "larry": ("lawrence",),
    "lew": ("lewis",),
    "marty": ("martin",),
    "matt": ("matthew",),
    "mike": ("michael",),
    "mick": ("michael",),
    "nick": ("nicholas", "nicolas", "nicola"),
    "pat": ("patrick",),
    "pete": ("peter",),
    "phil": ("philip", "phillip"),
    "ron": ("ronald",),
    "sam": ("samuel",),
    "sandy": ("alexander", "sandra"),
    "steve": ("steven", "stephen"),
    "sue": ("susan",),
    "ted": ("edward", "theodore"),
    "tim": ("timothy",),
    "tom": ("thomas",),
    "tommy": ("thomas",),
    "tony": ("anthony", "antonio"),
    "kathy": ("katherine", "kathleen"),
    "kate": ("katherine",),
    "liz": ("elizabeth",),
    "beth": ("elizabeth",),
    "jenny": ("jennifer",),
    "misha": ("mikhail",),
    "sasha": ("alexander", "aleksandr"),
    "sascha": ("alexander",),
    "debbie": ("deborah", "debora"),
    "deb": ("deborah", "debora"),
    "lucy": ("lucille", "lucia"),
    "zia": ("zia",),
}

# One given name in the languages players write it in: each is any other's form.
COGNATES: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "andrew andrey andrei andrzej andres andreas andre andrea",
        "alexander aleksandr alexandre aleksander alexandr",
        "michael mikhail michal michel",
        "mohamed mohammed mohammad muhammad mohamad",
        "yury yuri iouri jurij juri",
        "peter pieter piotr pierre pietro",
        "george georgi georgy georges",
        "dmitri dmitry dmitrij",
    )
)
_COGNATE = {name: group for group in COGNATES for name in group}

# Spellings one sound has across transliterations ("Lindqvist" / "Lindkvist", "Ophir" /
# "Ofir", "Levy" / "Levi", "Khiouppenen" / "Khiuppenen"): rewritten to one form, in order.
_SOUNDS = (
    ("sch", "sh"),
    ("ph", "f"),
    ("ck", "k"),
    ("q", "k"),
    ("w", "v"),
    ("y", "i"),
    ("ou", "u"),
)
_HARD_C = re.compile(r"c(?=[aou]|[^aeiouh]|$)")
_DOUBLED = re.compile(r"(.)\1+")


class NameParts(NamedTuple):
    """``tokens``: full name tokens; ``initials``: single letters; ``truncated``: prefixes."""

    tokens: tuple[str, ...]
    initials: tuple[str, ...]
    truncated: tuple[str, ...]

    @property
    def key(self) -> tuple:
        """Order-free identity: two names with the same key are the same written name."""
        return (
            tuple(sorted(self.tokens)),
            tuple(sorted(self.initials)),
            tuple(sorted(self.truncated)),
        )


def fold(text: str) -> str:
    """Transliterate to ASCII and fold case: ``"Lévy"`` -> ``"levy"``."""
    return unidecode(text).casefold()


@lru_cache(maxsize=65536)
def name_parts(raw: str) -> NameParts:
    """Split a name into tokens, initials and truncated tokens (see the module docstring)."""
    tokens, initials, truncated = [], [], []
    # "LEVIN Robert (Bobby)": the name the player goes by, beside the one the list may hold
    raw = _NICKNAME_AFTER.sub(" ", raw)
    raw = _INITIALS_TOGETHER.sub(r"\1. \2.", raw)
    if any(word.islower() or word.istitle() for word in raw.split()):
        raw = _PARTICLE_APART.sub(r"\1", raw)  # only where the surname stands in capitals
    spaced = " ".join(_INITIAL_GLUED.sub(r" \1", word) for word in raw.split())
    spaced = _DOT_GLUED.sub(". ", spaced)
    for word in _SPLIT.split(fold(spaced).replace("'", "").replace("`", "")):
        if not word:
            continue
        if word.endswith(".") and len(word) > 2 and word[:-1].isalpha():
            truncated.append(word[:-1])
            continue
        word = word.rstrip(".")
        if not word or word in _SUFFIXES:
            continue
        if len(word) == 1 and word.isalpha():
            initials.append(word)
        else:
            tokens.append(word)
    return NameParts(tuple(tokens), tuple(initials), tuple(truncated))


def sound(token: str, doubled: bool = True) -> str:
    """A token as it sounds, spelt one way: ``lindqvist`` and ``lindkvist`` -> ``lindkvist``,
    ``sacul`` and ``sakul`` -> ``sakul``, ``khyuppenen`` -> ``khiupenen``. Only spellings that
    transliterations and typists swap are merged, never two vowels (``Martens`` is not
    ``Mertens``). ``doubled=False`` keeps doubled letters, which tell names of two
    languages apart (``Anderson``, ``Andersson``)."""
    spoken = _HARD_C.sub("k", token)
    for written, said in _SOUNDS:
        spoken = spoken.replace(written, said)
    return _DOUBLED.sub(r"\1", spoken) if doubled else spoken


@lru_cache(maxsize=65536)
def given_forms(token: str) -> frozenset[str]:
    """A token, the formal names it may be short for, and its forms in other languages."""
    return frozenset({token, *NICKNAMES.get(token, ()), *_COGNATE.get(token, ())})


@lru_cache(maxsize=65536)
def forms(token: str) -> frozenset[str]:
    """:func:`given_forms` and how each sounds (:func:`sound`): two tokens sharing a form
    may be one name."""
    found = given_forms(token)
    return found | {sound(form) for form in found}


@lru_cache(maxsize=65536)
def surname_words(raw: str) -> frozenset[str]:
    """The tokens of a full name that may be its surname: the words written in capitals
    when others are not (``VERSACE Alfredo``), else every word but the first
    (``Ricco van Prooijen``)."""
    # initials are no surname: "Khiouppenen J", "J. Meckstroth"
    words = [
        word for word in _SPLIT.split(_NICKNAME_AFTER.sub(" ", raw)) if len(word.strip(".")) > 1
    ]
    capitals = [word for word in words if len(word) > 1 and word.isupper()]
    if capitals and len(capitals) < len(words):
        chosen = capitals
    else:
        chosen = words[1:] or words
    return frozenset(token for word in chosen for token in name_parts(word).tokens)


def is_robot(raw: str) -> bool:
    """Whether a name is a bridge program (``GIB 2.6.3``, ``Jack``, ``WBridge5``)."""
    return bool(_ROBOT.search(raw.strip()))


def is_handle(raw: str) -> bool:
    """Whether a name looks like an online handle: one word, all lower case or with digits.

    ``snabu``, ``guido99`` and ``hans`` are handles; ``Hans``, ``VERSACE`` and ``fORRESTER``
    are names (a handle that happens to be a surname is not worth a wrong attribution).
    """
    word = raw.strip()
    if not word or " " in word or "." in word:
        return False
    return word.islower() or any(char.isdigit() for char in word)


def display_key(raw: str) -> str:
    """Key of an unmatched raw name: folded, spaced, in the written order."""
    parts = _SPLIT.split(fold(raw).replace("'", ""))
    return " ".join(part.strip(".") for part in parts if part.strip("."))
