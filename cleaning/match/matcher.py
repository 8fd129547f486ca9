"""Matching raw player names to WBF list names.

The thesis's rule, kept as the core: for a raw name and a WBF name, the score is the tuple

    (matched tokens, matched initials, -unmatched WBF tokens, -unmatched WBF initials)

where an initial matches an initial or an unmatched WBF token starting with its letter; the
lexicographic maximum wins; there is no match when its first value is 0 or when it is shared.

On top of it, what real names need:

* tokens match exactly, then as nicknames (``Cliff`` ~ ``Clifford``), then as a truncated
  prefix (``Sigurhjart.``), then, only for tokens no WBF name contains at all, by spelling
  (rapidfuzz ratio, ``Elleby`` ~ ``Ellenby``). Spelling alone never makes a match unless the
  raw token is a long prefix of the WBF one (``Thorbjornss``, cut at 11 characters). Tokens
  matched by spelling and by nickname are counted in a fifth and sixth element of the
  tuple, so an exact reading beats an inexact one;
* known alternative names are rewritten to the main name first;
* when the best tuple is shared, the rapidfuzz token-set similarity of the whole names breaks
  the tie if the winner leads by a margin; otherwise the name is ambiguous and not matched.

Robot names (``GIB 2.6.3``) and online handles (one all-lowercase word such as ``snabu``,
or a word with digits such as ``guido99``) are never matched.

A wrong attribution is worse than none: every rule here can only refuse a match the thesis
made or make one it refused with a unique, higher score.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple, Sequence

from rapidfuzz import fuzz, process

from bridgerank.cleaning.match.names import (
    NameParts,
    display_key,
    forms,
    given_forms,
    is_handle,
    is_robot,
    name_parts,
    sound,
)
from bridgerank.core.sections import MatchSettings


class Match(NamedTuple):
    """The verdict on one raw name; ``wbf_index`` points into the WBF names, or is None."""

    raw: str
    wbf_index: int | None
    reason: str  # exact | alternative | tuple | surname only | fuzzy-token | fuzzy-tiebreak |
    #              ambiguous | no candidate | robot | handle
    score: tuple | None
    runner_up: int | None
    runner_up_score: tuple | None


def _score(
    raw: NameParts, wbf: NameParts, close_tokens: dict[str, set[str]], settings: MatchSettings
) -> tuple:
    """The score tuple of one candidate (see the module docstring); first value 0 = refused."""
    refused = (0, 0, 0, 0, 0, 0)
    remaining = list(wbf.tokens)
    paired: list[str] = []  # WBF tokens matched by a full raw token

    def take(partner: str) -> None:
        remaining.remove(partner)
        paired.append(partner)

    matched = nicknamed = 0
    leftover = []
    for token in raw.tokens:
        if token in remaining:
            take(token)
            matched += 1
        else:
            leftover.append(token)
    unresolved = []
    for token in leftover:
        token_forms = given_forms(token)
        partner = next((w for w in remaining if token_forms & given_forms(w)), None)
        if partner is None:
            unresolved.append(token)
            continue
        take(partner)
        matched += 1
        nicknamed += 1
    spelled = []  # (raw token, WBF token) pairs matched by spelling alone
    unmatched_raw = 0
    for token in unresolved:
        # spelt otherwise: a close spelling, or the same sound ("Lindqvist" / "Lindkvist")
        partner = next(
            (w for w in remaining if w in close_tokens.get(token, ()) or forms(token) & forms(w)),
            None,
        )
        if partner is None:
            unmatched_raw += 1
            continue
        take(partner)
        spelled.append((token, partner))
    for token in [token for token in unresolved if len(token) == 2 and token not in dict(spelled)]:
        # two letters of a given name, to tell twins apart ("Hackett Ju", "Hackett Ja")
        partner = next((w for w in remaining if w.startswith(token) and len(w) > 2), None)
        if partner is not None:
            unmatched_raw -= 1
            take(partner)
            spelled.append((token, partner))
    for prefix in raw.truncated:
        partner = next((w for w in remaining if w.startswith(prefix)), None)
        if partner is None:
            unmatched_raw += 1
            continue
        take(partner)
        spelled.append((prefix, partner))
    wbf_initials = list(wbf.initials)
    matched_initials = 0
    spare = []
    for initial in raw.initials:
        if initial in wbf_initials:
            wbf_initials.remove(initial)
            matched_initials += 1
        else:
            spare.append(initial)
    for initial in spare:
        partner = next((w for w in remaining if w.startswith(initial)), None)
        if partner is None:
            unmatched_raw += 1
            continue
        remaining.remove(partner)
        matched_initials += 1
    if unmatched_raw and remaining:
        # Each side has a name the other lacks ("P. Chagas" and "Gabriel Chagas"): two
        # different people as far as the names tell. The thesis matched these.
        return refused
    if len(unresolved) > len(spelled) and len(raw.tokens) > 1:
        # A whole name the listed one lacks: "L. Mark Nelson" is not Mark Lair, and "Larry
        # Cohen LV" (a second Larry Cohen, so marked) is not Larry N. Cohen.
        return refused
    if len(raw.tokens) + len(raw.truncated) == 1 and wbf.tokens and wbf.tokens[-1] not in paired:
        # A lone name must be the listed surname: "Leslie" is not "Leslie Dodds".
        return refused
    if spelled and unmatched_raw:
        # A name read by spelling must account for every part of the raw name
        # ("P. Hecht-Johansen" is not "Piet Jansen").
        return refused
    if (
        spelled
        and not (matched or matched_initials)
        and not all(
            (partner.startswith(token) and len(token) >= settings.fuzzy_alone_min_length)
            or sound(token, doubled=False) == sound(partner, doubled=False)
            for token, partner in spelled
        )
    ):
        # Spelling alone is too weak (Anderson is not Andersson) unless the raw token is
        # a long prefix of the WBF one (old files cut names at 11 characters) or the same
        # name in another transliteration (Lindqvist, Lindkvist).
        return refused
    return (
        matched + len(spelled),
        matched_initials,
        -len(remaining),
        -len(wbf_initials),
        -len(spelled),
        -nicknamed,
    )


class NameMatcher:
    """An index of WBF names that matches raw names against it.

    Parameters
    ----------
    wbf_names : sequence of str
        The WBF list's names; a match's ``index`` is a position in it.
    alternatives : dict, optional
        Alternative name -> main name (``Al Roth`` -> ``Alvin Roth``).
    settings : MatchSettings
        The ``[match]`` section; the matcher reads its knobs (``fuzzy_min_ratio`` ..
        ``match_surname_only``), not the list files.

    Notes
    -----
    Candidates are looked up through an index from token (and the formal names of a
    nickname) to WBF names, so only names sharing a token with the raw name are scored.
    """

    def __init__(
        self,
        wbf_names: Sequence[str],
        alternatives: dict[str, str] | None = None,
        *,
        settings: MatchSettings,
    ) -> None:
        self.names = list(wbf_names)
        self.settings = settings
        self.alternatives = {
            name_parts(alt).key: main for alt, main in (alternatives or {}).items()
        }
        self.parts = [name_parts(self._main(name)) for name in self.names]
        self.by_token: dict[str, set[int]] = defaultdict(set)
        self.by_key: dict[tuple, list[int]] = defaultdict(list)
        for index, parts in enumerate(self.parts):
            self.by_key[parts.key].append(index)
            for token in parts.tokens:
                for form in forms(token):
                    self.by_token[form].add(index)
        self.vocabulary = sorted({token for parts in self.parts for token in parts.tokens})

    def _main(self, name: str) -> str:
        return self.alternatives.get(name_parts(name).key, name)

    def _close_tokens(self, token: str) -> set[str]:
        """WBF tokens spelled like a token no WBF name contains."""
        settings = self.settings
        if token in self.by_token or len(token) < settings.fuzzy_min_length:
            return set()
        hits = process.extract(
            token,
            self.vocabulary,
            scorer=fuzz.ratio,
            score_cutoff=settings.fuzzy_min_ratio,
            limit=None,
        )
        return {hit for hit, _, _ in hits if len(hit) >= settings.fuzzy_min_length}

    def match(self, raw: str) -> Match:
        """Match one raw name (see the module docstring for the rules)."""
        if is_robot(raw):
            return Match(raw, None, "robot", None, None, None)
        if is_handle(raw):
            return Match(raw, None, "handle", None, None, None)
        main = self._main(raw)
        renamed = main != raw
        parts = name_parts(main)
        exact = self.by_key.get(parts.key, [])
        if len(exact) == 1:
            return Match(
                raw,
                exact[0],
                "alternative" if renamed else "exact",
                _score(parts, self.parts[exact[0]], {}, self.settings),
                None,
                None,
            )
        fuzzy_pairs = {
            token: self._close_tokens(token) for token in parts.tokens if token not in self.by_token
        }
        candidates: set[int] = set()
        for token in parts.tokens:
            for form in forms(token):
                candidates |= self.by_token.get(form, set())
            for close in fuzzy_pairs.get(token, ()):
                candidates |= self.by_token.get(close, set())
        for prefix in parts.truncated:
            if len(prefix) >= self.settings.truncated_min_length:
                for token in self.vocabulary:
                    if token.startswith(prefix):
                        candidates |= self.by_token[token]
        scored = sorted(
            ((_score(parts, self.parts[i], fuzzy_pairs, self.settings), i) for i in candidates),
            reverse=True,
        )
        if not scored or scored[0][0][0] == 0:
            return Match(raw, None, "no candidate", None, None, None)
        best_score, best = scored[0]
        runner = scored[1] if len(scored) > 1 and scored[1][0][0] else (None, None)
        surname_only = len(parts.tokens) + len(parts.truncated) == 1 and not parts.initials
        if surname_only:
            # a surname alone says nothing of the given names: every listed player of it is
            # as likely, however many given names each has ("Shen": C.s. or Chih-Kuo)
            alike = [
                i for score, i in scored if (score[0], score[4]) == (best_score[0], best_score[4])
            ]
            if len(alike) > 1:
                return Match(raw, None, "ambiguous", best_score, alike[0], best_score)
        tied = [i for score, i in scored if score == best_score]
        if len(tied) == 1:
            if surname_only and not self.settings.match_surname_only:
                return Match(raw, None, "no candidate", best_score, best, best_score)
            reason = (
                "alternative"
                if renamed
                else "fuzzy-token"
                if best_score[4]
                else "surname only"
                if surname_only
                else "tuple"
            )
            return Match(raw, best, reason, best_score, runner[1], runner[0])
        if best_score[4] == 0:
            # Equal evidence, all of it exact: nothing in the strings can tell them apart.
            return Match(raw, None, "ambiguous", best_score, tied[0], best_score)
        return self._break_tie(raw, main, tied, best_score)

    def _break_tie(self, raw: str, main: str, tied: list[int], score: tuple) -> Match:
        # token_set_ratio scores a name contained in another as 100, so a bare surname
        # shared by several listed players stays a tie, and ambiguous.
        similarity = sorted(
            (
                (fuzz.token_set_ratio(display_key(main), display_key(self.names[i])), i)
                for i in tied
            ),
            reverse=True,
        )
        (first, best), (second, runner) = similarity[0], similarity[1]
        if first - second >= self.settings.tiebreak_margin:
            return Match(raw, best, "fuzzy-tiebreak", score, runner, score)
        return Match(raw, None, "ambiguous", score, best, score)
