"""A player's page as plain text, for ``bridgerank show PLAYER``: the same content as the
site's player page (:mod:`site`), read from the same data, with control and bidi characters
of names and events shown as escapes (:mod:`bridgerank.core.untrusted`): a name cannot ring
the terminal's bell, move its cursor or reverse the line."""

from __future__ import annotations

import textwrap
from typing import Any

import pandas as pd

from bridgerank.core.untrusted import visible
from bridgerank.pipeline.report.site import player_context
from bridgerank.pipeline.report.site_data import SiteData


def find_players(data: SiteData, wanted: str) -> list[str]:
    """Players whose name is ``wanted`` (any case), else whom the records write so ("Milton
    Elleby" finds Milton Ellenby), else those whose name or a spelling contains it."""
    names = sorted(
        set(data.seats["player"])
        | set(data.stats.get("player", []))
        | set(data.ratings.get("player", []))
    )
    key = wanted.casefold()
    exact = [name for name in names if name.casefold() == key]
    if exact:
        return exact
    spellings = data.seats.get("written", pd.Series(dtype=str)).fillna("").astype(str)
    written = data.seats.loc[spellings.str.casefold() == key, "player"]
    if len(written):
        return sorted(set(written))
    within = data.seats.loc[spellings.str.casefold().str.contains(key, regex=False), "player"]
    return sorted({name for name in names if key in name.casefold()} | set(within))


# Lines are wrapped to fit a terminal.
WIDTH = 100


def player_text(data: SiteData, name: str) -> list[str]:
    """The lines of ``name``'s page, at most :data:`WIDTH` characters each, every hidden
    character shown (escaped before wrapping, so the widths are the shown ones)."""
    return [
        wrapped
        for line in _page_lines(data, name)
        for wrapped in (textwrap.wrap(visible(line), WIDTH, subsequent_indent="      ") or [""])
    ]


def _page_lines(data: SiteData, name: str) -> list[str]:
    page = player_context(data, name)
    player = page["player"]
    shown = visible(name)  # the rule under the name is as long as the name shown
    lines = [shown, "=" * len(shown)]
    if pd.notna(player.get("rating")):
        sessions = player.get("sessions")
        # no interval when the rate stage drew no bootstrap (as the site's page)
        interval = (
            f", 80% interval {player['low']:+.1f} to {player['high']:+.1f}"
            if pd.notna(player.get("low")) and pd.notna(player.get("high"))
            else ""
        )
        lines.append(
            f"rating {player['rating']:+.2f} ({page['unit']}){interval}; rank "
            f"{int(player['rank']):,} of {page['pool_size']:,} in pool {player['pool']}; "
            f"{player['boards']:,} boards"
            + (f", {int(sessions):,} sessions" if pd.notna(sessions) else "")
        )
    if pd.notna(player.get("team_strength")):
        lines.append(
            f"team rating {player['team_strength']:+.2f} IMPs a board added to a side, 80% "
            f"interval {player['team_low']:+.2f} to {player['team_high']:+.2f}; rank "
            f"{int(player['team_rank']):,} of {page['team_players']:,} team players; "
            f"{int(player['team_boards']):,} team boards"
        )
    elif pd.isna(player.get("rating")):
        lines.append(f"not rated; {player['boards']:,} boards")
    lines += _scorecard_lines(page["scorecard"])
    lines += ["", "The game by role, against double dummy (percentile: share of players worse)"]
    for role in page["roles"]:
        percentile = "" if role.percentile is None else f" [percentile {role.percentile:.0f}]"
        lines.append(f"  {role.role:<14} {role.words}{percentile}")
    if not page["roles"]:
        lines.append(
            "  the play of this player's boards was not recorded: card by card verdicts need it"
            if page["measures"]
            else "  no board of this player has been analysed double dummy"
        )
    if page["measures"]:
        lines += ["", "From the results alone, against double dummy (positive is good)"]
        for measure in page["measures"]:
            percentile = (
                "" if measure.percentile is None else f" [percentile {measure.percentile:.0f}]"
            )
            lines.append(
                f"  {measure.role:<14} {measure.words}; 95% interval {measure.low:+.2f} to "
                f"{measure.high:+.2f}{percentile}"
            )
    for title, key in (("Costliest boards", "costly"), ("Best boards", "best")):
        if page[key]:
            lines += ["", title]
            lines += [
                f"  {b['event']}, board {b['board_no']}: {b['contract']} by {b['declarer']}; "
                f"{b['why']}"
                for b in page[key]
            ]
    if page["partners"]:
        lines += ["", "Partners: " + ", ".join(f"{p} ({n:,})" for p, n, _ in page["partners"])]
    if len(page["aliases"]) > 1:
        lines += [
            "",
            "Names in the records: "
            + ", ".join(f"{a['written']} ({a['boards']:,})" for a in page["aliases"]),
        ]
    events: Any = page["events"]
    if len(events):
        lines += ["", "Events: " + ", ".join(f"{e} ({n:,})" for e, n in events.items())]
    return lines


_DIRECTIONS = {"NS": " N-S", "EW": " E-W"}


def _scorecard_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Every session, newest first: date, event, partner, boards, percentage, place, and the
    rating's forecast (80% interval) where it was tested on the session."""
    if not rows:
        return []
    lines = ["", f"Scorecard ({len(rows):,} sessions, newest first; forecast: 80% interval)"]
    for row in rows:
        forecast = "not tested"
        if row["forecast"] is not None:
            forecast = f"forecast {row['forecast']:.1f}"
            if row["held"] is not None:
                forecast += (
                    f" ({row['low_80']:.1f}-{row['high_80']:.1f}, "
                    f"{'held' if row['held'] else 'missed'})"
                )
        lines.append(
            f"  {row['session']}  {row['event']}; with {row['partner']}: {row['percent']:.1f}% "
            f"over {row['boards']:,} boards, {row['place']} of {row['pairs']}"
            f"{_DIRECTIONS.get(row.get('direction') or '', '')}; {forecast}"
        )
    return lines
