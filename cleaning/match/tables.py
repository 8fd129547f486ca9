"""The match stage's tables: the WBF lists, players and the audit trail of name matching."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.core.store import Base, exported


@exported
class WbfPlayer(Base):
    """One player of the WBF ranking lists the match stage read."""

    __tablename__ = "wbf_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    country: Mapped[str] = mapped_column(Text)
    mp: Mapped[float | None] = mapped_column(Float)  # open masterpoints
    pp: Mapped[float | None] = mapped_column(Float)  # open placing points
    source: Mapped[str] = mapped_column(Text)  # file and line
    code: Mapped[str | None] = mapped_column(String(16))  # WBF player code, where known


# The kinds of person (``players.kind``) that are no one to rate: a program, a field that
# names no one person.
UNRATED_KINDS = frozenset({"robot", "nobody"})


@exported
class Player(Base):
    """One distinct person: a WBF player when matched, else the normalised raw name."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    # wbf | raw | handle | robot | nobody (a field that is no person: a team string, a
    # placeholder); robots and nobodies are never rated
    kind: Mapped[str] = mapped_column(String(16))
    wbf_id: Mapped[int | None] = mapped_column(ForeignKey("wbf_players.id"), unique=True)
    seats: Mapped[int] = mapped_column(Integer)  # board-seats played under any matched name


@exported
class NameMatch(Base):
    """The audit trail of name resolution: one row per raw name and event of ``boards`` (a
    surname means whoever it meant in its event; :mod:`cleaning.match.persons`)."""

    __tablename__ = "name_matches"
    raw_name: Mapped[str] = mapped_column(Text, primary_key=True)
    event: Mapped[str] = mapped_column(Text, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    wbf_id: Mapped[int | None] = mapped_column(ForeignKey("wbf_players.id"))
    # the matcher's (exact | alternative | tuple | surname only | fuzzy-token | fuzzy-tiebreak
    # | ambiguous | no candidate | handle), or the context's (fuller form in event |
    # partnership | ... country agrees | short name, no context), or the field's kind
    # (robot | several names | placeholder | empty)
    reason: Mapped[str] = mapped_column(String(40), index=True)
    score: Mapped[str | None] = mapped_column(Text)  # the score tuple, as text
    runner_up: Mapped[str | None] = mapped_column(Text)  # best other WBF name
    runner_up_score: Mapped[str | None] = mapped_column(Text)
    seats: Mapped[int] = mapped_column(Integer)  # board-seats with this raw name


class SeatPerson(Base):
    """Who a raw name in its event is, as every later stage reads a seat: the person's id
    and name, ``""`` for no one to rate (a robot, a field that names no one person). The
    match stage writes it beside its audit trail, so that no reader applies the rule again."""

    __tablename__ = "seat_persons"
    raw_name: Mapped[str] = mapped_column(Text, primary_key=True)
    event: Mapped[str] = mapped_column(Text, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    person: Mapped[str] = mapped_column(Text)
