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
    if outcome.nobody_tables:
        names = ", ".join(
            f"{visible(name)} {count}" for name, count in list(outcome.nobody_names.items())[:5]
        )
        click.echo(
            f"not forecast: {outcome.nobody_tables:,} tables with a seat that names no one "
            f"person (seats: {names}); a table is forecast from its four players"
        )
    for event, session in outcome.already_rated:
        # a session known only by its year is already in an event name that ends with it
        when = "" if event.endswith(f" {session}") else f" {visible(session)}"
        click.echo(
            f"not forecast: {visible(event)}{when} is already rated (its results are stored)"
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


def _imp_cells(row: dict[str, Any]) -> str:
    """An IMP forecast's event, session and sides, whole: a pair against its opponents, a
    match's two line-ups."""
    join = "against" if row["kind"] == "pair" else "v"
    sides = visible(row["side"])
    if row["opponents"]:
        sides += f" {join} {visible(row['opponents'])}"
    return f"{visible(row['event'])}, {visible(row['session'])}: {sides}"


# What each kind of IMP forecast is, in words, as its block's heading says it.
_IMP_WORDS = {
    "match": "team matches: team A's margin over the match in IMPs",
    "event": "team-event matches: team A's margin over the match in IMPs",
    "pair": "pairs at one table a deal: the pair's IMPs against the double dummy par, summed "
    "over its boards",
}


def _print_imp_forecasts(outcome: PredictOutcome) -> None:
    """The IMP forecasts made now, a block per kind under what its figure is: each match
    with its event and session in full and both line-ups, each pair against its opponents;
    then one line saying how many of the players are rated."""
    if not outcome.imp_forecast:
        return
    from bridgerank.ratings.event_forecast import win_probability

    seats = rated = 0
    for kind in ("match", "event", "pair"):
        rows = [row for row in outcome.imp_forecast if row["kind"] == kind]
        if rows:
            click.echo(f"{_IMP_WORDS[kind]}, 80% interval:")
        for row in rows:
            count = row["players"] if kind != "pair" else 2
            seats, rated = seats + count, rated + row["rated"]
            interval = f"{row['low_80']:+.0f} to {row['high_80']:+.0f}"
            where = f"{visible(row['event'])}, {visible(row['session'])}, {row['boards']} boards"
            if kind == "pair":
                against = f" against {visible(row['opponents'])}" if row["opponents"] else ""
                click.echo(
                    f"  {where}: {visible(row['side'])}{against}: "
                    f"{row['predicted']:+.1f} IMPs vs par ({interval})"
                )
                continue
            chance = 100 * win_probability(row["predicted"], row["sd"])
            click.echo(
                f"  {where}: {row['predicted']:+.1f} IMPs ({interval}), team A wins "
                f"{chance:.0f}% of such matches"
            )
            click.echo(f"    A: {visible(row['side'])}")
            click.echo(f"    B: {visible(row['opponents'])}")
    counts = Counter(row["kind"] for row in outcome.imp_forecast)
    made = ", ".join(f"{counts[kind]:,} {_IMP_KINDS[kind][0]}" for kind in sorted(counts))
    click.echo(f"{made} forecast in IMPs and stored")
    if rated < seats:
        click.echo(
            f"caution: {rated:,} of the {seats:,} players are rated; the others count as "
            "newcomers (the rating of a player never seen), so these forecasts say little "
            "about them"
        )
    for kind in sorted(counts.keys() & outcome.checks.keys()):
        weak = _weakness(outcome.checks[kind], _IMP_KINDS[kind][0])
        if weak:
            click.echo(f"caution: {weak}")


def _weakness(check: dict[str, Any], what: str) -> str:
    """What is weak in the model's held-out check on this database (of ``what``: "team
    matches"), in words; empty when nothing is worth a caution."""
    from bridgerank.ratings.holdout import TOO_FEW_TO_JUDGE

    units, pearson, gain = check["units"], check["pearson"], check["over_coin"]
    said = f"held out on this database, the model's forecasts of {units:,} {what} " + (
        "correlate " + (f"{pearson:.2f}" if pearson is not None else "not at all")
    )
    if units < TOO_FEW_TO_JUDGE:
        return said + " with the results: too few to judge it by"
    if gain is not None and gain <= 0:
        return said + " with the results and miss them by more than a level forecast does"
    if pearson is None or pearson < 0.2:
        return said + " with the results: little better than a coin"
    return ""


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
    click.echo("stored IMP forecasts with their results (team A's margin; a pair's IMPs vs par):")
    for row in scored:
        held = "held" if row["held"] else "missed"
        click.echo(
            f"  {_imp_cells(row)}: forecast {row['forecast']:+.1f}, result "
            f"{row['result']:+.0f} ({held})"
        )
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
