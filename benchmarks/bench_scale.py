"""Ingest, clean and match at the thesis's scale, on SQLite and on PostgreSQL.

    python benchmarks/bench_scale.py [--boards 200000] [--dump PATH] [--postgres URL]
                                     [--engines sqlite,postgresql]

A synthetic SQL-insert dump in the thesis's format (``benchmarks/synthetic_dump.py``: real
auctions and plays of the shared corpus, re-dealt, the dump's defects sprinkled in) goes
through the three stages into a new database per engine. Each stage runs in a process of its
own, so its peak memory (``ru_maxrss``) is its own. PostgreSQL is the server at ``--postgres``
or, without it, a private server started for the run (Debian's ``postgresql`` package).

The baseline, measured in the same run: reading the dump once, line by line, and hashing it
(the floor of any ingest). Printed per engine and stage: seconds, rows per second, peak
memory, and seconds as a multiple of the baseline. For scale: the thesis needed 3,622 s to
clean its 200k boards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
STAGES = ("ingest", "clean", "match")


def peak_mb() -> float:
    """This process's peak resident memory. (``VmHWM``: unlike ``ru_maxrss``, it starts anew
    at exec, so a child does not inherit the peak of the parent it was forked from.)"""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one_stage(url: str, stage: str, sources: list[str]) -> dict:
    """Run one stage on ``url`` in this process; its time, peak memory and counts."""
    from sqlalchemy import func, select

    from bridgerank.cleaning.clean.tables import Board
    from bridgerank.cleaning.ingest.tables import RawBoard
    from bridgerank.cleaning.match.tables import Player
    from bridgerank.core.settings import load_settings
    from bridgerank.pipeline.stages import get_stage, open_store, run_stages

    engine = open_store(url)
    start = time.perf_counter()
    run_stages(engine, load_settings(), [get_stage(stage)], sources=sources, force=True)
    seconds = time.perf_counter() - start
    table = {"ingest": RawBoard, "clean": Board, "match": Player}[stage]
    with engine.connect() as conn:
        rows = conn.execute(select(func.count()).select_from(table)).scalar_one()
        raw = conn.execute(select(func.count()).select_from(RawBoard)).scalar_one()
    engine.dispose()
    return {"seconds": seconds, "peak_mb": peak_mb(), "rows": rows, "raw": raw}


def _stage_in_child(url: str, stage: str, sources: list[str]) -> dict:
    command = [sys.executable, __file__, "--child", url, stage, *sources]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{stage} on {url.split(':')[0]} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _baseline(dump: Path) -> float:
    start = time.perf_counter()
    digest = hashlib.sha256()
    with open(dump, encoding="utf-8", newline="") as lines:
        for line in lines:
            digest.update(line.encode("utf-8"))
    return time.perf_counter() - start


def _postgres(stack: ExitStack, url: str | None) -> str | None:
    if url:
        return url
    import pytest

    from tests.postgres import new_database, private_server

    try:
        server = stack.enter_context(private_server())
    except (Exception, pytest.skip.Exception, pytest.fail.Exception) as problem:
        print(f"PostgreSQL skipped: {problem}")
        return None
    return new_database(server)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--boards", type=int, default=200_000)
    parser.add_argument("--dump", type=Path, help="reuse (or write) the dump here")
    parser.add_argument("--postgres", help="a PostgreSQL URL (default: a private server)")
    parser.add_argument("--engines", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    from synthetic_dump import write_dump

    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        dump = args.dump or Path(folder) / "bridgedeals.sql"
        if not dump.exists():
            start = time.perf_counter()
            with open(dump, "w", encoding="utf-8") as out:
                write_dump(out, args.boards, seed=1)
            print(f"wrote {dump} ({args.boards:,} rows) in {time.perf_counter() - start:.0f} s")
        size_mb = dump.stat().st_size / 1e6
        baseline = _baseline(dump)
        print(f"dump: {size_mb:.0f} MB; baseline (read and hash it once): {baseline:.2f} s")
        print()
        print("| engine | stage | seconds | rows/s | peak MB | x baseline | rows out |")
        print("|---|---|---|---|---|---|---|")
        for engine in args.engines.split(","):
            if engine == "sqlite":
                url = f"sqlite:///{Path(folder) / 'bench.db'}"
            else:
                url = _postgres(stack, args.postgres)
                if url is None:
                    continue
            for stage in STAGES:
                sources = [str(dump)] if stage == "ingest" else []
                got = _stage_in_child(url, stage, sources)
                rows_in = got["raw"]
                print(
                    f"| {engine} | {stage} | {got['seconds']:.1f} | "
                    f"{rows_in / got['seconds']:,.0f} | {got['peak_mb']:.0f} | "
                    f"{got['seconds'] / baseline:.1f} | {got['rows']:,} |",
                    flush=True,
                )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        url, stage, *sources = sys.argv[2:]
        print(json.dumps(run_one_stage(url, stage, sources)))
    else:
        main()
