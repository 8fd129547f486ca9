"""The study of who beats whom: the transitive and cyclic structure of every game the
records hold, and how well each game-matrix method predicts it
(:mod:`bridgerank.ratings.gamematrix`). Its settings are ``[rate.cycles]`` alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bridgerank.cleaning.match.tables import SeatPerson
from bridgerank.core.studies import Study, StudyResult
from bridgerank.ratings.inputs import (  # in the study's code: what it reads
    BOARD_READS,
    RateData,
)
from bridgerank.ratings.tables import DiscPoint, GameMethodScore, GameStructure

if TYPE_CHECKING:
    from bridgerank.core.stage import StageContext

__all__ = ["CYCLES"]


def run(data: RateData, context: StageContext) -> StudyResult:
    """Describe and score every game (see the module docstring)."""
    from bridgerank.ratings.gamematrix.from_boards import cycle_study  # numpy, only when rating

    cycles = cycle_study(data.boards, data.names, context.settings.rate.cycles, context.progress)
    return StudyResult(
        summary={"cycles": cycles.summary()},
        rows={
            GameStructure: cycles.structure,
            GameMethodScore: cycles.scores,
            DiscPoint: cycles.points,
        },
    )


CYCLES = Study(
    name="cycles",
    run=run,
    reads=BOARD_READS,
    optional_reads=(SeatPerson,),
    writes=(GameStructure, GameMethodScore, DiscPoint),
    settings=("rate.cycles",),
    summary_fields=("cycles",),
)
