"""Duplicate bridge scoring, with the undertrick table in force in the board's year.

Notes
-----
Up to 1987 the 4th and later undertricks of a non-vulnerable doubled contract cost 200 each
(400 redoubled); from 1988 they cost 300 (600). A board of unknown year is scored by the
current rules. Scores are from the declaring side's point of view.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from bridgerank.bridge.auction import Contract, parse_contract
from bridgerank.bridge.cards import SEAT_INDEX

LAST_YEAR_OF_OLD_UNDERTRICKS = 1987
_TRICK_VALUE = {"C": 20, "D": 20, "H": 30, "S": 30, "N": 30}


def _undertricks(down: int, doubled: int, vulnerable: bool, old_rules: bool) -> int:
    if not doubled:
        return -(100 if vulnerable else 50) * down
    factor = 2 if doubled == 2 else 1
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2)
        penalty += (200 if old_rules else 300) * max(down - 3, 0)
    return -penalty * factor


@lru_cache(maxsize=65536)
def score(
    level: int, strain: str, doubled: int, vulnerable: bool, tricks: int, year: int | None = None
) -> int:
    """Score of the declaring side.

    Parameters
    ----------
    level : int
        1-7.
    strain : str
        ``C``, ``D``, ``H``, ``S`` or ``N``.
    doubled : int
        0 undoubled, 1 doubled, 2 redoubled.
    vulnerable : bool
        Whether the declaring side is vulnerable.
    tricks : int
        Tricks taken by the declaring side, 0-13.
    year : int, optional
        Year the board was played; None (or the thesis's 0) means current rules.

    Returns
    -------
    int
        Positive when the contract makes, negative when it goes down.
    """
    needed = level + 6
    if tricks < needed:
        # year 0 is the thesis's "unknown": current rules, like None
        old_rules = bool(year and year <= LAST_YEAR_OF_OLD_UNDERTRICKS)
        return _undertricks(needed - tricks, doubled, vulnerable, old_rules)
    multiplier = (1, 2, 4)[doubled]
    contract_points = (_TRICK_VALUE[strain] * level + (10 if strain == "N" else 0)) * multiplier
    total = contract_points
    if contract_points >= 100:
        total += 500 if vulnerable else 300
    else:
        total += 50
    if level == 6:
        total += 750 if vulnerable else 500
    elif level == 7:
        total += 1500 if vulnerable else 1000
    total += (0, 50, 100)[doubled]
    over = tricks - needed
    if doubled:
        total += over * (200 if vulnerable else 100) * (2 if doubled == 2 else 1)
    else:
        total += over * _TRICK_VALUE[strain]
    return total


def contract_score(contract: str, vulnerable: bool, tricks: int, year: int | None = None) -> int:
    """:func:`score` of a contract written ``LS[X|R]`` (``4SX``, ``3N``, ``7NR``)."""
    doubled = {"X": 1, "R": 2}.get(contract[2:3], 0)
    return score(int(contract[0]), contract[1], doubled, vulnerable, tricks, year)


def north_south_score(
    level: int,
    strain: str,
    doubled: int,
    declarer: int,
    ns_vulnerable: bool,
    ew_vulnerable: bool,
    tricks: int,
    year: int | None = None,
) -> int:
    """North-South's score of a contract played by ``declarer`` (0-3: N, E, S, W).

    The vulnerability that counts is the declaring side's; East-West's scores change sign.
    """
    north_south = declarer % 2 == 0
    value = score(
        level, strain, doubled, ns_vulnerable if north_south else ew_vulnerable, tricks, year
    )
    return value if north_south else -value


# The IMP scale: the lower bound of each IMP count from 1 to 24.
_IMP_STEPS = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)


# The score differences at which each IMP begins (the first IMP at 20).
IMP_STEPS = _IMP_STEPS


def imps(difference: int) -> int:
    """IMPs for a score difference (sign kept)."""
    size = sum(1 for step in _IMP_STEPS if abs(difference) >= step)
    return size if difference >= 0 else -size


def table_score(board: Mapping[str, Any]) -> int | None:
    """North-South's score of a table from its ``contract`` (text), ``declarer`` (``N`` ...),
    ``result`` (declarer's tricks), vulnerabilities and ``year`` (the scoring table of its
    time); None when the result, the declarer or the declaring side's vulnerability is
    unknown (the other side's does not score the table). A passed-out board scores 0."""
    contract = _contract(board.get("contract"))
    if contract == "P":
        return 0
    declarer = SEAT_INDEX.get(board.get("declarer") or "")
    if not isinstance(contract, Contract) or board.get("result") is None or declarer is None:
        return None
    if board.get("ns_vulnerable" if declarer % 2 == 0 else "ew_vulnerable") is None:
        return None
    return north_south_score(
        contract.level,
        contract.strain,
        contract.doubled,
        declarer,
        bool(board.get("ns_vulnerable")),
        bool(board.get("ew_vulnerable")),
        int(board["result"]),
        board.get("year"),
    )


def matchpoint_share(value: int, others: Sequence[int]) -> float:
    """North-South's share of a top for a score of ``value`` against the other tables'
    North-South scores of the deal: each table beaten counts 1, each tie 1/2, over the number
    of other tables (East-West's share is one less it).

    Examples
    --------
    >>> matchpoint_share(620, [600, 620, 650])
    0.5
    """
    if not others:
        raise ValueError("a matchpoint share needs at least one other table")
    beaten = sum(1 for other in others if other < value)
    tied = sum(1 for other in others if other == value)
    return (beaten + 0.5 * tied) / len(others)


# How a scoring tag names matchpoints: PBN's ``MP``/``Matchpoints`` (some files add ``#``
# marks), LIN's ``P``; IMPs, BAM and an empty tag do not.
_MATCHPOINT_TAGS = {"MP", "MATCHPOINTS", "MATCHPOINT"}


def scored_in_matchpoints(scoring: str | None) -> bool:
    """Whether a board's scoring tag says its event was scored in matchpoints."""
    return (scoring or "").strip().strip("#").strip().upper() in _MATCHPOINT_TAGS


@lru_cache(maxsize=1 << 12)
def _contract(text: str | None) -> Any:
    """A contract's text parsed once (a folder repeats a few hundred contracts)."""
    return parse_contract(text)
