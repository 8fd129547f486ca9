"""The ``regress`` stage (the same study on files a user already has is
:func:`bridgerank.regression.study.regress_files`).

In the pipeline the rates are ``player_rates`` (dds stage) and the responses the matched
players' WBF open masterpoints ``mp`` and placing points ``pp`` (match stage) and the rated
players' headline rating ``headline`` (rate stage: strength measured from results); players below
the opportunity thresholds (thesis Table 9, configurable) are left out, and a sweep over
scaled thresholds shows what the choice costs. All result tables are replaced in the stage's
last transaction, with its ledger row (:meth:`~bridgerank.core.stage.StageContext.finish`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from bridgerank.cleaning.match.tables import Player, WbfPlayer
from bridgerank.core.stage import Stage, StageContext
from bridgerank.core.store import Base
from bridgerank.dds.tables import PlayerRates
from bridgerank.ratings.tables import HeadlineRating
from bridgerank.regression.summary import RegressSummary
from bridgerank.regression.tables import REGRESSION_TABLES

# Every response the pipeline offers (the settings choose among them).
RESPONSES = ("mp", "pp", "headline")

if TYPE_CHECKING:  # pandas and statsmodels are imported where used: the CLI starts fast
    import pandas as pd


def pipeline_data(conn) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rates per player, and the responses of those that have any: the WBF points of the
    matched ones, the headline rating of the rated ones (NaN where a player has none)."""
    import pandas as pd

    rates = pd.DataFrame(conn.execute(select(PlayerRates.__table__)).mappings().all())
    if rates.empty:
        return rates, pd.DataFrame(columns=list(RESPONSES))
    rates = rates.set_index("player")
    points = pd.DataFrame(
        conn.execute(
            select(PlayerRates.player, WbfPlayer.mp, WbfPlayer.pp)
            .join(Player, Player.id == PlayerRates.player_id)
            .join(WbfPlayer, WbfPlayer.id == Player.wbf_id)
        )
        .mappings()
        .all(),
        columns=["player", "mp", "pp"],
    ).set_index("player")
    headline = pd.DataFrame(
        conn.execute(
            select(HeadlineRating.player, HeadlineRating.rating.label("headline")).where(
                HeadlineRating.player.in_(select(PlayerRates.player))
            )
        )
        .mappings()
        .all(),
        columns=["player", "headline"],
    ).set_index("player")
    responses = points.join(headline, how="outer")
    return rates.drop(columns=["player_id"]), responses[list(RESPONSES)]


def _rows(frames: dict[str, pd.DataFrame]) -> dict[type[Base], list[dict[str, Any]]]:
    """The rows of every result table (missing values as None); a table the study produced
    nothing for has none, and is left empty."""
    rows: dict[type[Base], list[dict[str, Any]]] = {}
    for model in REGRESSION_TABLES:
        frame = frames.get(model.__tablename__)
        if frame is None or frame.empty:
            rows[model] = []
        else:
            rows[model] = frame.astype(object).where(frame.notna(), None).to_dict("records")
    return rows


def run(context: StageContext) -> RegressSummary:
    """Run the study on the pipeline's tables (see the module docstring)."""
    import pandas as pd

    from bridgerank.regression.data import apply_thresholds
    from bridgerank.regression.export import result_frames
    from bridgerank.regression.study import run_regression, threshold_sweep

    section = context.settings.regress
    thresholds = dataclasses.asdict(section.thresholds)
    with context.engine.connect() as conn:
        rates, points = pipeline_data(conn)
    frames: dict[str, pd.DataFrame] = {}
    summary = RegressSummary(players_with_rates=len(rates), players_with_points=len(points))
    if len(points):
        result = run_regression(
            apply_thresholds(rates, thresholds), points, section.responses, section
        )
        frames = result_frames(result)
        frames["regression_plots"] = pd.DataFrame(
            [{"name": name, "png_base64": png} for name, png in result.plots.items()]
        )
        frames["regression_sweep"] = threshold_sweep(
            rates, points, section.responses, thresholds, section.sweep_factors, section
        )
        summary.datasets = {s.key: s.n for s in result.datasets}
        summary.chosen = result.chosen_from or None
        summary.chosen_adj_r2 = result.chosen.adj_r2 if result.chosen else None
        summary.notes = [f"{s.key}: {s.note}" for s in result.datasets if s.note]
    else:
        summary.notes = ["no player with mistake rates has WBF points or a headline rating"]
    with context.engine.begin() as conn:
        context.finish(conn, summary, replace=_rows(frames))
    return summary


REGRESS_STAGE = Stage(
    name="regress",
    run=run,
    reads=(PlayerRates, Player),
    optional_reads=(WbfPlayer, HeadlineRating),
    writes=REGRESSION_TABLES,
    settings_sections=("regress",),
    summary_type=RegressSummary,
)
