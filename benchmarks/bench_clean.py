"""Ingest and cleaning throughput on the real corpus, and the clean stage's peak memory.

Run from the project folder:

    python benchmarks/bench_clean.py [SOURCES...]   # default: ../shared/data/pbn ../shared/data/lin
    python benchmarks/bench_clean.py --memory 1000000 [--before REV]

Throughput: the baseline is the floor of any cleaning: reading every raw record back from the
database. Each phase is reported as records per second and as a multiple of that baseline,
measured in the same process on the same machine, so the ratios mean something on a noisy
shared host.

Memory (``--memory N``): N tiny synthetic records (a deal, four names, a passed-out auction;
one in 50 a copy of a record of an earlier file, one in 101 unreadable) are stored straight
into ``raw_boards`` of a new SQLite database. The clean stage then runs twice in a process of
its own, on a fresh copy of that database (every board new) and again on its own result
(every board unchanged), and the peak resident memory of that process (``VmHWM``) is printed
against the baseline, measured in the same run: a process that imports the stage, opens the
database and counts its records. ``--before REV`` runs the clean stage of commit REV
(``git show REV:cleaning/clean/stage.py``) on its own copy as well, and checks that both give
the same summaries and the same tables.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

from sqlalchemy import Engine, func, select, text

from bridgerank.bridge.cards import RANKS, SEATS, SUITS
from bridgerank.cleaning.clean.stage import CLEAN_STAGE, clean_rows
from bridgerank.cleaning.clean.tables import Board, Exclusion, TokenCount
from bridgerank.cleaning.ingest.records import RAW_FIELDS
from bridgerank.cleaning.ingest.stage import INGEST_STAGE
from bridgerank.cleaning.ingest.tables import RawBoard, SourceFile
from bridgerank.core.settings import load_settings
from bridgerank.core.stage import StageContext
from bridgerank.core.store import open_engine
from bridgerank.pipeline.stages import run_stages

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
DEFAULT_SOURCES = [str(SHARED_DATA / "pbn"), str(SHARED_DATA / "lin")]


def _timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def throughput(sources: list[str]) -> None:
    """Print ingest, the cleaning rules and the clean stage against reading the rows back."""
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
        by_id = {row["id"]: (row["path"], row["line"]) for row in rows}

        def rules() -> int:
            cleaned = clean_rows(rows, settings.clean, Counter(), lambda ids: by_id)
            return sum(1 for item in cleaned if item.board is not None)

        kept, rules_seconds = _timed(rules)
        _, stage_seconds = _timed(lambda: run_stages(engine, settings, [CLEAN_STAGE]))
        engine.dispose()
    count = len(rows)
    print(f"records: {count:,} raw, {kept:,} boards kept; sources: {' '.join(sources)}")
    print(f"{'phase':<34}{'seconds':>9}{'records/s':>12}{'x baseline':>12}")
    for label, seconds in [
        ("baseline: read raw rows back", read_seconds),
        ("cleaning rules (pure, no writes)", rules_seconds),
        ("clean stage (read, rules, write)", stage_seconds),
        ("ingest stage (parse files, write)", ingest_seconds),
    ]:
        print(f"{label:<34}{seconds:>9.2f}{count / seconds:>12,.0f}{seconds / read_seconds:>12.1f}")


# --- synthetic records, for memory ------------------------------------------------------


def _random_deal(rng: random.Random) -> str:
    cards = [suit + rank for suit in SUITS for rank in RANKS]
    rng.shuffle(cards)
    hands = []
    for seat in range(4):
        hand = cards[seat * 13 : seat * 13 + 13]
        hands.append(
            ".".join("".join(rank for rank in RANKS if suit + rank in hand) for suit in SUITS)
        )
    return "N:" + " ".join(hands)


def tiny_records(count: int, per_file: int, seed: int = 1) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(file number, raw row)`` for ``count`` tiny records, ``per_file`` to a file.

    Every record is a passed-out board of four players of its own, so each has a content
    key of its own, except one in 50, a copy of the record ``per_file`` before it (a
    duplicate of an earlier file's record), and one in 101, which has a parse error.
    """
    rng = random.Random(seed)
    deals = [_random_deal(rng) for _ in range(97)]
    for number in range(count):
        source = number // per_file
        copied = number - per_file if number % 50 == 49 and source else number
        values = {
            "event": f"Synthetic {source}",
            "board": str(copied % 32 + 1),
            "dealer": SEATS[copied % 4],
            "deal": deals[copied % len(deals)],
            "auction": "Pass Pass Pass Pass",
            "northname": f"North {copied}",
            "eastname": f"East {copied}",
            "southname": f"South {copied}",
            "westname": f"West {copied}",
        }
        row = {name: values.get(name) for name in RAW_FIELDS}
        record_no = number % per_file + 1
        row.update(record_no=record_no, line=record_no * 10, play_layout="seat", extra=None)
        row["parse_error"] = "synthetic: unreadable" if number % 101 == 100 else None
        yield source, row


