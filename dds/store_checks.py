"""Values taken from the DD store, checked before a run uses them.

A store is a file anyone on the machine (or a team's server, or a ``dd import``) may have
written, so nothing it gives is used as solved until it passes two checks:

* **what double dummy values obey**, on every value, for free: a trace starts at its deal's
  table entry for the contract played (strain, declarer on the leader's right), and no card
  moves it the wrong way (a card of declarer's side never raises declarer's tricks, a
  defender's never lowers them; a card may cost more than one trick, as a blocked suit does,
  so the size of a step is not bounded); the opening leads' best value is the table's entry
  for that strain and declarer; a par score is what DDS's par makes of the table and the
  board's dealer and vulnerability;
* **a sample solved live**: ``[dds] verify`` of the values the run takes, drawn at random
  over all of them (tables, traces and opening-lead sets in proportion, each kind taken at
  least once) - a table checked by one entry drawn at random, solved alone
  (:func:`~bridgerank.dds.solver.solve_best`), a trace at one whole trick drawn at random
  (the cards left solved alone: its value there is the tricks declarer's side won before
  and takes after), a lead set by one lead card's value. With 300, a store of which 1% of
  the values a run takes are wrong is caught with probability 1 - 0.99^300 = 95%; a run that
  takes fewer than 300 checks every one.

A value that fails the first check is removed from the store and solved live. A sample that
finds a value the solver contradicts means the store cannot be trusted: the run takes
nothing from it and solves everything live (:mod:`~bridgerank.dds.reuse` then removes from
the store every value the solver contradicts and keeps the solver's).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from bridgerank.bridge.cards import deal_to_pbn, parse_deal
from bridgerank.bridge.ddtable import DDS_STRAINS, DDTable
from bridgerank.cleaning.clean.play import trick_winner
from bridgerank.dds.analysis import play_request
from bridgerank.dds.card_verdicts import seats_of
from bridgerank.dds.solver import (
    LeadRequest,
    LeadValues,
    PlayRequest,
    par_score,
    solve_best,
    solve_plays,
)
from bridgerank.dds.table_evidence import dealer_of

__all__ = ["Findings", "contradicted", "violations"]


@dataclass
class Findings:
    """Values found wrong, by kind: deal hashes, board ids and lead requests."""

    tables: set[str] = field(default_factory=set)
    traces: set[int] = field(default_factory=set)
    pars: set[int] = field(default_factory=set)
    leads: set[LeadRequest] = field(default_factory=set)
    # par scores that could not be checked (their table was wrong): left out, not counted
    unchecked: set[int] = field(default_factory=set)
    checked: Counter[str] = field(default_factory=Counter)  # values solved live, by kind

    def __len__(self) -> int:
        return len(self.tables) + len(self.traces) + len(self.pars) + len(self.leads)


def _declarer(request: PlayRequest | LeadRequest) -> int:
    """Declarer: the seat on the opening leader's right."""
    return (request.leader + 3) % 4


def _entry(deal: str, strain: str, declarer: int) -> LeadRequest:
    """The request that solves one table entry alone: the leader on declarer's left."""
    return LeadRequest(deal, (declarer + 1) % 4, strain)


def _moves_right(trace: list[int], seats: list[int], declarer: int) -> bool:
    """Whether no card of a trace moves it the wrong way (see the module)."""
    for seat, before, after in zip(seats, trace, trace[1:]):
        declarers = seat % 2 == declarer % 2
        if (declarers and after > before) or (not declarers and after < before):
            return False
    return True


