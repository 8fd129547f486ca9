"""Chunks of boards solved in worker processes (joblib: loky locally, or a Dask cluster).

A worker gets a chunk (boards, the tables already known for their deals, the deals still to
solve), calls DDS, analyses each board and returns rows; it never touches the database. The
parent commits each finished chunk in one transaction as :func:`run_chunks` yields it, so an
interrupted run resumes from the last committed chunk.

A chunk whose worker dies (a crash in native code) is run again alone; if it dies again its
boards are returned as failed, with the reason, and the other chunks go on.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.analysis import BoardResult, analyse_board, needs_table, play_request
from bridgerank.dds.solver import set_threads, solve_plays, solve_tables

# Fault injection for tests: a worker given this board id kills itself, like a DDS segfault.
CRASH_ENV = "BRIDGERANK_TEST_CRASH_BOARD"


@dataclass
class Chunk:
    """Work for one worker call."""

    number: int
    boards: list[dict[str, Any]]
    known_tables: dict[str, DDTable]  # deal hash -> table, for deals solved earlier
    new_deals: dict[str, str]  # deal hash -> PBN deal, tables to solve here
    threads: int = 0


@dataclass
class ChunkResult:
    """What a worker returns: new tables and per-board results."""

    number: int
    tables: list[tuple[str, DDTable | None, str | None]] = field(default_factory=list)
    boards: list[BoardResult] = field(default_factory=list)
    table_seconds: float = 0.0  # spent in DDS tables, in the worker
    play_seconds: float = 0.0  # spent in DDS play traces


def solve_chunk(chunk: Chunk) -> ChunkResult:
    """Solve and analyse one chunk (runs in a worker; pure apart from DDS)."""
    crash = os.environ.get(CRASH_ENV)
    if crash and any(str(board["id"]) == crash for board in chunk.boards):
        os.kill(os.getpid(), signal.SIGSEGV)
    set_threads(chunk.threads)
    hashes = list(chunk.new_deals)
    started = time.perf_counter()
    solved = solve_tables([chunk.new_deals[h] for h in hashes])
    table_seconds = time.perf_counter() - started
    tables = dict(chunk.known_tables)
    errors: dict[str, str] = {}
    result = ChunkResult(chunk.number, table_seconds=table_seconds)
    for deal_hash, (table, error) in zip(hashes, solved):
        result.tables.append((deal_hash, table, error))
        if table is None:
            errors[deal_hash] = error or "unsolved"
        else:
            tables[deal_hash] = table
    requests = [(board, play_request(board)) for board in chunk.boards]
    with_play = [(board, request) for board, request in requests if request is not None]
    started = time.perf_counter()
    traces = dict(
        zip(
            (board["id"] for board, _ in with_play),
            solve_plays([request for _, request in with_play]),
        )
    )
    result.play_seconds = time.perf_counter() - started
    for board in chunk.boards:
        trace, trace_error = traces.get(board["id"], (None, None))
        result.boards.append(
            analyse_board(
                board,
                tables.get(board["deal_hash"]),
                trace,
                table_error=errors.get(board["deal_hash"]),
                trace_error=trace_error,
            )
        )
    return result


def failed_chunk(chunk: Chunk, reason: str) -> ChunkResult:
    """The result of a chunk whose worker died twice: every board failed with the reason."""
    return ChunkResult(
        chunk.number, [], [BoardResult(board["id"], "failed", reason) for board in chunk.boards]
    )


def plan_chunks(
    boards: list[dict[str, Any]],
    known: dict[str, DDTable],
    max_new_deals: int,
    max_boards: int,
    threads: int = 0,
) -> list[Chunk]:
    """Cut boards into chunks; all boards of a deal go to one chunk, with that deal's table.

    A chunk holds at most ``max_new_deals`` deals to solve (DDS's table batch) and, as far as
    whole deals allow, ``max_boards`` boards.
    """
    by_deal: dict[str, list[dict[str, Any]]] = {}
    for board in boards:
        by_deal.setdefault(board["deal_hash"], []).append(board)
    chunks: list[Chunk] = []
    current = Chunk(0, [], {}, {}, threads)
    for deal_hash in sorted(by_deal):
        group = by_deal[deal_hash]
        new = deal_hash not in known and any(needs_table(board) for board in group)
        if current.boards and (
            len(current.new_deals) + new > max_new_deals
            or len(current.boards) + len(group) > max_boards
        ):
            chunks.append(current)
            current = Chunk(len(chunks), [], {}, {}, threads)
        current.boards.extend(group)
        if new:
            current.new_deals[deal_hash] = group[0]["deal"]
        elif deal_hash in known:
            current.known_tables[deal_hash] = known[deal_hash]
    if current.boards:
        chunks.append(current)
    return chunks


def _parallel(chunks: list[Chunk], jobs: int, backend: str) -> Iterator[ChunkResult]:
    """Results of ``solve_chunk`` over chunks, in order, computed in worker processes.

    ``loky`` uses a process pool even for one job (joblib would run a single job in this
    process, where a crash in DDS would take the whole run down); ``dask`` goes through
    joblib's dask backend onto the connected cluster.
    """
    chunks = list(chunks)  # the caller pops finished chunks from its own list
    if backend == "loky":
        from joblib.externals.loky import get_reusable_executor

        executor = get_reusable_executor(max_workers=jobs, timeout=60)
        window = max(2 * jobs, 2)  # a few chunks in flight: workers never wait, memory stays low
        futures = [executor.submit(solve_chunk, chunk) for chunk in chunks[:window]]
        for index in range(len(chunks)):
            result = futures[index].result()
            futures[index] = None  # let the result go once it is handed over
            if index + window < len(chunks):
                futures.append(executor.submit(solve_chunk, chunks[index + window]))
            yield result
        return
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend=backend, n_jobs=jobs):
        yield from Parallel(return_as="generator")(delayed(solve_chunk)(c) for c in chunks)


def run_chunks(
    chunks: Iterable[Chunk], jobs: int, backend: str = "loky", retries: int = 1
) -> Iterator[ChunkResult]:
    """Run chunks in parallel and yield each result as it comes, in order.

    Parameters
    ----------
    chunks : iterable of Chunk
    jobs : int
        Worker processes (loky) or tasks at once (dask).
    backend : {"loky", "dask"}
        joblib backend; "dask" needs a ``dask.distributed.Client`` already connected.
    retries : int
        Times a chunk whose worker died is run again alone before its boards fail.

    Notes
    -----
    A worker's death ends the parallel run it belonged to: the chunk at its head is run
    alone, and the chunks after it start a new parallel run.
    """
    pending = list(chunks)
    deaths: dict[int, int] = {}
    while pending:
        try:
            for result in _parallel(pending, jobs, backend):
                pending.pop(0)
                yield result
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as problem:  # noqa: BLE001 - a worker died: isolate the chunk
            result = _alone(pending[0], backend, retries, deaths, problem)
            pending.pop(0)
            yield result


def _alone(
    chunk: Chunk, backend: str, retries: int, deaths: dict[int, int], problem: Exception
) -> ChunkResult:
    """Run a suspect chunk by itself; after ``retries`` deaths its boards fail."""
    deaths[chunk.number] = deaths.get(chunk.number, 0) + 1
    while True:
        try:
            return next(_parallel([chunk], 1, backend))
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as again:  # noqa: BLE001
            deaths[chunk.number] += 1
            if deaths[chunk.number] > retries:
                name = type(again).__name__ or type(problem).__name__
                return failed_chunk(chunk, f"worker died {deaths[chunk.number]} times ({name})")
