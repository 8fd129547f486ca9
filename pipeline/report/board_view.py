"""What a board page shows, from a board's row and its double dummy verdicts: the four hands,
the auction in dealer order with the double dummy value after every call, the calls that gave
points away and each side's verdict, and the play trick by trick with the double dummy value
after every card, and what the record says of itself (alerts, notes, commentary). Pure
functions of plain rows: the site builder reads the database, these arrange what it read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from bridgerank.bridge.cards import RANKS, SEATS, SUIT_SYMBOLS, SUITS, parse_deal
from bridgerank.core.errors import BadRecord
from bridgerank.pipeline.report.glossary import mistake_words
from bridgerank.pipeline.report.record_notes import Comment, call_notes, commentary

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
# The auction is drawn in columns West, North, East, South, as bridge books print it.
AUCTION_COLUMNS = "WNES"


@dataclass
class Hand:
    """One seat's cards as four suit lines (ranks high to low)."""

    seat: str
    suits: list[tuple[str, str]]  # (suit symbol, ranks) in S, H, D, C order


@dataclass
class PlayedCard:
    """One card of the play with its double dummy verdict (None where not analysed)."""

    seat: str
    card: str
    dd_after: int | None = None
    cost_tricks: int = 0
    wins: bool = False


@dataclass
class AuctionCall:
    """One call as the auction grid draws it: North-South's double dummy score of the
    contract standing after it, and, when it gave points away, the verdict in words (None
    where the dds stage has not analysed the auction)."""

    number: int  # 1 for the first call
    seat: str
    text: str
    ns_dd_score: int | None = None
    mistake: str | None = None
    cost: float = 0.0
    note: str | None = None  # the record's alert or explanation of the call
    note_mark: str = ""  # its letter on the page (a, b, ...)


@dataclass
class BoardView:
    """Everything a board page draws."""

    auction_rows: list[list[AuctionCall | None]]
    verdicts: list[dict[str, Any]]
    tricks: list[list[PlayedCard]] = field(default_factory=list)
    costly: int = 0
    claim: str | None = None
    commentary: list[Comment] = field(default_factory=list)

    @property
    def auction_analysed(self) -> bool:
        """Whether the calls carry double dummy readings."""
        return any(
            c is not None and c.ns_dd_score is not None for row in self.auction_rows for c in row
        )

    @property
    def costly_calls(self) -> list[AuctionCall]:
        """The calls that gave points away, in auction order."""
        return [c for row in self.auction_rows for c in row if c is not None and c.mistake]

    @property
    def noted_calls(self) -> list[AuctionCall]:
        """The calls the record alerts or explains, in auction order."""
        return [c for row in self.auction_rows for c in row if c is not None and c.note]


def show_card(card: str) -> str:
    """``"SA"`` as ``"♠A"`` (ten as 10)."""
    rank = "10" if card[1:] == "T" else card[1:]
    return SUIT_SYMBOLS.get(card[:1], card[:1]) + rank


def hands_of(deal_text: str | None) -> list[Hand]:
    """The four hands of a deal (empty when the deal cannot be read)."""
    try:
        deal = parse_deal(deal_text)
    except BadRecord:
        return []
    hands = []
    for index, seat in enumerate(SEATS):
        cards = deal[index]
        suits = [
            (
                SUIT_SYMBOLS[suit],
                " ".join("10" if rank == "T" else rank for rank in RANKS if suit + rank in cards)
                or "\u2014",
            )
            for suit in SUITS
        ]
        hands.append(Hand(seat, suits))
    return hands


def auction_rows(
    auction: str | None,
    dealer: str | None,
    analysed: Sequence[Mapping[str, Any]] = (),
    notes: Mapping[int, str] | None = None,
) -> list[list[AuctionCall | None]]:
    """The calls in rows of four under West, North, East, South, starting at the dealer's
    column (the seats before the dealer left empty), each with its ``call_analysis`` row's
    reading where there is one and the record's note of it (``notes``: call index -> words;
    lettered a, b, ... in auction order)."""
    calls = (auction or "").split()
    if not calls or not dealer or dealer not in AUCTION_COLUMNS:
        return []
    by_index = {int(row["call_index"]): row for row in analysed}
    start = AUCTION_COLUMNS.index(dealer)
    cells: list[AuctionCall | None] = [None] * start
    for index, call in enumerate(calls):
        seat = AUCTION_COLUMNS[(start + index) % 4]
        cell = AuctionCall(index + 1, seat, _show_call(call))
        if notes and index in notes:
            cell.note = notes[index]
            cell.note_mark = _note_mark(sum(1 for i in notes if i < index))
        row = by_index.get(index)
        if row is not None:
            cell.ns_dd_score = int(row["ns_dd_score"])
            cell.cost = float(row.get("cost") or 0)
            if row.get("mistake_types"):
                cell.mistake = call_mistake_words(cell, row)
        cells.append(cell)
    return [cells[first : first + 4] for first in range(0, len(cells), 4)]


