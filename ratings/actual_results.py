"""What each pair-session, team match and one-table pair actually scored, keyed as
``bridgerank predict`` names its forecasts: the results a stored forecast is scored against.

The rate stage stores them (``actual_results``) for every event it rates, so that a forecast
made before an event was ingested is scored by reading a table, by ``predict`` and by the
report alike, rather than by building every field again.

Kinds, each keyed ``(event, session, side, opponents)``:

``session``
    a pair's session percentage; ``side`` and ``opponents`` are the pair's two players as the
    boards name them, sorted (:func:`~bridgerank.ratings.headline.forecast.actual_percentages`);
``imps``
    a team match's margin (``side`` the team it is oriented to) or a pair's IMPs against par
    in an event played at one table a deal (``opponents`` empty)
    (:func:`~bridgerank.ratings.imp_forecast.actual_imps`);
``event``
    a match of a team event rebuilt from traveller files (``team_matches``): its margin,
    each team named by its first line-up.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from bridgerank.cleaning.match.non_persons import classify

__all__ = ["KINDS", "actual_results", "event_margins", "seated_persons"]

KINDS = ("session", "imps", "event")
_SEATS = ("north", "south", "east", "west")
# Each team of a team event's match, as the seats of its first line-up name it.
_TEAM_A = ("open_north", "open_south", "closed_east", "closed_west")
_TEAM_B = ("open_east", "open_west", "closed_north", "closed_south")


def seated_persons(board: dict[str, Any]) -> dict[str, Any]:
    """``board`` with the seats that name no one person blank (a placeholder such as
    "North", a robot, a team string): the stages never rate them, nor does a forecast."""
    for seat in _SEATS:
        if board.get(seat) and classify(board[seat]) is not None:
            board[seat] = ""
    return board


def event_margins(matches: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str, str, str], float]:
    """The team events' matches (``team_matches`` rows), keyed as their forecasts are (event,
    round, team A, team B, each as its first line-up names it): their margins."""
    from bridgerank.ratings.imp_forecast import side_name

    return {
        (
            row["event"],
            row["round"],
            side_name(row[seat] for seat in _TEAM_A),
            side_name(row[seat] for seat in _TEAM_B),
        ): float(row["margin"])
        for row in matches
    }


def actual_results(
    written: list[dict[str, Any]],
    par_of: Callable[[Mapping[str, Any]], int | None],
    matches: Iterable[Mapping[str, Any]],
    min_tables: int,
) -> list[dict[str, Any]]:
    """Every result a forecast could be scored against, as rows of ``actual_results``.

    Parameters
    ----------
    written : list of dict
        The stored boards with their seats as the files name them
        (:func:`seated_persons`), not as persons.
    par_of : callable
        A board's double dummy par (None where the dds stage has stored none).
    matches : iterable of mapping
        The team events' matches (``team_matches`` rows).
    min_tables : int
        Tables a deal needs in its event to be matchpointed (``[rate] min_tables``).

    Returns
    -------
    list of dict
        ``kind``, ``event``, ``session``, ``side``, ``opponents``, ``actual``.
    """
    from bridgerank.ratings.headline.forecast import actual_percentages
    from bridgerank.ratings.imp_forecast import actual_imps

    sessions = actual_percentages(written, min_tables)
    found = {("session", *key): value for key, value in sessions.items()}
    found |= {("imps", *key): value for key, value in actual_imps(written, par_of).items()}
    found |= {("event", *key): value for key, value in event_margins(matches).items()}
    return [
        dict(zip(("kind", "event", "session", "side", "opponents"), key)) | {"actual": value}
        for key, value in found.items()
        if all(part is not None for part in key)  # no forecast is keyed by a missing name
    ]