def violations(
    tables: Mapping[str, DDTable],
    traces: Mapping[int, list[int]],
    pars: Mapping[int, int],
    leads: Mapping[LeadRequest, LeadValues],
    boards: Mapping[int, Mapping[str, Any]],
    known: Mapping[str, DDTable],
) -> Findings:
    """The store's values that break what double dummy values obey (see the module).

    Where a trace's start or a lead set's best value disagrees with a table the store gave,
    one of the two is wrong: the table's entry is solved alone to tell which. A par score
    whose table was found wrong cannot be checked and is left out of the run (in
    ``unchecked``), not counted wrong.

    Parameters
    ----------
    tables : mapping
        Deal hash -> table, from the store.
    traces, pars : mapping
        Board id -> trace, North-South's par, from the store.
    leads : mapping
        Lead request -> values, from the store.
    boards : mapping
        Board id -> ``boards`` row of the run.
    known : mapping
        Deal hash -> table the database holds (its own, trusted).
    """
    found = Findings()
    by_deal = {board["deal"]: board["deal_hash"] for board in boards.values()}
    # (deal hash, strain, declarer) -> the values that claim that entry: a trace's start or
    # a lead set's best, against a table of the store
    disputes: dict[tuple[str, str, int], list[tuple[Any, int]]] = {}

    def against_table(deal_hash: str, strain: str, declarer: int, claim: Any, value: int) -> None:
        table = known.get(deal_hash)
        if table is not None:  # the database's own: the claim alone is wrong
            if table.tricks(strain, declarer) != value:
                _add(found, claim)
        elif deal_hash in tables and tables[deal_hash].tricks(strain, declarer) != value:
            disputes.setdefault((deal_hash, strain, declarer), []).append((claim, value))

    for board_id, trace in traces.items():
        board = boards[board_id]
        request = play_request(board)
        if request is None:
            continue
        seats = seats_of(board["play_order"])[: len(request.cards)]
        if not _moves_right(trace, seats, _declarer(request)):
            found.traces.add(board_id)
        else:
            against_table(board["deal_hash"], request.trump, _declarer(request), board_id, trace[0])
    for lead, values in leads.items():
        deal_hash = by_deal.get(lead.deal)
        if deal_hash is not None:
            against_table(deal_hash, lead.trump, _declarer(lead), lead, min(values.values()))
    _settle(found, disputes, tables, boards)
    # a deal's rooms share their dealer and vulnerability: each par is worked out once
    worked: dict[tuple[str, int, bool, bool], int] = {}
    for board_id, par in pars.items():
        board = boards[board_id]
        dealer = dealer_of(board)
        table = known.get(board["deal_hash"]) or tables.get(board["deal_hash"])
        if table is None or dealer is None:
            continue
        if board["deal_hash"] in found.tables:
            found.unchecked.add(board_id)
            continue
        key = (
            board["deal_hash"],
            dealer,
            bool(board["ns_vulnerable"]),
            bool(board["ew_vulnerable"]),
        )
        if key not in worked:
            worked[key] = par_score(table, *key[1:])
        if par != worked[key]:
            found.pars.add(board_id)
    return found


def _add(found: Findings, claim: Any) -> None:
    """A trace (its board id) or a lead set (its request) found wrong."""
    if isinstance(claim, LeadRequest):
        found.leads.add(claim)
    else:
        found.traces.add(claim)


def _settle(
    found: Findings,
    disputes: Mapping[tuple[str, str, int], list[tuple[Any, int]]],
    tables: Mapping[str, DDTable],
    boards: Mapping[int, Mapping[str, Any]],
) -> None:
    """Solve each disputed table entry alone: whoever disagrees with the solver is wrong."""
    deal_of = {board["deal_hash"]: board["deal"] for board in boards.values()}
    entries = list(disputes)
    solved = solve_best([_entry(deal_of[h], strain, declarer) for h, strain, declarer in entries])
    found.checked["tables"] += len(entries)
    for (deal_hash, strain, declarer), truth in zip(entries, solved):
        if truth is None:  # unsolvable here: neither can be trusted
            found.tables.add(deal_hash)
            for claim, _ in disputes[(deal_hash, strain, declarer)]:
                _add(found, claim)
            continue
        if tables[deal_hash].tricks(strain, declarer) != truth:
            found.tables.add(deal_hash)
        for claim, value in disputes[(deal_hash, strain, declarer)]:
            if value != truth:
                _add(found, claim)


def _shares(counts: Mapping[str, int], size: int) -> dict[str, int]:
    """``size`` values drawn over the kinds in proportion to what the run takes of each
    (every kind it takes gets at least one, as ``size`` allows), or all of them."""
    total = sum(counts.values())
    if total <= size:
        return dict(counts)
    shares = {kind: min(count, 1) for kind, count in counts.items()}
    spare = size - sum(shares.values())
    if spare <= 0:
        return shares
    exact = {kind: spare * count / total for kind, count in counts.items()}
    for kind in counts:
        shares[kind] = min(counts[kind], shares[kind] + int(exact[kind]))
    # the remainders, largest first, until the size is reached
    for kind in sorted(counts, key=lambda kind: exact[kind] - int(exact[kind]), reverse=True):
        if sum(shares.values()) >= size:
            break
        if shares[kind] < counts[kind]:
            shares[kind] += 1
    return shares


