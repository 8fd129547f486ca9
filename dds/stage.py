"""The ``dds`` stage: boards in; dd_tables, card_analysis, auction_analysis, seat_stats,
player_stats and player_rates out.

Work is incremental: a board is analysed once for a given content and analysis code (its
``board_analysis.digest``); tables are computed once per distinct deal and kept for good.
Before solving, the DD store every database on the machine shares (:mod:`dds.dd_store`) is
asked for the tables, play traces and par scores it holds (:mod:`dds.reuse`); what the run
solves is given back to it as each chunk is committed.
Chunks are committed as they finish, so an interrupted run resumes where it stopped; the
per-player tables and the ledger row are written at the end, in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from typing import Any, Iterator

from sqlalchemy import Connection, delete, func, select

from bridgerank.bridge.ddtable import DDTable
from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.match.lookup import person_lookup
from bridgerank.cleaning.match.tables import SeatPerson
from bridgerank.core.codehash import code_fingerprint
from bridgerank.core.errors import BridgerankError
from bridgerank.core.stage import Stage, StageContext
from bridgerank.core.store import upsert
from bridgerank.dds.analysis import BOARD_FIELDS, BoardResult
from bridgerank.dds.call_fields import FIELD_COLUMNS, attach_fields
from bridgerank.dds.call_values import CallRules
from bridgerank.dds.counters import COUNTERS, OPPORTUNITIES, rates
from bridgerank.dds.dd_store import DDStore, open_dd_store, shown_location
from bridgerank.dds.lead_reading import read_lead_baselines
from bridgerank.dds.reuse import StoreReuse
from bridgerank.dds.shipped import load_shipped
from bridgerank.dds.shipped_leads import load_shipped_leads
from bridgerank.dds.solver import solver_version
from bridgerank.dds.summary import DdsSummary
from bridgerank.dds.tables import (
    AuctionAnalysis,
    BoardAnalysis,
    CallAnalysis,
    CardAnalysis,
    PlayerRates,
    PlayerStats,
    SeatStats,
    StoredDDTable,
    TableEvidence,
)
from bridgerank.dds.workers import WORKER_DIED, ChunkResult, plan_chunks, run_chunks

# A board's analysis depends on its fields and on the code a worker runs on it: the analysis
# module and all it imports (verdicts, counters, scoring, the solver and endplay's version).
ANALYSIS_MODULE = "bridgerank.dds.analysis"
_PER_BOARD = (
    CardAnalysis,
    AuctionAnalysis,
    CallAnalysis,
    TableEvidence,
    SeatStats,
    BoardAnalysis,
)


def _digest(board: dict[str, Any], code: str) -> str:
    # the field a matchpointed board's calls are judged against is part of its input
    payload = json.dumps(
        [code] + [board[name] for name in BOARD_FIELDS] + [board["field"]], default=str
    )
    return hashlib.sha1(payload.encode()).hexdigest()[:16]


def _boards_to_do(
    conn, code: str, min_tables: int, every: bool = False
) -> tuple[list[dict[str, Any]], int, int]:
    """Boards without a current analysis (``every``: all of them); stale analyses are
    deleted. Returns (todo, kept, boards judged against a field in matchpoints: a deal
    played at ``min_tables`` tables or more of its event).

    A board whose worker died is not done: its analysis is deleted and it runs again (a
    board DDS itself rejected stays failed until the analysis code or the solver changes).
    """
    boards = [
        dict(row)
        for row in conn.execute(
            select(*(getattr(Board, name) for name in BOARD_FIELDS + FIELD_COLUMNS)).order_by(
                Board.id
            )
        ).mappings()
    ]
    fielded = attach_fields(boards, min_tables)
    done = dict(
        conn.execute(
            select(BoardAnalysis.board_id, BoardAnalysis.digest).where(
                ~((BoardAnalysis.status == "failed") & BoardAnalysis.reason.startswith(WORKER_DIED))
            )
        ).all()
    )
    lost = set(
        conn.execute(
            select(BoardAnalysis.board_id).where(
                (BoardAnalysis.status == "failed") & BoardAnalysis.reason.startswith(WORKER_DIED)
            )
        ).scalars()
    )
    todo, stale = [], []
    for board in boards:
        digest = _digest(board, code)
        board["digest"] = digest
        if every or done.get(board["id"]) != digest:
            todo.append(board)
            if board["id"] in done or board["id"] in lost:
                stale.append(board["id"])
    for start in range(0, len(stale), 500):
        ids = stale[start : start + 500]
        for model in _PER_BOARD:
            conn.execute(delete(model).where(model.board_id.in_(ids)))
    return todo, len(boards) - len(todo), fielded


def _commit_chunk(engine, result: ChunkResult, digests: dict[int, str]) -> None:
    with engine.begin() as conn:
        if result.tables:
            upsert(
                conn,
                StoredDDTable,
                [
                    {"deal_hash": h, "tricks": table.hex if table else None, "error": error}
                    for h, table, error in result.tables
                ],
            )
        cards = [row for board in result.boards for row in board.cards]
        sides = [row for board in result.boards for row in board.sides]
        calls = [row for board in result.boards for row in board.calls]
        seats = [row for board in result.boards for row in board.seats]
        evidence = [board.evidence for board in result.boards if board.evidence]
        for model, rows in (
            (CardAnalysis, cards),
            (AuctionAnalysis, sides),
            (CallAnalysis, calls),
            (TableEvidence, evidence),
            (SeatStats, seats),
        ):
            if rows:
                conn.execute(model.__table__.insert(), rows)
        conn.execute(
            BoardAnalysis.__table__.insert(),
            [
                {
                    "board_id": board.board_id,
                    "digest": digests[board.board_id],
                    "status": board.status,
                    "reason": board.reason,
                    "has_play": board.has_play,
                    "has_auction": board.has_auction,
                }
                for board in result.boards
            ],
        )


def aggregate_players(conn) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Sum ``seat_stats`` per player: rows of ``player_stats`` and ``player_rates``. A seat is
    its person (:mod:`cleaning.match.lookup`); one that is no one to rate is left out."""
    lookup = person_lookup(conn)
    seat_names = {
        row.id: {
            seat: lookup.player(raw, row.event) if raw else ("", None)
            for seat, raw in zip("NESW", (row.north, row.east, row.south, row.west))
        }
        for row in conn.execute(
            select(Board.id, Board.event, Board.north, Board.east, Board.south, Board.west)
        )
    }
    totals: dict[tuple[str, int | None], dict[str, float]] = defaultdict(
        lambda: dict.fromkeys(COUNTERS + ("boards",), 0)
    )
    columns = [SeatStats.board_id, SeatStats.seat] + [getattr(SeatStats, c) for c in COUNTERS]
    for row in conn.execute(select(*columns)):
        key = seat_names[row[0]][row[1]]
        if not key[0]:
            continue
        total = totals[key]
        total["boards"] += 1
        for name, value in zip(COUNTERS, row[2:]):
            total[name] += value
    stats, rate_rows = [], []
    used: set[str] = set()
    for (name, player_id), total in sorted(totals.items(), key=lambda item: item[0][0]):
        label = name if name not in used else f"{name} (player {player_id})"
        used.add(label)
        stats.append({"player": label, "player_id": player_id, **total})
        rate_rows.append(
            {
                "player": label,
                "player_id": player_id,
                **{name: total[name] for name in OPPORTUNITIES},
                **rates(total),
            }
        )
    return stats, rate_rows


