"""The regress stage's tables: every model, step and check of the study, the chosen model
and the ranking it implies. All are replaced whole by each run."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bridgerank.core.store import Base, exported
from bridgerank.dds.counters import OPPORTUNITIES


class _StudyRow:
    """Columns naming the dataset a row belongs to: response x weighting."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    response: Mapped[str | None] = mapped_column(String(16))
    weighting: Mapped[str | None] = mapped_column(String(16))


@exported
class RegressionModel(_StudyRow, Base):
    """One selected model per dataset and method (or a note on why there is none)."""

    __tablename__ = "regression_models"
    method: Mapped[str | None] = mapped_column(String(16))
    n: Mapped[int] = mapped_column(Integer)
    variables: Mapped[str | None] = mapped_column(Text)
    r2: Mapped[float | None] = mapped_column(Float)
    adj_r2: Mapped[float | None] = mapped_column(Float)
    model_p_value: Mapped[float | None] = mapped_column(Float)
    cv_r2: Mapped[float | None] = mapped_column(Float)
    respects_domain: Mapped[bool | None] = mapped_column(Boolean)
    positive_coefficients: Mapped[str | None] = mapped_column(Text)
    chosen: Mapped[bool | None] = mapped_column(Boolean)
    log_adj_r2: Mapped[float | None] = mapped_column(Float)
    note: Mapped[str | None] = mapped_column(Text)


@exported
class RegressionCoefficient(_StudyRow, Base):
    """A coefficient of a selected model, with its plain and HC3 p-values."""

    __tablename__ = "regression_coefficients"
    method: Mapped[str] = mapped_column(String(16))
    variable: Mapped[str] = mapped_column(Text)
    coefficient: Mapped[float] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)
    hc3_p_value: Mapped[float | None] = mapped_column(Float)
    log_coefficient: Mapped[float | None] = mapped_column(Float)
    log_p_value: Mapped[float | None] = mapped_column(Float)


@exported
class RegressionStep(_StudyRow, Base):
    """A step of forward, backward or stepwise selection."""

    __tablename__ = "regression_steps"
    method: Mapped[str] = mapped_column(String(16))
    step: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(8))
    variable: Mapped[str] = mapped_column(Text)
    f_value: Mapped[float | None] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)


@exported
class RegressionVif(_StudyRow, Base):
    """A predictor's VIF in one round of the screen."""

    __tablename__ = "regression_vif"
    round: Mapped[int] = mapped_column(Integer)
    variable: Mapped[str] = mapped_column(Text)
    vif: Mapped[float | None] = mapped_column(Float)
    dropped: Mapped[bool] = mapped_column(Boolean)


@exported
class RegressionBootstrap(_StudyRow, Base):
    """How often a variable was selected over bootstrap resamples."""

    __tablename__ = "regression_bootstrap"
    method: Mapped[str] = mapped_column(String(16))
    variable: Mapped[str] = mapped_column(Text)
    frequency: Mapped[float] = mapped_column(Float)


@exported
class RegressionDiagnostic(Base):
    """A formal test of the chosen model (Breusch-Pagan, Shapiro-Wilk)."""

    __tablename__ = "regression_diagnostics"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    statistic: Mapped[float | None] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)
    verdict: Mapped[str] = mapped_column(Text)


@exported
class RegressionSweep(_StudyRow, Base):
    """Players kept and the best adjusted R² when the thresholds are scaled by ``factor``."""

    __tablename__ = "regression_sweep"
    factor: Mapped[float] = mapped_column(Float)
    players: Mapped[int] = mapped_column(Integer)
    best_adj_r2: Mapped[float | None] = mapped_column(Float)


for _name in OPPORTUNITIES:  # the scaled threshold of each opportunity count
    setattr(RegressionSweep, _name, mapped_column(_name, Float, nullable=True))


class RegressionPlot(Base):
    """A diagnostic plot of the chosen model, as base64 PNG."""

    __tablename__ = "regression_plots"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    png_base64: Mapped[str] = mapped_column(Text)


@exported
class ChosenModel(Base):
    """The model the explicit rule chose, with its coefficients as JSON."""

    __tablename__ = "chosen_model"
    model: Mapped[str] = mapped_column(Text, primary_key=True)
    response: Mapped[str] = mapped_column(String(16))
    variables: Mapped[str] = mapped_column(Text)
    adj_r2: Mapped[float] = mapped_column(Float)
    cv_r2: Mapped[float | None] = mapped_column(Float)
    coefficients: Mapped[str] = mapped_column(Text)  # JSON: variable -> coefficient


@exported
class ModelRanking(Base):
    """Players ranked by what the chosen model predicts, beside their actual response."""

    __tablename__ = "rankings"
    rank: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(Text)
    predicted: Mapped[float] = mapped_column(Float)
    actual: Mapped[float | None] = mapped_column(Float)


REGRESSION_TABLES: tuple[type[Base], ...] = (
    RegressionModel,
    RegressionCoefficient,
    RegressionStep,
    RegressionVif,
    RegressionBootstrap,
    RegressionDiagnostic,
    RegressionSweep,
    RegressionPlot,
    ChosenModel,
    ModelRanking,
)