def _note_mark(number: int) -> str:
    """The letter of the ``number``-th note from 0: a ... z, then aa, ab ..."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[number] if number < 26 else _note_mark(number // 26 - 1) + letters[number % 26]


def signed_score(value: int) -> str:
    """A score with its sign (``+420``, ``-50``), and nothing to sign at zero (``0``)."""
    return f"{value:+d}" if value else "0"


def call_mistake_words(cell: AuctionCall, row: Mapping[str, Any]) -> str:
    """A call's mistake in a sentence: what it was, the better call, the par of the auction
    after each for the side (both sides free to bid on), and what was given away."""
    side = "N-S" if cell.seat in "NS" else "E-W"
    what = mistake_words(row["mistake_types"])
    better = _show_call(row["alternative"] or "")
    declarer = row.get("alternative_declarer")
    if isinstance(declarer, str) and declarer:  # a frame's missing value is NaN, not None
        better += f" by {SEAT_NAMES.get(declarer, declarer)}"
    given = f"{cell.cost:g} points"
    share = row.get("cost_mp")
    imps = row.get("cost_imps")
    if share is not None and share == share:  # a matchpointed board with a field
        given += f" ({share:.0%} of a top against the field)"
    elif imps is not None and imps == imps:  # NaN: a database analysed before IMPs were kept
        given += f" ({int(imps)} IMP{'s' if int(imps) != 1 else ''})"
    return (
        f"{SEAT_NAMES.get(cell.seat, cell.seat)}'s {cell.text} (call {cell.number}): {what}. "
        f"After {better} the par was {signed_score(int(row['alternative_score']))} "
        f"for {side}, after {cell.text} {signed_score(int(row['actual_score']))}: "
        f"{given} given away."
    )


def _show_call(call: str) -> str:
    names = {"P": "Pass", "X": "Dbl", "R": "Rdbl", "XX": "Rdbl"}
    if call in names:
        return names[call]
    if len(call) >= 2 and call[1] in SUIT_SYMBOLS:
        return call[0] + SUIT_SYMBOLS[call[1]]
    return call.replace("N", "NT") if len(call) == 2 and call[1] == "N" else call


def side_verdicts(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each side's auction verdict in words: its role, the double dummy score of the
    contract reached, the mistake (if any) and the best alternative of that kind."""
    verdicts = []
    for row in rows:
        alternatives = json.loads(row.get("alternatives") or "{}")
        kinds = [kind for kind in (row.get("mistake_types") or "").split(",") if kind]
        best = max(alternatives.items(), key=lambda item: item[1], default=None)
        verdicts.append(
            {
                "side": row["side"],
                "role": row["role"],
                "score": row["actual_score"],
                "mistake": bool(row.get("mistake")),
                "kinds": [kind.replace("_", " ") for kind in kinds],
                "cost": row.get("weight") or 0,
                "best": None if best is None else (best[0].replace("_", " "), best[1]),
            }
        )
    return verdicts


def claim_words(claim: Any, cards: Sequence[Mapping[str, Any]]) -> str | None:
    """A claim judged as the dds stage judges it, in a sentence: the tricks claimed against
    what double dummy gives declarer's side after the last card played (None: no claim
    before the last trick, or the play not analysed)."""
    if claim is None or claim != claim or not cards or len(cards) >= 52:  # NaN: no claim
        return None
    claimed = int(claim)
    last = int(max(cards, key=lambda row: row["card_index"])["dd_after"])
    said = f"Declarer claimed {claimed} trick{'s' if claimed != 1 else ''} after {len(cards)} cards"
    if claimed == last:
        return f"{said}: exactly what double dummy gives from there."
    if claimed > last:
        return (
            f"{said}; with the best defence from there declarer's side takes {last}: "
            f"the defenders conceded {claimed - last} too many."
        )
    return f"{said}; double dummy takes {last} from there: declarer gave away {last - claimed}."


def tricks_of(
    play: str | None, order: str | None, cards: Sequence[Mapping[str, Any]], trump: str = ""
) -> list[list[PlayedCard]]:
    """The play in tricks of four, each card with its analysis where the dds stage left one
    and each complete trick's winner marked. ``play`` is the cards in playing order
    (``"SK S5 ..."``), ``order`` their seats (``"SWNE..."``), ``trump`` the trump suit
    (empty: no trumps)."""
    played_cards, seats = (play or "").split(), order or ""
    analysed = {row["card_index"]: row for row in cards}
    played: list[PlayedCard] = []
    for index in range(min(len(played_cards), len(seats))):
        row = analysed.get(index, {})
        played.append(
            PlayedCard(
                seats[index],
                played_cards[index],
                row.get("dd_after"),
                int(row.get("cost_tricks") or 0),
            )
        )
    tricks = [played[start : start + 4] for start in range(0, len(played), 4)]
    for trick in tricks:
        if len(trick) == 4:
            _winner(trick, trump).wins = True
    return tricks


def _winner(trick: list[PlayedCard], trump: str) -> PlayedCard:
    """The card that takes a complete trick: the highest trump, else the highest card of
    the suit led."""
    suit = trump if any(card.card[0] == trump for card in trick) else trick[0].card[0]
    return min(
        (card for card in trick if card.card[0] == suit), key=lambda c: RANKS.index(c.card[1])
    )


def board_view(
    board: Mapping[str, Any],
    cards: Sequence[Mapping[str, Any]],
    auctions: Sequence[Mapping[str, Any]],
    calls: Sequence[Mapping[str, Any]] = (),
) -> BoardView:
    """What the page of ``board`` shows (see the module docstring)."""
    contract = board.get("contract") or ""
    trump = contract[1] if len(contract) >= 2 and contract[1] in SUITS else ""
    tricks = tricks_of(board.get("play"), board.get("play_order"), cards, trump)
    return BoardView(
        auction_rows=auction_rows(
            board.get("auction"), board.get("bidstart"), calls, call_notes(board)
        ),
        verdicts=side_verdicts(auctions),
        tricks=tricks,
        costly=sum(1 for trick in tricks for card in trick if card.cost_tricks > 0),
        claim=claim_words(board.get("claim"), cards),
        commentary=commentary(board),
    )