def _lost_boards(context: StageContext) -> str | None:
    """Boards whose worker died (not DDS's verdict on them): the next run analyses them."""
    with context.engine.connect() as conn:
        lost = conn.execute(
            select(func.count()).where(
                (BoardAnalysis.status == "failed") & BoardAnalysis.reason.startswith(WORKER_DIED)
            )
        ).scalar_one()
    return f"{lost:,} boards whose worker died, to analyse again" if lost else None


def failed_boards(conn: Connection) -> dict[str, int]:
    """Boards the dds stage could not analyse, by reason (the solver's message, or the
    worker's death)."""
    rows = conn.execute(
        select(BoardAnalysis.reason, func.count())
        .where(BoardAnalysis.status == "failed")
        .group_by(BoardAnalysis.reason)
    ).all()
    counts: dict[str, int] = {}
    for reason, count in rows:
        key = WORKER_DIED if reason.startswith(WORKER_DIED) else reason
        counts[key] = counts.get(key, 0) + count
    return counts


def _failed_detail(context: StageContext) -> str | None:
    """What ``bridgerank status`` adds to the last run's brief: the boards that could not be
    analysed, by reason, as the tables hold them now."""
    with context.engine.connect() as conn:
        failed = failed_boards(conn)
    if not failed:
        return None
    return "failed: " + ", ".join(
        f"{count:,} {reason[:60]}" for reason, count in sorted(failed.items())
    )


