"""What the rate stage and each study inside it found, as typed summaries.

Each study returns its rows per table and one of these: :class:`ResultsSummary` (the methods
rated on every kind of game, :func:`bridgerank.ratings.results.rate_results`),
:class:`HeadlineSummary` (the headline rating,
:func:`bridgerank.ratings.headline.session_study.headline_study`), :class:`MatchSummary` (team
matches held out, :func:`bridgerank.ratings.team_matches.study_matches`) and
:class:`CycleSummary` (who beats whom,
:func:`bridgerank.ratings.gamematrix.from_boards.cycle_study`).
:class:`RateSummary` composes them: the stage's closing lines and its line in ``bridgerank
status``. The ledger keeps it as JSON, for history only; what another command needs later
(the headline's penalty and variances, the skill-o-meter's reading, the game counts) is in
the tables :class:`~bridgerank.ratings.tables.FittedHeadline` (``headline_fit``),
:class:`~bridgerank.ratings.tables.RateInputs` and :class:`~bridgerank.ratings.tables.SkillOMeter`.

Every field has a default, so a summary written by an older version (or by a study that
stopped early) still reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bridgerank.core.summary import StageSummary, from_plain, plural
from bridgerank.dds.lead_baselines import LeadBaselines

__all__ = [
    "SkillSummary",
    "ResultsSummary",
    "HeadlineValidationSummary",
    "DdEvidenceSummary",
    "HeadlineSummary",
    "MatchValidationSummary",
    "MatchSummary",
    "EventMatchSummary",
    "GameSummary",
    "CycleSummary",
    "RateSummary",
]


@dataclass
class SkillSummary:
    """The skill-o-meter's reading (Duersch, Lambrecht and Oechssler) on the pair rankings.

    ``k`` is the calibrated Elo K, ``sigma`` the spread of the regular players' ratings,
    ``players`` how many regular players there are, and ``p`` the share of games that a game
    with that spread would have decided by skill (:mod:`bridgerank.ratings.skill`).
    """

    k: float = 0.0
    sigma: float = 0.0
    p: float = 0.0
    players: int = 0


@dataclass
class ResultsSummary:
    """The methods rated on every kind of game: how many games of each kind, how many players,
    each method's held-out log-loss per board (keys ``"games: method"``), and the
    skill-o-meter's reading (None without pair rankings)."""

    team_games: int = 0
    single_table_games: int = 0
    pair_rankings: int = 0
    players: int = 0
    validation: dict[str, float] = field(default_factory=dict)
    skill_o_meter: SkillSummary | None = None


@dataclass
class HeadlineValidationSummary:
    """The headline rating's walk-forward scores on held-out pair-sessions."""

    pair_sessions: int = 0
    pearson: float | None = None
    rmse: float | None = None
    coverage_80: float | None = None
    # on the pair-sessions with a player never seen before, and their count
    newcomer_pearson: float | None = None
    newcomer_sessions: int = 0
    # each rival's setting chosen on its first training dates, with the grid it tried
    settings: dict[str, str] = field(default_factory=dict)


@dataclass
class DdEvidenceSummary:
    """The headline without the players' past double dummy measures beside it: its scores,
    and the Pearson correlation the measures add to the headline's (negative: they lose)."""

    pearson: float | None = None
    pearson_added: float | None = None
    rmse: float | None = None


@dataclass
class HeadlineSummary:
    """The headline rating: what it was fitted on, its penalty and variances, its validation.

    ``tables`` is 0 (and ``note`` says why) when no deal was played at enough tables.
    ``validation`` is None when it was not validated, and ``not_validated`` then says why.
    """

    tables: int = 0
    players: int = 0
    sessions: int = 0
    penalty: float | None = None
    # chosen on the tables' latest quarter: do newcomers start below the regulars?
    newcomer_prior: float | None = None
    # what a forecast of a new event needs besides the ratings (bridgerank predict)
    residual_variance: float | None = None
    form_variance: float | None = None
    # a familiar partnership's bonus (share of d): headline.familiarity
    familiarity: float | None = None
    # each entry code's term (share of d at full weight): headline.entry; empty: none known
    entry_effects: dict[str, float] = field(default_factory=dict)
    validation: HeadlineValidationSummary | None = None
    not_validated: str = ""
    dd_evidence: DdEvidenceSummary | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.validation, str):  # older versions: the reason in its place
            self.not_validated, self.validation = self.validation, None


