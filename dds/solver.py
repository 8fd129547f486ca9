"""The boundary with DDS (through endplay): batched tables and play traces, guarded.

Guards against endplay's and DDS's warts:

* ``calc_all_tables`` takes at most 40 deals (DDS's MAXNOOFTABLES) and fails above that with
  an unrelated error: batches here never exceed it; ``analyse_all_plays`` at most 200 boards;
* a failed solve writes ``dump.txt`` into the working directory: every call runs inside a
  private temporary directory;
* a batch that fails is retried deal by deal, so one bad deal costs only itself; its error
  is returned as the reason, never raised;
* DDS keeps per-process state (its thread memory, the working directory it dumps into) and
  crashes when two solves run at once in one process, as they do in a Dask worker with
  several threads: every call here holds one process-wide lock, whatever the caller's
  threads.

Tables are returned as :class:`~bridgerank.bridge.ddtable.DDTable`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from typing import Iterator, NamedTuple, Sequence

from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable

TABLE_BATCH = 40
PLAY_BATCH = 200
# SolveAllBoards takes at most 200 boards (DDS's MAXNOOFBOARDS).
LEAD_BATCH = 200
_workdir: str | None = None
# One DDS call at a time in this process (re-entrant: a solve may set the thread count).
_DDS_LOCK = threading.RLock()


@contextlib.contextmanager
def _in_private_dir() -> Iterator[None]:
    """Run DDS alone in this process, in a directory of our own where its ``dump.txt``
    harms nothing (the directory is the process's: hence the lock around the change too)."""
    global _workdir
    with _DDS_LOCK:
        if _workdir is None or not os.path.isdir(_workdir):
            _workdir = tempfile.mkdtemp(prefix="bridgerank-dds-")
        previous = os.getcwd()
        os.chdir(_workdir)
        try:
            yield
        finally:
            os.chdir(previous)


_threads_set: int | None = None


def set_threads(threads: int) -> None:
    """Cap DDS's own worker threads in this process (0 lets DDS choose).

    DDS reallocates its per-thread memory on every call, so it is called only on a change.
    """
    global _threads_set
    with _DDS_LOCK:
        if threads == _threads_set:
            return
        from endplay import _dds

        _dds.SetMaxThreads(threads)
        _threads_set = threads


def solver_version() -> str:
    """The solver's version, the key under which its results are kept (:mod:`dds.dd_store`).

    endplay bundles its own build of DDS, so endplay's version names the solver; a value
    solved by another version is never trusted.
    """
    from importlib.metadata import version

    return f"endplay {version('endplay')}"


class PlayRequest(NamedTuple):
    """A play to trace: deal (PBN), opening leader seat, trump (``N`` for no trump), cards."""

    deal: str
    leader: int
    trump: str
    cards: tuple[str, ...]


class LeadRequest(NamedTuple):
    """An opening lead to value: deal (PBN), opening leader seat, trump (``N`` for no trump).

    Every table that met the deal with the same strain and declarer shares its values.
    """

    deal: str
    leader: int
    trump: str


# A lead's values: card (``SA``, ``HT``) -> declarer side's tricks after that card is led.
LeadValues = dict[str, int]


def _tables_batch(deals: Sequence[str]) -> list[DDTable]:
    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    with _in_private_dir():
        return [
            DDTable.from_rows(table._data.resTable)
            for table in calc_all_tables([Deal(d) for d in deals])
        ]


def solve_tables(deals: Sequence[str]) -> list[tuple[DDTable | None, str | None]]:
    """Double dummy tables of deals.

    Returns
    -------
    list of (table, error)
        One per deal, in order: the table, or None and the solver's error.
    """
    results: list[tuple[DDTable | None, str | None]] = []
    for start in range(0, len(deals), TABLE_BATCH):
        batch = deals[start : start + TABLE_BATCH]
        try:
            results.extend((table, None) for table in _tables_batch(batch))
        except Exception:  # any solver failure: isolate the bad deal
            for deal in batch:
                try:
                    results.append((_tables_batch([deal])[0], None))
                except Exception as problem:  # recorded as the board's reason
                    results.append((None, f"DDS table: {problem}"))
    return results


def _endplay_deal(request: PlayRequest):
    from endplay.types import Deal, Denom, Player

    deal = Deal(request.deal)
    deal.first = Player(request.leader)
    deal.trump = Denom(DDS_STRAINS.index(request.trump))
    return deal


def _plays_batch(requests: Sequence[PlayRequest]) -> list[list[int]]:
    from endplay.dds import analyse_all_plays

    with _in_private_dir():
        solved = analyse_all_plays(
            [_endplay_deal(r) for r in requests], [list(r.cards) for r in requests]
        )
        return [list(trace) for trace in solved]


def solve_plays(requests: Sequence[PlayRequest]) -> list[tuple[list[int] | None, str | None]]:
    """Double dummy traces of plays: ``len(cards) + 1`` values for declarer's side each.

    Returns
    -------
    list of (trace, error)
        One per request, in order.
    """
    results: list[tuple[list[int] | None, str | None]] = []
    for start in range(0, len(requests), PLAY_BATCH):
        batch = requests[start : start + PLAY_BATCH]
        try:
            traces = _plays_batch(batch)
            results.extend(_checked(trace, request) for trace, request in zip(traces, batch))
        except Exception:  # any solver failure: isolate the bad request
            for request in batch:
                try:
                    results.append(_checked(_plays_batch([request])[0], request))
                except Exception as problem:  # recorded as the board's reason
                    results.append((None, f"DDS play: {problem}"))
    return results


def _card_name(card) -> str:
    """endplay's card as bridgerank writes it: suit letter then rank (``SA``, ``DT``)."""
    return "SHDC"[card.suit.value] + card.rank.abbr


def _lead_deals(requests: Sequence[LeadRequest]) -> list:
    """endplay's deals of lead requests: the leader on lead, the strain trumps."""
    from endplay.types import Deal, Denom, Player

    deals = []
    for request in requests:
        deal = Deal(request.deal)
        deal.first = Player(request.leader)
        deal.trump = Denom(DDS_STRAINS.index(request.trump))
        deals.append(deal)
    return deals


def _leads_batch(requests: Sequence[LeadRequest]) -> list[LeadValues]:
    from endplay.dds import solve_all_boards

    deals = _lead_deals(requests)
    with _in_private_dir():
        solved = solve_all_boards(deals)
        # DDS counts the tricks of the side on lead; declarer's side takes the rest
        return [{_card_name(card): 13 - tricks for card, tricks in board} for board in solved]


def solve_leads(requests: Sequence[LeadRequest]) -> list[tuple[LeadValues | None, str | None]]:
    """Every opening lead's double dummy value: one solve a deal, strain and leader.

    Returns
    -------
    list of (values, error)
        One per request, in order: card -> declarer side's tricks after that lead (all 13
        cards of the leader's hand), or None and the solver's error.
    """
    results: list[tuple[LeadValues | None, str | None]] = []
    for start in range(0, len(requests), LEAD_BATCH):
        batch = requests[start : start + LEAD_BATCH]
        try:
            results.extend(_checked_leads(values) for values in _leads_batch(batch))
        except Exception:  # any solver failure: isolate the bad request
            for request in batch:
                try:
                    results.append(_checked_leads(_leads_batch([request])[0]))
                except Exception as problem:  # recorded as the board's reason
                    results.append((None, f"DDS leads: {problem}"))
    return results


def _best_batch(requests: Sequence[LeadRequest]) -> list[int]:
    from endplay.dds import solve_all_boards
    from endplay.dds.solve import SolveMode

    deals = _lead_deals(requests)
    # a deal part played holds fewer cards a hand: the tricks left are as many
    left = [len(deal[deal.first]) for deal in deals]
    with _in_private_dir():
        solved = solve_all_boards(deals, mode=SolveMode.OptimalOne)
        # the side on lead's tricks with its best card; declarer's side takes the rest
        return [
            tricks_left - max(tricks for _, tricks in board)
            for tricks_left, board in zip(left, solved)
        ]


def solve_best(requests: Sequence[LeadRequest]) -> list[int | None]:
    """Declarer side's tricks against the best opening lead: one entry of the deal's table
    (strain ``trump``, declarer on the leader's right), solved alone - about a tenth of what
    a whole table costs, so a stored table can be checked by one entry drawn at random.

    A request's deal may be one part played (every hand holding as many cards, after whole
    tricks): the tricks are then of the cards left, the side on the leader's right taking
    those the leader's side does not - how a stored play trace is checked at one trick.

    Returns
    -------
    list of int or None
        One per request, in order; None where the solver failed.
    """
    results: list[int | None] = []
    for start in range(0, len(requests), LEAD_BATCH):
        batch = requests[start : start + LEAD_BATCH]
        try:
            results.extend(_best_batch(batch))
        except Exception:  # any solver failure: isolate the bad request
            for request in batch:
                try:
                    results.append(_best_batch([request])[0])
                except Exception:  # unchecked, not wrong
                    results.append(None)
    return results


def _checked_leads(values: LeadValues) -> tuple[LeadValues | None, str | None]:
    """Values of all 13 cards of a hand, or an error (DDS returned another count)."""
    if len(values) == 13:
        return values, None
    return None, f"DDS leads: {len(values)} cards valued, not 13"


def _checked(trace: list[int], request: PlayRequest) -> tuple[list[int] | None, str | None]:
    """A trace of ``len(cards) + 1`` values, or an error.

    DDS stops after the 48th card: the last trick is forced, so its values repeat the last.
    """
    cards = len(request.cards)
    if len(trace) == cards + 1:
        return trace, None
    if cards > 48 and len(trace) == 49:
        return trace + [trace[-1]] * (cards - 48), None
    return None, f"DDS play: {len(trace)} values for {cards} cards"


def par_score(table: DDTable, dealer: int, ns_vulnerable: bool, ew_vulnerable: bool) -> int:
    """Double dummy par score for North-South (DDS's Par through endplay) from a stored table.

    Parameters
    ----------
    table : DDTable
    dealer : int
        Dealer's seat (0 = North): par depends on who may bid first.
    """
    from endplay import _dds
    from endplay.dds import par
    from endplay.dds.ddtable import DDTable as EndplayTable
    from endplay.types import Player, Vul

    results = _dds.ddTableResults()
    for strain, row in enumerate(table.rows):
        for seat, tricks in enumerate(row):
            results.resTable[strain][seat] = tricks
    vulnerability = {
        (False, False): Vul.none,
        (True, True): Vul.both,
        (True, False): Vul.ns,
        (False, True): Vul.ew,
    }[(bool(ns_vulnerable), bool(ew_vulnerable))]
    with _in_private_dir():
        return int(par(EndplayTable(results), vulnerability, Player(dealer)).score)
