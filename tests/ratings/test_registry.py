"""Adding a rating method takes one module and one registry line: a toy method
(tests/ratings/toy_method.py) registered per kind is validated beside every other method, in
every held-out table of its kind (sessions, matches, boards, pair rankings), by the rate
stage's own study code on small real slices (two ACBL club recaps; the 1955 Bermuda Bowl's
first boards and an Olympiad's vugraph) whose boards are spread over four dates an event, so
that there is something to walk forward over."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner

from bridgerank.core.settings import default_settings
from bridgerank.pipeline.cli import main
from bridgerank.pipeline.stages import open_store
from bridgerank.ratings.inputs import load_inputs
from bridgerank.ratings.registry import method_descriptions, registry


def _boards(tmp_path, *sources):
    """The boards of ``sources`` as the rate stage reads them, each event's boards spread
    over four dates by board number (a source without a date: 2000.01.01)."""
    result = CliRunner().invoke(
        main, ["run", *map(str, sources), "--to", "match", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    engine = open_store(f"sqlite:///{tmp_path / 'bridgerank.db'}", create=False)
    with engine.connect() as conn:
        boards, names, _ = load_inputs(conn)
    engine.dispose()
    for board in boards:
        board["date"] = f"{board['date'] or '2000.01.01'}.{board['board_no'] % 4}"
    return boards, names


@pytest.fixture
def toy():
    """Register the toy method of a kind for one test (the one line a new method adds)."""
    from tests.ratings import toy_method

    added = []

    def register(kind: str) -> None:
        method = getattr(toy_method, "FIELD_MEAN_" + kind.upper())
        registry(kind).methods.append(method)
        added.append((kind, method))

    yield register
    for kind, method in added:
        registry(kind).methods.remove(method)


def test_a_toy_session_and_ranking_method_are_validated_beside_the_others(tmp_path, test_data, toy):
    from bridgerank.ratings.headline.session_study import headline_study
    from bridgerank.ratings.results import rate_results

    toy("sessions")
    toy("rankings")
    boards, names = _boards(tmp_path, test_data / "acbl")
    results = headline_study(boards, names, bootstrap=20)
    rows = {row["method"]: row for row in results.validation}
    assert {"headline", "coin", "win_rate", "elo", "field_mean"} <= set(rows)
    found = rows["field_mean"]
    assert found["pair_sessions"] == rows["headline"]["pair_sessions"] > 0
    # one value for every pair of a test date: an error like the coin's
    assert found["rmse"] == pytest.approx(rows["coin"]["rmse"], rel=0.05)
    assert found["pearson_gain_low"] is not None  # compared with the headline
    assert method_descriptions("sessions")["field_mean"].endswith("(a toy)")
    # the deals played at three tables or more, as rankings of their pairs
    settings = dataclasses.replace(default_settings().rate, bootstrap_resamples=0)
    results = rate_results(boards, names, {}, lambda board: None, settings)
    ranked = {row["method"]: row for row in results.validation if row["task"] == "pair rankings"}
    assert set(ranked) == {"elo", "dlo", "win_rate", "field_mean"}
    assert ranked["field_mean"]["log_loss"] == pytest.approx(np.log(2))  # a coin's


def test_a_toy_match_and_board_method_are_validated_beside_the_others(tmp_path, test_data, toy):
    from bridgerank.ratings.results import rate_results
    from bridgerank.ratings.team_inputs import team_inputs
    from bridgerank.ratings.team_matches import study_matches

    toy("matches")
    toy("boards")
    boards, names = _boards(
        tmp_path, test_data / "bermuda1955_head.pbn", test_data / "vugraph-00070.lin"
    )
    rows, summary = study_matches(*team_inputs(boards, names), bootstrap=20)
    methods = {row["method"] for row in rows}
    assert {"headline", "coin", "imp_average", "hbt", "field_mean"} <= methods
    assert summary.validation is not None and summary.validation.matches > 0
    settings = dataclasses.replace(default_settings().rate, bootstrap_resamples=0)
    results = rate_results(boards, names, {}, lambda board: None, settings)
    validated = {row["method"] for row in results.validation}
    assert {"hbt", "gbt", "bt", "win_rate", "wbf_points", "field_mean"} <= validated
    # the toy keeps no ratings of its own (its SplitMethod has no ``rate``)
    assert "field_mean" not in {row["method"] for row in results.ratings}


def test_every_registered_method_fits_its_tables_and_is_described():
    from bridgerank.ratings.registry import KIND_NAMES
    from bridgerank.ratings.tables import (
        MatchValidation,
        OneTableValidation,
        Rating,
        RatingValidation,
        SessionValidation,
    )

    tables = {
        "sessions": (SessionValidation,),
        "matches": (MatchValidation,),
        "one_table": (OneTableValidation,),
        "boards": (RatingValidation, Rating),
        "rankings": (RatingValidation, Rating),
    }
    assert set(KIND_NAMES) == set(tables)
    for kind in KIND_NAMES:
        methods = registry(kind).methods
        assert methods and methods[0].name in {"headline", "hbt", "elo"}
        for method in methods:
            for table in tables[kind]:
                assert len(method.name) <= table.__table__.c.method.type.length, method.name
            assert method.description and "\n" not in method.description, method.name
    described = method_descriptions()
    assert {"headline", "wbf_points", "win_rate", "elo", "hbt", "imp_average"} <= set(described)


def test_a_methods_module_is_in_the_code_of_the_studies_that_validate_it_and_no_other():
    from bridgerank.core.codehash import project_closure
    from bridgerank.ratings.stage import RATE_STAGE

    # each study imports its kinds' registries, which import their methods: the study's code
    # fingerprint follows them, with no second mechanism
    code = {study.name: set(project_closure(study.module)) for study in RATE_STAGE.studies}
    owners = {
        "bridgerank.ratings.headline.partnerships": {"headline"},
        "bridgerank.ratings.rivals.glicko2": {"headline", "teams"},
        "bridgerank.ratings.rivals.team_play": {"teams"},
        "bridgerank.ratings.results": {"results"},
        "bridgerank.ratings.gamematrix.melo": {"cycles"},
        "bridgerank.ratings.baselines": {"results", "headline", "teams"},
    }
    for module, studies in owners.items():
        assert {name for name, modules in code.items() if module in modules} == studies, module


def test_every_method_name_fits_the_tables_method_column():
    """A validation row's method is a String(16) column: PostgreSQL refuses a longer name."""
    from bridgerank.ratings.registry import KIND_NAMES
    from bridgerank.ratings.tables import SessionValidation

    width = SessionValidation.__table__.c.method.type.length
    for kind in KIND_NAMES:
        for method in registry(kind):
            assert len(method.name) <= width, method.name
