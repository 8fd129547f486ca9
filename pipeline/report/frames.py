"""Frames as the report's readers use them: sorted as the database sorted them, cells as a
database row gives them (None for missing, Python numbers), rows as dicts for a template."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

__all__ = ["first_row", "ordered", "plain", "records", "rows"]


def ordered(
    frame: pd.DataFrame, by: list[str], ascending: bool | list[bool] = True
) -> pd.DataFrame:
    """``frame`` sorted as the database sorted it before: stable, a missing value below
    every other (first going up, last going down)."""
    first = ascending if isinstance(ascending, bool) else ascending[0]
    return frame.sort_values(
        by, ascending=ascending, kind="stable", na_position="first" if first else "last"
    ).reset_index(drop=True)


def plain(value: Any) -> Any:
    """A frame's cell as the database row gave it: None for missing, Python numbers."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value.item() if hasattr(value, "item") else value


def first_row(frame: pd.DataFrame) -> dict[str, Any] | None:
    """The first row of a table's frame as a plain dict, or None when it holds none."""
    if frame.empty:
        return None
    return {str(key): plain(value) for key, value in frame.iloc[0].items()}


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A frame's rows as dicts, a missing value as None (a template prints it as nothing)."""
    return frame.astype(object).where(frame.notna(), None).to_dict("records")


def rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``frame`` as dicts keyed by column name, values as Python's (what
    ``to_dict("records")`` gives, built column by column: a third of its time on a million
    cards)."""
    names = [str(name) for name in frame.columns]
    columns = [_values(frame.iloc[:, index]) for index in range(len(names))]
    return [dict(zip(names, row)) for row in zip(*columns)]


def _values(column: pd.Series) -> list[Any]:
    """A column's values as ``to_dict`` gives them: pandas' NA as None (``tolist`` keeps NA,
    which a template cannot test), in a nullable or an object column."""
    values = column.tolist()
    nullable = column.dtype == object or isinstance(column.dtype, pd.api.extensions.ExtensionDtype)
    if nullable and column.hasnans:
        values = [None if value is pd.NA else value for value in values]
    return values
