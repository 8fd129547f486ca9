"""A synthetic SQL-insert dump in the thesis's ``bridgedeals`` format, at any scale.

    python benchmarks/synthetic_dump.py OUT.sql [--boards 200000] [--seed 1]

Every row is a real table result of the shared PBN corpus (``../shared/data/pbn``); the first
copy is the corpus as it is, the others are re-dealt: each suit's ranks are permuted at
random, one permutation per deal and copy, applied to the deal and to the play of every table
of that deal. Every hand keeps its suit lengths, and the permutation is drawn among those that
keep each trick's winner (a random linear extension of "this card beat that one" over all the
deal's tables), so the real auctions and plays stay legal, every trick is won by the same
seat and the results stand. Copies of an event are told apart by a ``#k`` suffix to its name;
the players are the corpus's own.

Sprinkled in at about the rates the thesis reports for its dump: rows ending in 0 to 7
``;`` instead of ``,``; names with a quote, escaped as ``\\'`` or ``''`` or not at all; stray
backslashes; a value broken over two lines; calls glued together (``1C3D``), alerts (``2NT!``)
and annotations (``=0=``) in auctions; truncated rows and lines that are no row.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, TextIO

from bridgerank.bridge.cards import RANKS, SEAT_INDEX, SUITS, deal_to_pbn, parse_deal
from bridgerank.cleaning.clean.play import trick_winner
from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.sources import decode
from bridgerank.cleaning.ingest.sqldump import DEFAULT_COLUMNS
from bridgerank.core.errors import BadRecord
from bridgerank.core.settings import load_settings

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
_CARD = re.compile(r"^([SHDCshdc])(10|[AKQJTakqjt2-9])(.*)$")
_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
_GLITCHES = ("=0=", "!", "?")


@dataclass
class Source:
    """One corpus record: its raw values, and what cleaning made of its play."""

    values: dict[str, str]
    play: list[str]  # canonical cards in playing order (empty when there is no legal play)
    seats: str  # seat letter of each card played
    trump: str


def _sources(folder: Path) -> list[Source]:
    settings = load_settings().clean
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() != ".pbn":
            continue
        text, _ = decode(path.read_bytes())
        for record in read_pbn(text):
            board = clean_record(record.values, settings=settings).board
            if board is None:
                continue
            contract = board["contract"]
            found.append(
                Source(
                    values=record.values,
                    play=board["play"].split(),
                    seats=board["play_order"],
                    trump=contract[1:2] if contract[:1].isdigit() else "N",
                )
            )
    return found


Beats = dict[str, set[tuple[str, str]]]  # per suit, (lower rank, higher rank) pairs


def _beats(sources: list[Source]) -> dict[str, Beats]:
    """Per deal, what each trick of each of its tables says about rank order."""
    by_deal: dict[str, Beats] = {}
    for source in sources:
        beats = by_deal.setdefault(source.values.get("deal", ""), {suit: set() for suit in SUITS})
        cards, seats = source.play, source.seats
        for start in range(0, len(cards) - len(cards) % 4, 4):
            trick = cards[start : start + 4]
            winner = trick_winner(trick, SEAT_INDEX[seats[start]], source.trump)
            best = trick[(winner - SEAT_INDEX[seats[start]]) % 4]
            for card in trick:
                if card != best and card[0] == best[0]:
                    beats[best[0]].add((card[1], best[1]))
    return by_deal


def _permutations(beats: Beats, rng: random.Random) -> dict[str, dict[str, str]]:
    """Per suit, a random rank permutation that keeps every pair of ``beats`` in order."""
    permutation = {}
    for suit in SUITS:
        above: dict[str, set[str]] = {rank: set() for rank in RANKS}
        below_count = dict.fromkeys(RANKS, 0)
        for low, high in beats[suit]:
            if high not in above[low]:
                above[low].add(high)
                below_count[high] += 1
        ready = [rank for rank in RANKS if below_count[rank] == 0]
        ascending = []
        while ready:  # Kahn's order, taking a random rank among those free to come next
            rank = ready.pop(rng.randrange(len(ready)))
            ascending.append(rank)
            for high in above[rank]:
                below_count[high] -= 1
                if below_count[high] == 0:
                    ready.append(high)
        permutation[suit] = dict(zip(ascending, reversed(RANKS)))
    return permutation


def _new_card(card: str, permutation: dict[str, dict[str, str]]) -> str:
    match = _CARD.match(card)
    if not match:
        return card  # dashes, claim marks and junk are kept as written
    suit, rank, rest = match.groups()
    rank = "T" if rank == "10" else rank.upper()
    return suit.upper() + permutation[suit.upper()][rank] + rest


def _hcp(hand: frozenset[str]) -> int:
    return sum(_HCP.get(card[1], 0) for card in hand)


def redeal(values: dict[str, str], permutation: dict[str, dict[str, str]]) -> dict[str, str]:
    """A record's raw values on the re-dealt deal (see the module docstring)."""
    values = dict(values)
    try:
        deal = parse_deal(values.get("deal"))
    except BadRecord:
        return values  # the corpus's own damaged deals stay as they are, for cleaning to catch
    new_deal = tuple(frozenset(_new_card(card, permutation) for card in hand) for hand in deal)
    values["deal"] = deal_to_pbn(new_deal)  # type: ignore[arg-type]
    values["westpoints"], values["northpoints"], values["eastpoints"], values["southpoints"] = (
        str(_hcp(new_deal[seat])) for seat in (3, 0, 1, 2)
    )
    if values.get("play"):
        values["play"] = " ".join(_new_card(token, permutation) for token in values["play"].split())
    return values