def _after_tricks(request: PlayRequest, tricks: int) -> tuple[LeadRequest, int, bool]:
    """The deal left after the first ``tricks`` whole tricks of a play: the request that
    solves it (its leader the last trick's winner), the tricks declarer's side won so far,
    and whether the leader is of declarer's side."""
    hands = [set(hand) for hand in parse_deal(request.deal)]
    declarer, leader, won = _declarer(request), request.leader, 0
    for first in range(0, 4 * tricks, 4):
        trick = list(request.cards[first : first + 4])
        for offset, card in enumerate(trick):
            hands[(leader + offset) % 4].discard(card)
        leader = trick_winner(trick, leader, request.trump)
        won += leader % 2 == declarer % 2
    north, east, south, west = (frozenset(hand) for hand in hands)
    left = deal_to_pbn((north, east, south, west))
    return LeadRequest(left, leader, request.trump), won, leader % 2 == declarer % 2


def _traces_wrong(
    traces: Mapping[int, list[int]],
    plays: list[tuple[int, PlayRequest]],
    rng: random.Random,
) -> set[int]:
    """The drawn traces the solver contradicts. A trace is checked at one whole trick drawn
    at random, its value there solved from the cards left (a single solve, a tenth of
    tracing the play again); a play of fewer than four cards is traced again whole."""
    wrong: set[int] = set()
    short = [(board_id, request) for board_id, request in plays if len(request.cards) < 4]
    for (board_id, _), (trace, _) in zip(short, solve_plays([r for _, r in short])):
        if trace is not None and trace != traces[board_id]:
            wrong.add(board_id)
    checks = []
    for board_id, request in plays:
        if len(request.cards) >= 4:
            tricks = rng.randint(1, min(12, len(request.cards) // 4))
            checks.append((board_id, tricks, *_after_tricks(request, tricks)))
    solved = solve_best([left for _, _, left, _, _ in checks])
    for (board_id, tricks, _left, won, leading), others in zip(checks, solved):
        if others is None:  # unsolvable here: unchecked, not wrong
            continue
        remaining = 13 - tricks
        value = won + (remaining - others if leading else others)
        if value != traces[board_id][4 * tricks]:
            wrong.add(board_id)
    return wrong


def contradicted(
    tables: Mapping[str, DDTable],
    traces: Mapping[int, list[int]],
    leads: Mapping[LeadRequest, LeadValues],
    boards: Mapping[int, Mapping[str, Any]],
    size: int,
    rng: random.Random | None = None,
) -> Findings:
    """``size`` of the values a run takes, drawn at random over all its tables, traces and
    lead sets alike, and solved live; the ones the solver contradicts (see the module)."""
    rng = rng or random.Random()
    found = Findings()
    deal_of = {board["deal_hash"]: board["deal"] for board in boards.values()}
    shares = _shares({"tables": len(tables), "traces": len(traces), "leads": len(leads)}, size)

    def drawn(keys: list[Any], kind: str) -> list[Any]:
        return keys if len(keys) <= shares[kind] else rng.sample(keys, shares[kind])

    entries = []
    for deal_hash in drawn(sorted(tables), "tables"):
        strain, declarer = rng.choice(DDS_STRAINS), rng.randrange(4)
        entries.append((deal_hash, declarer, strain, _entry(deal_of[deal_hash], strain, declarer)))
    solved = solve_best([request for *_, request in entries])
    for (deal_hash, declarer, strain, _), tricks in zip(entries, solved):
        if tricks is not None and tricks != tables[deal_hash].tricks(strain, declarer):
            found.tables.add(deal_hash)
    found.checked["tables"] += len(entries)
    plays = [
        (board_id, request)
        for board_id in drawn(sorted(traces), "traces")
        if (request := play_request(boards[board_id])) is not None
    ]
    found.traces |= _traces_wrong(traces, plays, rng)
    found.checked["traces"] += len(plays)
    cards = []
    for request in drawn(sorted(leads), "leads"):
        card = rng.choice(sorted(leads[request]))
        cards.append(
            (request, card, PlayRequest(request.deal, request.leader, request.trump, (card,)))
        )
    for (request, card, _), (trace, _) in zip(cards, solve_plays([play for *_, play in cards])):
        if trace is not None and trace[1] != leads[request][card]:
            found.leads.add(request)
    found.checked["leads"] += len(cards)
    return found