@dataclass
class MatchValidationSummary:
    """The headline's walk-forward scores on held-out team matches (IMPs), and how far their
    margins can be predicted at all (:func:`~bridgerank.ratings.team_matches.match_ceiling`)."""

    matches: int = 0
    pearson: float | None = None
    rmse: float | None = None
    coverage_80: float | None = None
    split_half: float | None = None
    ceiling: float | None = None

    def ceiling_rows(self) -> list[dict[str, Any]]:
        """The ``validation_ceiling`` rows of the held-out matches."""
        return [
            {"measure": "team_match_split_half", "value": self.split_half, "n": self.matches},
            {"measure": "team_match_ceiling", "value": self.ceiling, "n": self.matches},
        ]


@dataclass
class OneTableValidationSummary:
    """The headline's walk-forward scores on held-out pairs at one table a deal (IMPs
    against par over a pair's boards of a session)."""

    pairs: int = 0
    pearson: float | None = None
    rmse: float | None = None
    coverage_80: float | None = None


@dataclass
class MatchSummary:
    """Team matches held out: how many team boards and players, and the headline's scores
    (None when not validated; ``not_validated`` then says why when there is a reason)."""

    team_boards: int = 0
    players: int = 0
    validation: MatchValidationSummary | None = None
    not_validated: str = ""
    one_table: OneTableValidationSummary | None = None

    def __post_init__(self) -> None:
        if isinstance(self.validation, str):  # older versions: the reason in its place
            self.not_validated, self.validation = self.validation, None


@dataclass
class EventMatchSummary:
    """Matches of team events rebuilt from traveller files, held out round by round
    (:mod:`~bridgerank.ratings.event_matches`): how many, and the headline's Pearson, its
    RMSE gain over a coin (IMPs a match) and the margins' ceiling, overall and on the
    championships (None where there were none)."""

    matches: int = 0
    held_out: int = 0
    events: int = 0
    pearson: float | None = None
    coin_gain: float | None = None
    ceiling: float | None = None
    championship_pearson: float | None = None
    championship_ceiling: float | None = None
    # a reference that is no forecast: each team's form in the rest of its event (later rounds
    # included), overall
    hindsight_pearson: float | None = None
    # the double dummy question, on the matches of the events with deals: what the players'
    # double dummy measures add to the headline's Pearson, with its interval
    dd_matches: int = 0
    dd_gain: float | None = None
    dd_gain_low: float | None = None
    dd_gain_high: float | None = None
    # the opening leads' measure alone, on the same matches, and the leads' baselines
    lead_gain: float | None = None
    lead_gain_low: float | None = None
    lead_gain_high: float | None = None
    leads: LeadBaselines | None = None

    def line(self) -> str:
        """The rate stage's closing line on them."""
        figures = (
            f"headline Pearson {self.pearson:.3f}, {self.coin_gain:.2f} IMPs a match "
            f"closer than a coin"
            if self.pearson is not None and self.coin_gain is not None
            else "not validated"
        )
        if self.ceiling is not None:
            figures += f" (no forecast can pass about {self.ceiling:.2f}"
            if self.hindsight_pearson is not None:
                figures += (
                    f"; each team's form in the rest of its event, later rounds included, "
                    f"reaches {self.hindsight_pearson:.3f}"
                )
            figures += ")"
        if self.championship_pearson is not None:
            figures += f"; championships {self.championship_pearson:.3f}"
            if self.championship_ceiling is not None:
                figures += f" (about {self.championship_ceiling:.2f})"
        if self.dd_gain is not None:
            figures += (
                f"; double dummy measures of earlier play add "
                f"{_gain(self.dd_gain, self.dd_gain_low, self.dd_gain_high)} "
                f"to its Pearson on the {self.dd_matches:,} matches with deals"
            )
            if self.lead_gain is not None:
                figures += (
                    f", opening leads alone "
                    f"{_gain(self.lead_gain, self.lead_gain_low, self.lead_gain_high)}"
                )
        if self.leads is not None and self.leads.leads:
            figures += f"; {self.leads.line()}"
        return (
            f"  team events' matches ({self.held_out:,} of {self.matches:,} held out, "
            f"walk-forward by round, {self.events} events): {figures}"
        )


