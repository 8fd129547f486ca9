"""The methods page's two drawings: the multiplayer Elo's rating histories (a PNG) and the
regression's threshold sweep (inline SVG)."""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["history_plot", "sweep_plots"]


def history_plot(history: pd.DataFrame, players: int = 8) -> str | None:
    """Rating histories of the most active players, as a base64 PNG."""
    if history.empty:
        return None
    import matplotlib

    from bridgerank.regression.diagnostics import png_of

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    busiest = history["player"].value_counts().head(players).index
    figure, axis = plt.subplots(figsize=(8, 4), dpi=100)
    for player in busiest:
        rows = history[history["player"] == player]
        axis.plot(rows["game"], rows["rating"], label=player, linewidth=1)
    axis.set_xlabel("game (pair ranking) number")
    axis.set_ylabel("rating (Elo points)")
    axis.set_title("Multiplayer Elo (ranking probabilities) of the most active players")
    axis.legend(fontsize=7, ncol=2)
    return png_of(figure)


def sweep_plots(sweep: pd.DataFrame | None) -> list[Any]:
    """The threshold sweep drawn: players left and the best adjusted R², per dataset."""
    if sweep is None or sweep.empty:
        return []
    from bridgerank.pipeline.report.svg import lines

    players, fits = {}, {}
    for (response, weighting), rows in sweep.sort_values("factor").groupby(
        ["response", "weighting"]
    ):
        name = f"{response}, {weighting}"
        players[name] = (list(rows["factor"]), list(rows["players"]))
        kept = rows[rows["best_adj_r2"].notna()]
        fits[name] = (list(kept["factor"]), list(kept["best_adj_r2"]))
    return [
        lines(players, "threshold factor", "players left"),
        lines(fits, "threshold factor", "best adjusted R²"),
    ]
