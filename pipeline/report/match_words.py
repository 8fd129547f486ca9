"""The name matcher's verdicts in words, for a reader who has not read the matcher: each
reason of ``name_matches`` and the evidence of its score."""

from __future__ import annotations

from typing import Any

__all__ = ["MATCH_REASONS", "score_words"]

# Each reason of ``name_matches``, for a reader who has not read the matcher.
MATCH_REASONS = {
    "exact": "every part of the name equals a WBF name",
    "alternative": "a known other name of the player (alternative names list)",
    "tuple": "the WBF name sharing the most name parts and initials, and no other as many",
    "surname only": "a bare surname that one listed player alone has",
    "fuzzy-token": "a part of the name matched by its spelling (a typing variant)",
    "fuzzy-tiebreak": "two WBF names fit equally; the closer spelling won by a clear margin",
    "ambiguous": "two or more WBF names fit equally well: not matched",
    "no candidate": "no WBF name fits: not matched",
    "handle": "an online handle, not a name: not matched",
    "robot": "a robot player: never rated",
    "fuller form in event": "a short name (a surname, initials) whose one fuller form in the "
    "same event agrees with it",
    "partnership": "a short name whose partner here partnered a player of that name elsewhere",
    "surname only, country agrees": "a surname one listed player has, of the country the "
    "event's teams, partners or listed players say",
    "surname only, no namesake": "a surname one listed player has, and no one else was seen "
    "under a full name with it",
    "tuple, country agrees": "a surname and initials one listed player fits, of the country "
    "the event says",
    "short name, no context": "a short name nothing in its event ties to one person: a player "
    "of that event alone",
    "several names": "a team or a pair in one name field: no one person, never rated",
    "placeholder": "a seat word or a stand-in (North, ?): no one, never rated",
    "empty": "no name: no one, never rated",
}


def score_words(score: Any) -> str:
    """The matcher's score tuple as words: parts and initials matched and left over."""
    if not isinstance(score, str) or not score:
        return ""
    values = [int(value) for value in score.split(",")]
    words = [f"{values[0]} name part{'s' if values[0] != 1 else ''} matched"]
    if len(values) > 1 and values[1]:
        words.append(f"{values[1]} initial{'s' if values[1] != 1 else ''}")
    if len(values) > 2 and values[2]:
        words.append(f"{-values[2]} WBF part{'s' if values[2] != -1 else ''} left over")
    if len(values) > 4 and values[4]:
        words.append(f"{values[4]} by spelling")
    if len(values) > 5 and values[5]:
        words.append(f"{values[5]} as a nickname")
    return ", ".join(words)
