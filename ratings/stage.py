"""The ``rate`` stage: ratings of every player from results, and how well each method
predicts results it has not seen.

The stage is four studies (:mod:`bridgerank.ratings.studies`), each fingerprinted on its own
(:mod:`bridgerank.core.studies`), so that a run reruns only those whose inputs, settings or
code changed:

``results``
    the Bradley-Terry family, the multiplayer Elos and the win rate fitted on the earliest
    boards and pair rankings and scored on the rest, the ratings fitted on every game, the
    team headline on every team board (method ``team_imps``), each table's score and what
    each pair-session and match actually scored;
``headline``
    the headline rating on pair-sessions, every method of its kind walked forward beside it;
``teams``
    the team headline and its rivals on held-out team matches, pairs at one table a deal and
    the team events' matches rebuilt from traveller files;
``cycles``
    who beats whom: the transitive and cyclic structure of the games (``[rate.cycles]``).

Games: team boards played in both rooms (two pairs against two pairs, by the net score),
single-table boards (North-South against East-West, by their score against the double dummy
par, once the dds stage has stored it), and deals played at three or more tables (rankings of
the pairs, for the multiplayer Elo methods).

The run returns a :class:`~bridgerank.ratings.summaries.RateSummary` (its closing lines, the
ledger's history), each study's part from its last run; what another command reads of it is
in tables: the headline's fit (``headline_fit``, for ``bridgerank predict`` and the report),
the games rated (``rate_inputs``) and the skill-o-meter's reading (``skill_o_meter``).
"""

from __future__ import annotations

from bridgerank.core.stage import Stage, StageContext
from bridgerank.core.studies import Study, run_studies
from bridgerank.ratings.inputs import RateData
from bridgerank.ratings.studies.cycles import CYCLES
from bridgerank.ratings.studies.headline import HEADLINE
from bridgerank.ratings.studies.results import RESULTS
from bridgerank.ratings.studies.teams import TEAMS
from bridgerank.ratings.summaries import RateSummary

__all__ = ["RATE_STAGE", "STUDIES", "run"]

STUDIES: tuple[Study, ...] = (RESULTS, HEADLINE, TEAMS, CYCLES)


def run(context: StageContext) -> RateSummary:
    """Run the studies that changed (every study with ``--force``), on inputs read once (with
    ``--jobs`` above one, the studies side by side in worker processes, each reading its
    own)."""
    summary = run_studies(context, load_data)
    assert isinstance(summary, RateSummary)
    return summary


def load_data(context: StageContext) -> RateData:
    """What the studies read, read lazily: each table when a study first asks for it."""
    return RateData(context.engine, context.settings.rate.min_tables, context.settings.rate.teams)


def _union(*groups: tuple) -> tuple:
    """The tables of ``groups``, each once, in the order first named."""
    return tuple(dict.fromkeys(table for group in groups for table in group))


RATE_STAGE = Stage(
    name="rate",
    run=run,
    reads=_union(*(study.reads for study in STUDIES)),
    optional_reads=_union(*(study.optional_reads for study in STUDIES)),
    writes=_union(*(study.writes for study in STUDIES)),
    settings_sections=("rate",),
    summary_type=RateSummary,
    studies=STUDIES,
)
