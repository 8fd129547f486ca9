"""The cleaning rules: one raw record in, one clean board (or none) and its issues out.

This module is pure: no database, no files. :func:`clean_record` applies the checks in the
order of :mod:`cleaning.reasons` and returns every issue it found, so the stage can write
``boards`` and ``exclusions`` and the tests can call it directly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from bridgerank.bridge.auction import (
    PASSED_OUT,
    Contract,
    final_contract,
    parse_contract,
    validate_auction,
)
from bridgerank.bridge.cards import SEATS, deal_hash, deal_to_pbn, parse_deal, seat_after
from bridgerank.bridge.scoring import north_south_score
from bridgerank.bridge.tokens import normalise_call, normalise_card
from bridgerank.cleaning.clean import fields
from bridgerank.cleaning.clean.play import replay
from bridgerank.core.errors import BadRecord
from bridgerank.core.sections import CleanSettings

NAME_FIELDS = ("northname", "eastname", "southname", "westname")
# An entry longer than this is no stratum (``299:NE`` is seven characters): cut to fit.
ENTRY_CHARS = 24


@dataclass
class Outcome:
    """What cleaning made of one record.

    ``board`` is None when the record is excluded; ``issues`` holds ``(level, code, detail)``
    triples for every exclusion, blanking and note.
    """

    board: dict[str, Any] | None
    issues: list[tuple[str, str, str]] = field(default_factory=list)


def _tokens(raw: str | None, normalise, kind: str, counts: Counter | None) -> list[str]:
    out: list[str] = []
    for token in (raw or "").split():
        canonical, status = normalise(token)
        if counts is not None:
            counts[(kind, token, status)] += 1
        out.extend(canonical)
    return out


def _auction(
    values: Mapping[str, str], first_seat: int | None, issues: list, counts: Counter | None
) -> list[str] | None:
    calls = _tokens(values.get("auction"), normalise_call, "call", counts)
    try:
        if not calls:
            raise BadRecord("auction_missing", "no recognisable call")
        if first_seat is None:
            raise BadRecord("auction_no_first_bidder", "no dealer and no first bidder")
        validate_auction(calls, first_seat)
    except BadRecord as problem:
        issues.append(("auction", problem.reason, problem.detail))
        return None
    return calls


def _first_seat(values: Mapping[str, str], issues: list) -> int | None:
    bidstart = fields.seat(values.get("bidstart"))
    dealer = fields.seat(values.get("dealer"))
    if bidstart is not None and dealer is not None and bidstart != dealer:
        issues.append(
            ("note", "dealer_conflict", f"dealer {SEATS[dealer]}, first bidder {SEATS[bidstart]}")
        )
    return bidstart if bidstart is not None else dealer


def clean_record(
    values: Mapping[str, str],
    play_layout: str = "seat",
    token_counts: Counter | None = None,
    *,
    settings: CleanSettings,
) -> Outcome:
    """Clean one raw record.

    Parameters
    ----------
    values : mapping
        Raw field values (:data:`cleaning.records.RAW_FIELDS`); missing keys count as empty.
    play_layout : {"seat", "played"}
        How the record writes its tricks (:mod:`cleaning.play`).
    token_counts : Counter, optional
        Updated with ``(kind, raw token, status)`` for every auction and play token seen.
    settings : CleanSettings
        The ``[clean]`` section (:func:`bridgerank.core.settings.default_settings` has the
        shipped one).

    Returns
    -------
    Outcome
        The clean board (keys as the ``boards`` table) or None, and every issue.

    Notes
    -----
    Board-level checks stop at the first failure, in the order of the thesis's Table 5.
    Unlike the thesis, a declarer is compared with the auction only when the auction is
    legal (the thesis compared it with "passed out" when the auction was missing, and
    so dropped boards whose only defect was a missing auction).
    """
    issues: list[tuple[str, str, str]] = []
    try:
        board = _clean(values, play_layout, settings, issues, token_counts)
    except BadRecord as problem:
        issues.append(("board", problem.reason, problem.detail))
        return Outcome(None, issues)
    return Outcome(board, issues)


def _clean(
    values: Mapping[str, str],
    play_layout: str,
    settings: CleanSettings,
    issues: list,
    counts: Counter | None,
) -> dict[str, Any]:
    names = [fields.player_name(values.get(name)) for name in NAME_FIELDS]
    if not any(names):
        raise BadRecord("all_names_missing", "")
    unplayed = fields.unplayed_result(values.get("contract"), values.get("score"))
    if unplayed:
        raise BadRecord(*unplayed)
    deal = parse_deal(values.get("deal"))
    board_no = fields.board_number(values.get("board"))

    first_seat = _first_seat(values, issues)
    calls = _auction(values, first_seat, issues, counts)

    raw_contract = parse_contract(values.get("contract"))
    contract: Contract | str | None = raw_contract
    declarer = fields.seat(values.get("declarer"))
    if calls is not None:
        auction_contract, auction_declarer = final_contract(calls, first_seat)  # type: ignore[arg-type]
        implied = auction_contract or PASSED_OUT
        if raw_contract is not None and raw_contract != implied:
            raise BadRecord("contract_mismatch", f"contract {raw_contract}, auction {implied}")
        contract = implied
        if declarer is not None and declarer != auction_declarer:
            implied_seat = "passed out" if auction_declarer is None else SEATS[auction_declarer]
            raise BadRecord(
                "declarer_mismatch", f"declarer {SEATS[declarer]}, auction {implied_seat}"
            )
        declarer = auction_declarer

    lead = fields.seat(values.get("lead"))
    passed_out = contract == PASSED_OUT
    if declarer is not None and not passed_out:
        expected_lead = seat_after(declarer, 1)
        if lead is not None and lead != expected_lead:
            raise BadRecord("lead_mismatch", f"lead {SEATS[lead]}, declarer {SEATS[declarer]}")
        lead = expected_lead
    elif declarer is None and lead is not None and isinstance(contract, Contract):
        declarer = seat_after(lead, 3)  # PBN's [Play] names the opening leader

    raw_cards = _tokens(values.get("play"), normalise_card, "card", counts)
    if not raw_cards and values.get("lead_card"):
        # a traveller gives the opening lead alone: a play of one card, judged as a lead
        raw_cards = _tokens(values.get("lead_card"), normalise_card, "card", counts)
        play_layout = "played"
    play = None
    if passed_out:
        if any(card != "-" for card in raw_cards):
            raise BadRecord("passed_out_with_play", f"{len(raw_cards)} cards")
    elif not raw_cards or lead is None or not isinstance(contract, Contract):
        missing = "play" if not raw_cards else ("lead" if lead is None else "contract")
        issues.append(("play", "play_missing", f"no {missing}"))
    else:
        try:
            play = replay(raw_cards, play_layout, lead, deal, contract.strain)
        except BadRecord as problem:
            issues.append(("play", problem.reason, problem.detail))

    result = fields.trick_count(values.get("result"), declarer)
    if result is None and not passed_out:
        raw_result = (values.get("result") or "").strip()
        issues.append(("note", "result_invalid", repr(raw_result) if raw_result else "missing"))
    claim = None
    if play is not None and len(play.cards) == 1:
        # Nobody has seen dummy play a card: a record that stops here almost always stopped
        # being kept, and read as a claim it judges the players on tricks never played.
        issues.append(("note", "play_not_recorded", f"only the lead {play.cards[0]}"))
    elif play is not None and not play.complete and result is not None:
        left = 13 - play.tricks_played
        if result < play.declarer_tricks or result - play.declarer_tricks > left:
            raise BadRecord(
                "claim_inconsistent",
                f"result {result}, declarer had {play.declarer_tricks} with {left} tricks left",
            )
        claim = result

    ns_vul, ew_vul, vul_note = fields.vulnerability(
        values.get("vulnerable"),
        board_no if settings.infer_vulnerability_from_board else None,
    )
    if vul_note:
        issues.append(("note", vul_note, repr(values.get("vulnerable") or "")))
    year = fields.year(
        values.get("date"), values.get("event"), settings.first_year, settings.latest_year
    )
    if year is None:
        issues.append(("note", "year_unknown", repr(values.get("date") or "")))
    recorded = fields.side_score(values.get("score"))
    if (
        recorded is not None
        and isinstance(contract, Contract)
        and declarer is not None
        and result is not None
        and ns_vul is not None
        and ew_vul is not None
    ):
        computed = north_south_score(
            contract.level,
            contract.strain,
            contract.doubled,
            declarer,
            ns_vul,
            ew_vul,
            result,
            year,
        )
        if computed != recorded:
            issues.append(
                (
                    "note",
                    "score_mismatch",
                    f"recorded NS {recorded}, {contract} by {SEATS[declarer]} making "
                    f"{result} scores NS {computed}",
                )
            )

    return {
        "event": fields.event_name(values.get("event")),
        "site": (values.get("site") or "").strip(),
        "date": (values.get("date") or "").strip(),
        "year": year,
        "board_no": board_no,
        "room": (values.get("room") or "").strip(),
        "home_team": (values.get("home_team") or "").strip(),
        "visit_team": (values.get("visit_team") or "").strip(),
        "scoring": (values.get("scoring") or "").strip(),
        "north": names[0],
        "east": names[1],
        "south": names[2],
        "west": names[3],
        "deal": deal_to_pbn(deal),
        "deal_hash": deal_hash(deal),
        "ns_vulnerable": ns_vul,
        "ew_vulnerable": ew_vul,
        "bidstart": SEATS[first_seat] if first_seat is not None else "",
        "auction": " ".join(calls) if calls is not None else "",
        "contract": str(contract) if contract is not None else "",
        "declarer": "P" if passed_out else (SEATS[declarer] if declarer is not None else ""),
        "lead": "P" if passed_out else (SEATS[lead] if lead is not None else ""),
        "play": " ".join(play.cards) if play is not None else "",
        "play_order": "".join(SEATS[s] for s in play.seats) if play is not None else "",
        "claim": claim,
        "result": result,
        # what the source says of each pair before play (a recap's strata), "" if nothing
        "ns_entry": (values.get("ns_entry") or "").strip()[:ENTRY_CHARS],
        "ew_entry": (values.get("ew_entry") or "").strip()[:ENTRY_CHARS],
    }
