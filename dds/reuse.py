"""What the dds stage takes from the DD store before solving, and gives it after.

Before the chunks are cut, :meth:`StoreReuse.lookup` asks the store for the tables of the
deals the run needs and does not hold, the traces of the plays, the opening-lead values of
the plays that are a lead alone and the par scores of the boards to analyse; the workers get
them with their boards and solve only the rest. As each chunk is committed,
:meth:`StoreReuse.keep` offers the store what that chunk solved. The counts say, for the
run's summary, what came from the store and what was solved.

Nothing the store gives is used unchecked (:mod:`~bridgerank.dds.store_checks`): a value that
breaks what double dummy values obey is removed from the store and solved live; a sample
solved live that contradicts the store makes the run take nothing from it, and each value the
solver then contradicts is removed from the store as the run keeps the solver's. Either way
the run's summary carries one warning naming the store and what was wrong.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from bridgerank.bridge.ddtable import DDTable
from bridgerank.dds.analysis import lead_request, needs_table, play_request
from bridgerank.dds.dd_store import DDStore, ParKey, shown_location
from bridgerank.dds.solver import LeadRequest, LeadValues, PlayRequest
from bridgerank.dds.store_checks import Findings, contradicted, violations
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

    def __init__(
        self, store: DDStore | None, boards: list[dict[str, Any]], verify: int = 300
    ) -> None:
        self.store = store
        self.verify = verify
        self._boards = {board["id"]: board for board in boards}
        self._deals = {board["deal_hash"]: board["deal"] for board in boards}
        self.tables_solved = 0
        self.traces_solved = 0
        self.leads_solved = 0
        self.checked: dict[str, int] = {}  # values solved live to check the store, by kind
        self.wrong: Counter[str] = Counter()  # the store's values found wrong, by kind
        # set when a sample contradicted the store: what it gave, to compare with the solver
        self.suspects: Reused | None = None

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
        self._screen(reused, known)
        return reused

    def _screen(self, reused: Reused, known: Mapping[str, DDTable]) -> None:
        """Check what the store gave (see the module docstring); leave in ``reused`` only
        what may be used."""
        bad = violations(
            reused.tables, reused.traces, reused.pars, reused.leads, self._boards, known
        )
        self._drop(reused, bad)
        sampled = (
            contradicted(reused.tables, reused.traces, reused.leads, self._boards, self.verify)
            if self.verify
            else Findings()
        )
        self.checked = dict(bad.checked + sampled.checked)
        if len(sampled):
            self.suspects = Reused(
                dict(reused.tables), dict(reused.traces), dict(reused.pars), 0, dict(reused.leads)
            )
            reused.tables, reused.traces, reused.pars, reused.leads = {}, {}, {}, {}
        reused.plays = len({self._play(board_id) for board_id in reused.traces})

    def _play(self, board_id: int) -> PlayRequest | None:
        return play_request(self._boards[board_id])

    def _drop(self, reused: Reused, bad: Findings) -> None:
        """Take values found wrong out of ``reused`` and out of the store, and count them."""
        for deal_hash in bad.tables:
            reused.tables.pop(deal_hash, None)
        for board_id in bad.traces:
            reused.traces.pop(board_id, None)
        for board_id in bad.pars | bad.unchecked:
            reused.pars.pop(board_id, None)
        for lead in bad.leads:
            reused.leads.pop(lead, None)
        # counted as the store's rows: boards that share a deal share its trace and par
        traces = {play for board_id in bad.traces if (play := self._play(board_id))}
        pars = {key for board_id in bad.pars if (key := _par_key(self._boards[board_id]))}
        self.wrong.update(
            tables=len(bad.tables), traces=len(traces), pars=len(pars), leads=len(bad.leads)
        )
        if self.store is None or not len(bad):
            return
        self.store.remove_tables(self._deals[deal_hash] for deal_hash in bad.tables)
        self.store.remove_traces(traces)
        self.store.remove_pars(pars)
        self.store.remove_leads(bad.leads)

    def _contradicted(self, result: ChunkResult) -> Findings:
        """What the store gave and this chunk's solver contradicts (after a sample did)."""
        found = Findings()
        suspects = self.suspects
        if suspects is None:
            return found
        for deal_hash, table, _ in result.tables:
            if table is not None and suspects.tables.get(deal_hash, table) != table:
                found.tables.add(deal_hash)
        for board_id, trace in suspects.traces.items():
            play = self._play(board_id)
            if play in result.traces and result.traces[play] != trace:
                found.traces.add(board_id)
        for lead, values in result.leads.items():
            if suspects.leads.get(lead, values) != values:
                found.leads.add(lead)
        for board in result.boards:
            par = None if board.evidence is None else board.evidence["ns_par"]
            if par is not None and suspects.pars.get(board.board_id, par) != par:
                found.pars.add(board.board_id)
        return found

    def warning(self) -> str | None:
        """One line on what the store gave that was wrong or damaged, or None."""
        if self.store is None:
            return None
        wrong = {kind: count for kind, count in self.wrong.items() if count}
        parts = []
        if wrong:
            listed = ", ".join(f"{count:,} {kind}" for kind, count in wrong.items())
            parts.append(f"{sum(wrong.values()):,} wrong values ({listed})")
        if self.store.malformed:
            parts.append(f"{self.store.malformed:,} damaged rows")
        if not parts:
            return None
        trusted = (
            "a sample solved live contradicted it, so this run took nothing from it; "
            if self.suspects is not None
            else ""
        )
        return (
            f"the DD store at {shown_location(self.store.location)} gave "
            f"{' and '.join(parts)}: {trusted}removed from it and solved live"
        )

    def keep(self, result: ChunkResult, reused: Reused) -> None:
        """Count what a committed chunk solved and offer it to the store (first removing
        from it what the solver contradicts, when a sample found the store wrong)."""
        tables = {self._deals[h]: table for h, table, _ in result.tables if table is not None}
        self.tables_solved += len(tables)
        self.traces_solved += len(result.traces)
        self.leads_solved += len(result.leads)
        if self.store is None:
            return
        if self.suspects is not None:
            self._drop(Reused(), self._contradicted(result))
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
