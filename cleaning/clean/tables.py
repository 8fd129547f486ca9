"""The clean stage's tables: clean boards, exclusions and token counts."""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.core.store import Base, exported


@exported
class Board(Base):
    """A clean board (thesis Table 2 and more). ``id`` is the raw record's id."""

    __tablename__ = "boards"
    id: Mapped[int] = mapped_column(ForeignKey("raw_boards.id"), primary_key=True)
    board_key: Mapped[str] = mapped_column(String(16), unique=True)
    deal_hash: Mapped[str] = mapped_column(String(16), index=True)
    event: Mapped[str] = mapped_column(Text)
    site: Mapped[str] = mapped_column(Text)
    date: Mapped[str] = mapped_column(Text)
    year: Mapped[int | None] = mapped_column(Integer)
    board_no: Mapped[int | None] = mapped_column(Integer)
    room: Mapped[str] = mapped_column(Text)
    home_team: Mapped[str] = mapped_column(Text)
    visit_team: Mapped[str] = mapped_column(Text)
    scoring: Mapped[str] = mapped_column(Text)
    north: Mapped[str] = mapped_column(Text)
    east: Mapped[str] = mapped_column(Text)
    south: Mapped[str] = mapped_column(Text)
    west: Mapped[str] = mapped_column(Text)
    deal: Mapped[str] = mapped_column(Text)
    ns_vulnerable: Mapped[bool | None] = mapped_column(Boolean)
    ew_vulnerable: Mapped[bool | None] = mapped_column(Boolean)
    bidstart: Mapped[str] = mapped_column(String(1))
    auction: Mapped[str] = mapped_column(Text)  # canonical calls, "" when blanked
    contract: Mapped[str] = mapped_column(String(4))  # LS[X|R], P, or ""
    declarer: Mapped[str] = mapped_column(String(1))  # N E S W, P, or ""
    lead: Mapped[str] = mapped_column(String(1))
    play: Mapped[str] = mapped_column(Text)  # cards in playing order, "" when blanked
    play_order: Mapped[str] = mapped_column(Text)  # seat letter of each card
    claim: Mapped[int | None] = mapped_column(Integer)  # declarer side's tricks after a claim
    result: Mapped[int | None] = mapped_column(Integer)
    # each pair's entry, known before play (:mod:`~bridgerank.cleaning.ingest.recap_entry`)
    ns_entry: Mapped[str] = mapped_column(String(24), default="")
    ew_entry: Mapped[str] = mapped_column(String(24), default="")


@exported
class Exclusion(Base):
    """Why a record, or its auction or play, was dropped; also notes on inferred values."""

    __tablename__ = "exclusions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    raw_id: Mapped[int] = mapped_column(ForeignKey("raw_boards.id"), index=True)
    level: Mapped[str] = mapped_column(String(8))  # board | auction | play | note
    reason: Mapped[str] = mapped_column(String(40), index=True)
    detail: Mapped[str] = mapped_column(Text)


class TeamMatchRow(Base):
    """A team match rebuilt from traveller records (:mod:`~bridgerank.cleaning.clean.
    team_matches`): two tables of one round, team A North-South at the open table and
    East-West at the closed one; its first board's line-ups (each board's are in
    ``match_boards``) and team A's IMPs."""

    __tablename__ = "team_matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event: Mapped[str] = mapped_column(Text, index=True)
    round: Mapped[str] = mapped_column(Text)
    year: Mapped[int | None] = mapped_column(Integer)
    boards: Mapped[int] = mapped_column(Integer)
    margin: Mapped[int] = mapped_column(Integer)  # team A's IMPs
    open_north: Mapped[str] = mapped_column(Text)
    open_east: Mapped[str] = mapped_column(Text)
    open_south: Mapped[str] = mapped_column(Text)
    open_west: Mapped[str] = mapped_column(Text)
    closed_north: Mapped[str] = mapped_column(Text)
    closed_east: Mapped[str] = mapped_column(Text)
    closed_south: Mapped[str] = mapped_column(Text)
    closed_west: Mapped[str] = mapped_column(Text)


class MatchBoardRow(Base):
    """A board of a team match: both tables' records, line-ups and North-South scores, and
    team A's IMPs (the open table's score less the closed table's, on the IMP scale)."""

    __tablename__ = "match_boards"
    match_id: Mapped[int] = mapped_column(ForeignKey("team_matches.id"), primary_key=True)
    board_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    open_id: Mapped[int] = mapped_column(ForeignKey("raw_boards.id"))
    closed_id: Mapped[int] = mapped_column(ForeignKey("raw_boards.id"))
    open_north: Mapped[str] = mapped_column(Text)
    open_east: Mapped[str] = mapped_column(Text)
    open_south: Mapped[str] = mapped_column(Text)
    open_west: Mapped[str] = mapped_column(Text)
    closed_north: Mapped[str] = mapped_column(Text)
    closed_east: Mapped[str] = mapped_column(Text)
    closed_south: Mapped[str] = mapped_column(Text)
    closed_west: Mapped[str] = mapped_column(Text)
    open_score: Mapped[int] = mapped_column(Integer)  # North-South's
    closed_score: Mapped[int] = mapped_column(Integer)
    imps: Mapped[int] = mapped_column(Integer)  # team A's


@exported
class TokenCount(Base):
    """Every raw call and card token seen, with what cleaning made of it."""

    __tablename__ = "token_counts"
    kind: Mapped[str] = mapped_column(String(4), primary_key=True)  # call | card
    token: Mapped[str] = mapped_column(Text, primary_key=True)
    status: Mapped[str] = mapped_column(String(10))  # valid | normalised | ignored
    count: Mapped[int] = mapped_column(Integer)


Index("ix_exclusions_level_reason", Exclusion.level, Exclusion.reason)