def _threads(jobs: int, setting: int) -> int:
    return setting or max(1, (os.cpu_count() or 1) // max(jobs, 1))


def _connect_dask(address: str, jobs: int) -> Any:
    """A client of the cluster at ``address``, or of a local cluster of ``jobs`` processes.

    Local workers get one thread each: DDS solves one deal at a time per process anyway
    (:mod:`bridgerank.dds.solver`), and uses the cores through the processes.
    """
    from dask.distributed import Client

    try:
        if address:
            return Client(address, timeout=20)
        return Client(
            processes=True,
            n_workers=jobs,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
        )
    except (OSError, TimeoutError) as problem:
        error = BridgerankError(f"cannot reach the Dask scheduler at {address}: {problem}")
        error.hint = "Start one with `dask scheduler`, or set [dds] scheduler to its address"
        raise error from None


def _open_store(setting: str) -> tuple[DDStore | None, int, list[str]]:
    """The DD store the settings name, with the shipped tables read into it on its first
    use: (store, shipped tables read now, warnings)."""
    store = open_dd_store(setting, solver_version())
    if store is None:
        return None, 0, []
    warnings = []
    try:
        shipped = load_shipped(store)
    except BridgerankError as problem:  # a damaged install: solve, and say so
        shipped = 0
        warnings.append(f"the shipped double dummy tables were not read: {problem}")
    try:
        load_shipped_leads(store)
    except BridgerankError as problem:
        warnings.append(f"the shipped opening-lead values were not read: {problem}")
    return store, shipped, warnings


def run(context: StageContext) -> DdsSummary:
    """Analyse every board not yet analysed (see the module docstring)."""
    section = context.settings.dds
    rules = CallRules(
        section.call_threshold_imps, section.auction_counters, section.call_threshold_mp
    )
    # the rules are part of every board's analysis: a change reanalyses every board
    code = code_fingerprint(ANALYSIS_MODULE) + "|" + rules.fingerprint
    store, shipped, warnings = _open_store(section.store)
    with context.engine.begin() as conn:
        # --force redoes every board and trusts no table the database took earlier (from a
        # store that may since have been found wrong): each is taken again, checked, or solved
        todo, kept, fielded = _boards_to_do(
            conn, code, section.call_min_tables, every=context.force
        )
        known = (
            {}
            if context.force
            else {
                h: DDTable.from_hex(t)
                for h, t in conn.execute(select(StoredDDTable.deal_hash, StoredDDTable.tricks))
                if t is not None
            }
        )
        reuse = StoreReuse(store, todo, section.verify)
        reused = reuse.lookup(known)
        # The database keeps its own copy: its boards never depend on the store being there.
        upsert(
            conn,
            StoredDDTable,
            [{"deal_hash": h, "tricks": t.hex, "error": None} for h, t in reused.tables.items()],
        )
        known.update(reused.tables)
    client = _connect_dask(section.scheduler, context.jobs) if section.backend == "dask" else None
    # Workers on this machine die with this run: loky's, and a local cluster's.
    local = section.backend != "dask" or not section.scheduler
    chunks = plan_chunks(
        todo,
        known,
        section.chunk_deals,
        section.chunk_boards,
        _threads(context.jobs, section.dds_threads),
        os.getpid() if local else None,
        workers=context.jobs,
        known_traces=reused.traces,
        known_pars=reused.pars,
        known_leads=reused.leads,
        rules=rules,
    )
    digests = {board["id"]: board["digest"] for board in todo}
    for board in todo:
        del board["digest"]
    counts = {
        "ok": 0,
        "skipped": 0,
        "failed": 0,
        "tables": 0,
        "table_seconds": 0.0,
        "play_seconds": 0.0,
    }

    def committed_boards(results: Iterator[ChunkResult]) -> Iterator[BoardResult]:
        """Commit each chunk as it arrives; yield its boards (for the progress bar)."""
        for result in results:
            _commit_chunk(context.engine, result, digests)
            reuse.keep(result, reused)
            for board in result.boards:
                counts[board.status] += 1
            counts["tables"] += sum(1 for _, table, _ in result.tables if table)
            counts["table_seconds"] += result.table_seconds
            counts["play_seconds"] += result.play_seconds
            yield from result.boards

    try:
        results = run_chunks(chunks, context.jobs, section.backend, section.retries, client)
        for _ in context.progress(committed_boards(results), "dds boards", len(todo)):
            pass
    finally:
        if client is not None:
            client.close()
        if store is not None:
            store.close()
    if store is not None and store.warning:
        warnings.append(store.warning)
    if (wrong := reuse.warning()) is not None:
        warnings.append(wrong)
    with context.engine.begin() as conn:
        stats, rate_rows = aggregate_players(conn)
        failures = dict(
            conn.execute(
                select(BoardAnalysis.reason, BoardAnalysis.board_id)
                .where(BoardAnalysis.status != "ok")
                .limit(20)
            ).all()
        )
        conn.execute(delete(PlayerRates))
        conn.execute(delete(PlayerStats))
        if stats:
            conn.execute(PlayerStats.__table__.insert(), stats)
            conn.execute(PlayerRates.__table__.insert(), rate_rows)
        summary = DdsSummary(
            boards=kept + len(todo),
            analysed_now=len(todo),
            already_done=kept,
            ok=int(counts["ok"]),
            skipped=int(counts["skipped"]),
            failed=int(counts["failed"]),
            new_tables=int(counts["tables"]),
            tables_from_store=len(reused.tables),
            traces_from_store=reused.plays,
            traces_solved=reuse.traces_solved,
            leads_from_store=len(reused.leads),
            leads_solved=reuse.leads_solved,
            leads=read_lead_baselines(conn),
            store=shown_location(store.location) if store is not None else "off",
            shipped_read=shipped,
            store_warnings=warnings,
            checked_live=reuse.checked,
            auction_counters=rules.counters,
            call_threshold_imps=rules.threshold_imps,
            call_threshold_mp=rules.threshold_mp,
            matchpointed_boards=fielded,
            chunks=len(chunks),
            players=len(stats),
            worker_table_seconds=round(counts["table_seconds"], 2),
            worker_play_seconds=round(counts["play_seconds"], 2),
            reasons=dict(failures),
        )
        context.finish(conn, summary)
    return summary


def _kept(conn: Connection) -> str:
    """What an interrupted dds run keeps: every committed chunk's boards."""
    analysed = conn.execute(select(func.count()).select_from(BoardAnalysis)).scalar_one()
    return f"{analysed:,} boards analysed (a rerun does not analyse them again)"


DDS_STAGE = Stage(
    name="dds",
    run=run,
    reads=(Board,),
    optional_reads=(SeatPerson,),
    writes=(
        StoredDDTable,
        BoardAnalysis,
        CardAnalysis,
        AuctionAnalysis,
        CallAnalysis,
        TableEvidence,
        SeatStats,
        PlayerStats,
        PlayerRates,
    ),
    settings_sections=("dds",),
    incomplete=_lost_boards,
    summary_type=DdsSummary,
    status_detail=_failed_detail,
    kept=_kept,
)
