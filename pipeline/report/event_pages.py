"""The site's team-event pages: ``events.html`` (every team event rebuilt from traveller
files, with how its matches' forecasts fared) and one page per event under ``events/`` (each
match's forecast from the earlier rounds and years beside its margin); and a player's
championship record for his page (his matches, his teams' IMPs a board, his strength now).

A forecast is the team events' headline's walk-forward forecast, made before the round was
played (``event_match_forecasts``); the first year's matches are not forecast (nothing came
before them). File names come from hashes of the events' names, never from the text.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any

import numpy as np
import pandas as pd

from bridgerank.ratings.event_match_data import event_kind, round_number
from bridgerank.ratings.holdout import Z80

__all__ = ["championship_record", "event_file", "event_index", "event_page", "surname"]

_TEAM_A = ("open_north", "open_south", "closed_east", "closed_west")
_TEAM_B = ("open_east", "open_west", "closed_north", "closed_south")


def event_file(event: str) -> str:
    """An event page's file name: from a hash of the name, so no name reaches a path."""
    return hashlib.sha1(event.encode("utf-8")).hexdigest()[:12] + ".html"


def surname(name: str) -> str:
    """A player's surname as a name is written: the words in capitals where there are
    (``VAN PROOIJEN Ricco`` -> ``Van Prooijen``, the championships' style), else the last
    word (``Ricco van Prooijen`` -> ``Prooijen``)."""
    words = name.split()
    capitals = [word for word in words if len(word) > 1 and word.isupper()]
    if capitals and len(capitals) < len(words):
        return " ".join(word.capitalize() for word in capitals)
    return words[-1] if words else name


def _forecast_figures(rows: pd.DataFrame) -> dict[str, Any]:
    """How the forecasts of ``rows`` fared: how many, their correlation with the margins,
    and the share of margins inside their 80% intervals."""
    held = rows[rows["predicted"].notna()]
    figures: dict[str, Any] = {"forecast": len(held), "pearson": None, "held": None}
    if len(held) >= 3 and held["margin"].std() > 0 and held["predicted"].std() > 0:
        figures["pearson"] = float(np.corrcoef(held["predicted"], held["margin"])[0, 1])
    with_sd = held[held["sd"].notna()]
    if len(with_sd):
        inside = (with_sd["margin"] - with_sd["predicted"]).abs() <= Z80 * with_sd["sd"]
        figures["held"] = float(inside.mean())
    return figures


def event_index(matches: pd.DataFrame) -> list[dict[str, Any]]:
    """One row per team event, newest first: its year, kind, matches, rounds and how its
    matches' forecasts fared."""
    if matches.empty:
        return []
    rows = []
    for event, group in matches.groupby("event", sort=False):
        years = group["year"].dropna()
        rows.append(
            {
                "event": event,
                "file": event_file(str(event)),
                "year": int(years.max()) if len(years) else None,
                "kind": event_kind(str(event)),
                "matches": len(group),
                "rounds": group["round"].nunique(),
                "boards": int(group["boards"].sum()),
                **_forecast_figures(group),
            }
        )
    return sorted(rows, key=lambda row: (-(row["year"] or 0), row["event"]))


def event_page(
    event: str, matches: pd.DataFrame, with_pages: set[str], player_file: Any
) -> dict[str, Any]:
    """An event page's context from the event's ``matches``: each match by round, team A and
    team B by surname (each player linked where he has a page), its forecast, 80% interval,
    margin, and whether it held."""
    rows = matches.assign(_round=matches["round"].map(round_number))
    listed = []
    for match in rows.sort_values(["_round", "id"]).to_dict("records"):
        predicted, sd = match["predicted"], match["sd"]
        known = not pd.isna(predicted)
        spread = known and not pd.isna(sd)
        listed.append(
            {
                "round": match["round"],
                "team_a": _team(match, _TEAM_A, with_pages, player_file),
                "team_b": _team(match, _TEAM_B, with_pages, player_file),
                "boards": int(match["boards"]),
                "margin": int(match["margin"]),
                "predicted": float(predicted) if known else None,
                "low": float(predicted - Z80 * sd) if spread else None,
                "high": float(predicted + Z80 * sd) if spread else None,
                "held": bool(abs(match["margin"] - predicted) <= Z80 * sd) if spread else None,
            }
        )
    return {"event": event, "matches": listed, **_forecast_figures(rows)}


def _team(
    match: dict[str, Any], seats: tuple[str, ...], with_pages: set[str], player_file: Any
) -> list[dict[str, Any]]:
    """A team's four players as written, each with his page's file where he has one."""
    team = []
    for seat in seats:
        person = match[f"person_{seat}"]
        team.append(
            {
                "name": match[seat],
                "surname": surname(match[seat]),
                "file": player_file(person) if person in with_pages else "",
            }
        )
    return team


def championship_record(
    matches: pd.DataFrame, strengths: pd.DataFrame
) -> dict[str, dict[str, Any]]:
    """Each player's record in the team events (his first line-ups' seats): his matches and
    boards, each event's matches with his team's IMPs a board, and his strength now (the
    team events' headline after the last round; None where not rated)."""
    if matches.empty:
        return {}
    now = dict(zip(strengths.get("player", []), strengths.get("strength", [])))
    # player -> event -> (his team's margin, boards) of each match
    per_event: dict[str, dict[str, list[tuple[float, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for match in matches.to_dict("records"):
        for seats, sign in ((_TEAM_A, 1), (_TEAM_B, -1)):
            for seat in seats:
                played = (float(sign * match["margin"]), int(match["boards"]))
                per_event[str(match[f"person_{seat}"])][str(match["event"])].append(played)
    records = {}
    for player, events in per_event.items():
        listed = []
        for event in sorted(events, reverse=True):
            boards = sum(count for _, count in events[event])
            listed.append(
                {
                    "event": event,
                    "file": event_file(event),
                    "matches": len(events[event]),
                    "boards": boards,
                    "per_board": sum(margin for margin, _ in events[event]) / max(boards, 1),
                }
            )
        records[player] = {
            "matches": sum(len(played) for played in events.values()),
            "boards": sum(count for played in events.values() for _, count in played),
            "events": listed,
            "strength": now.get(player),
        }
    return records