def _gain(gain: float, low: float | None, high: float | None) -> str:
    """``+0.001 [-0.002, +0.003]`` (no interval where there was none)."""
    interval = f" [{low:+.3f}, {high:+.3f}]" if low is not None and high is not None else ""
    return f"{gain:+.3f}{interval}"


@dataclass
class GameSummary:
    """One game matrix of the who-beats-whom study: its kind, its transitive share, the band
    a purely transitive game on the same boards would show (None without boards), and the
    method that predicted its held-out entries best."""

    game: str = ""
    entity: str = ""
    kind: str = ""
    players: int = 0
    transitive_share: float = 0.0
    noise_low: float | None = None
    noise_high: float | None = None
    best_method: str | None = None


@dataclass
class CycleSummary:
    """The who-beats-whom study: one :class:`GameSummary` per game matrix, in study order."""

    games: list[GameSummary] = field(default_factory=list)


# The rate stage's studies (:mod:`bridgerank.ratings.studies`): a run of fewer says which.
_STUDIES = 4


@dataclass
class RateSummary(StageSummary):
    """The rate stage's summary: each study's, composed."""

    results: ResultsSummary = field(default_factory=ResultsSummary)
    headline: HeadlineSummary = field(default_factory=HeadlineSummary)
    matches: MatchSummary = field(default_factory=MatchSummary)
    cycles: CycleSummary = field(default_factory=CycleSummary)
    event_matches: EventMatchSummary | None = None
    # the studies this run ran (:mod:`bridgerank.core.studies`); the others' parts are
    # their last run's
    studies_run: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """As :meth:`StageSummary.to_json`, with the results' fields at the top: the layout
        of the ledger's earlier rate runs (the report's table of runs shows a summary's top
        values; old and new runs read alike)."""
        data = super().to_json()
        return {"seconds": data.pop("seconds"), **data.pop("results"), **data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RateSummary:
        """As :meth:`StageSummary.from_json` (from :meth:`to_json`'s layout), also from the
        untyped summaries of earlier versions (their cycles keyed by game)."""
        if "results" not in data:
            # older versions kept an empty dict for "no skill-o-meter reading"
            data = dict(data, results=dict(data, skill_o_meter=data.get("skill_o_meter") or None))
        cycles = data.get("cycles")
        if isinstance(cycles, dict) and "games" not in cycles:
            games = [dict(found, game=game) for game, found in cycles.items()]
            data = dict(data, cycles={"games": games})
        return from_plain(cls, data)

    def lines(self) -> list[str]:
        """The run's closing lines: games and players, held-out log-loss per kind of game, the
        headline and its validation, team matches, each game matrix, the skill-o-meter."""
        results = self.results
        lines = [
            f"rate: {plural(results.players, 'player')} rated in {self.seconds:.1f} s "
            f"from {plural(results.team_games, 'team board')}, "
            f"{plural(results.pair_rankings, 'pair ranking')}, "
            f"{plural(results.single_table_games, 'board')} vs par"
            # a run of some studies says so on its first line, the one a run prints
            + (
                f"; ran only the {'study' if len(self.studies_run) == 1 else 'studies'} "
                f"that changed: {', '.join(self.studies_run)}"
                if self.studies_run and len(self.studies_run) < _STUDIES
                else ""
            )
        ]
        if results.validation:
            # "games: method" keys: one group per kind of game, each method once
            groups: dict[str, list[str]] = {}
            for key, loss in results.validation.items():
                games, _, method = key.rpartition(": ")
                groups.setdefault(games or "games", []).append(f"{method} {loss:.3f}")
            lines.append(
                "  held-out log-loss per board (a coin: 0.693): "
                + "; ".join(f"{games}: {', '.join(parts)}" for games, parts in groups.items())
            )
        headline = self.headline
        if headline.tables:
            lines.append(
                f"  headline rating: {headline.players:,} players from {headline.tables:,} "
                f"matchpointed tables in {headline.sessions:,} sessions (penalty "
                f"{headline.penalty:g})"
            )
            checked = headline.validation
            if checked is not None:
                coverage = 100 * (checked.coverage_80 or 0.0)
                lines.append(
                    f"  held-out sessions ({checked.pair_sessions:,} pair-sessions, "
                    f"walk-forward): Pearson {checked.pearson:.3f}, RMSE {checked.rmse:.2f} "
                    f"points, 80% intervals cover {coverage:.0f}%"
                )
                if checked.newcomer_pearson is not None:
                    lines.append(
                        f"  pair-sessions with a player never seen before "
                        f"({checked.newcomer_sessions:,}): Pearson "
                        f"{checked.newcomer_pearson:.3f}"
                    )
                if checked.settings:
                    lines.append(
                        "  rivals' settings, chosen on their first training dates: "
                        + "; ".join(f"{name} {chosen}" for name, chosen in checked.settings.items())
                    )
            elif headline.not_validated:
                lines.append(f"  held-out sessions: {headline.not_validated}")
        matches = self.matches.validation
        if matches is not None:
            pearson = "-" if matches.pearson is None else f"{matches.pearson:.3f}"
            ceiling = (
                f" (no forecast can pass about {matches.ceiling:.2f}: the margins' split-half "
                f"reliability is {matches.split_half:.2f})"
                if matches.ceiling is not None and matches.split_half is not None
                else ""
            )
            lines.append(
                f"  held-out team matches ({matches.matches:,}, walk-forward): IMP headline "
                f"Pearson {pearson}, RMSE {matches.rmse:.1f} IMPs{ceiling}"
            )
        if self.event_matches is not None and self.event_matches.matches:
            lines.append(self.event_matches.line())
        pairs = self.matches.one_table
        if pairs is not None:
            pearson = "-" if pairs.pearson is None else f"{pairs.pearson:.3f}"
            lines.append(
                f"  held-out pairs at one table a deal ({pairs.pairs:,} pair-sessions, "
                f"walk-forward): IMP headline Pearson {pearson}, RMSE {pairs.rmse:.1f} IMPs"
            )
        for found in self.cycles.games:
            noise = (
                f" (a transitive game on these boards: {100 * found.noise_low:.0f}-"
                f"{100 * (found.noise_high or 0.0):.0f}%)"
                if found.noise_low is not None
                else ""
            )
            lines.append(
                f"  who beats whom, {found.game} ({found.players}): {found.kind}, "
                f"{100 * found.transitive_share:.0f}% transitive{noise}"
            )
        skill = results.skill_o_meter
        if skill is not None:
            lines.append(
                f"  skill-o-meter: K* {skill.k:.2f}, rating spread {skill.sigma:.1f} over "
                f"{skill.players:,} regular players: like a game decided by skill "
                f"{100 * skill.p:.0f}% of the time"
            )
        return lines

    def brief(self) -> str:
        """Players rated, from how many team boards and pair rankings."""
        results = self.results
        return (
            f"{results.players:,} players from {results.team_games:,} team "
            f"boards and {results.pair_rankings:,} pair rankings"
        )
