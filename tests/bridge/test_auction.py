import pytest

from bridgerank.bridge.auction import Contract, final_contract, parse_contract, validate_auction
from bridgerank.core.errors import BadRecord

N, E, S, W = range(4)


@pytest.mark.parametrize(
    "calls,first,contract,declarer",
    [
        ("P P P P", N, None, None),
        ("1C P P P", N, Contract(1, "C", 0), N),
        ("P P P 1C P P P", E, Contract(1, "C", 0), N),  # fourth hand opens
        ("1H P 2H P 4H X P P R P P P", S, Contract(4, "H", 2), S),
        ("1S 2H 2S P P 3H X P P P", W, Contract(3, "H", 1), N),
        ("1C P 1H P 1N P 3N P P P", E, Contract(3, "N", 0), E),  # raiser is not declarer
        ("1D P 1N P 2D P P P", N, Contract(2, "D", 0), N),  # opener named diamonds first
    ],
)
def test_legal_auctions(calls, first, contract, declarer):
    validate_auction(calls.split(), first)
    assert final_contract(calls.split(), first) == (contract, declarer)


@pytest.mark.parametrize(
    "calls,reason",
    [
        ("", "auction_missing"),
        ("P P P", "auction_bad_passes"),
        ("P P P P P", "auction_bad_passes"),
        ("1C P P", "auction_bad_passes"),
        ("1C P P P P", "auction_bad_passes"),
        ("1C P P P 1D P P P", "auction_bad_passes"),
        ("P P P P 1C P P P", "auction_bad_passes"),
        ("1D 1C P P P", "auction_insufficient_bid"),
        ("1D 1D P P P", "auction_insufficient_bid"),
        ("X 1C P P P", "auction_illegal_double"),
        ("1C P X P P P", "auction_illegal_double"),
        ("1C X P X P P P", "auction_illegal_double"),
        ("1C R P P P", "auction_illegal_redouble"),
        ("1C X P P R R P P P", "auction_illegal_redouble"),
        ("1C X R P P R P P P", "auction_illegal_redouble"),
        ("1C X P R P P P", "auction_illegal_redouble"),
    ],
)
def test_illegal_auctions(calls, reason):
    with pytest.raises(BadRecord) as caught:
        validate_auction(calls.split(), N)
    assert caught.value.reason == reason


@pytest.mark.parametrize(
    "text,expected",
    [
        ("3NT", Contract(3, "N", 0)),
        ("3N", Contract(3, "N", 0)),
        ("4sx", Contract(4, "S", 1)),
        ("7NTXX", Contract(7, "N", 2)),
        ("2H*", Contract(2, "H", 1)),
        ("6C**", Contract(6, "C", 2)),
        ("Pass", "P"),
        ("pass", "P"),
        ("", None),
        ("?", None),
        ("8S", None),
        ("3Z", None),
    ],
)
def test_contract_spellings(text, expected):
    assert parse_contract(text) == expected
