"""The dds stage against the solver itself, on the same boards, in one run.

    python benchmarks/bench_dds.py [SOURCES...]     # default: the embedded sample

    python benchmarks/bench_dds.py --jobs 2 ../shared/data/travellers/valet/2009-World
    python benchmarks/bench_dds.py --fresh --jobs 2 ../shared/data/pbn ../shared/data/lin

Baseline (the floor): a bare loop of endplay calls, ``calc_all_tables`` over the distinct
deals the stage needs a table of (an auction to judge, or a result to set against double
dummy) in batches of 40, ``par`` once for each distinct deal, dealer and vulnerability of a
board with a result, and ``analyse_all_plays`` over the plays in batches of 200, in this
process with DDS using every core. Then the whole dds stage (chunking, workers, analysis,
database writes, per-player aggregation) on a fresh copy of the same cleaned database, with
1 and with 2 jobs (or those given with ``--jobs``), with the DD store off: everything solved.
Printed: seconds, boards per second, and the stage's throughput as a share of the bare loop's
(the target is at least 90%).

Then the stage as on a fresh install: an empty DD store that reads the shipped tables first
(:mod:`bridgerank.dds.shipped`), so it should solve no table and cost the plays only; its
time is printed as a share of the bare loop's plays alone (the goal: within 10% of it), with
the tables it solved (the goal: 0). ``--fresh`` runs only that comparison (the bare loop's
tables and the store-off runs of the whole corpus take hours).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from bridgerank.bridge.ddtable import DDS_STRAINS
from bridgerank.cleaning.clean.tables import Board
from bridgerank.core.settings import load_settings, resolve_path
from bridgerank.dds.analysis import BOARD_FIELDS, needs_table, play_request
from bridgerank.dds.solver import PLAY_BATCH, TABLE_BATCH, set_threads
from bridgerank.dds.table_evidence import dealer_of, has_result
from bridgerank.pipeline.stages import get_stage, run_stages, select_stages
from bridgerank.pipeline.stages import open_store as open_engine


def _bare_loop(boards: list[dict], tables_too: bool = True) -> tuple[float, float]:
    from endplay.dds import analyse_all_plays, calc_all_tables, par
    from endplay.types import Deal, Denom, Player, Vul

    set_threads(0)
    # The same work as the stage: a table only for a deal it uses (auction or result); the
    # fresh-install comparison's floor is the plays alone (tables_too=False).
    with_table = [board for board in boards if needs_table(board)] if tables_too else []
    deals = sorted({board["deal_hash"]: board["deal"] for board in with_table}.items())
    boards_with_par = boards if tables_too else []
    start = time.perf_counter()
    solved = {}
    for i in range(0, len(deals), TABLE_BATCH):
        batch = deals[i : i + TABLE_BATCH]
        solved.update(zip((key for key, _ in batch), calc_all_tables([Deal(p) for _, p in batch])))
    pars = {
        (board["deal_hash"], dealer_of(board), board["ns_vulnerable"], board["ew_vulnerable"])
        for board in boards_with_par
        if has_result(board) and dealer_of(board) is not None
    }
    for deal, dealer, ns, ew in pars:
        vulnerability = Vul.both if ns and ew else Vul.ns if ns else Vul.ew if ew else Vul.none
        par(solved[deal], vulnerability, Player(dealer))
    tables = time.perf_counter() - start
    requests = [r for r in map(play_request, boards) if r is not None]
    start = time.perf_counter()
    for i in range(0, len(requests), PLAY_BATCH):
        batch = []
        for request in requests[i : i + PLAY_BATCH]:
            deal = Deal(request.deal)
            deal.first = Player(request.leader)
            deal.trump = Denom(DDS_STRAINS.index(request.trump))
            batch.append(deal)
        analyse_all_plays(batch, [list(r.cards) for r in requests[i : i + PLAY_BATCH]])
    return tables, time.perf_counter() - start


def _stage(prepared: Path, folder: Path, name: str, store: str, jobs: int):
    """The dds stage on a copy of the prepared database: (seconds, summary)."""
    copy = folder / f"{name}.db"
    shutil.copy(prepared, copy)
    engine = open_engine(f"sqlite:///{copy}")
    settings = load_settings(None, {"dds": {"store": store}})
    start = time.perf_counter()
    outcome = run_stages(engine, settings, [get_stage("dds")], jobs=jobs)[0]
    seconds = time.perf_counter() - start
    engine.dispose()
    return seconds, outcome.summary


def main(
    sources: list[str], job_counts: tuple[int, ...] = (1, 2), fresh_only: bool = False
) -> None:
    settings = load_settings(None, {"dds": {"store": "off"}})
    with tempfile.TemporaryDirectory() as folder:
        prepared = Path(folder) / "prepared.db"
        engine = open_engine(f"sqlite:///{prepared}")
        run_stages(engine, settings, select_stages(stop="match"), sources=sources)
        with engine.connect() as conn:
            boards = [
                dict(row)
                for row in conn.execute(
                    select(*(getattr(Board, name) for name in BOARD_FIELDS))
                ).mappings()
            ]
        engine.dispose()
        tables, plays = _bare_loop(boards, tables_too=not fresh_only)
        bare = tables + plays
        count = len(boards)
        print(
            f"{count:,} boards, {len({b['deal_hash'] for b in boards if needs_table(b)}):,} "
            f"distinct deals with an auction to judge or a result, "
            f"{sum(1 for b in boards if play_request(b)):,} plays"
        )
        print(f"{'run':<34}{'seconds':>9}{'boards/s':>10}{'share of bare':>15}")
        print(f"{'bare loop: tables and pars':<34}{tables:>9.2f}")
        print(f"{'bare loop: plays':<34}{plays:>9.2f}")
        print(f"{'bare loop: total (baseline)':<34}{bare:>9.2f}{count / bare:>10.1f}{1:>15.0%}")
        for jobs in () if fresh_only else job_counts:
            seconds, summary = _stage(prepared, Path(folder), f"off{jobs}", "off", jobs)
            print(
                f"{f'dds stage, store off, {jobs} job(s)':<34}{seconds:>9.2f}"
                f"{count / seconds:>10.1f}{bare / seconds:>15.0%}   (workers: tables "
                f"{summary.worker_table_seconds:.1f} s, plays "
                f"{summary.worker_play_seconds:.1f} s)"
            )
        jobs = max(job_counts)
        store = str(Path(folder) / "fresh-store.sqlite")
        seconds, summary = _stage(prepared, Path(folder), "fresh", store, jobs)
        print(
            f"fresh install (an empty DD store, the shipped tables), {jobs} job(s): "
            f"{seconds:.2f} s, {seconds / plays:.2f}x the bare loop's plays "
            f"({plays:.2f} s); tables solved {summary.new_tables:,}, "
            f"from the store {summary.tables_from_store:,}; plays solved "
            f"{summary.traces_solved:,}"
        )


if __name__ == "__main__":
    arguments = sys.argv[1:]
    counts: tuple[int, ...] = (1, 2)
    fresh = "--fresh" in arguments
    arguments = [argument for argument in arguments if argument != "--fresh"]
    if arguments[:1] == ["--jobs"]:
        counts, arguments = (int(arguments[1]),), arguments[2:]
    main(arguments or [str(resolve_path("embedded:sample"))], counts, fresh)