def insert_tiny_records(engine: Engine, count: int, per_file: int = 10_000) -> None:
    """Store :func:`tiny_records` in ``raw_boards`` (and their files in ``source_files``),
    as an ingest would have: the input of the clean stage, without parsing any file."""
    sources: dict[int, int] = {}
    batch: list[dict[str, Any]] = []
    with engine.begin() as conn:
        for source, row in tiny_records(count, per_file):
            if source not in sources:
                sources[source] = conn.execute(
                    SourceFile.__table__.insert().values(
                        path=f"synthetic/{source:05d}.pbn",
                        sha256=hashlib.sha256(f"synthetic {source}".encode()).hexdigest(),
                        format="pbn",
                        size=0,
                        records=min(per_file, count - source * per_file),
                        status="ingested",
                    )
                ).inserted_primary_key[0]
            batch.append({**row, "source_id": sources[source]})
            if len(batch) == 10_000:
                conn.execute(RawBoard.__table__.insert(), batch)
                batch = []
        if batch:
            conn.execute(RawBoard.__table__.insert(), batch)


def stage_module(rev: str | None, folder: Path) -> ModuleType:
    """The clean stage's module: this one, or the one of commit ``rev`` (from ``git show``)."""
    if rev is None:
        from bridgerank.cleaning.clean import stage

        return stage
    source = subprocess.run(
        ["git", "show", f"{rev}:cleaning/clean/stage.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = folder / "clean_stage_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("clean_stage_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_clean(engine: Engine, module: ModuleType) -> dict[str, Any]:
    """Run ``module``'s clean stage on ``engine``, outside the runner (no fingerprint, no
    lock): the stage's own work and nothing else. Its summary as plain values (a typed
    summary's JSON; stages of older commits returned a dict), without the clocks."""
    context = StageContext(engine=engine, settings=load_settings(), stage=CLEAN_STAGE)
    summary = module.run(context)
    plain = summary if isinstance(summary, dict) else summary.to_json()
    return {k: v for k, v in plain.items() if k not in ("seconds", "fingerprint_parts")}


def peak_mb() -> float:
    """This process's peak resident memory (``VmHWM``: it starts anew at exec, so a child
    does not inherit the peak of the parent it was forked from)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(url: str, what: str, rev: str | None) -> None:
    """In a process of its own: the baseline (``count``) or a clean run; prints JSON."""
    with tempfile.TemporaryDirectory() as folder:
        module = stage_module(rev, Path(folder))
        engine = open_engine(url)
        start = time.perf_counter()
        if what == "count":
            with engine.connect() as conn:
                summary: dict[str, Any] = {
                    "records": conn.execute(select(func.count()).select_from(RawBoard)).scalar()
                }
        else:
            summary = run_clean(engine, module)
        seconds = time.perf_counter() - start
        engine.dispose()
    print(json.dumps({"peak_mb": peak_mb(), "seconds": seconds, "summary": summary}))


def _in_child(database: Path, what: str, rev: str | None) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", f"sqlite:///{database}", what]
    done = subprocess.run(
        command + (["--before", rev] if rev else []), capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{what} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def table_digest(database: Path) -> str:
    """SHA-256 over the clean stage's tables, row by row in key order."""
    digest = hashlib.sha256()
    engine = open_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        for model in (Board, Exclusion, TokenCount):
            table = model.__table__
            rows = conn.execute(select(table).order_by(*table.primary_key.columns))
            for row in rows.yield_per(10_000):
                digest.update(repr(tuple(row)).encode())
    engine.dispose()
    return digest.hexdigest()


def _checkpointed(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
    engine.dispose()


def memory(count: int, before: str | None) -> None:
    """Print the clean stage's peak memory on ``count`` tiny records (module docstring)."""
    variants: list[tuple[str, str | None]] = [("this tree", None)]
    if before:
        variants.insert(0, (f"before ({before})", before))
    with tempfile.TemporaryDirectory() as folder:
        template = Path(folder) / "raw.db"
        engine = open_engine(f"sqlite:///{template}")
        _, seconds = _timed(lambda: insert_tiny_records(engine, count))
        _checkpointed(engine)
        print(f"{count:,} tiny records stored in {seconds:.0f} s")
        baseline = _in_child(template, "count", None)
        print(f"{'process':<34}{'seconds':>9}{'peak MB':>10}{'x baseline':>12}")
        print(
            f"{'baseline: import, open, count':<34}{baseline['seconds']:>9.1f}"
            f"{baseline['peak_mb']:>10.0f}{1:>12.1f}"
        )
        results = {}
        for label, rev in variants:
            database = Path(folder) / f"{len(results)}.db"
            shutil.copyfile(template, database)
            runs = []
            for run in ("first run", "rerun"):
                outcome = _in_child(database, "clean", rev)
                runs.append(outcome["summary"])
                print(
                    f"{f'clean, {label}, {run}':<34}{outcome['seconds']:>9.1f}"
                    f"{outcome['peak_mb']:>10.0f}"
                    f"{outcome['peak_mb'] / baseline['peak_mb']:>12.1f}"
                )
            results[label] = (runs, table_digest(database))
            database.unlink()
        first = runs[0]
        print(
            f"boards: {first['kept']:,} kept of {first['records']:,}; "
            f"changed on the first run {first['boards_changed']}"
        )
        if len(results) > 1:
            same = len({json.dumps(value, sort_keys=True) for value in results.values()}) == 1
            print("same summaries and tables as before:", "yes" if same else "NO")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*")
    parser.add_argument("--memory", type=int, metavar="N", help="peak memory on N records")
    parser.add_argument("--before", metavar="REV", help="also the clean stage of commit REV")
    parser.add_argument("--child", nargs=2, metavar=("URL", "WHAT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child, args.before)
    elif args.memory:
        memory(args.memory, args.before)
    else:
        throughput(args.sources or DEFAULT_SOURCES)


if __name__ == "__main__":
    main()
