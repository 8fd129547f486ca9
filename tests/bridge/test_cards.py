import pytest

from bridgerank.bridge.cards import deal_hash, deal_to_pbn, parse_deal
from bridgerank.core.errors import BadRecord

# Board 1 of the 2004 Olympiad final as PBN and as the LIN file writes it.
PBN = "S:74.K43.Q9532.J94 K9.QJT76.KJ7.QT3 AT532.982.8.A865 QJ86.A5.AT64.K72"
LIN = "3S74HK43DQ9532CJ94,SK9HQJT76DKJ7CQT3,SAT532H982D8CA865,SQJ86HA5DAT64CK72"


def test_pbn_and_lin_give_the_same_deal_and_key():
    assert parse_deal(PBN) == parse_deal(LIN)
    assert deal_hash(parse_deal(PBN)) == deal_hash(parse_deal(LIN))


def test_lin_with_the_fourth_hand_omitted():
    three = LIN.rsplit(",", 1)[0] + ","
    assert parse_deal(three) == parse_deal(LIN)


def test_pbn_unknown_hand_is_the_remaining_cards():
    hands = PBN.split()
    assert parse_deal(" ".join(hands[:3] + ["-"])) == parse_deal(PBN)


def test_canonical_text_starts_with_north_and_sorts_ranks():
    deal = parse_deal(PBN)
    assert deal_to_pbn(deal) == (
        "N:AT532.982.8.A865 QJ86.A5.AT64.K72 74.K43.Q9532.J94 K9.QJT76.KJ7.QT3"
    )


def test_ten_written_as_10():
    assert parse_deal(PBN.replace("AT532", "A10532")) == parse_deal(PBN)


@pytest.mark.parametrize(
    "text,reason",
    [
        ("", "missing_deal"),
        (None, "missing_deal"),
        ("N:AK.AK", "hand_not_13_cards"),
        (PBN.replace("74.K43", "7.K43"), "hand_not_13_cards"),
        (PBN.replace("74.K43", "7X.K43"), "invalid_card"),
        (PBN.replace("74.K43", "K4.K43"), "invalid_card"),
        ("X:" + PBN[2:], "invalid_card"),
    ],
)
def test_bad_deals(text, reason):
    with pytest.raises(BadRecord) as caught:
        parse_deal(text)
    assert caught.value.reason == reason
