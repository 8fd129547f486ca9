"""Every rating method the rate stage validates, one registry per kind of held-out unit.

A method is a :class:`Method`: its name (as the validation tables store it), a one-line
description (the report's "what" column, :func:`method_descriptions`) and ``make``, which
receives the whole data of its kind and the study's :class:`StudyInputs` (the ``[rate]``
settings, the WBF points, the dds evidence) and returns the fitted-method function the
harness calls, or None when the method does not apply to these data (no WBF points, no
evidence). The kinds:

========  =====================================  ==========================================
kind      unit predicted, harness                 table
========  =====================================  ==========================================
sessions  a pair's session percentage,            ``session_validation``
          walk-forward (:mod:`holdout`)
matches   a team match's IMP margin,              ``match_validation``
          walk-forward (:mod:`holdout`)
one_table a pair's IMPs against par in a session  ``one_table_validation``
          played at one table a deal,
          walk-forward (:mod:`holdout`)
boards    who wins a team or single-table board,  ``rating_validation`` (and the ratings
          earliest ``train_share`` against the    fitted on every game in ``ratings``)
          rest (:mod:`results`)
rankings  which of two pairs finished ahead on a  ``rating_validation`` (task ``pair
          deal played at several tables, split    rankings``), ``ratings``,
          as the boards (:mod:`results`)          ``rating_history``
========  =====================================  ==========================================

The registries hold import strings (``module:NAME``), read when a study runs, so this module
imports none of the methods (their modules import the harness and this module). The code
fingerprint of the rate stage follows imports, not strings: :func:`registered_code` is its
extra input, so that an edit to a method's module reruns the stage.

Adding a method: write one module with a ``Method`` and add its import string to the
registry of its kind below. It is then fitted, validated beside every other method of its kind
and described in the report.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Hashable, Iterator, Mapping, TypeVar

from bridgerank.core.settings import default_settings

if TYPE_CHECKING:
    from bridgerank.core.sections import RateSettings
    from bridgerank.ratings.dd_prior import BoardEvidence
    from bridgerank.ratings.team_evidence import TeamEvidence

__all__ = [
    "KINDS",
    "Rated",
    "SplitMethod",
    "Method",
    "Registry",
    "StudyInputs",
    "method_descriptions",
    "registered_code",
    "registry",
]

F = TypeVar("F")


@dataclass
class StudyInputs:
    """What a method may use besides the data of its kind.

    Attributes
    ----------
    settings : RateSettings or None
        The ``[rate]`` settings (None: a study called without them, e.g. from a test).
    points : mapping
        Player name -> WBF open masterpoints (empty: no list matched).
    evidence : BoardEvidence or None
        The dds stage's per-board measures (None before it ran).
    shared : dict
        Work methods of one study share (one Elo replay serves two methods).
    team_evidence : TeamEvidence or None
        What the records say of team players beyond their team boards (the matches).
    team_boards : TeamBoards or None
        The team boards, for a kind whose units are not team matches (pairs at one table
        a deal) but whose methods fit on them.
    """

    settings: RateSettings | None = None
    points: Mapping[str, float] = field(default_factory=dict)
    evidence: BoardEvidence | None = None
    shared: dict[Any, Any] = field(default_factory=dict)
    team_evidence: TeamEvidence | None = None
    # a TeamBoards (:mod:`~bridgerank.ratings.team_boards`; typed loosely, as every input)
    team_boards: Any = None

    @property
    def rate(self) -> RateSettings:
        """The ``[rate]`` settings the methods read: the study's, or the shipped defaults
        (``config/defaults.toml``) for a study called without them."""
        return self.settings if self.settings is not None else default_settings().rate


@dataclass
class Rated:
    """The ratings a method keeps, fitted on every game: each player's ``(rating, low,
    high)`` (None: no interval); a replayed method also gives each player's history
    ``[(game number, rating), ...]`` and the K it replayed with."""

    ratings: Mapping[Hashable, tuple[float, float | None, float | None]]
    history: Mapping[Hashable, list[tuple[int, float]]] | None = None
    k: float | None = None


@dataclass(frozen=True)
class SplitMethod:
    """A method of a time-split kind, made: ``predict(train, test)`` is fitted on the
    training games and gives what the kind scores the test games with (boards: P(team A
    wins) of each :class:`~bridgerank.ratings.games.TeamGame`; rankings: a pair's strength
    on the Elo scale, a function of its players); ``rate(games)``, when the method's ratings
    are kept (the ``ratings`` table), fits it on every game."""

    predict: Callable[[list, list], Any]
    rate: Callable[[list], Rated] | None = None


@dataclass(frozen=True)
class Method(Generic[F]):
    """A rating method of one kind: ``make(data, inputs)`` returns what the kind's harness
    calls (for sessions and matches ``predict(train, test, target) -> Forecast``; for boards
    and rankings a :class:`SplitMethod`), or None when it does not apply."""

    name: str
    description: str
    make: Callable[[Any, StudyInputs], F | None]


class Registry:
    """The methods of one kind, in validation order, by import string."""

    def __init__(self, kind: str, entries: list[str]) -> None:
        self.kind = kind
        self.entries = list(entries)

    def add(self, entry: str) -> None:
        """Register ``"module:NAME"`` (a :class:`Method`) after the others."""
        if entry not in self.entries:
            self.entries.append(entry)

    def remove(self, entry: str) -> None:
        self.entries.remove(entry)

    def methods(self) -> list[Method]:
        """The methods, imported; a name may be registered once per kind."""
        found: list[Method] = []
        for entry in self.entries:
            module, _, name = entry.partition(":")
            method = getattr(importlib.import_module(module), name)
            if not isinstance(method, Method):
                raise TypeError(f"{entry} is not a rating Method")
            if any(other.name == method.name for other in found):
                raise ValueError(f"two {self.kind} methods named {method.name!r}")
            found.append(method)
        return found

    def __iter__(self) -> Iterator[Method]:
        return iter(self.methods())

    def make(self, data: Any, inputs: StudyInputs) -> dict[str, Any]:
        """Every method that applies to ``data``, made: name -> what the harness calls."""
        made = {}
        for method in self.methods():
            fitted = method.make(data, inputs)
            if fitted is not None:
                made[method.name] = fitted
        return made


_R = "bridgerank.ratings."

KINDS: dict[str, Registry] = {
    "sessions": Registry(
        "sessions",
        [
            _R + "headline.sessions:HEADLINE",
            _R + "headline.sessions:COIN",
            _R + "baselines:WIN_RATE_SESSIONS",
            _R + "headline.sessions:SHRUNK_MEAN",
            _R + "baselines:ELO_SESSIONS",
            _R + "baselines:ELO_OPPONENTS_SESSIONS",
            _R + "baselines:DLO_SESSIONS",
            _R + "baselines:DLO_OPPONENTS_SESSIONS",
            _R + "baselines:WBF_SESSIONS",
            _R + "headline.sessions:HEADLINE_WBF",
            _R + "headline.sessions:HEADLINE_PLAIN",
            _R + "headline.sessions:HEADLINE_UNFAMILIAR",
            _R + "headline.sessions:HEADLINE_NO_DD",
            _R + "headline.sessions:HEADLINE_NO_ENTRY",
            _R + "headline.partnerships:HEADLINE_PARTNERSHIPS",
            _R + "rivals.pair_elo:PAIR_ELO",
            _R + "rivals.openskill_pairs:OPENSKILL",
            _R + "rivals.ngs:NGS",
            _R + "rivals.glicko2:GLICKO2",
            _R + "rivals.ttt:TTT",
        ],
    ),
    "matches": Registry(
        "matches",
        [
            _R + "team_matches:HEADLINE",
            _R + "team_matches:COIN",
            _R + "team_matches:IMP_AVERAGE",
            _R + "team_matches:HBT",
            _R + "baselines:WBF_MATCHES",
            _R + "team_matches:HEADLINE_WBF",
            _R + "team_matches:HEADLINE_ONE_TABLE",
            _R + "team_matches:HEADLINE_NO_DD",
            _R + "team_matches:HEADLINE_CARDS",
            _R + "team_matches:HEADLINE_FIELDS",
            _R + "team_matches:HEADLINE_PLAIN",
            _R + "rivals.team_play:PAIR_ELO",
            _R + "rivals.team_play:OPENSKILL",
            _R + "rivals.team_play:NGS",
            _R + "rivals.team_play:GLICKO2",
            _R + "rivals.team_play:TTT",
        ],
    ),
    "one_table": Registry(
        "one_table",
        [
            _R + "one_table_pairs:HEADLINE",
            _R + "one_table_pairs:COIN",
            _R + "one_table_pairs:PAST_AVERAGE",
            _R + "one_table_pairs:HEADLINE_NO_DD",
            _R + "one_table_pairs:HEADLINE_CARDS",
            _R + "one_table_pairs:HEADLINE_FIELDS",
        ],
    ),
    "boards": Registry(
        "boards",
        [
            _R + "results:HBT",
            _R + "results:GBT",
            _R + "results:BT",
            _R + "baselines:WIN_RATE_BOARDS",
            _R + "baselines:WBF_BOARDS",
        ],
    ),
    "rankings": Registry(
        "rankings",
        [
            _R + "baselines:ELO_RANKINGS",
            _R + "baselines:DLO_RANKINGS",
            _R + "baselines:WIN_RATE_RANKINGS",
        ],
    ),
}


def registry(kind: str) -> Registry:
    """The registry of ``kind`` (``sessions``, ``matches``, ``one_table``, ``boards`` or
    ``rankings``)."""
    return KINDS[kind]


def method_descriptions(kind: str | None = None) -> dict[str, str]:
    """Method name -> one-line description, for a reader who knows none of them; of one kind,
    or of all (a name shared by kinds - ``headline``, ``coin`` - described by its first)."""
    kinds = [KINDS[kind]] if kind else list(KINDS.values())
    described: dict[str, str] = {}
    for found in kinds:
        for method in found:
            described.setdefault(method.name, method.description)
    return described


def registered_code(context: Any = None) -> dict[str, str]:
    """The code fingerprint of every registered method's module (its source and all it
    imports, read, not imported: :func:`bridgerank.core.codehash.code_fingerprint`), by
    module; the rate stage's extra input (``context`` unused)."""
    from bridgerank.core.codehash import code_fingerprint

    modules = {entry.partition(":")[0] for found in KINDS.values() for entry in found.entries}
    return {module: code_fingerprint(module) for module in sorted(modules)}
