"""core/disjoint.py: groups by union-find."""

from bridgerank.core.disjoint import DisjointSets


def test_joined_items_share_a_root_and_others_do_not():
    sets: DisjointSets[str] = DisjointSets()
    sets.union("a", "b")
    sets.union("c", "d")
    sets.union("b", "d")
    assert len({sets.find(item) for item in "abcd"}) == 1
    assert sets.find("e") == "e" and sets.find("e") != sets.find("a")
    assert sets.items() == ["a", "b", "c", "d", "e"]


def test_a_long_chain_is_one_group_and_union_returns_its_root():
    sets: DisjointSets[int] = DisjointSets()
    for number in range(1000):
        sets.union(number, number + 1)
    root = sets.find(0)
    assert all(sets.find(number) == root for number in range(1001))
    assert sets.union(5, 999) == root
