"""Double dummy analysis: DDS through endplay, play and auction verdicts, player counters.

The boundary with the solver (batched, guarded: :func:`solve_tables`, :func:`solve_plays`,
:func:`par_score`) and the verdict on one board (:func:`analyse_board`);
``bridgerank.dds.stage`` is the pipeline's ``dds`` stage and is not imported here.
"""

from bridgerank.dds.analysis import BoardResult, analyse_board
from bridgerank.dds.counters import COUNTERS, OPPORTUNITIES, RATES, rates, seat_counters
from bridgerank.dds.solver import PlayRequest, par_score, solve_plays, solve_tables

__all__ = [
    "COUNTERS", "OPPORTUNITIES", "RATES", "BoardResult", "PlayRequest", "analyse_board",
    "par_score", "rates", "seat_counters", "solve_plays", "solve_tables",
]
