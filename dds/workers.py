"""Chunks of boards solved in worker processes: loky's pool here, or a Dask cluster.

A worker gets a chunk (boards, the tables already known for their deals, the deals still to
solve), calls DDS, analyses each board and returns rows; it never touches the database. The
parent commits each finished chunk in one transaction as :func:`run_chunks` yields it, so an
interrupted run resumes from the last committed chunk.

A chunk whose worker dies (a crash in native code, an out-of-memory kill, a lost node) is run
again: alone, on loky; on another worker, by the Dask scheduler. If it keeps killing its
workers its boards are returned as failed with a reason that starts :data:`WORKER_DIED`, and
the next run tries them again. An exception raised inside a worker is a bug: it is raised
here, never recorded as a failure. Workers on this machine die with the process that
started them, so a ``kill -9`` of a run leaves no solver computing for nobody.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from bridgerank.bridge.ddtable import DDTable
from bridgerank.core.errors import BridgerankError
from bridgerank.core.pool import in_order
from bridgerank.dds.analysis import (
    BoardResult,
    analyse_board,
    lead_of_play,
    lead_request,
    lead_trace,
    needs_table,
    play_request,
)
from bridgerank.dds.call_values import CallRules
from bridgerank.dds.solver import (
    LeadRequest,
    LeadValues,
    PlayRequest,
    set_threads,
    solve_leads,
    solve_plays,
    solve_tables,
)

# Fault injection for tests: a worker given this board id kills itself, like a DDS segfault.
CRASH_ENV = "BRIDGERANK_TEST_CRASH_BOARD"
# The reason of boards whose worker died: not the boards' fault, so the next run retries them.
WORKER_DIED = "worker died"
# Seconds a Dask run waits with no worker in the cluster before it gives up, saying so.
NO_WORKERS_PATIENCE = 60.0


@dataclass
class Chunk:
    """Work for one worker call."""

    number: int
    boards: list[dict[str, Any]]
    known_tables: dict[str, DDTable]  # deal hash -> table, for deals solved earlier
    new_deals: dict[str, str]  # deal hash -> PBN deal, tables to solve here
    threads: int = 0
    parent: int | None = None  # pid of the run on this machine that the worker dies with
    # board id -> its play's trace and its par score, when the DD store knew them
    known_traces: dict[int, list[int]] = field(default_factory=dict)
    known_pars: dict[int, int] = field(default_factory=dict)
    # opening-lead values the DD store knew, for the boards whose play is the lead alone
    known_leads: dict[LeadRequest, LeadValues] = field(default_factory=dict)
    rules: CallRules = field(default_factory=CallRules)  # how calls are judged and counted


@dataclass
class ChunkResult:
    """What a worker returns: new tables and per-board results."""

    number: int
    tables: list[tuple[str, DDTable | None, str | None]] = field(default_factory=list)
    boards: list[BoardResult] = field(default_factory=list)
    traces: dict[PlayRequest, list[int]] = field(default_factory=dict)  # solved here
    leads: dict[LeadRequest, LeadValues] = field(default_factory=dict)  # solved here
    table_seconds: float = 0.0  # spent in DDS tables, in the worker
    play_seconds: float = 0.0  # spent in DDS play traces


def solve_chunk(chunk: Chunk) -> ChunkResult:
    """Solve and analyse one chunk (runs in a worker; pure apart from DDS)."""
    if chunk.parent is not None:
        _die_with(chunk.parent)
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
    traces: dict[int, tuple[list[int] | None, str | None]] = {
        board_id: (trace, None) for board_id, trace in chunk.known_traces.items()
    }
    started = time.perf_counter()
    requests = {board["id"]: play_request(board) for board in chunk.boards}
    lead_of = {board_id: lead_of_play(request) for board_id, request in requests.items()}
    leads = _lead_values(chunk, {lead for lead in lead_of.values() if lead is not None}, result)
    for board_id, lead in lead_of.items():
        if lead is not None and board_id not in traces:
            values, error = leads[lead]
            card = requests[board_id].cards[0]  # type: ignore[union-attr]
            trace = None if values is None else lead_trace(values, card)
            traces[board_id] = (trace, error or (None if trace else "lead card not valued"))
    to_solve = [
        (board, request)
        for board in chunk.boards
        if (request := requests[board["id"]]) is not None and board["id"] not in traces
    ]
    solved_plays = solve_plays([request for _, request in to_solve])
    result.play_seconds = time.perf_counter() - started
    for (board, request), (trace, trace_error) in zip(to_solve, solved_plays):
        traces[board["id"]] = (trace, trace_error)
        if trace is not None:
            result.traces[request] = trace
    for board in chunk.boards:
        trace, trace_error = traces.get(board["id"], (None, None))
        lead = lead_of[board["id"]]
        result.boards.append(
            analyse_board(
                board,
                tables.get(board["deal_hash"]),
                trace,
                table_error=errors.get(board["deal_hash"]),
                trace_error=trace_error,
                par=chunk.known_pars.get(board["id"]),
                lead_values=None if lead is None else leads[lead][0],
                rules=chunk.rules,
            )
        )
    return result


def _lead_values(
    chunk: Chunk, wanted: set[LeadRequest], result: ChunkResult
) -> dict[LeadRequest, tuple[LeadValues | None, str | None]]:
    """The values of the ``wanted`` opening leads (the chunk's plays that are a lead alone):
    from the DD store when it knew them, else solved here (once a deal, strain and leader,
    however many tables met them) and returned in ``result.leads``."""
    values: dict[LeadRequest, tuple[LeadValues | None, str | None]] = {
        lead: (chunk.known_leads[lead], None) for lead in wanted if lead in chunk.known_leads
    }
    missing = sorted(wanted - set(values))
    for lead, solved in zip(missing, solve_leads(missing)):
        values[lead] = solved
        if solved[0] is not None:
            result.leads[lead] = solved[0]
    return values


_watched: int | None = None


def _die_with(parent: int) -> None:
    """End this worker process when ``parent`` is gone (checked every second, in a thread;
    DDS releases the interpreter's lock while it solves, so the check runs meanwhile)."""
    global _watched
    if _watched == parent:
        return
    _watched = parent

    original = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != original and original == parent:
                os._exit(1)  # reparented: the run exited (it may linger as a zombie)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # alive, and someone else's: not ours to judge
                continue

    threading.Thread(target=watch, name="bridgerank-parent-watch", daemon=True).start()


def failed_chunk(chunk: Chunk, reason: str) -> ChunkResult:
    """The result of a chunk whose worker kept dying: every board failed with the reason."""
    return ChunkResult(
        chunk.number, [], [BoardResult(board["id"], "failed", reason) for board in chunk.boards]
    )


def plan_chunks(
    boards: list[dict[str, Any]],
    known: dict[str, DDTable],
    max_new_deals: int,
    max_boards: int,
    threads: int = 0,
    parent: int | None = None,
    workers: int = 1,
    known_traces: dict[int, list[int]] | None = None,
    known_pars: dict[int, int] | None = None,
    known_leads: dict[LeadRequest, LeadValues] | None = None,
    rules: CallRules | None = None,
) -> list[Chunk]:
    """Cut boards into chunks; all boards of a deal go to one chunk, with that deal's table.

    A chunk holds at most ``max_new_deals`` deals to solve (DDS's table batch) and, as far as
    whole deals allow, ``max_boards`` boards. With several ``workers``, a set too small to give
    each of them a chunk is cut finer, so that none idles (40 deals were one chunk, and one
    worker, whatever ``--jobs`` said). ``known_traces`` and ``known_pars`` (board id -> what
    the DD store knew of it) go with their boards, and ``known_leads`` with the boards whose
    play is that lead. ``rules`` go with every chunk.
    """
    rules = rules or CallRules()
    known_traces = known_traces or {}
    known_pars = known_pars or {}
    known_leads = known_leads or {}
    by_deal: dict[str, list[dict[str, Any]]] = {}
    for board in boards:
        by_deal.setdefault(board["deal_hash"], []).append(board)
    if workers > 1:
        to_solve = sum(
            1
            for deal_hash, group in by_deal.items()
            if deal_hash not in known and any(needs_table(board) for board in group)
        )
        max_new_deals = min(max_new_deals, max(1, -(-to_solve // workers)))
        max_boards = min(max_boards, max(1, -(-len(boards) // workers)))
    chunks: list[Chunk] = []
    current = Chunk(0, [], {}, {}, threads, parent, rules=rules)
    for deal_hash in sorted(by_deal):
        group = by_deal[deal_hash]
        new = deal_hash not in known and any(needs_table(board) for board in group)
        if current.boards and (
            len(current.new_deals) + new > max_new_deals
            or len(current.boards) + len(group) > max_boards
        ):
            chunks.append(current)
            current = Chunk(len(chunks), [], {}, {}, threads, parent, rules=rules)
        current.boards.extend(group)
        for board in group:
            if board["id"] in known_traces:
                current.known_traces[board["id"]] = known_traces[board["id"]]
            if board["id"] in known_pars:
                current.known_pars[board["id"]] = known_pars[board["id"]]
            lead = lead_request(board) if known_leads else None
            if lead is not None and lead in known_leads:
                current.known_leads[lead] = known_leads[lead]
        if new:
            current.new_deals[deal_hash] = group[0]["deal"]
        elif deal_hash in known:
            current.known_tables[deal_hash] = known[deal_hash]
    if current.boards:
        chunks.append(current)
    return chunks


def _on_loky(chunks: list[Chunk], jobs: int) -> Iterator[ChunkResult]:
    """Results of ``solve_chunk`` over chunks, in order, from loky's pool of processes.

    A pool even for one job: joblib would run a single job in this process, where a crash in
    DDS would take the whole run down.
    """
    # a copy: the caller pops finished chunks from its own list; a few chunks in flight
    yield from in_order(solve_chunk, list(chunks), jobs, window=max(2 * jobs, 2))


def _worker_deaths() -> tuple[type[BaseException], ...]:
    from joblib.externals.loky.process_executor import BrokenProcessPool, TerminatedWorkerError

    return (TerminatedWorkerError, BrokenProcessPool)


def _loky_chunks(chunks: Iterable[Chunk], jobs: int, retries: int) -> Iterator[ChunkResult]:
    """Chunks on loky; a worker's death ends the pool's run: the chunk at its head is run
    alone, and the chunks after it start a new run."""
    pending = list(chunks)
    deaths = _worker_deaths()
    while pending:
        try:
            for result in _on_loky(pending, jobs):
                pending.pop(0)
                yield result
        except deaths:
            yield _alone(pending.pop(0), retries)


def _alone(chunk: Chunk, retries: int) -> ChunkResult:
    """Run a chunk whose worker died by itself; after ``retries`` more deaths its boards fail."""
    for _ in range(retries):
        try:
            return next(_on_loky([chunk], 1))
        except _worker_deaths():
            continue
    return failed_chunk(chunk, f"{WORKER_DIED} {retries + 1} times")


def _dask_chunks(
    chunks: Iterable[Chunk], jobs: int, client: Any, patience: float = NO_WORKERS_PATIENCE
) -> Iterator[ChunkResult]:
    """Chunks on a Dask cluster, at most ``jobs`` in flight; each result as it comes.

    The scheduler runs a chunk whose worker died again on another worker; one that kills
    workers again and again comes back as ``KilledWorker`` and its boards fail. A cluster
    with no worker left for ``patience`` seconds is an error, never a silent wait.
    """
    from distributed import KilledWorker, wait

    pending = list(chunks)
    in_flight: dict[Any, Chunk] = {}
    alone_since: float | None = None
    try:
        while pending or in_flight:
            while pending and len(in_flight) < jobs:
                chunk = pending.pop(0)
                in_flight[client.submit(solve_chunk, chunk, pure=False)] = chunk
            try:
                done = wait(list(in_flight), timeout=2.0, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                done = set()
            for future in done:
                chunk = in_flight.pop(future)
                try:
                    result = future.result()
                except KilledWorker as problem:
                    result = failed_chunk(chunk, f"{WORKER_DIED} (Dask: {problem})")
                yield result
            if done or client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > patience:
                raise BridgerankError(
                    f"the Dask cluster at {client.scheduler.address} has had no worker for "
                    f"{patience:.0f} s; {len(pending) + len(in_flight)} chunks are not done"
                )
    finally:
        if in_flight:
            client.cancel(list(in_flight))


def run_chunks(
    chunks: Iterable[Chunk],
    jobs: int,
    backend: str = "loky",
    retries: int = 1,
    client: Any = None,
) -> Iterator[ChunkResult]:
    """Run chunks in parallel and yield each result as it comes.

    Parameters
    ----------
    chunks : iterable of Chunk
    jobs : int
        Worker processes (loky), or chunks in flight at once on the cluster (dask).
    backend : {"loky", "dask"}
    retries : int
        Times a chunk whose loky worker died is run again alone before its boards fail
        (on Dask, the scheduler's ``allowed-failures`` decides).
    client : dask.distributed.Client, optional
        The connected client, for ``backend="dask"``.
    """
    if backend == "dask":
        if client is None:
            raise BridgerankError("the dask backend needs a connected dask.distributed client")
        yield from _dask_chunks(chunks, jobs, client)
    else:
        yield from _loky_chunks(chunks, jobs, retries)
