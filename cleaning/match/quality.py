"""How well names are resolved, as last measured on the names labelled by hand.

The report's matching section prints these, so a reader knows what to trust; the slow test
that measures them (``tests/cleaning/match/test_labelled_names.py``) requires them to be
today's, so they never drift from what the code does.
"""

from __future__ import annotations

__all__ = ["LABELLED"]

# tests/data/names/: 524 occurrences of 498 distinct strings of the corpus, LIN, Valet and the
# ACBL recaps, half drawn at random, half hard cases (10 more, the team strings of a
# board-a-match recap labelled "not a person", are read as its players since).
LABELLED = {
    "occurrences": 524,
    "strings": 498,
    "wbf_correct": 209,
    "wbf_attributed": 209,
    "wbf_labelled": 221,
    "pairs_correct": 116,
    "pairs_predicted": 116,
    "pairs_true": 128,
    "random_wbf_correct": 92,  # the half drawn at random: its listed players found
    "random_wbf_labelled": 94,
    "non_persons": 8,
    "rated_non_persons": 0,
}
