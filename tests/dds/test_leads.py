"""Opening leads valued: every card of the leader's hand solved once a deal, strain and leader,
kept in the DD store and shipped; a traveller's lead card read as a one-card play; the
baselines a lead figure is read against."""

import os
import random
import time

import pytest

from bridgerank.bridge.cards import SEAT_INDEX, parse_deal
from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.core.errors import BridgerankError
from bridgerank.core.settings import default_settings
from bridgerank.dds.analysis import best_leads, lead_trace
from bridgerank.dds.dd_store import DDStore, lead_text, leads_from_text
from bridgerank.dds.lead_baselines import lead_baselines
from bridgerank.dds.shipped_leads import (
    LEAD_RECORD,
    load_shipped_leads,
    read_shipped_leads,
    shipped_leads_path,
    write_shipped_leads,
)
from bridgerank.dds.solver import (
    LeadRequest,
    PlayRequest,
    solve_leads,
    solve_plays,
    solve_tables,
    solver_version,
)

# Board 1 of the 2013 Bermuda Bowl's hands file (Valet), the first deal of its travellers.
DEAL = "N:Q653.AT5.K7.QJ85 T.KQ873.AJ963.A3 KJ92.64.T82.T764 A874.J92.Q54.K92"


def _random_values(rng: random.Random, request: LeadRequest) -> dict[str, int]:
    return {card: rng.randint(0, 13) for card in parse_deal(request.deal)[request.leader]}


@pytest.mark.dds
def test_every_lead_is_valued_and_agrees_with_the_table_and_with_a_traced_lead():
    leader, trump = SEAT_INDEX["N"], "H"  # 4H by West: North leads
    [(values, error)] = solve_leads([LeadRequest(DEAL, leader, trump)])
    assert error is None and set(values) == set(parse_deal(DEAL)[leader])
    [(table, _)] = solve_tables([DEAL])
    # the defence's best lead holds declarer to the table's tricks
    assert min(values.values()) == table.tricks(trump, SEAT_INDEX["W"])
    # each lead's value is what the solver's trace of that one card says after it
    for card in ("SQ", "HA", "CQ"):
        [(trace, _)] = solve_plays([PlayRequest(DEAL, leader, trump, (card,))])
        assert lead_trace(values, card) == trace
    assert best_leads(values) == sum(1 for v in values.values() if v == min(values.values()))


def test_a_store_keeps_lead_values_by_deal_strain_and_leader(tmp_path):
    store = DDStore(str(tmp_path / "s.sqlite"), "endplay 9")
    north = LeadRequest(DEAL, 0, "H")
    east = LeadRequest(DEAL, 1, "N")
    values = _random_values(random.Random(1), north)
    assert store.add_leads({north: values}) == 1
    assert store.leads([north, east]) == {north: values}
    assert store.counts().leads == 1
    assert DDStore(str(tmp_path / "s.sqlite"), "endplay 10").leads([north]) == {}
    assert leads_from_text(lead_text(values)) == values


def test_a_shipped_leads_file_comes_back_as_written_and_is_read_once(tmp_path):
    rng = random.Random(2)
    requests = [LeadRequest(DEAL, seat, strain) for seat in range(4) for strain in "SHDCN"]
    leads = {request: _random_values(rng, request) for request in requests}
    path = tmp_path / "l.bin"
    assert write_shipped_leads(path, "endplay 9", leads.items()) == 20
    solver, _, read = read_shipped_leads(path)
    assert solver == "endplay 9" and read == leads
    header = path.read_bytes().index(b"\n", 25) + 1
    assert path.stat().st_size == header + 20 * LEAD_RECORD
    store = DDStore(str(tmp_path / "s.sqlite"), "endplay 9")
    assert load_shipped_leads(store, path) == 20
    assert load_shipped_leads(store, path) == 0  # read before: not again
    assert store.leads(requests) == leads
    other = DDStore(str(tmp_path / "s.sqlite"), "endplay 10")
    assert load_shipped_leads(other, path) == 0 and other.counts().leads == 0
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(BridgerankError, match=r"l\.bin: 20 leads announced, 19\.9 present"):
        read_shipped_leads(path)


def test_the_shipped_leads_are_the_installed_solvers():
    solver, _, leads = read_shipped_leads()
    assert solver == solver_version()
    assert len(leads) > 30_000  # Valet's travellers with deals, and the ACBL recaps


@pytest.mark.dds
def test_a_random_sample_of_the_shipped_leads_solves_to_the_same_values():
    """CI re-solves a new random sample each run (the seed is printed on failure)."""
    seed = int(os.environ.get("BRIDGERANK_SHIPPED_SEED", time.time_ns() % 1_000_000))
    _, _, leads = read_shipped_leads(shipped_leads_path())
    sample = random.Random(seed).sample(sorted(leads), 100)
    solved = solve_leads(sample)
    mismatches = [r for r, (values, _) in zip(sample, solved) if values != leads[r]]
    assert mismatches == [], f"seed {seed}: {len(mismatches)} of 100 differ"


def _traveller(lead: str) -> dict[str, str]:
    return {
        "event": "2013-World/Men",
        "date": "2013",
        "board": "1",
        "northname": "A",
        "eastname": "B",
        "southname": "C",
        "westname": "D",
        "deal": DEAL,
        "contract": "4H",
        "declarer": "W",
        "result": "11",
        "lead_card": lead,
    }


def test_a_travellers_lead_card_is_a_play_of_one_card_and_a_card_not_held_a_reason():
    settings = default_settings().clean
    outcome = clean_record(_traveller("SQ"), "seat", settings=settings)
    assert (outcome.board["play"], outcome.board["lead"]) == ("SQ", "N")
    assert ("note", "play_not_recorded", "only the lead SQ") in outcome.issues
    outcome = clean_record(_traveller("SK"), "seat", settings=settings)
    assert outcome.board is not None and not outcome.board["play"]
    assert ("play", "play_card_not_held", "N played SK in trick 1") in outcome.issues


def test_lead_baselines_beside_a_random_lead_on_the_same_boards():
    # (tricks lost, best cards of 13, notrump): three suit boards, one notrump, one all tied
    rows = [(0, 1, False), (1, 1, False), (0, 13, False), (0, 4, True), (2, 2, False)]
    found = lead_baselines(rows)
    assert (found.leads, found.all_tied) == (5, 1)
    assert found.everywhere.best == pytest.approx(3 / 5)
    assert found.everywhere.random == pytest.approx((1 + 1 + 13 + 4 + 2) / 13 / 5)
    assert (found.untied.boards, found.untied.best) == (4, pytest.approx(2 / 4))
    assert found.untied.random == pytest.approx((1 + 1 + 4 + 2) / 13 / 4)
    assert (found.suit.boards, found.suit.best) == (3, pytest.approx(1 / 3))
    assert (found.notrump.boards, found.notrump.best, found.notrump.random) == (
        1,
        1.0,
        pytest.approx(4 / 13),
    )
    assert "leaving out the 1 where every lead ties 50.0% (a random lead 15.4%)" in found.line()
