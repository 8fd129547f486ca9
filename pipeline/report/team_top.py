"""The team headline's top players as the methods page shows them: their ratings with 95%
intervals and 90% rank intervals, and who cannot be told apart from the top."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bridgerank.ratings.holdout import Z95
from bridgerank.ratings.uncertainty import rank_standing

__all__ = ["team_top"]

_TOP = 20


def team_top(team: pd.DataFrame) -> dict[str, Any]:
    """The team headline's top 20 with their boards, 95% intervals and 90% rank intervals
    (over every rated team player), the spread of their ratings, and the players whose
    interval is wider than that spread."""
    sd = (team["high"] - team["low"]) / (2 * Z95)
    low, high, _ = rank_standing(team["rating"].to_numpy(), sd.to_numpy(), 0.9, 1)
    top = team.head(_TOP).copy()
    top.insert(0, "rank", range(1, len(top) + 1))
    top["rank interval"] = [f"{a}-{b}" for a, b in zip(low[: len(top)], high[: len(top)])]
    top = top.rename(columns={"games": "team boards", "rating": "IMPs per board"})
    spread = float(top["IMPs per board"].max() - top["IMPs per board"].min())
    wide = top[(top["high"] - top["low"]) > spread]["player"].tolist()
    return {"top": top, "spread": spread, "wide": wide, "players": len(team)}