def _quoted(value: str, rng: random.Random) -> str:
    if "'" in value:
        style = rng.random()
        if style < 0.4:
            value = value.replace("'", "\\'")
        elif style < 0.8:
            value = value.replace("'", "''")
        # else: left unescaped, as the dump often does
    return "'" + value + "'"


def _defective_auction(auction: str, rng: random.Random) -> str:
    calls = auction.split()
    if len(calls) < 3:
        return auction
    where = rng.randrange(len(calls) - 1)
    kind = rng.random()
    if kind < 0.4:  # two calls glued together
        calls[where : where + 2] = [calls[where] + calls[where + 1]]
    elif kind < 0.8:
        calls[where] += rng.choice(_GLITCHES)
    else:
        calls.insert(where, "=0=")
    return " ".join(calls)


def _row(number: int, values: dict[str, str], rng: random.Random) -> str:
    cells = []
    for column in DEFAULT_COLUMNS:
        if column == "id":
            cells.append(str(number))
            continue
        field = {"homeTeam": "home_team", "visitteam": "visit_team"}.get(column, column)
        value = values.get(field)
        if column in ("board", "result") or column.endswith("points"):
            cells.append(value.strip() if value and value.strip().isdigit() else "NULL")
        else:
            cells.append(_quoted(value or "", rng))
    separator = ";" if rng.random() < 0.7 else ","
    return "(" + separator.join(cells) + ")"


def _defects(values: dict[str, str], rng: random.Random) -> dict[str, str]:
    values = dict(values)
    roll = rng.random()
    names = ("westname", "eastname", "northname", "southname")
    if roll < 0.01:
        field = rng.choice(names)
        values[field] = "O'" + (values.get(field) or "Neill")
    elif roll < 0.015:
        field = rng.choice(names)
        name = values.get(field) or "Smith"
        cut = rng.randrange(len(name) + 1)
        values[field] = name[:cut] + "\\" + name[cut:]
    elif roll < 0.017:
        values["description"] = "first half\nsecond half"
    elif roll < 0.037 and values.get("auction"):
        values["auction"] = _defective_auction(values["auction"], rng)
    return values


def rows(sources: list[Source], boards: int, seed: int) -> Iterator[str]:
    """Lines of the dump: an ``INSERT`` header every 10,000 rows, then one row a line."""
    rng = random.Random(seed)
    beats = _beats(sources)
    permutations: dict[tuple[int, str], dict[str, dict[str, str]]] = {}
    for number in range(1, boards + 1):
        if number % 10_000 == 1:
            yield "INSERT INTO bridgedeals VALUES" + ";" * rng.randrange(8) + "\n"
        copy, index = divmod(number - 1, len(sources))
        values = sources[index].values
        key = (copy, values.get("deal", ""))
        if copy and key not in permutations:
            if len(permutations) > 100_000:
                permutations.clear()  # a deal's tables sit close together in the corpus
            permutations[key] = _permutations(beats[key[1]], rng)
        values = redeal(values, permutations[key]) if copy else dict(values)
        if copy:
            values["event"] = f"{values.get('event', '')} #{copy + 1}"
        roll = rng.random()
        if roll < 0.0005:
            yield "-- this line is not a row\n"
        if roll < 0.001:
            yield _row(number, values, rng)[: rng.randrange(20, 200)] + ");\n"
            continue
        line = _row(number, _defects(values, rng), rng)
        yield line + rng.choice(["", ",", ";", ";" * rng.randrange(2, 8)]) + "\n"


def write_dump(out: TextIO, boards: int, seed: int, corpus: Path = SHARED_DATA / "pbn") -> int:
    """Write a dump of ``boards`` rows; returns the number of corpus records it drew on."""
    sources = _sources(corpus)
    for line in rows(sources, boards, seed):
        out.write(line)
    return len(sources)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--boards", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with open(args.out, "w", encoding="utf-8") as out:
        used = write_dump(out, args.boards, args.seed)
    print(f"{args.boards} rows from {used} corpus records -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
