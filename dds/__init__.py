"""Double dummy analysis: DDS through endplay, play and auction verdicts, player counters.

The boundary with the solver (batched, guarded: :func:`solve_tables`, :func:`solve_plays`,
:func:`par_score`) and the verdict on one board (:func:`analyse_board`);
``bridgerank.dds.stage`` is the pipeline's ``dds`` stage and is not imported here.
"""

from typing import TYPE_CHECKING

from bridgerank.core.lazy import lazy_face as _lazy_face

if TYPE_CHECKING:  # the names, for type checkers and editors
    from bridgerank.dds.analysis import BoardResult, analyse_board
    from bridgerank.dds.counters import COUNTERS, OPPORTUNITIES, RATES, rates, seat_counters
    from bridgerank.dds.solver import PlayRequest, par_score, solve_plays, solve_tables

__all__, __getattr__, __dir__ = _lazy_face(
    __name__,
    {
        "BoardResult": "analysis",
        "COUNTERS": "counters",
        "OPPORTUNITIES": "counters",
        "PlayRequest": "solver",
        "RATES": "counters",
        "analyse_board": "analysis",
        "par_score": "solver",
        "rates": "counters",
        "seat_counters": "counters",
        "solve_plays": "solver",
        "solve_tables": "solver",
    },
)
