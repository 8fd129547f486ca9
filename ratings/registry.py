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

Each kind's methods are listed, as objects, in its module of :mod:`bridgerank.ratings.kinds`
(``METHODS``), which imports them; this module imports none of them (their modules import
it for :class:`Method`). The study of a kind imports its kind's module, so the study's code
fingerprint (:mod:`bridgerank.core.codehash`) follows every method it validates: an edit to a
method's module reruns the studies that validate it, and only those.

Adding a method: write one module with a ``Method`` and add it to the list of its kind in
:mod:`bridgerank.ratings.kinds`. It is then fitted, validated beside every other method of its
kind and described in the report.
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
    "KIND_NAMES",
    "Rated",
    "SplitMethod",
    "Method",
    "Registry",
    "StudyInputs",
    "method_descriptions",
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
    """The methods of one kind, in validation order (a name may be registered once)."""

    def __init__(self, kind: str, methods: list[Method]) -> None:
        names = [method.name for method in methods]
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            raise ValueError(f"two {kind} methods named {duplicated[0]!r}")
        self.kind = kind
        # a list, so that a test registers a method for its own run (and removes it)
        self.methods = list(methods)

    def __iter__(self) -> Iterator[Method]:
        return iter(self.methods)

    def make(self, data: Any, inputs: StudyInputs) -> dict[str, Any]:
        """Every method that applies to ``data``, made: name -> what the harness calls."""
        made = {}
        for method in self.methods:
            fitted = method.make(data, inputs)
            if fitted is not None:
                made[method.name] = fitted
        return made


# The kinds, in the report's order; each kind's methods are listed in its own module of
# :mod:`bridgerank.ratings.kinds` (``METHODS``), which imports them.
KIND_NAMES = ("sessions", "matches", "one_table", "boards", "rankings")


def registry(kind: str) -> Registry:
    """The registry of ``kind`` (one of :data:`KIND_NAMES`), its methods' modules imported
    now. A study imports its kind's module itself, so that its code fingerprint follows the
    methods' modules."""
    if kind not in KIND_NAMES:
        raise KeyError(f"no kind of method {kind!r}; kinds are: {', '.join(KIND_NAMES)}")
    found: Registry = importlib.import_module(f"bridgerank.ratings.kinds.{kind}").METHODS
    return found


def method_descriptions(kind: str | None = None) -> dict[str, str]:
    """Method name -> one-line description, for a reader who knows none of them; of one kind,
    or of all (a name shared by kinds - ``headline``, ``coin`` - described by its first)."""
    described: dict[str, str] = {}
    for name in [kind] if kind else KIND_NAMES:
        for method in registry(name):
            described.setdefault(method.name, method.description)
    return described
