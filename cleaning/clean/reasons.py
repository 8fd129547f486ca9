"""Reason codes of the cleaning stage, one per way a record can fail.

Levels:

``board``
    The whole record is dropped (the thesis's Table 5).
``auction``
    The auction alone is blanked; the play may still be analysed (Table 6).
``play``
    The play alone is blanked; the auction may still be analysed (Table 7).
``note``
    Nothing is dropped, but a value was unknown or had to be inferred; recorded so that no
    assumption is silent.
``match``
    A team event's table that is not part of a rebuilt team match
    (:mod:`~bridgerank.cleaning.clean.team_matches`); the record may still be a board.

The order of :data:`REASONS` is the order of the checks (the first failing board check is
the one recorded) and the order of the report's tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class Reason(NamedTuple):
    code: str
    level: str
    description: str


REASONS: tuple[Reason, ...] = (
    # board level, in the order they are checked
    Reason("unparseable_record", "board", "The record could not be read from its file."),
    Reason(
        "duplicate_record",
        "board",
        "The same table result (deal, players, auction, play) is already stored.",
    ),
    Reason("all_names_missing", "board", "All names are missing."),
    Reason(
        "fouled_board",
        "board",
        "The board was fouled: tables in different groups played different deals, and the "
        "record does not say which deal its table played.",
    ),
    Reason(
        "not_played",
        "board",
        "The deal was not played at this table: an artificial score (average plus or minus) "
        "or a 'not played' mark stands in for a result.",
    ),
    Reason("missing_deal", "board", "Missing deal."),
    Reason("hand_not_13_cards", "board", "The deal had a hand that did not have 13 cards."),
    Reason(
        "invalid_card",
        "board",
        "A player had an invalid card in the deal, or a card appeared twice.",
    ),
    Reason(
        "contract_mismatch",
        "board",
        "The contract differs from the contract deducible from the auction.",
    ),
    Reason(
        "declarer_mismatch",
        "board",
        "The declarer differs from the declarer deducible from the auction.",
    ),
    Reason("lead_mismatch", "board", "The lead differs from the lead deducible from the declarer."),
    Reason("passed_out_with_play", "board", "The contract is passed out and a play is present."),
    Reason(
        "claim_inconsistent",
        "board",
        "The declarer claimed fewer tricks than already won, or more than there were left.",
    ),
    # auction level
    Reason("auction_missing", "auction", "Missing auction."),
    Reason(
        "auction_no_first_bidder",
        "auction",
        "Neither the dealer nor the first bidder is known, so no bid has a seat.",
    ),
    Reason(
        "auction_bad_passes",
        "auction",
        "Passed out in the middle of the auction, or no three final passes.",
    ),
    Reason("auction_insufficient_bid", "auction", "A contract bid was not higher than the last."),
    Reason(
        "auction_illegal_double",
        "auction",
        "A double of a doubled contract, of partner's contract, or of no contract.",
    ),
    Reason(
        "auction_illegal_redouble",
        "auction",
        "A redouble of an undoubled contract, of the opponents' contract, or repeated.",
    ),
    # play level
    Reason("play_missing", "play", "Missing play, lead or contract."),
    Reason("play_dashes_in_several_tricks", "play", "Dashes appeared in more than one trick."),
    Reason("play_card_not_held", "play", "A card is played twice or the player never had it."),
    Reason("play_revoke", "play", "A player reneged."),
    Reason("play_card_after_dash", "play", "A card is played to a trick after a dash."),
    Reason("play_trick_starts_with_dash", "play", "First card played to a trick is a dash."),
    Reason(
        "play_count_not_multiple_of_4",
        "play",
        "The number of plays, with dashes, is not a multiple of 4.",
    ),
    # notes: nothing dropped
    Reason("vulnerability_unknown", "note", "The vulnerability is missing or unreadable."),
    Reason(
        "vulnerability_from_board",
        "note",
        "The vulnerability was missing and taken from the board number.",
    ),
    Reason("dealer_conflict", "note", "Dealer and first bidder differ; the first bidder is kept."),
    Reason("year_unknown", "note", "No plausible year in the date or the event name."),
    Reason(
        "play_not_recorded",
        "note",
        "The play stops after the opening lead: the lead is judged, the rest was not recorded"
        " (no claim is read into it).",
    ),
    Reason("result_invalid", "note", "The result is missing or not a trick count from 0 to 13."),
    Reason(
        "score_mismatch",
        "note",
        "The score recorded with the board differs from the score of its contract and "
        "result; the contract and result are kept.",
    ),
    # team matches rebuilt from traveller files: why a table is in none
    Reason(
        "match_copy",
        "match",
        "The same table or match (players and every result) is already read: from another "
        "file of the event, with one name written another way, under other board numbers, "
        "or replayed in a later year's file.",
    ),
    Reason(
        "match_board_a_match",
        "match",
        "A board-a-match event: its boards are won or lost, not scored in IMPs.",
    ),
    Reason(
        "match_unknown_player",
        "match",
        "A seat's player is unknown, so the table's teams cannot be told.",
    ),
    Reason("match_no_score", "match", "The table has no contract, result or board to score."),
    Reason(
        "match_same_lineup",
        "match",
        "The same four players are recorded twice for the board (at one table, or at both "
        "tables of the match).",
    ),
    Reason(
        "match_other_table_missing",
        "match",
        "No table of the round seats this table's two teams the other way round: the other "
        "room's record is missing.",
    ),
    Reason(
        "match_ambiguous",
        "match",
        "Two or more tables of the round could be this table's other room, equally well.",
    ),
    Reason(
        "match_board_unpaired",
        "match",
        "The match's other table has no record of this board.",
    ),
)

REASON_BY_CODE: dict[str, Reason] = {reason.code: reason for reason in REASONS}
LEVELS = ("board", "auction", "play", "note", "match")


def reasons_of_level(level: str) -> tuple[Reason, ...]:
    """The reasons of one level, in check order."""
    return tuple(reason for reason in REASONS if reason.level == level)


class ReasonCount(NamedTuple):
    """A reason's code, its description and how many records it affected."""

    code: str
    description: str
    tally: int


def reason_counts(level: str, counts: Mapping[str, int]) -> list[ReasonCount]:
    """Every reason of ``level`` in check order with its count in ``counts`` (zeros too).

    Parameters
    ----------
    level : {"board", "auction", "play", "note", "match"}
    counts : mapping of str to int
        Records excluded or noted, by reason code.

    Returns
    -------
    list of ReasonCount
    """
    return [
        ReasonCount(reason.code, reason.description, int(counts.get(reason.code, 0)))
        for reason in reasons_of_level(level)
    ]
