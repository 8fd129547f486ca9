"""What ``bridgerank predict`` prints: the forecasts made now, in percentage points and in
IMPs, the stored forecasts against their results with their scores, and the forecast of a
match between two line-ups named.

Names, events and sessions come from the files read: every one is shown through
:func:`~bridgerank.core.untrusted.visible`, never printed raw.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

import click

from bridgerank.core.untrusted import visible

if TYPE_CHECKING:  # the command loads them when it runs: `bridgerank --help` stays light
    from bridgerank.pipeline.predict import PredictOutcome
    from bridgerank.ratings.event_forecast import LineUpForecast


def print_forecasts(outcome: PredictOutcome, rows: Sequence[dict[str, Any]] = ()) -> None:
    """Print the forecasts made now, then the stored ones against their results.

    Parameters
    ----------
    outcome : PredictOutcome
        :func:`~bridgerank.pipeline.predict.predict`'s outcome: the forecasts stored now,
        the sessions passed over, every stored forecast and their scores.
    rows : sequence of dict
        :func:`~bridgerank.pipeline.report.forecasts.forecast_rows` of the outcome: the
        stored forecasts with their results, as the forecasts page and CSV show them.
    """
    if outcome.forecast:
        click.echo(
            f"{'event':<28} {'session':<13} {'pair':<41} {'boards':>6} {'forecast':>8}"
            "  80% interval"
        )
        for row in outcome.forecast:
            pair = visible(f"{row['player_a']} - {row['player_b']}")
            unrated = "" if row["rated"] == 2 else f"  ({2 - row['rated']} unrated)"
            click.echo(
                f"{visible(row['event'])[:28]:<28} {visible(row['session'])[:13]:<13} "
                f"{pair[:41]:<41} "
                f"{row['boards']:>6} {row['predicted']:>7.1f}%  "
                f"{row['low_80']:.1f} to {row['high_80']:.1f}{unrated}"
            )
        click.echo(f"{len(outcome.forecast):,} pair-sessions forecast and stored")
    _print_imp_forecasts(outcome)
    for event, session in outcome.already_rated:
        click.echo(
            f"not forecast: {visible(event)} {visible(session)} is already rated "
            "(its results are stored)"
        )
    score = outcome.score
    waiting = len(outcome.stored) - score["scored"]
    _print_session_results(rows)
    if score["scored"]:
        pearson = f"{score['pearson']:.3f}" if score["pearson"] is not None else "-"
        click.echo(
            f"stored forecasts with results since: {score['scored']:,} pair-sessions, Pearson "
            f"{pearson}, RMSE {score['rmse']:.2f} points, "
            f"80% intervals held {100 * score['coverage_80']:.0f}%"
        )
    _print_imp_results(rows, outcome)
    waiting += sum(row["actual"] is None for row in outcome.imp_stored)
    if waiting:
        click.echo(f"stored forecasts still waiting for their results: {waiting:,}")
    if outcome.not_forecast_matches:
        click.echo(f"no match forecast: {outcome.not_forecast_matches}")
    if outcome.not_forecast:
        click.echo(f"no forecast: {outcome.not_forecast}")
    elif not (
        outcome.stored
        or outcome.imp_stored
        or outcome.already_rated
        or outcome.not_forecast_matches
    ):
        click.echo("no forecast stored yet: bridgerank predict FILES forecasts an event")


# What an IMP forecast is of, in words: a match's margin, a pair's IMPs against par.
_IMP_KINDS = {
    "match": ("team matches", "margin"),
    "pair": ("pairs", "IMPs vs par"),
    "event": ("team-event matches", "margin"),
}


def _surnames(side: str, shown: int = 3) -> str:
    """A side's players by surname (as :func:`~bridgerank.pipeline.report.event_pages.
    surname` reads a name), the first ``shown`` of them and how many more."""
    from bridgerank.pipeline.report.event_pages import surname

    names = [surname(name) for name in side.split(" - ")]
    more = f"+{len(names) - shown}" if len(names) > shown else ""
    return "/".join(names[:shown]) + more


def _side_text(row: dict[str, Any]) -> str:
    """A pair as named; a match as its two teams' surnames."""
    if row["kind"] == "pair":
        return visible(row["side"])
    return visible(f"{_surnames(row['side'])} v {_surnames(row['opponents'])}")


_IMP_HEAD = f"{'event':<20} {'session':<13} {'side':<40}"


def _imp_cells(row: dict[str, Any]) -> str:
    """The event, session and side of an IMP forecast, in the columns of :data:`_IMP_HEAD`."""
    return (
        f"{visible(row['event'])[:20]:<20} {visible(row['session'])[:13]:<13} "
        f"{_side_text(row)[:40]:<40}"
    )


def _print_imp_forecasts(outcome: PredictOutcome) -> None:
    """The IMP forecasts made now: one line each."""
    if not outcome.imp_forecast:
        return
    from bridgerank.ratings.event_forecast import win_probability

    click.echo(f"{_IMP_HEAD} {'boards':>6} {'IMPs':>6} {'wins':>5}  80% interval")
    for row in outcome.imp_forecast:
        unrated = row["players"] - row["rated"] if row["kind"] != "pair" else 2 - row["rated"]
        note = f"  ({unrated} unrated)" if unrated else ""
        # a match's chance of team A winning; a pair's IMPs against par win nothing
        wins = (
            f"{100 * win_probability(row['predicted'], row['sd']):>4.0f}%"
            if row["kind"] != "pair"
            else f"{'':>5}"
        )
        click.echo(
            f"{_imp_cells(row)} {row['boards']:>6} {row['predicted']:>+6.1f} {wins}  "
            f"{row['low_80']:+.0f} to {row['high_80']:+.0f}{note}"
        )
    counts = Counter(row["kind"] for row in outcome.imp_forecast)
    made = ", ".join(f"{counts[kind]:,} {_IMP_KINDS[kind][0]}" for kind in sorted(counts))
    click.echo(f"{made} forecast in IMPs and stored")


def _print_session_results(rows: Sequence[dict[str, Any]]) -> None:
    """Each stored pair-session forecast whose result is in, against that result."""
    scored = [row for row in rows if row["kind"] == "session" and row["result"] is not None]
    if not scored:
        return
    click.echo(f"{'event':<22} {'session':<10} {'pair':<30} {'forecast':>8} {'result':>6}  held")
    for row in scored:
        click.echo(
            f"{visible(row['event'])[:22]:<22} {visible(row['session'])[:10]:<10} "
            f"{visible(row['side'])[:30]:<30} {row['forecast']:>7.1f}% {row['result']:>5.1f}%  "
            f"{'yes' if row['held'] else 'no'}"
        )


def _print_imp_results(rows: Sequence[dict[str, Any]], outcome: PredictOutcome) -> None:
    """Each stored IMP forecast whose result is in, against that result; then the score."""
    scored = [row for row in rows if row["kind"] != "session" and row["result"] is not None]
    if not scored:
        return
    click.echo(f"{_IMP_HEAD} {'forecast':>8} {'result':>6}  held")
    for row in scored:
        held = "yes" if row["held"] else "no"
        click.echo(f"{_imp_cells(row)} {row['forecast']:>+8.1f} {row['result']:>+6.0f}  {held}")
    for kind, score in outcome.imp_score.items():
        if not score["scored"]:
            continue
        pearson = f"{score['pearson']:.3f}" if score["pearson"] is not None else "-"
        click.echo(
            f"stored forecasts with results since: {score['scored']:,} {_IMP_KINDS[kind][0]} "
            f"({_IMP_KINDS[kind][1]}), Pearson {pearson}, RMSE {score['rmse']:.1f} IMPs, "
            f"80% intervals held {100 * score['coverage_80']:.0f}%"
        )


def print_line_up_forecast(
    found: LineUpForecast, team_a: Sequence[str], team_b: Sequence[str], boards: int
) -> None:
    """Print the forecast of a match between two line-ups named, in a few lines.

    Parameters
    ----------
    found : LineUpForecast
        :func:`~bridgerank.pipeline.predict.predict_line_ups`'s forecast of team A's margin.
    team_a, team_b : sequence of str
        The two line-ups, as named on the command line.
    boards : int
        The match's boards.
    """
    click.echo(
        f"{visible(' - '.join(team_a))} v {visible(' - '.join(team_b))}, {boards} boards: "
        f"{found.predicted:+.1f} IMPs, 80% interval {found.low_80:+.0f} to "
        f"{found.high_80:+.0f}; wins {100 * found.win_probability:.0f}% of such matches"
    )
    if found.unrated:
        click.echo(
            f"unrated (a newcomer's strength): {visible(', '.join(found.unrated))} - no match "
            "of a team event stored under that name"
        )
