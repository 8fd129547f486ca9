"""The code a stage runs is derived from its imports: it holds what the hand-written lists
of modules held, and what they had missed."""

import pytest

from bridgerank.core.codehash import code_fingerprint, imported_libraries, project_closure
from bridgerank.dds.stage import ANALYSIS_MODULE
from bridgerank.pipeline.stages import get_stage

B = "bridgerank."
# The hand-written lists of the stages before they were derived, in today's module names,
# plus (second set) what those lists had missed.
HAND_LISTS = {
    "ingest": (
        {
            "cleaning.ingest.stage",
            "cleaning.ingest.sources",
            "cleaning.ingest.pbn",
            "cleaning.ingest.lin",
            "cleaning.ingest.sqldump",
            "cleaning.ingest.valet",
            "cleaning.ingest.recap",
        },
        {"cleaning.ingest.records"},
    ),
    "clean": (
        {
            "cleaning.clean.stage",
            "cleaning.clean.rules",
            "bridge.auction",
            "cleaning.clean.play",
            "bridge.cards",
            "bridge.tokens",
            "cleaning.clean.fields",
        },
        {"bridge.scoring", "cleaning.ingest.records"},
    ),
    "match": (
        {
            "cleaning.match.stage",
            "cleaning.match.matcher",
            "cleaning.match.names",
            "cleaning.match.wbf_lists",
        },
        {"cleaning.ingest.sources"},
    ),
    "dds": (
        {
            "dds.stage",
            "dds.workers",
            "dds.analysis",
            "dds.auction_verdicts",
            "dds.card_verdicts",
            "bridge.scoring",
            "dds.counters",
            "dds.solver",
        },
        {"bridge.auction", "bridge.cards", "bridge.calls"},
    ),
    "rate": (
        {
            "ratings.stage",
            "ratings.games",
            "ratings.bt",
            "ratings.uncertainty",
            "ratings.replay",
            "ratings.skill",
            "ratings.elo",
            "ratings.plackett_luce",
        },
        # (the solver, once reached through the dds package's imports for type checkers
        # only, is not: the rate stage reads what the dds stage stored)
        {"bridge.scoring", "bridge.auction", "bridge.cards"},
    ),
    "regress": (
        {
            "regression.stage",
            "regression.study",
            "regression.models",
            "regression.selection",
            "regression.vif",
            "regression.diagnostics",
            "regression.data",
            "regression.export",
        },
        {"dds.counters", "dds.auction_verdicts", "dds.card_verdicts"},
    ),
    "report": (
        {"pipeline.report.stage", "pipeline.report.methods_page", "pipeline.report.reads"},
        # the funnel's reasons (the counts are read, not queried), the regression's plots
        {"cleaning.clean.reasons", "regression.diagnostics"},
    ),
}


@pytest.mark.parametrize("stage", HAND_LISTS)
def test_the_derived_closure_holds_the_old_list_and_what_it_missed(stage):
    closure = set(project_closure(get_stage(stage).module))
    listed, missed = HAND_LISTS[stage]
    assert {B + name for name in listed | missed} <= closure


def test_the_board_digest_reaches_the_domain_modules_the_old_list_missed():
    closure = set(project_closure(ANALYSIS_MODULE))
    assert {
        B + "bridge.auction",
        B + "bridge.cards",
        B + "bridge.calls",
        B + "bridge.scoring",
        B + "dds.solver",
    } <= closure
    assert not any(name.startswith(B + "pipeline") for name in closure)


def test_imports_for_type_checkers_only_are_not_code_a_module_runs():
    # the rate stage reads the dds stage's tables; the dds package names its solver for type
    # checkers only
    assert B + "dds.solver" not in project_closure(get_stage("rate").module)
    assert B + "dds.solver" in project_closure(get_stage("dds").module)


def test_a_closure_holds_parent_packages_and_nothing_unrelated():
    closure = set(project_closure(B + "cleaning.match.names"))
    assert closure == {
        "bridgerank",
        B + "cleaning",
        B + "cleaning.match",
        B + "cleaning.match.names",
    }


def test_the_libraries_whose_numbers_are_stored_enter_the_fingerprint():
    def libraries(module):
        return {name.lower() for name in imported_libraries(module)}

    assert "endplay" in libraries(ANALYSIS_MODULE)
    assert "statsmodels" in libraries(get_stage("regress").module)
    assert {"rapidfuzz", "unidecode"} <= libraries(get_stage("match").module)
    # plumbing does not: a new SQLAlchemy or joblib reruns nothing
    assert not {"sqlalchemy", "joblib"} & libraries(get_stage("dds").module)


def test_each_stage_has_its_own_fingerprint():
    prints = {code_fingerprint(get_stage(name).module) for name in HAND_LISTS}
    assert len(prints) == len(HAND_LISTS)
