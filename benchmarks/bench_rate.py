"""The rate stage, now against an earlier version, in CPU seconds, on the README's data sets.

    python benchmarks/bench_rate.py                             # against BASELINE, all three
    python benchmarks/bench_rate.py --data acbl --pairs 2 --keep /tmp/bench-rate
    python benchmarks/bench_rate.py --baseline REV --data valet corpus

Each data set (``acbl``: ``../shared/data/acbl/results``; ``valet``: the Valet travellers;
``corpus``: ``../shared/data/pbn`` and ``../shared/data/lin``) is run through the dds stage
once by the baseline's code, into ``--keep`` (kept there for the next run of this script, a
temporary folder if not given). Then the rate stage runs on copies of that database, the
baseline's code and this checkout's in turn, A B A B, so that a machine that slows down slows
both; CPU seconds are the process's own (user + system; the rate stage runs in one process).

Printed: each run, the median CPU ratio now / baseline per data set (the goal of issue 50: at
most 0.2), and, table by table, whether what the two versions stored agrees to the printed
precision (:func:`tables_agree`): numbers within 5e-4 of each other, relative to the larger
when that is above 1; text and whole numbers equal.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from bench_quickstart import _baseline_python, _cpu_of

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
# main before issue 50's work (the rate stage as issue 49 left it)
BASELINE = "54444e4"
DATA = {
    "acbl": ("acbl/results",),
    "valet": ("travellers/valet",),
    "corpus": ("pbn", "lin"),
}
# agreement "to the printed precision": the report prints correlations and shares to three
# decimals, ratings and IMPs to one
TOLERANCE = 5e-4


def rate_tables() -> tuple[str, ...]:
    """The tables the rate stage writes (this checkout's list)."""
    from bridgerank.ratings.stage import RATE_STAGE

    return tuple(sorted(table.__tablename__ for table in RATE_STAGE.writes))


def _frame(database: Path, table: str) -> pd.DataFrame | None:
    with sqlite3.connect(database) as connection:
        try:
            return pd.read_sql_query(f'SELECT * FROM "{table}"', connection)  # our own names
        except pd.errors.DatabaseError:
            return None


_FIGURE = r"-?\d+\.\d+(?:e-?\d+)?"


def _figures(column: pd.Series) -> pd.Series:
    """Every decimal figure of a text column, one after the other."""
    texts = column.fillna("").astype(str)
    return pd.Series([float(x) for text in texts for x in re.findall(_FIGURE, text)])


def tables_agree(before: Path, after: Path, table: str) -> tuple[bool, str]:
    """Whether ``table`` holds the same rows in the two databases to the printed precision
    (rows matched by their text and whole-number columns), and a word on where not."""
    old, new = _frame(before, table), _frame(after, table)
    if old is None or new is None:
        both_missing = old is None and new is None
        return both_missing, "" if both_missing else "missing in one"
    if len(old) != len(new) or list(old.columns) != list(new.columns):
        return False, f"{len(old)} rows before, {len(new)} now"
    numbers = [c for c in old.columns if pd.api.types.is_float_dtype(old[c])]
    keys = [c for c in old.columns if c not in numbers and c not in ("id", "version")]
    # a text's figures (a JSON of effects) are numbers too: the rest of it must be equal
    texts = [c for c in keys if old[c].fillna("").astype(str).str.contains(_FIGURE).any()]
    for frame in (old, new):
        for column in texts:
            text = frame[column].fillna("").astype(str)
            frame[column + " (text)"] = text.str.replace(_FIGURE, "#", regex=True)
    keys = [c + " (text)" if c in texts else c for c in keys]
    if keys:
        old = old.sort_values(keys, kind="stable").reset_index(drop=True)
        new = new.sort_values(keys, kind="stable").reset_index(drop=True)
        if not old[keys].astype(str).equals(new[keys].astype(str)):
            return False, "different rows"
    worst, where = 0.0, ""
    pairs = [(old[c], new[c], c) for c in numbers] + [
        (_figures(old[c]), _figures(new[c]), c) for c in texts
    ]
    for before_column, after_column, column in pairs:
        a = pd.to_numeric(before_column, errors="coerce").to_numpy(dtype=float)
        b = pd.to_numeric(after_column, errors="coerce").to_numpy(dtype=float)
        if not np.array_equal(np.isnan(a), np.isnan(b)):
            return False, f"{column}: missing values differ"
        both = ~np.isnan(a)
        scale = np.maximum(1.0, np.maximum(np.abs(a[both]), np.abs(b[both])))
        gap = np.abs(a[both] - b[both]) / scale
        if gap.size and gap.max() > worst:
            worst, where = float(gap.max()), column
    return worst <= TOLERANCE, f"largest difference {worst:.1e} ({where})" if where else ""


def _build(python: Path, name: str, database: Path, folder: Path, env: dict[str, str]) -> None:
    """The data set ``name`` through the dds stage, by ``python``'s bridgerank."""
    sources = [str(SHARED / part) for part in DATA[name]]
    print(f"{name}: ingest to dds into {database} ...", flush=True)
    command = [str(python), "-m", "bridgerank", "run", *sources, "--db", str(database)]
    subprocess.run(
        [*command, "--to", "dds"], check=True, env=env, cwd=folder, stdout=subprocess.DEVNULL
    )


def _rate(python: Path, base: Path, copy: Path, folder: Path, env: dict[str, str]):
    """CPU and wall seconds of the rate stage on a fresh copy of ``base``."""
    for stale in (copy, copy.with_name(copy.name + ".lock")):
        stale.unlink(missing_ok=True)
    shutil.copyfile(base, copy)
    command = [str(python), "-m", "bridgerank", "run", "--only", "rate", "--db", str(copy)]
    return _cpu_of(command, env, folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--data", nargs="+", choices=sorted(DATA), default=list(DATA))
    parser.add_argument("--pairs", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="folder for the databases, kept")
    args = parser.parse_args()
    tables = rate_tables()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIDGERANK_")}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        keep = args.keep or folder
        keep.mkdir(parents=True, exist_ok=True)
        old_python = _baseline_python(args.baseline, folder)
        try:
            for data in args.data:
                base = keep / f"{data}-{args.baseline}.db"
                if not base.exists():
                    _build(old_python, data, base, folder, env)
                old, new = [], []
                for pair in range(args.pairs):
                    before, after = keep / f"{data}-before.db", keep / f"{data}-now.db"
                    old.append(_rate(old_python, base, before, folder, env))
                    new.append(_rate(Path(sys.executable), base, after, folder, env))
                    print(
                        f"{data} pair {pair + 1}: {args.baseline} {old[-1][0]:.1f} CPU s "
                        f"({old[-1][1]:.1f} s wall), now {new[-1][0]:.1f} CPU s "
                        f"({new[-1][1]:.1f} s wall)",
                        flush=True,
                    )
                ratios = [n[0] / o[0] for o, n in zip(old, new)]
                print(
                    f"{data}: now / {args.baseline} CPU {statistics.median(ratios):.2f} "
                    f"(pairs {min(ratios):.2f}-{max(ratios):.2f}; goal at most 0.2)",
                    flush=True,
                )
                for table in tables:
                    same, word = tables_agree(before, after, table)
                    print(f"  {table}: {'same' if same else 'DIFFERENT'} {word}".rstrip())
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "source")],
                check=False,
            )


if __name__ == "__main__":
    main()
