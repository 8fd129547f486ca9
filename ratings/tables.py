"""The rate stage's tables."""

from __future__ import annotations

from sqlalchemy import Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.core.store import Base


class Rating(Base):
    """A player's rating by one method (log-strength for the BT family, share for win rate)."""

    __tablename__ = "ratings"
    player: Mapped[str] = mapped_column(Text, primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    low: Mapped[float | None] = mapped_column(Float)  # bootstrap interval, where computed
    high: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatingValidation(Base):
    """How well a method fitted on the earliest games predicts the rest."""

    __tablename__ = "rating_validation"
    task: Mapped[str] = mapped_column(Text, primary_key=True)
    method: Mapped[str] = mapped_column(String(16), primary_key=True)
    log_loss: Mapped[float | None] = mapped_column(Float)
    accuracy: Mapped[float | None] = mapped_column(Float)  # on decided games
    test_games: Mapped[int] = mapped_column(Integer)


class RatingHistory(Base):
    """A player's rating after each of the games (pair rankings) they played (Elo methods)."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    method: Mapped[str] = mapped_column(String(16))
    player: Mapped[str] = mapped_column(Text)
    game: Mapped[int] = mapped_column(Integer)  # the game's number in the replay
    rating: Mapped[float] = mapped_column(Float)
