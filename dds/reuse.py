"""What the dds stage takes from the DD store before solving, and gives it after.

Before the chunks are cut, :meth:`StoreReuse.lookup` asks the store for the tables of the
deals the run needs and does not hold, the traces of the plays, the opening-lead values of
the plays that are a lead alone and the par scores of the boards to analyse; the workers get
them with their boards and solve only the rest. As each chunk is committed,
:meth:`StoreReuse.keep` offers the store what that chunk solved. The counts say, for the
run's summary, what came from the store and what was solved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.analysis import lead_request, needs_table, play_request
from bridgerank.dds.dd_store import DDStore, ParKey
from bridgerank.dds.solver import LeadRequest, LeadValues
from bridgerank.dds.table_evidence import dealer_of, has_result
from bridgerank.dds.workers import ChunkResult

__all__ = ["Reused", "StoreReuse"]


@dataclass
class Reused:
    """What the store knew of one run's boards."""

    tables: dict[str, DDTable] = field(default_factory=dict)  # deal hash -> table
    traces: dict[int, list[int]] = field(default_factory=dict)  # board id -> trace
    pars: dict[int, int] = field(default_factory=dict)  # board id -> North-South's par
    plays: int = 0  # distinct plays among ``traces`` (a record kept twice is one play)
    # opening-lead values of the boards whose play is the lead alone
    leads: dict[LeadRequest, LeadValues] = field(default_factory=dict)


def _par_key(board: Mapping[str, Any]) -> ParKey | None:
    """What a board's par depends on, or None when it has no par to score."""
    dealer = dealer_of(board)
    if dealer is None or not has_result(board):
        return None
    return ParKey(board["deal"], dealer, bool(board["ns_vulnerable"]), bool(board["ew_vulnerable"]))


class StoreReuse:
    """The dds stage's dealings with one store (or with none: everything is then solved).

    Parameters
    ----------
    store : DDStore or None
    boards : list of dict
        The boards this run analyses (``boards`` rows).
    """

    def __init__(self, store: DDStore | None, boards: list[dict[str, Any]]) -> None:
        self.store = store
        self._boards = {board["id"]: board for board in boards}
        self._deals = {board["deal_hash"]: board["deal"] for board in boards}
        self.tables_solved = 0
        self.traces_solved = 0
        self.leads_solved = 0

    def lookup(self, known: Mapping[str, DDTable]) -> Reused:
        """What the store holds of this run's boards; ``known`` are the tables the database
        already has (not asked for again)."""
        reused = Reused()
        if self.store is None:
            return reused
        wanted = {
            board["deal"]: board["deal_hash"]
            for board in self._boards.values()
            if board["deal_hash"] not in known and needs_table(board)
        }
        reused.tables = {
            wanted[deal]: table for deal, table in self.store.tables(list(wanted)).items()
        }
        requests = {
            board_id: request
            for board_id, board in self._boards.items()
            if (request := play_request(board)) is not None
        }
        found = self.store.traces(requests.values())
        reused.plays = len(found)
        reused.traces = {
            board_id: found[request] for board_id, request in requests.items() if request in found
        }
        keys = {
            board_id: key for board_id, board in self._boards.items() if (key := _par_key(board))
        }
        pars = self.store.pars(keys.values())
        reused.pars = {board_id: pars[key] for board_id, key in keys.items() if key in pars}
        leads = {lead for board in self._boards.values() if (lead := lead_request(board))}
        reused.leads = self.store.leads(leads)
        return reused

    def keep(self, result: ChunkResult, reused: Reused) -> None:
        """Count what a committed chunk solved and offer it to the store."""
        tables = {self._deals[h]: table for h, table, _ in result.tables if table is not None}
        self.tables_solved += len(tables)
        self.traces_solved += len(result.traces)
        self.leads_solved += len(result.leads)
        if self.store is None:
            return
        pars: dict[ParKey, int] = {}
        for board in result.boards:
            if board.evidence is None or board.evidence["ns_par"] is None:
                continue
            if board.board_id in reused.pars:
                continue
            key = _par_key(self._boards[board.board_id])
            if key is not None:
                pars[key] = board.evidence["ns_par"]
        self.store.add_tables(tables)
        self.store.add_traces(result.traces)
        self.store.add_leads(result.leads)
        self.store.add_pars(pars)
