"""What one run of the ``dds`` stage did: :class:`DdsSummary`."""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgerank.core.summary import StageSummary, plural
from bridgerank.core.untrusted import visible
from bridgerank.dds.lead_baselines import LeadBaselines

__all__ = ["DdsSummary"]

# What each kind of value checked live is called in a summary (singular).
_CHECKED = {"tables": "table", "traces": "play trace", "leads": "opening-lead set"}


@dataclass
class DdsSummary(StageSummary):
    """The boards a dds run analysed, the tables it solved and the players it summed.

    Attributes
    ----------
    boards : int
        Boards in ``boards``: analysed before plus analysed now.
    analysed_now : int
        Boards without a current analysis, analysed by this run.
    already_done : int
        Boards whose analysis was current (same board, same analysis code).
    ok, skipped, failed : int
        This run's boards by outcome: analysed, nothing to analyse, not analysable (DDS
        rejected the deal, or the worker died).
    new_tables : int
        Double dummy tables solved by this run (a deal is solved once, for good).
    tables_from_store, traces_from_store : int
        Tables and play traces this run took from the DD store instead of solving them.
    traces_solved : int
        Play traces this run solved.
    leads_from_store, leads_solved : int
        Opening-lead values (every lead of a deal, strain and leader) this run took from the
        DD store, and solved, for the boards whose play is their lead alone.
    leads : LeadBaselines or None
        The opening leads valued in the database, beside a random lead.
    store : str
        Where the DD store is (``off``: none, everything solved live).
    store_warnings : list of str
        Why the store could not be read or written, or what it gave that was wrong (the run
        solved instead).
    checked_live : dict of str to int
        Values taken from the store and solved again live to check it, by kind (tables,
        traces, leads; :mod:`~bridgerank.dds.store_checks`).
    shipped_read : int
        Tables bridgerank ships, read into the store by this run (its first use of it).
    chunks : int
        Pieces of work the boards were sent to the workers in.
    players : int
        Rows of ``player_stats``.
    worker_table_seconds, worker_play_seconds : float
        Time the workers spent solving tables and judging plays, summed over workers.
    reasons : dict of str to int
        Why boards were skipped or failed: reason -> a board it happened to (at most 20).
    auction_counters : str
        What the auction counters count: ``par`` or ``thesis`` (``[dds] auction_counters``).
    call_threshold_imps : int or None
        The least a call counted as a mistake gave away, in IMPs (``par`` only).
    call_threshold_mp : float or None
        The same in shares of a top on matchpointed boards with a field.
    matchpointed_boards : int
        Boards whose calls were judged against a field, in matchpoints.
    """

    boards: int = 0
    analysed_now: int = 0
    already_done: int = 0
    ok: int = 0
    skipped: int = 0
    failed: int = 0
    new_tables: int = 0
    chunks: int = 0
    players: int = 0
    worker_table_seconds: float = 0.0
    worker_play_seconds: float = 0.0
    reasons: dict[str, int] = field(default_factory=dict)
    tables_from_store: int = 0
    traces_from_store: int = 0
    traces_solved: int = 0
    store: str = ""
    store_warnings: list[str] = field(default_factory=list)
    shipped_read: int = 0
    leads_from_store: int = 0
    leads_solved: int = 0
    leads: LeadBaselines | None = None
    checked_live: dict[str, int] = field(default_factory=dict)
    # what the auction counters count and the least a mistaken call gives away, in IMPs
    # (``[dds] auction_counters``, ``call_threshold_imps``); a run before they existed
    # counted the thesis's verdicts
    auction_counters: str = "thesis"
    call_threshold_imps: int | None = None
    call_threshold_mp: float | None = None
    matchpointed_boards: int = 0

    def solved(self) -> str:
        """``tables: 289 from the DD store, 0 solved; play traces: 0 from it, 467 solved``
        (and the opening leads', when any board's play is its lead alone)."""
        leads = (
            f"; opening leads: {self.leads_from_store:,} from it, {self.leads_solved:,} solved"
            if self.leads_from_store or self.leads_solved
            else ""
        )
        checked = {kind: count for kind, count in self.checked_live.items() if count}
        check = (
            "; checked live: "
            + ", ".join(plural(count, _CHECKED.get(kind, kind)) for kind, count in checked.items())
            if checked
            else ""
        )
        return (
            f"tables: {self.tables_from_store:,} from the DD store, {self.new_tables:,} solved; "
            f"play traces: {self.traces_from_store:,} from it, {self.traces_solved:,} solved"
            + leads
            + check
        )

    def lines(self) -> list[str]:
        """The boards analysed, then one line per reason a board was not."""
        return [
            f"dds: {plural(self.analysed_now, 'board')} analysed in {self.seconds:.1f} s "
            f"({self.skipped:,} skipped, {self.failed:,} failed), {self.already_done:,} done "
            f"before; {plural(self.players, 'player')}",
            f"  {self.solved()}" + (f" (store: {visible(self.store)})" if self.store else ""),
            *(
                [f"  the DD store's first use: {self.shipped_read:,} shipped tables read into it"]
                if self.shipped_read
                else []
            ),
            *([f"  {self.leads.line()}"] if self.leads is not None and self.leads.leads else []),
            *(
                [
                    f"  calls on {plural(self.matchpointed_boards, 'board')} of matchpointed "
                    "pair events judged in shares of a top against their fields"
                ]
                if self.matchpointed_boards
                else []
            ),
            *(f"  board {board}: {visible(str(reason))}" for reason, board in self.reasons.items()),
        ]

    def warnings(self) -> list[str]:
        """The DD store's trouble, if any (the run went on solving)."""
        return [f"warning: {visible(text)}" for text in self.store_warnings]

    def brief(self) -> str:
        """``245 boards, 0 failed, 44 players; tables: 30 from the DD store, 0 solved; ...``."""
        done = f"{self.boards:,} boards, {self.failed:,} failed, {self.players:,} players"
        # a run of a version before the DD store said nothing of it: nor does its brief
        return f"{done}; {self.solved()}" if self.store else done
