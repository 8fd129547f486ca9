"""Ingest and cleaning throughput on the real corpus, with a same-run baseline.

Run from the project folder:

    python benchmarks/bench_clean.py [SOURCES...]   # default: ../shared/data/pbn ../shared/data/lin

The baseline is the floor of any cleaning: reading every raw record back from the database.
Each phase is reported as records per second and as a multiple of that baseline, measured in
the same process on the same machine, so the ratios mean something on a noisy shared host.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from bridgerank.cleaning.clean.stage import CLEAN_STAGE, clean_rows
from bridgerank.cleaning.ingest.stage import INGEST_STAGE
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.core.settings import load_settings
from bridgerank.core.store import open_engine
from bridgerank.pipeline.stages import run_stages

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT_SOURCES = [str(SHARED_DATA / "pbn"), str(SHARED_DATA / "lin")]


def _timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def main(sources: list[str]) -> None:
    settings = load_settings()
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{Path(folder) / 'bench.db'}")
        _, ingest_seconds = _timed(
            lambda: run_stages(engine, settings, [INGEST_STAGE], sources=sources)
        )
        raw = RawBoard.__table__
        query = (
            select(raw, SourceFile.sha256, SourceFile.path)
            .join(SourceFile, SourceFile.id == raw.c.source_id)
            .order_by(raw.c.id)
        )

        def read():
            with engine.connect() as conn:
                return conn.execute(query).mappings().all()

        rows, read_seconds = _timed(read)
        (boards, _, _), rules_seconds = _timed(lambda: clean_rows(rows, settings.clean))
        _, stage_seconds = _timed(lambda: run_stages(engine, settings, [CLEAN_STAGE]))
        engine.dispose()
    count = len(rows)
    print(f"records: {count:,} raw, {len(boards):,} boards kept; sources: {' '.join(sources)}")
    print(f"{'phase':<34}{'seconds':>9}{'records/s':>12}{'x baseline':>12}")
    for label, seconds in [
        ("baseline: read raw rows back", read_seconds),
        ("cleaning rules (pure, no writes)", rules_seconds),
        ("clean stage (read, rules, write)", stage_seconds),
        ("ingest stage (parse files, write)", ingest_seconds),
    ]:
        print(f"{label:<34}{seconds:>9.2f}{count / seconds:>12,.0f}{seconds / read_seconds:>12.1f}")


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT_SOURCES)
