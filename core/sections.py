"""The settings' types: one frozen dataclass per section of ``defaults.toml``, and the values
each setting allows.

The dataclasses carry no defaults and no descriptions: both live only in
``config/defaults.toml``, which :func:`bridgerank.core.settings.load_settings` reads first
(a test checks that its keys and these fields are the same set). TOML arrays become tuples,
so a settings object is immutable all the way down.

Each field declares the values it allows with :func:`allowed` (``jobs: int =
allowed(at_least=1, at_most=256)``): :func:`~bridgerank.core.settings.load_settings` checks
every value against its rule, so a value that would crash a stage hours later, or silently
mean nothing, is refused on load with one line naming the key, the value and the rule. A
field of a plain type must declare a rule (a test checks it); a field that is a table (a
nested section such as ``rate.cycles``) needs none, its own fields have theirs. A section
whose values constrain one another (``clean.last_year`` not before ``first_year``) also
defines ``conflict()``, checked after its fields' rules.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import math
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover
    from typing_extensions import dataclass_transform

__all__ = [
    "RESULTS",
    "RULE",
    "Allowed",
    "CleanSettings",
    "CycleSettings",
    "DdsSettings",
    "HeadlineSettings",
    "IngestSettings",
    "MatchSettings",
    "RateSettings",
    "RegressSettings",
    "RegressThresholds",
    "RivalSettings",
    "RunSettings",
    "Settings",
    "StoreSettings",
    "TeamSettings",
    "allowed",
    "result_settings",
    "rule_of",
    "section",
    "shown",
]

# The key of a field's rule in its dataclass metadata.
RULE = "bridgerank.allowed"
RESULTS = "bridgerank.changes_results"

_Section = TypeVar("_Section")

# A line break, a tab, a NUL: no setting's string needs one, and a NUL in a path crashes.
_NO_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _number(bound: float) -> str:
    """A bound as the user would write it: ``10000``, not ``1e+04`` nor ``10000.0``."""
    if isinstance(bound, float) and not bound.is_integer():
        return repr(bound)
    return str(int(bound))


def shown(value: object) -> str:
    """A setting's value as a user wrote it: strings quoted, arrays in brackets."""
    if isinstance(value, tuple):
        return "[" + ", ".join(shown(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


@dataclass(frozen=True)
class Allowed:
    """The values one setting allows; for an array, what each item allows and how many.

    Build one with :func:`allowed`. Numbers: ``at_least``/``above`` and ``at_most``/
    ``below`` bound them (NaN is never inside a bound). Strings: ``one_of`` lists the only
    values, ``non_empty`` refuses ``""``, ``trimmed`` refuses a line break, a control
    character or white space at either end (a pasted path), ``pattern`` must match the
    whole string and ``meaning`` says in words what it matches. Arrays: ``min_items``,
    ``max_items`` and ``distinct`` (no item twice) rule the array, the rest each item.
    """

    at_least: float | None = None
    above: float | None = None
    at_most: float | None = None
    below: float | None = None
    one_of: tuple[object, ...] = ()
    non_empty: bool = False
    trimmed: bool = False
    pattern: str = ""
    meaning: str = ""
    min_items: int = 0
    max_items: int | None = None
    distinct: bool = False

    @property
    def constrains(self) -> bool:
        """Whether this rule refuses any value at all (only a boolean may go without)."""
        return self != Allowed()

    def _range(self) -> str:
        """``at least 1 and at most 256``: the bounds in words."""
        parts = [
            f"{words} {_number(bound)}"
            for words, bound in (
                ("at least", self.at_least),
                ("above", self.above),
                ("at most", self.at_most),
                ("below", self.below),
            )
            if bound is not None
        ]
        return " and ".join(parts)

    def _in_range(self, value: float) -> bool:
        # written as "not inside" so that NaN, which compares false to everything, is out
        return not (
            (self.at_least is not None and not value >= self.at_least)
            or (self.above is not None and not value > self.above)
            or (self.at_most is not None and not value <= self.at_most)
            or (self.below is not None and not value < self.below)
        )

    def _item_problem(self, value: object) -> str | None:
        """What one value (or one item of an array) breaks, in words; None if nothing."""
        if self.one_of and value not in self.one_of:
            return "must be one of " + ", ".join(shown(choice) for choice in self.one_of)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not self._in_range(value):
                return f"must be {self._range()}"
        if isinstance(value, str):
            if self.non_empty and not value:
                return "must not be empty"
            if self.trimmed and (value != value.strip() or _NO_CONTROL.search(value)):
                return "must be one line with no white space at either end"
            if self.pattern and not re.fullmatch(self.pattern, value):
                return f"must be {self.meaning or 'like ' + repr(self.pattern)}"
        return None

    def _count_problem(self, count: int) -> str | None:
        if count >= self.min_items and (self.max_items is None or count <= self.max_items):
            return None
        if self.max_items is None:
            items = "item" if self.min_items == 1 else "items"
            return f"must have at least {self.min_items} {items}"
        if self.min_items == 0:
            return f"must have at most {self.max_items} items"
        return f"must have {self.min_items} to {self.max_items} items"

    def problem(self, value: object) -> tuple[str, object, str] | None:
        """How ``value`` breaks this rule, or None when it does not.

        Parameters
        ----------
        value : object
            A setting's value, of its field's type (a tuple for an array).

        Returns
        -------
        tuple or None
            ``(where, offending value, what is allowed)``: ``where`` is ``""`` for the value
            itself, ``"[2]"`` for the third item of an array.
        """
        if not isinstance(value, tuple):
            broken = self._item_problem(value)
            return None if broken is None else ("", value, broken)
        counted = self._count_problem(len(value))
        if counted is not None:
            return "", value, counted
        for index, item in enumerate(value):
            broken = self._item_problem(item)
            if broken is not None:
                return f"[{index}]", item, broken
            if self.distinct and item in value[:index]:
                return f"[{index}]", item, "must not repeat an earlier item"
        return None


def allowed(
    *,
    at_least: float | None = None,
    above: float | None = None,
    at_most: float | None = None,
    below: float | None = None,
    one_of: tuple[object, ...] = (),
    non_empty: bool = False,
    trimmed: bool = False,
    pattern: str = "",
    meaning: str = "",
    min_items: int = 0,
    max_items: int | None = None,
    distinct: bool = False,
    changes_results: bool = True,
) -> Any:
    """A settings field (no default) that allows only the values described (see
    :class:`Allowed`); ``allowed()`` alone, for a boolean, allows both.

    ``changes_results=False`` marks a setting that says where or how, never what (the double
    dummy store's location): it stays out of the stage's fingerprint (:func:`result_settings`),
    so changing it reruns nothing.

    Returns
    -------
    dataclasses.Field
        Typed ``Any`` so that ``jobs: int = allowed(at_least=1)`` type-checks; the
        :func:`section` decorator tells type checkers that it is a field without a default.
    """
    rule = Allowed(
        at_least=at_least,
        above=above,
        at_most=at_most,
        below=below,
        one_of=one_of,
        non_empty=non_empty,
        trimmed=trimmed,
        pattern=pattern,
        meaning=meaning,
        min_items=min_items,
        max_items=max_items,
        distinct=distinct,
    )
    for bound in (at_least, above, at_most, below):
        if bound is not None and math.isnan(bound):
            raise ValueError("a bound of a setting cannot be NaN")
    return dataclasses.field(metadata={RULE: rule, RESULTS: changes_results})


def result_settings(values: object, nested: bool = True) -> dict[str, Any]:
    """A section's settings that can change a stage's results: what its fingerprint hashes;
    with ``nested`` False, without its subsections (a study names those on their own)."""
    assert dataclasses.is_dataclass(values) and not isinstance(values, type)
    chosen: dict[str, Any] = {}
    for field in dataclasses.fields(values):
        if not field.metadata.get(RESULTS, True):
            continue
        value = getattr(values, field.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if nested:
                chosen[field.name] = result_settings(value)
        else:
            chosen[field.name] = value
    return chosen


@dataclass_transform(frozen_default=True, field_specifiers=(allowed,))
def section(cls: type[_Section]) -> type[_Section]:
    """A frozen settings dataclass whose fields are declared with :func:`allowed`.

    ``dataclass_transform`` tells mypy that ``allowed(...)`` declares a field without a
    default, as ``dataclasses.field()`` would: constructing a section still needs every value.
    """
    decorate: Callable[[type[_Section]], type[_Section]] = dataclass(frozen=True)
    return decorate(cls)


def rule_of(field: dataclasses.Field[Any]) -> Allowed | None:
    """The rule a settings field declared with :func:`allowed`, or None if it declared none."""
    rule = field.metadata.get(RULE)
    return rule if isinstance(rule, Allowed) else None


@section
class StoreSettings:
    """``[store]``: where results go."""

    out: str = allowed(non_empty=True, trimmed=True)
    db: str = allowed(trimmed=True)
    backups: int = allowed(at_least=1, at_most=1000)


@section
class RunSettings:
    """``[run]``: how stages run."""

    jobs: int = allowed(at_least=1, at_most=256)


@section
class IngestSettings:
    """``[ingest]``: the sample, the file endings looked at in folders, and the size bounds
    of one file."""

    sample: tuple[str, ...] = allowed(non_empty=True, trimmed=True, distinct=True)
    extensions: tuple[str, ...] = allowed(non_empty=True, trimmed=True, distinct=True, min_items=1)
    max_file_mb: int = allowed(at_least=1, at_most=100_000)
    max_line_kb: int = allowed(at_least=1, at_most=100_000)


@section
class CleanSettings:
    """``[clean]``: the knobs of the cleaning rules."""

    first_year: int = allowed(at_least=1000, at_most=9999)
    last_year: int = allowed(at_least=0, at_most=9999)
    infer_vulnerability_from_board: bool = allowed()

    @property
    def latest_year(self) -> int:
        """The last year that counts: ``last_year``, or this year when it is 0.

        The one place ``last_year = 0`` is read, so a settings file written years ago keeps
        accepting this year's events.
        """
        return self.last_year or _dt.date.today().year

    def conflict(self) -> tuple[str, str] | None:
        """A key whose value the other keys rule out, and what it must be; None if none.

        ``first_year`` after ``last_year`` would make every year unknown, silently.
        """
        if self.last_year and self.last_year < self.first_year:
            return "last_year", f"must be 0 or at least first_year ({self.first_year})"
        return None


@section
class MatchSettings:
    """``[match]``: the WBF lists and the matcher's knobs."""

    wbf_lists: tuple[str, ...] = allowed(non_empty=True, trimmed=True, distinct=True)
    wbf_codes: str = allowed(trimmed=True)
    alternative_names: str = allowed(trimmed=True)
    fuzzy_min_ratio: float = allowed(above=0, at_most=100)
    fuzzy_min_length: int = allowed(at_least=1, at_most=100)
    fuzzy_alone_min_length: int = allowed(at_least=1, at_most=100)
    truncated_min_length: int = allowed(at_least=1, at_most=100)
    tiebreak_margin: float = allowed(above=0, at_most=100)
    match_surname_only: bool = allowed()
    overrides: str = allowed(trimmed=True)


@section
class DdsSettings:
    """``[dds]``: the workers and the chunks of the double dummy analysis."""

    backend: str = allowed(one_of=("loky", "dask"))
    scheduler: str = allowed(
        pattern=r"|([a-z]+://)?[^\s/]+", meaning="empty, or an address like tcp://host:8786"
    )
    chunk_deals: int = allowed(at_least=1, at_most=1000)
    chunk_boards: int = allowed(at_least=1, at_most=10_000)
    dds_threads: int = allowed(at_least=0, at_most=256)
    retries: int = allowed(at_least=0, at_most=10)
    store: str = allowed(trimmed=True, changes_results=False)
    verify: int = allowed(at_least=0, at_most=1_000_000, changes_results=False)
    call_threshold_imps: int = allowed(at_least=1, at_most=24)
    auction_counters: str = allowed(one_of=("par", "thesis"))
    call_threshold_mp: float = allowed(above=0, at_most=1)
    call_min_tables: int = allowed(at_least=2, at_most=1000)


@section
class CycleSettings:
    """``[rate.cycles]``: the game matrices of who beats whom."""

    top_pairs: int = allowed(at_least=3, at_most=500)
    min_boards: int = allowed(at_least=1, at_most=100_000)
    min_common: int = allowed(at_least=1, at_most=100_000)
    min_teams: int = allowed(at_least=3, at_most=1000)
    team_events: int = allowed(at_least=0, at_most=100)
    alpha: float = allowed(above=0, at_most=100)
    discs: int = allowed(at_least=0, at_most=50)
    seeds: int = allowed(at_least=1, at_most=1000)
    neural: bool = allowed()
    neural_steps: int = allowed(at_least=1, at_most=100_000)
    neural_seeds: int = allowed(at_least=1, at_most=1000)


@section
class HeadlineSettings:
    """``[rate.headline]``: the pair-session headline's grids and the thresholds of its
    study and checks."""

    penalties: tuple[float, ...] = allowed(above=0, distinct=True, min_items=1, max_items=50)
    mean_shrinks: tuple[float, ...] = allowed(at_least=0, distinct=True, min_items=1, max_items=50)
    partnership_penalties: tuple[float, ...] = allowed(
        above=0, distinct=True, min_items=1, max_items=50
    )
    min_periods: int = allowed(at_least=2, at_most=10_000)
    min_evidence_coverage: float = allowed(at_least=0, at_most=1)
    regular_boards: int = allowed(at_least=1, at_most=1_000_000)
    regular_sessions: int = allowed(at_least=1, at_most=10_000)
    occasional_sessions: int = allowed(at_least=1, at_most=10_000)
    bands: tuple[int, ...] = allowed(
        at_least=0, at_most=10_000_000, distinct=True, min_items=1, max_items=20
    )
    min_band_players: int = allowed(at_least=1, at_most=1_000_000)
    strong_gap: float = allowed(at_least=0, at_most=100)
    relearned_draws: int = allowed(at_least=2, at_most=10_000)
    min_relearned_draws: int = allowed(at_least=1, at_most=10_000)
    relearned_work: int = allowed(at_least=1, at_most=10_000_000_000)
    familiar_sessions: int = allowed(at_least=1, at_most=10_000)
    entry_sessions: float = allowed(above=0, at_most=10_000)
    profile_boards: float = allowed(above=0, at_most=1_000_000)
    dd_shrinks: tuple[float, ...] = allowed(above=0, at_most=1_000_000, min_items=3, max_items=3)

    def conflict(self) -> tuple[str, str] | None:
        """A key whose value the other keys rule out, and what it must be; None if none.

        The bands are searched in order from the first, which every player passes."""
        if self.bands[0] != 0 or list(self.bands) != sorted(self.bands):
            return "bands", "must start at 0 and increase"
        if self.occasional_sessions >= self.regular_sessions:
            below = f"must be below regular_sessions ({self.regular_sessions})"
            return "occasional_sessions", below
        return None


@section
class TeamSettings:
    """``[rate.teams]``: the team-match headline's grids, the shrinkage of its players'
    covariates and its studies' thresholds."""

    penalties: tuple[float, ...] = allowed(above=0, distinct=True, min_items=1, max_items=50)
    joint_penalties: tuple[float, ...] = allowed(above=0, distinct=True, min_items=1, max_items=50)
    one_table_weights: tuple[float, ...] = allowed(
        at_least=0, at_most=100, distinct=True, min_items=1, max_items=20
    )
    min_periods: int = allowed(at_least=2, at_most=10_000)
    dd_shrinks: tuple[float, ...] = allowed(above=0, at_most=1_000_000, min_items=3, max_items=3)
    card_shrinks: tuple[float, ...] = allowed(above=0, at_most=1_000_000, min_items=3, max_items=3)
    field_shrink: float = allowed(above=0, at_most=1_000_000)
    min_events: int = allowed(at_least=2, at_most=10_000)


@section
class RivalSettings:
    """``[rate.rivals]``: the grids of the rival rating methods' free settings, and when the
    federations' points are a baseline."""

    pair_elo_k: tuple[float, ...] = allowed(above=0, distinct=True, min_items=2, max_items=50)
    ngs_half_lives: tuple[float, ...] = allowed(above=0, distinct=True, min_items=2, max_items=50)
    glicko2_taus: tuple[float, ...] = allowed(above=0, distinct=True, min_items=2, max_items=50)
    openskill_betas: tuple[float, ...] = allowed(above=0, distinct=True, min_items=2, max_items=50)
    ttt_gammas: tuple[float, ...] = allowed(above=0, distinct=True, min_items=2, max_items=50)
    widen_steps: int = allowed(at_least=0, at_most=20)
    team_pair_elo_k: tuple[float, ...] = allowed(above=0, distinct=True, min_items=1, max_items=50)
    team_ngs_half_lives: tuple[float, ...] = allowed(
        above=0, distinct=True, min_items=1, max_items=50
    )
    team_openskill_betas: tuple[float, ...] = allowed(
        above=0, distinct=True, min_items=1, max_items=50
    )
    team_ttt_gammas: tuple[float, ...] = allowed(above=0, distinct=True, min_items=1, max_items=50)
    team_elo_k: tuple[float, ...] = allowed(above=0, distinct=True, min_items=1, max_items=50)
    wbf_min_listed_share: float = allowed(above=0, at_most=1)


@section
class RateSettings:
    """``[rate]``: the ratings and their validation."""

    weighting: str = allowed(one_of=("board", "imps"))
    prior: bool = allowed()
    train_share: float = allowed(above=0, below=1)
    bootstrap_resamples: int = allowed(at_least=0, at_most=10_000)
    min_tables: int = allowed(at_least=2, at_most=1000)
    regular_games: int = allowed(at_least=1, at_most=100_000)
    calibration_rankings: int = allowed(at_least=0)
    validation_bootstrap: int = allowed(at_least=0, at_most=100_000)
    cycles: CycleSettings
    headline: HeadlineSettings
    teams: TeamSettings
    rivals: RivalSettings


@section
class RegressThresholds:
    """``[regress.thresholds]``: minimum opportunities of a player in the regression."""

    claims: int = allowed(at_least=0, at_most=10_000_000)
    leads: int = allowed(at_least=0, at_most=10_000_000)
    cards_played_as_declarer: int = allowed(at_least=0, at_most=10_000_000)
    cards_played_as_defender: int = allowed(at_least=0, at_most=10_000_000)
    auctions_analyzed: int = allowed(at_least=0, at_most=10_000_000)


@section
class RegressSettings:
    """``[regress]``: the regression study."""

    responses: tuple[str, ...] = allowed(
        one_of=("mp", "pp", "headline"), distinct=True, min_items=1
    )
    vif_bound: float = allowed(above=1)
    forward_entry: float = allowed(above=0, at_most=1)
    backward_stay: float = allowed(above=0, at_most=1)
    stepwise_entry: float = allowed(above=0, at_most=1)
    stepwise_stay: float = allowed(above=0, at_most=1)
    cv_folds: int = allowed(at_least=2, at_most=10_000)
    bootstrap_resamples: int = allowed(at_least=0, at_most=10_000)
    sweep_factors: tuple[float, ...] = allowed(at_least=0, at_most=100, distinct=True, max_items=50)
    thresholds: RegressThresholds

    def selection_levels(self, method: str) -> dict[str, float]:
        """The significance levels of one selection method, as its keyword arguments.

        Parameters
        ----------
        method : {"forward", "backward", "stepwise"}

        Returns
        -------
        dict
            ``{"entry": ..}``, ``{"stay": ..}`` or both, for
            :func:`bridgerank.regression.selection.select`.
        """
        return {
            "forward": {"entry": self.forward_entry},
            "backward": {"stay": self.backward_stay},
            "stepwise": {"entry": self.stepwise_entry, "stay": self.stepwise_stay},
        }[method]


@section
class Settings:
    """All the settings, one attribute per section: ``settings.rate.min_tables``."""

    store: StoreSettings
    run: RunSettings
    ingest: IngestSettings
    clean: CleanSettings
    match: MatchSettings
    dds: DdsSettings
    rate: RateSettings
    regress: RegressSettings
