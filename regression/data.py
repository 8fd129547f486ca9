"""Regression inputs: mistake rates, responses, datasets and opportunity thresholds.

Rates are named as in the thesis's Table 4 (:data:`dds.counters.RATES`). The thesis's own
result files name them differently (``unweighted_mistakes_as_defender`` for
``defender_mistakes_per_card_played_as_defender``); :func:`read_rates_csv` reads both.
A response is any numeric column joined by player name: WBF masterpoints ``mp``, placing
points ``pp``, or a rating added later.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bridgerank.core.errors import SettingsError, SourceError
from bridgerank.dds.counters import RATES

UNWEIGHTED = [name for name in RATES if not name.startswith("weighted_")]
WEIGHTED = [name for name in RATES if name.startswith("weighted_")]
PREDICTOR_SETS = {"unweighted": UNWEIGHTED, "weighted": WEIGHTED}

_THESIS_SHORT = {
    "claim_mistakes_per_claim": "claim_mistakes_per_claim",
    "lead_mistakes_per_lead": "lead_mistakes_per_lead",
    "mistakes_as_declarer": "declarer_mistakes_per_card_played_as_declarer",
    "mistakes_as_defender": "defender_mistakes_per_card_played_as_defender",
}


def thesis_column(name: str) -> str:
    """Table 4 name of a column of the thesis's ``*_results.csv`` files (others unchanged)."""
    for prefix, weighted in (("unweighted_", ""), ("weighted_", "weighted_")):
        if name.startswith(prefix):
            short = name[len(prefix) :]
            base = _THESIS_SHORT.get(short, f"{short}_per_auction")
            if weighted + base in RATES:
                return weighted + base
    return name


def _read_csv(path: str | Path) -> pd.DataFrame:
    try:
        frame = pd.read_csv(path)
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as problem:
        raise SourceError(path, f"cannot read as CSV ({problem})") from None
    frame.columns = [column.strip() for column in frame.columns]
    name = next((c for c in frame.columns if c.lower() in ("name", "player")), None)
    if name is None:
        raise SourceError(path, "no 'name' or 'player' column")
    return frame.rename(columns={name: "name"}).set_index("name")


def read_rates_csv(path: str | Path) -> pd.DataFrame:
    """Rates per player from a CSV (Table 4 names or the thesis's file names)."""
    frame = _read_csv(path)
    frame = frame.rename(columns=thesis_column)
    if not any(column in RATES for column in frame.columns):
        raise SourceError(path, "no mistake-rate columns (Table 4 names)")
    return frame


def read_responses_csv(path: str | Path) -> pd.DataFrame:
    """Responses per player (``mp``, ``pp`` or any numeric column) from a CSV."""
    return _read_csv(path).select_dtypes("number")


def dataset(
    rates: pd.DataFrame, responses: pd.DataFrame, response: str, weighting: str
) -> tuple[pd.Series, pd.DataFrame]:
    """Response and predictors of one dataset, players joined by name, incomplete rows dropped.

    Raises
    ------
    SettingsError
        When the response or the predictor set is missing.
    """
    if response not in responses.columns:
        raise SettingsError(
            f"no response column {response!r}; have: {', '.join(responses.columns)}"
        )
    predictors = [name for name in PREDICTOR_SETS[weighting] if name in rates.columns]
    if not predictors:
        raise SettingsError(f"no {weighting} rates in the rates table")
    joined = rates[predictors].join(responses[[response]], how="inner")
    joined = joined.dropna()
    return joined[response].rename(response), joined[predictors]


def weightings(rates: pd.DataFrame) -> list[str]:
    """The predictor sets (unweighted, weighted) the rates table has columns for."""
    return [
        name
        for name, columns in PREDICTOR_SETS.items()
        if any(column in rates.columns for column in columns)
    ]


def apply_thresholds(rates: pd.DataFrame, thresholds: dict[str, float]) -> pd.DataFrame:
    """Players with at least the given number of each opportunity (thesis Table 9).

    A rates table without opportunity columns (the thesis's files, already filtered) is
    returned whole.
    """
    keep = pd.Series(True, index=rates.index)
    for name, minimum in thresholds.items():
        if name in rates.columns:
            keep &= rates[name] >= minimum
    return rates[keep]
