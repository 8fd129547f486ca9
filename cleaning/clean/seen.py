"""Which record was first with a content key: a compact map for the clean stage's copies.

The clean stage finds a record that is a copy of an earlier one by its content key (64 bits
of a hash), so it must remember the key of every record it has seen, with that record's id.
A dict of a million ``int -> int`` costs 110 MB (the hex strings and tuples of the stage's
first version, 190 MB). Here keys and ids lie in two flat arrays of machine integers, an
open-addressing hash table at most three quarters full: 16 bytes a slot, 21 to 43 bytes a
key. The standard library's :mod:`array` rather than NumPy, so that a new NumPy does not
change the clean stage's code fingerprint and rerun every stage after it.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Mapping

__all__ = ["FirstSeen"]


def _zeros(typecode: str, size: int) -> array:
    return array(typecode, [0]) * size  # no list or bytes of that size on the way


class FirstSeen:
    """Map content keys (unsigned 64-bit ints) to the id of the first record that had one.

    Parameters
    ----------
    capacity : int
        Slots to start with, a power of two; the table doubles as it fills.
    """

    def __init__(self, capacity: int = 1024) -> None:
        self._keys = _zeros("Q", capacity)
        self._ids = _zeros("q", capacity)  # the id plus one: 0 marks an empty slot
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def _slot(self, key: int) -> int:
        """The slot that holds ``key``, or the empty one where it would go (linear probing).

        The keys are hash digests, so their low bits are as good an index as any.
        """
        mask = len(self._keys) - 1
        slot = key & mask
        while self._ids[slot] and self._keys[slot] != key:
            slot = (slot + 1) & mask
        return slot

    def _grow(self) -> None:
        keys, ids = self._keys, self._ids
        self._keys = _zeros("Q", 2 * len(keys))
        self._ids = _zeros("q", 2 * len(keys))
        for key, stored in zip(keys, ids):
            if stored:
                slot = self._slot(key)
                self._keys[slot], self._ids[slot] = key, stored

    def find(self, keys: Iterable[int]) -> dict[int, int]:
        """The keys among ``keys`` that were added, each with its id.

        Parameters
        ----------
        keys : iterable of int
            Unsigned 64-bit content keys.

        Returns
        -------
        dict
            ``key -> id`` for each key already added; keys not added are absent.
        """
        found = {}
        for key in keys:
            stored = self._ids[self._slot(key)]
            if stored:
                found[key] = stored - 1
        return found

    def add(self, firsts: Mapping[int, int]) -> None:
        """Add keys, each with the id of its first record.

        Parameters
        ----------
        firsts : mapping
            ``key -> id`` (ids of at least 0); a key added before keeps its first id.
        """
        for key, raw_id in firsts.items():
            if 4 * (self._count + 1) > 3 * len(self._keys):
                self._grow()
            slot = self._slot(key)
            if not self._ids[slot]:
                self._keys[slot], self._ids[slot] = key, raw_id + 1
                self._count += 1
