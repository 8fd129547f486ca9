"""Disjoint sets (union-find): items joined into groups, each group known by one root.

Used wherever records are grouped by what links them: a team's partners, the segments of one
match, the boards of one match, the line-ups of one team.
"""

from __future__ import annotations

from typing import Generic, Hashable, Iterable, TypeVar

__all__ = ["DisjointSets"]

T = TypeVar("T", bound=Hashable)


class DisjointSets(Generic[T]):
    """Groups of items; an item never seen is a group of its own."""

    def __init__(self) -> None:
        self.parent: dict[T, T] = {}

    def find(self, item: T) -> T:
        """The root of ``item``'s group (paths halved as they are walked)."""
        parent = self.parent
        parent.setdefault(item, item)
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def union(self, first: T, *others: T) -> T:
        """Join ``others``' groups to ``first``'s; returns the root of the joined group."""
        root = self.find(first)
        for other in others:
            found = self.find(other)
            if found != root:
                self.parent[found] = root
        return root

    def items(self) -> Iterable[T]:
        """Every item seen, in the order first seen."""
        return list(self.parent)
