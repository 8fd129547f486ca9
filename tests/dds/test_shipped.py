"""The tables bridgerank ships: the file's form, its first read into a store, and a live
re-solve of a random sample of them on every CI run."""

import os
import random
import time

import pytest

from bridgerank.bridge.cards import FULL_DECK, deal_to_pbn
from bridgerank.bridge.ddtable import DDTable
from bridgerank.core.errors import BridgerankError
from bridgerank.dds.dd_store import DDStore
from bridgerank.dds.shipped import (
    RECORD,
    decode_deal,
    encode_deal,
    load_shipped,
    read_shipped,
    shipped_path,
    write_shipped,
)
from bridgerank.dds.solver import solve_tables, solver_version

# Deals shipped (every distinct deal the cleaning keeps of ../shared/data and the sample)
# and re-solved live on each run: at least 200, the floor.
LIVE_SAMPLE = 200


def _random_deal(rng: random.Random) -> str:
    cards = sorted(FULL_DECK)
    rng.shuffle(cards)
    return deal_to_pbn(tuple(frozenset(cards[i * 13 : i * 13 + 13]) for i in range(4)))  # type: ignore[arg-type]


def _random_table(rng: random.Random) -> DDTable:
    return DDTable(tuple(tuple(rng.randint(0, 13) for _ in range(4)) for _ in range(5)))  # type: ignore[misc]


def test_a_deal_is_13_bytes_and_comes_back_whole():
    rng = random.Random(7)
    for _ in range(500):
        deal = _random_deal(rng)
        code = encode_deal(deal)
        assert len(code) == 13
        assert decode_deal(code) == deal


def test_a_file_comes_back_as_written(tmp_path):
    rng = random.Random(8)
    tables = {_random_deal(rng): _random_table(rng) for _ in range(300)}
    path = tmp_path / "t.bin"
    assert write_shipped(path, "endplay 9", tables.items()) == 300
    shipped = read_shipped(path)
    assert shipped.solver == "endplay 9" and shipped.tables == tables
    header = path.read_bytes().index(b"\n", 25) + 1
    assert path.stat().st_size == header + 300 * RECORD


def test_a_store_reads_a_file_once_and_only_for_its_solver(tmp_path):
    rng = random.Random(9)
    tables = {_random_deal(rng): _random_table(rng) for _ in range(50)}
    path = tmp_path / "t.bin"
    write_shipped(path, "endplay 9", tables.items())
    store = DDStore(str(tmp_path / "s.sqlite"), "endplay 9")
    assert load_shipped(store, path) == 50
    assert load_shipped(store, path) == 0  # read before: not again
    assert store.tables(tables) == tables
    other = DDStore(str(tmp_path / "s.sqlite"), "endplay 10")
    assert load_shipped(other, path) == 0 and other.counts().tables == 0


def test_a_damaged_file_is_one_clear_error(tmp_path):
    rng = random.Random(10)
    path = tmp_path / "t.bin"
    write_shipped(path, "v", [(_random_deal(rng), _random_table(rng))])
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(BridgerankError, match=r"t\.bin: 1 deals announced, 0\.8 present"):
        read_shipped(path)
    (tmp_path / "u.bin").write_bytes(b"GIF89a")
    with pytest.raises(BridgerankError, match="not a file of shipped double dummy tables"):
        read_shipped(tmp_path / "u.bin")


def test_the_shipped_file_is_the_installed_solvers():
    shipped = read_shipped()
    assert shipped.solver == solver_version()
    assert len(shipped.tables) > 24_000


@pytest.mark.dds
def test_a_random_sample_of_the_shipped_tables_solves_to_the_same_tables():
    """CI re-solves a new random sample each run (the seed is printed on failure)."""
    seed = int(os.environ.get("BRIDGERANK_SHIPPED_SEED", time.time_ns() % 1_000_000))
    shipped = read_shipped(shipped_path())
    sample = random.Random(seed).sample(sorted(shipped.tables), LIVE_SAMPLE)
    solved = solve_tables(sample)
    mismatches = [deal for deal, (table, _) in zip(sample, solved) if table != shipped.tables[deal]]
    assert mismatches == [], f"seed {seed}: {len(mismatches)} of {LIVE_SAMPLE} differ"
