"""The dds stage's tables: dd tables, verdicts per card and auction, counters and rates."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.core.store import Base, exported
from bridgerank.dds.counters import COUNTERS, OPPORTUNITIES, RATES


class StoredDDTable(Base):
    """One double dummy table per distinct deal, reused by every board and every run."""

    __tablename__ = "dd_tables"
    deal_hash: Mapped[str] = mapped_column(String(16), primary_key=True)
    # 20 hex digits: strains S H D C N, each for North East South West; NULL if unsolved.
    tricks: Mapped[str | None] = mapped_column(String(20))
    error: Mapped[str | None] = mapped_column(Text)


def _board_key() -> ForeignKey:
    """The key to a board, whose rows here go with it."""
    return ForeignKey("boards.id", ondelete="CASCADE")


class BoardAnalysis(Base):
    """Which boards the dds stage has done, with what input, and how it went."""

    __tablename__ = "board_analysis"
    board_id: Mapped[int] = mapped_column(_board_key(), primary_key=True)
    digest: Mapped[str] = mapped_column(String(16))  # of the board fields and analysis code
    status: Mapped[str] = mapped_column(String(8))  # ok | skipped | failed
    reason: Mapped[str] = mapped_column(Text)
    has_play: Mapped[bool] = mapped_column(Boolean)
    has_auction: Mapped[bool] = mapped_column(Boolean)


@exported
class CardAnalysis(Base):
    """One row per card played: the double dummy verdict on it."""

    __tablename__ = "card_analysis"
    board_id: Mapped[int] = mapped_column(_board_key(), primary_key=True)
    card_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1))
    role: Mapped[str] = mapped_column(String(8))  # lead | declarer | dummy | defender
    card: Mapped[str] = mapped_column(String(2))
    dd_before: Mapped[int] = mapped_column(Integer)  # declarer side's tricks before the card
    dd_after: Mapped[int] = mapped_column(Integer)
    cost_tricks: Mapped[int] = mapped_column(Integer)  # tricks the card gave away (>= 0)
    cost_points: Mapped[int] = mapped_column(Integer)  # points it gave away, contract as bid


@exported
class AuctionAnalysis(Base):
    """Per board and side: the best alternatives the auction left open, and the verdict."""

    __tablename__ = "auction_analysis"
    board_id: Mapped[int] = mapped_column(_board_key(), primary_key=True)
    side: Mapped[str] = mapped_column(String(2), primary_key=True)  # NS | EW
    role: Mapped[str] = mapped_column(String(10))  # passed | declaring | defending
    actual_score: Mapped[int] = mapped_column(Integer)  # side's score, double dummy tricks
    alternatives: Mapped[str] = mapped_column(Text)  # JSON: mistake type -> best score
    mistake_types: Mapped[str] = mapped_column(Text)  # the type(s) of the mistake, tie = several
    mistake: Mapped[int] = mapped_column(Integer)
    weight: Mapped[int] = mapped_column(Integer)  # score given away


@exported
class CallAnalysis(Base):
    """One row per call of an analysed auction (:mod:`dds.call_values`): the contract
    standing after it at double dummy, the par of the auction before and after it, and the
    mistake it made, if any."""

    __tablename__ = "call_analysis"
    board_id: Mapped[int] = mapped_column(_board_key(), primary_key=True)
    call_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1))
    call: Mapped[str] = mapped_column(String(2))
    ns_dd_score: Mapped[int] = mapped_column(Integer)  # the standing contract, dd tricks
    # North-South's par of the auction before the call (the best call's) and after it
    par_before: Mapped[int | None] = mapped_column(Integer)
    par_after: Mapped[int | None] = mapped_column(Integer)
    mistake_types: Mapped[str] = mapped_column(Text)  # the thesis type; empty: not a mistake
    alternative: Mapped[str | None] = mapped_column(String(2))  # the better call
    alternative_declarer: Mapped[str | None] = mapped_column(String(1))  # for a bid
    alternative_score: Mapped[int | None] = mapped_column(Integer)  # side's par after it
    actual_score: Mapped[int | None] = mapped_column(Integer)  # side's par after the call
    cost: Mapped[float] = mapped_column(Float)  # points a mistake gave away (0: none)
    cost_imps: Mapped[int | None] = mapped_column(Integer)  # the same in IMPs
    # the share of a top it gave away against the field (matchpointed boards with one)
    cost_mp: Mapped[float | None] = mapped_column(Float)


@exported
class TableEvidence(Base):
    """Per board with a result: its play and contract against double dummy
    (:mod:`dds.table_evidence`). Scores and IMPs are North-South's."""

    __tablename__ = "table_evidence"
    board_id: Mapped[int] = mapped_column(_board_key(), primary_key=True)
    declarer: Mapped[str] = mapped_column(String(1))  # empty when passed out
    dd_tricks: Mapped[int | None] = mapped_column(Integer)  # declarer's, in the strain
    tricks_vs_dd: Mapped[int | None] = mapped_column(Integer)  # taken minus dd_tricks
    play_imps: Mapped[int | None] = mapped_column(Integer)  # score made vs contract's dd score
    ns_dd_score: Mapped[int] = mapped_column(Integer)  # the contract at dd_tricks
    ns_par: Mapped[int | None] = mapped_column(Integer)  # None: dealer unknown
    bidding_imps: Mapped[int | None] = mapped_column(Integer)  # ns_dd_score vs ns_par
    lead_cost: Mapped[int | None] = mapped_column(Integer)  # tricks, when the play is known
    # of the leader's 13 cards, how many are a double dummy best lead (when all were valued)
    lead_best_cards: Mapped[int | None] = mapped_column(Integer)


class SeatStats(Base):
    """The 33 counters each seat earned on one board (summed into ``player_stats``)."""

    __tablename__ = "seat_stats"
    board_id: Mapped[int] = mapped_column(_board_key(), primary_key=True)
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)


@exported
class PlayerStats(Base):
    """The thesis's 33 counters per player (Table 3)."""

    __tablename__ = "player_stats"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    # players.id when the match stage ran; no foreign key: a snapshot the dds stage rewrites
    player_id: Mapped[int | None] = mapped_column(Integer)
    boards: Mapped[int] = mapped_column(Integer)


@exported
class PlayerRates(Base):
    """The thesis's 28 rates per player (Table 4): each mistake counter per opportunity."""

    __tablename__ = "player_rates"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(Integer)


def _add_counter_columns() -> None:
    # One column per counter and rate of dds.counters: the schema follows the thesis's tables.
    for cls in (SeatStats, PlayerStats):
        for name in COUNTERS:
            setattr(cls, name, mapped_column(name, Float, nullable=False, default=0))
    for name in OPPORTUNITIES:
        setattr(PlayerRates, name, mapped_column(name, Float, nullable=False, default=0))
    for name in RATES:
        setattr(PlayerRates, name, mapped_column(name, Float, nullable=True))


_add_counter_columns()
