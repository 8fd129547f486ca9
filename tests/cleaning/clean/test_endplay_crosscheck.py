"""Our PBN reading and play ordering against endplay's PBN parser, game by game.

endplay's parser is right where it parses; it raises on real records it cannot handle
(``[Play "E"]`` with no cards, in the 1955 Bermuda Bowl), which is why bridgerank reads PBN
itself. Where endplay parses a game, deal, contract, declarer and the card play in playing
order must be the same as ours.
"""

import pytest

from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.core.settings import default_settings

pbn = pytest.importorskip("endplay.parsers.pbn")

CLEAN = default_settings().clean
GAMES_ENDPLAY_REJECTS = 2


def _card(card) -> str:
    return card.suit.name[0].upper() + card.rank.abbr.replace("10", "T")


def test_same_deals_contracts_and_play_order_as_endplay(test_data):
    text = (test_data / "bermuda1955_head.pbn").read_text()
    games = [game for game in text.split("\n\n") if "[Event" in game]
    ours = [clean_record(record.values, settings=CLEAN).board for record in read_pbn(text)]
    assert len(games) == len(ours) == 12
    rejected = compared = 0
    for game, board in zip(games, ours):
        try:
            theirs = pbn.loads(game)[0]
        except ValueError:
            rejected += 1
            assert board["play"] == ""  # we record it as play_missing and keep the board
            continue
        compared += 1
        assert theirs.deal.to_pbn() == board["deal"]
        assert (
            f"{theirs.contract.level}{theirs.contract.denom.name[0].upper()}"
            == board["contract"][:2]
        )
        assert theirs.contract.declarer.abbr == board["declarer"]
        assert " ".join(_card(card) for card in theirs.play) == board["play"]
    assert (compared, rejected) == (12 - GAMES_ENDPLAY_REJECTS, GAMES_ENDPLAY_REJECTS)
