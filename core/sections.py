"""The settings' types: one frozen dataclass per section of ``defaults.toml``.

The dataclasses carry no defaults and no descriptions: both live only in
``config/defaults.toml``, which :func:`bridgerank.core.settings.load_settings` reads first
(a test checks that its keys and these fields are the same set). TOML arrays become tuples,
so a settings object is immutable all the way down.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

__all__ = [
    "CleanSettings",
    "CycleSettings",
    "DdsSettings",
    "IngestSettings",
    "MatchSettings",
    "RateSettings",
    "RegressSettings",
    "RegressThresholds",
    "RunSettings",
    "Settings",
    "StoreSettings",
]


@dataclass(frozen=True)
class StoreSettings:
    """``[store]``: where results go."""

    out: str
    db: str


@dataclass(frozen=True)
class RunSettings:
    """``[run]``: how stages run."""

    jobs: int


@dataclass(frozen=True)
class IngestSettings:
    """``[ingest]``: the sample and the file endings looked at in folders."""

    sample: tuple[str, ...]
    extensions: tuple[str, ...]


@dataclass(frozen=True)
class CleanSettings:
    """``[clean]``: the knobs of the cleaning rules."""

    first_year: int
    last_year: int
    infer_vulnerability_from_board: bool

    @property
    def latest_year(self) -> int:
        """The last year that counts: ``last_year``, or this year when it is 0.

        The one place ``last_year = 0`` is read, so a settings file written years ago keeps
        accepting this year's events.
        """
        return self.last_year or _dt.date.today().year


@dataclass(frozen=True)
class MatchSettings:
    """``[match]``: the WBF lists and the matcher's knobs."""

    wbf_lists: tuple[str, ...]
    wbf_codes: str
    alternative_names: str
    fuzzy_min_ratio: float
    fuzzy_min_length: int
    fuzzy_alone_min_length: int
    truncated_min_length: int
    tiebreak_margin: float
    match_surname_only: bool


@dataclass(frozen=True)
class DdsSettings:
    """``[dds]``: the workers and the chunks of the double dummy analysis."""

    backend: str
    scheduler: str
    chunk_deals: int
    chunk_boards: int
    dds_threads: int
    retries: int


@dataclass(frozen=True)
class CycleSettings:
    """``[rate.cycles]``: the game matrices of who beats whom."""

    top_pairs: int
    min_boards: int
    min_common: int
    min_teams: int
    team_events: int
    alpha: float
    discs: int
    seeds: int
    synthetic_players: int
    synthetic_discs: tuple[int, ...]
    synthetic_seeds: int
    neural: bool
    neural_steps: int
    neural_seeds: int


@dataclass(frozen=True)
class RateSettings:
    """``[rate]``: the ratings and their validation."""

    weighting: str
    prior: bool
    train_share: float
    bootstrap_resamples: int
    min_tables: int
    regular_games: int
    calibration_rankings: int
    validation_bootstrap: int
    cycles: CycleSettings


@dataclass(frozen=True)
class RegressThresholds:
    """``[regress.thresholds]``: minimum opportunities of a player in the regression."""

    claims: int
    leads: int
    cards_played_as_declarer: int
    cards_played_as_defender: int
    auctions_analyzed: int


@dataclass(frozen=True)
class RegressSettings:
    """``[regress]``: the regression study."""

    responses: tuple[str, ...]
    vif_bound: float
    forward_entry: float
    backward_stay: float
    stepwise_entry: float
    stepwise_stay: float
    cv_folds: int
    bootstrap_resamples: int
    sweep_factors: tuple[float, ...]
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


@dataclass(frozen=True)
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
