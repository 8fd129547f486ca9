"""Make ``dd_tables.bin``: the double dummy table of every distinct deal of the public archives.

    python data/make_dd_tables.py                 # ../shared/data and the embedded sample
    python data/make_dd_tables.py --jobs 2 --store /tmp/build.sqlite SOURCES...

Cleans the sources as ``bridgerank run --to clean`` does (into ``--work``, kept, so a rerun
cleans nothing again), takes every distinct deal the cleaning kept, solves the tables the
store (``--store``, default: the machine's DD store) does not hold yet, batch by batch, and
writes them all to ``data/dd_tables.bin`` (:mod:`bridgerank.dds.shipped`). Interrupted, it
resumes: what was solved is in the store. DDS's own list100 deals are not sources here: the
golden tests solve those live.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from bridgerank.dds.dd_store import DDStore, default_location
from bridgerank.dds.shipped import read_shipped, solve_into_store, write_shipped
from bridgerank.dds.solver import solver_version

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
DEFAULT_SOURCES = [
    SHARED / "pbn",
    SHARED / "lin",
    SHARED / "travellers" / "valet",
    SHARED / "acbl" / "results",
    HERE / "sample",
]


def cleaned(sources: list[Path], work: Path, query: str) -> list:
    """Clean ``sources`` into ``work`` as ``bridgerank run --to clean`` does (a rerun cleans
    nothing again) and return the rows of ``query`` on the cleaned boards."""
    command = [sys.executable, "-m", "bridgerank", "run", "--to", "clean", "--out", str(work)]
    subprocess.run([*command, *map(str, sources)], check=True)
    engine = create_engine(f"sqlite:///{work / 'bridgerank.db'}")
    with engine.connect() as conn:
        rows = list(conn.execute(text(query)).all())
    engine.dispose()
    return [row[0] for row in rows] if rows and len(rows[0]) == 1 else rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", type=Path, default=DEFAULT_SOURCES)
    parser.add_argument("--store", default=str(default_location()), help="DD store to fill")
    parser.add_argument("--work", type=Path, default=Path("out/make_dd_tables"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output", type=Path, default=HERE / "dd_tables.bin")
    args = parser.parse_args()

    deals = cleaned(args.sources, args.work, "select distinct deal from boards")

    store = DDStore(args.store, solver_version())
    if store.warning:
        sys.exit(f"error: {store.warning}")
    have = len(store.tables(deals))
    print(f"{len(deals):,} distinct deals; {have:,} in the store, {len(deals) - have:,} to solve")
    started, done = time.monotonic(), 0

    def progress(count: int) -> None:
        nonlocal done
        done += count
        rate = done / max(time.monotonic() - started, 1e-9)
        left = (len(deals) - have - done) / max(rate, 1e-9)
        print(f"  {done:,} solved, {rate:.1f} a second, about {left / 60:.0f} min left", flush=True)

    rejected = solve_into_store(store, deals, args.jobs, progress)
    for deal, reason in sorted(rejected.items()):
        print(f"  DDS rejected {deal}: {reason}")
    tables = store.tables(deals)
    count = write_shipped(args.output, solver_version(), tables.items())
    shipped = read_shipped(args.output)
    assert len(shipped.tables) == count and shipped.tables == tables
    size = args.output.stat().st_size
    print(f"{args.output}: {count:,} tables, {size / 1024:,.0f} KB, solver {shipped.solver}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
