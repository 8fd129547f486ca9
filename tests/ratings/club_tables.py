"""Field tables for tests: a session a period, periods named in order."""

from __future__ import annotations

import numpy as np

from bridgerank.ratings.field import FieldTables


def club_tables(seats, share, group, period) -> FieldTables:
    """The tables of ``seats`` (North, South, East, West) with North-South's ``share``, the
    deal (``group``) and date (``period``, also the session) of each; players numbered from
    0 to the largest seat."""
    periods = sorted(set(np.asarray(period).tolist()))
    count = len(share)
    return FieldTables(
        players=list(range(int(np.max(seats)) + 1)),
        seats=np.array(seats),
        share=np.array(share, dtype=float),
        group=np.array(group),
        session=np.array(period),
        sessions=[("club", str(p)) for p in range(max(periods) + 1)],
        period=np.array(period),
        periods=[f"{p:03d}" for p in range(max(periods) + 1)],
        board=np.arange(count),
    )


def club_strengths(players: int, seed: int) -> np.ndarray:
    """The true strengths :func:`simulated_club` gives its players for ``seed``."""
    return np.random.default_rng(seed).normal(0, 0.04, players)


def simulated_club(players=60, sessions=60, boards=12, seed=7, bonus=0.0) -> FieldTables:
    """A club whose players' true strengths are known: each session most players sit with
    their fixed partner (neighbours ``2i, 2i + 1``, where both came), some with a stranger;
    half the players come to every session, half to one in four. A table's result is the four
    strengths plus luck, matchpointed over the field; a pair that had played three sessions
    or more together before gains ``bonus`` (in the strengths' units) beyond its players'."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 0.04, players)  # as club_strengths draws them
    regular = rng.random(players) < 0.5
    together: dict[tuple[int, int], int] = {}
    seats, share, group, period = [], [], [], []
    deal = 0
    for when in range(sessions):
        present = np.flatnonzero(regular | (rng.random(players) < 0.25))
        present = present[: len(present) // 4 * 4]
        pairs, loose = [], []
        for first in range(0, players, 2):
            here = [p for p in (first, first + 1) if p in set(present)]
            if len(here) == 2 and rng.random() < 0.8:
                pairs.append(here)
            else:
                loose.extend(here)
        rng.shuffle(loose)
        pairs += [loose[i : i + 2] for i in range(0, len(loose) - 1, 2)]
        pairs = [pairs[i] for i in rng.permutation(len(pairs))][: len(pairs) // 2 * 2]
        half = len(pairs) // 2
        north_south, east_west = np.array(pairs[:half]), np.array(pairs[half:])

        def familiar(side: np.ndarray) -> np.ndarray:
            return np.array([together.get(tuple(sorted(pair)), 0) >= 3 for pair in side.tolist()])

        extra = bonus * (familiar(north_south).astype(float) - familiar(east_west))
        for _ in range(boards):
            d = strength[north_south].sum(1) - strength[east_west].sum(1) + extra
            scores = d + rng.normal(0, 0.1, half)
            ranks = ((scores[:, None] > scores[None, :]).sum(1)) / (half - 1)
            for ns, ew, value in zip(north_south, east_west, ranks):
                seats.append([*ns, *ew])
                share.append(value)
                group.append(deal)
                period.append(when)
            deal += 1
        for pair in pairs:
            key = tuple(sorted(pair))
            together[key] = together.get(key, 0) + 1
    return club_tables(seats, share, group, period)
