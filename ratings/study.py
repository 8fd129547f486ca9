"""The headline rating on a database's pair events: ratings of every player, walk-forward
validation of held-out sessions against the baselines, and the ceiling - the rows of the
``headline_ratings``, ``session_validation`` and ``validation_ceiling`` tables.

Once the dds stage has run, a variant of the headline whose players' prior centres move with
their past double dummy measures (:mod:`dd_prior`) is validated beside it, as the row
``headline_dd``: the thesis's question - do double dummy mistakes reveal skill that results
do not? - answered on held-out sessions. Each fit of the headline chooses on its training
data whether a newcomer prior (the number of sessions each player had played,
:mod:`covariates`) moves the prior centres; the row ``headline_plain`` never uses it, to show
what that choice adds. Covariates are each player's measures from earlier dates only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Mapping, Sequence

import numpy as np

from bridgerank.ratings.ceiling import ceiling
from bridgerank.ratings.covariates import newcomer_choice
from bridgerank.ratings.dd_prior import BoardEvidence
from bridgerank.ratings.field import field_tables, pair_sessions
from bridgerank.ratings.headline import fit_headline
from bridgerank.ratings.walkforward import (
    default_methods,
    headline_method,
    paired_bootstrap,
    session_metrics,
    walk_forward,
    wbf_points_method,
)

# Fewer periods than this and there is nothing to walk forward over.
MIN_PERIODS = 4
# The headline with double dummy measures as each player's prior centre is validated beside
# it when the dds stage left evidence on at least this share of the tables.
MIN_EVIDENCE_COVERAGE = 0.5
DD_METHOD = "headline_dd"
# The headline whose prior is always centred on the average player, never moved by the
# newcomer prior: what choosing that prior adds.
PLAIN_METHOD = "headline_plain"
WBF_METHOD = "headline_wbf"
# WBF points are a baseline (and a prior centre) when at least this share of the players are
# on the lists: a club's three listed players say nothing of the other 462.
MIN_LISTED_SHARE = 0.1
_GAINS = (
    "pearson_gain",
    "pearson_gain_low",
    "pearson_gain_high",
    "rmse_gain",
    "rmse_gain_low",
    "rmse_gain_high",
)


@dataclass
class HeadlineResults:
    """Rows of the three tables, and a summary for the stage's log."""

    ratings: list[dict[str, Any]] = field(default_factory=list)
    validation: list[dict[str, Any]] = field(default_factory=list)
    ceiling: list[dict[str, Any]] = field(default_factory=list)
    predictions: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def headline_study(
    boards: Sequence[Mapping[str, Any]],
    player_of: Mapping[str, Hashable],
    min_tables: int = 3,
    bootstrap: int = 1000,
    progress=None,
    evidence: BoardEvidence | None = None,
    points: Mapping[str, float] | None = None,
) -> HeadlineResults:
    """Fit, validate and bound the headline rating (see the module docstring); with the dds
    stage's ``evidence``, validate the headline with past double dummy measures beside it;
    with WBF masterpoints per player (``points``), the federations' ranking as a baseline."""
    tables = field_tables(boards, player_of, min_tables)
    results = HeadlineResults()
    if len(tables) == 0:
        results.summary = {"tables": 0, "note": "no deal played at enough tables of one event"}
        return results
    fit = fit_headline(tables, candidates=newcomer_choice())
    sessions = pair_sessions(tables)
    boards_of = np.bincount(tables.seats.ravel(), minlength=len(tables.players))
    played = np.zeros(len(tables.players), dtype=np.int64)
    for player_column in (0, 1):
        np.add.at(played, sessions.pair[:, player_column], 1)
    results.ratings = [
        {
            "player": str(player),
            "rating": 100 * float(fit.theta[index]),
            "sd": 100 * float(fit.sd[index]),
            "boards": int(boards_of[index]),
            "sessions": int(played[index]),
        }
        for index, player in enumerate(tables.players)
    ]
    results.ceiling = ceiling(tables)
    results.summary = {
        "tables": len(tables),
        "players": len(tables.players),
        "sessions": len(tables.sessions),
        "penalty": fit.penalty,
        # chosen on the tables' latest quarter: do newcomers start below the regulars?
        "newcomer_prior": None if fit.coefficients is None else float(fit.coefficients[0]),
        # what a forecast of a new event needs besides the ratings (bridgerank predict)
        "residual_variance": fit.residual_variance,
        "form_variance": fit.form_variance,
    }
    if len(tables.periods) < MIN_PERIODS:
        results.summary["validation"] = f"fewer than {MIN_PERIODS} dates: not validated"
        return results
    methods = default_methods()
    listed = sum(1 for player in tables.players if str(player) in (points or {}))
    if points and listed >= MIN_LISTED_SHARE * len(tables.players):
        methods["wbf_points"] = wbf_points_method(points)
        # the federation's points as every player's prior centre: what results add to them
        methods[WBF_METHOD] = headline_method(
            lambda train: np.log1p([[points.get(str(p), 0.0)] for p in train.players])
        )
    methods[PLAIN_METHOD] = headline_method(newcomers=False)
    if evidence is not None and evidence.coverage(tables) >= MIN_EVIDENCE_COVERAGE:
        methods[DD_METHOD] = headline_method(evidence.player_measures)
    run = walk_forward(tables, methods, progress=progress)
    test_sessions = len(np.unique(run.session))
    test_periods = len(np.unique(run.period))
    for method in run.predictions:
        metrics = session_metrics(
            run.predicted(method), run.actual, run.session, run.variance(method)
        )
        row: dict[str, Any] = dict.fromkeys(_GAINS)  # every row has every column
        row |= {
            "method": method,
            **metrics,
            "pair_sessions": len(run.actual),
            "sessions": test_sessions,
            "periods": test_periods,
        }
        if method != "headline" and bootstrap:
            gains = paired_bootstrap(run, "headline", method, bootstrap)
            pearson, rmse = gains["pearson"], gains["rmse"]
            row.update(
                pearson_gain=pearson[0],
                pearson_gain_low=pearson[1],
                pearson_gain_high=pearson[2],
                # positive: the headline's error is smaller
                rmse_gain=-rmse[0],
                rmse_gain_low=-rmse[2],
                rmse_gain_high=-rmse[1],
            )
        results.validation.append(row)
    variance = run.variance("headline")
    results.predictions = [
        {
            "period": int(period),
            "session": int(session),
            "predicted": float(predicted),
            "actual": float(actual),
            "sd": None if variance is None else float(np.sqrt(variance[index])),
        }
        for index, (period, session, predicted, actual) in enumerate(
            zip(run.period, run.session, run.predicted("headline"), run.actual)
        )
    ]
    headline_row = results.validation[0]
    results.summary["validation"] = {
        "pair_sessions": len(run.actual),
        "pearson": headline_row["pearson"],
        "rmse": headline_row["rmse"],
        "coverage_80": headline_row["coverage_80"],
    }
    dd_row = next((row for row in results.validation if row["method"] == DD_METHOD), None)
    if dd_row is not None:
        # the row's gains are the headline's over it: their negatives are what dd adds
        results.summary["dd_evidence"] = {
            "pearson": dd_row["pearson"],
            "pearson_added": None if dd_row["pearson_gain"] is None else -dd_row["pearson_gain"],
            "rmse": dd_row["rmse"],
        }
    return results
