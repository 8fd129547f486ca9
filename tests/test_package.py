"""The package as a user meets it: one import name, a public face per library package, and
libraries that load without the pipeline."""

import subprocess
import sys
import types
from pathlib import Path

import pytest

import bridgerank
import bridgerank.bridge
import bridgerank.dds
import bridgerank.ratings
import bridgerank.regression

FACES = {
    bridgerank.bridge: {
        "BID_RANK",
        "CANONICAL_CALLS",
        "CONTRACT_BIDS",
        "DDS_STRAINS",
        "PASSED_OUT",
        "SEATS",
        "STRAINS",
        "SUITS",
        "Contract",
        "DDTable",
        "contract_score",
        "deal_hash",
        "deal_to_pbn",
        "final_contract",
        "north_south_score",
        "parse_contract",
        "parse_deal",
        "same_side",
        "score",
        "seat_after",
        "validate_auction",
    },
    bridgerank.dds: {
        "COUNTERS",
        "OPPORTUNITIES",
        "RATES",
        "BoardResult",
        "PlayRequest",
        "analyse_board",
        "par_score",
        "rates",
        "seat_counters",
        "solve_plays",
        "solve_tables",
    },
    bridgerank.ratings: {
        "ConvergenceWarning",
        "EloTracker",
        "Fit",
        "Games",
        "Hypergraph",
        "NoEstimate",
        "Ranking",
        "Replay",
        "SkillReading",
        "TeamGame",
        "bootstrap_intervals",
        "calibrate",
        "elo_spread",
        "fit",
        "fit_bt",
        "fit_hbt_newton",
        "log_likelihood",
        "order_log_probability",
        "pair_rankings",
        "pairwise_scores",
        "position_matrix",
        "read_spread",
        "replay",
        "single_table_games",
        "skill_o_meter",
        "team_games",
        # the headline, the harness and the registries
        "FieldTables",
        "Forecast",
        "HeadlineFit",
        "HeldOut",
        "Method",
        "StudyInputs",
        "Target",
        "field_tables",
        "fit_headline",
        "method_descriptions",
        "registry",
        "walk_forward",
    },
    bridgerank.regression: {
        "CollinearityWarning",
        "ModelSummary",
        "RegressionResult",
        "Selection",
        "Step",
        "TestResult",
        "backward",
        "cross_validated_r2",
        "diagnose",
        "fit_model",
        "forward",
        "predict",
        "run_regression",
        "select",
        "stepwise",
        "threshold_sweep",
        "vif_screen",
        "vif_table",
    },
}


@pytest.mark.parametrize("face", FACES, ids=lambda module: module.__name__)
def test_the_public_face_exports_exactly_its_listed_names(face):
    assert set(face.__all__) == FACES[face]
    assert len(face.__all__) == len(set(face.__all__))
    assert set(face.__all__) <= set(dir(face))
    for name in face.__all__:
        value = getattr(face, name)
        home = getattr(value, "__module__", None)
        if home and home.startswith("bridgerank"):  # a function or class: where it is defined
            assert getattr(sys.modules[home], name) is value
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        face.no_such_name  # noqa: B018
    # nothing public besides the exports (submodules and the typing flag aside)
    public = {
        name
        for name, value in vars(face).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "TYPE_CHECKING"
    }
    assert public <= set(face.__all__)


@pytest.mark.parametrize(
    "package",
    ["bridgerank.ratings", "bridgerank.regression", "bridgerank.bridge", "bridgerank.dds"],
)
def test_a_library_loads_neither_the_database_nor_the_pipeline(package):
    code = (
        f"import sys, {package}; "
        "print(sorted({m.split('.')[0] if not m.startswith('bridgerank') else "
        "'.'.join(m.split('.')[:2]) for m in sys.modules}))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "'sqlalchemy'" not in loaded
    assert "'bridgerank.pipeline'" not in loaded
    assert "'bridgerank.cleaning'" not in loaded


def test_importing_bridgerank_loads_nothing_else():
    code = (
        "import sys, bridgerank; "
        "print(sorted(m for m in sys.modules if m.startswith('bridgerank')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "['bridgerank']"


def test_the_version_is_the_distribution_s():
    from importlib.metadata import version

    assert bridgerank.__version__ == version("bridgerank")


def test_every_package_folder_is_in_the_wheel():
    # setuptools packages only what pyproject lists: a new subpackage left out installs
    # nowhere but here, and the wheel's quick start fails on its import
    from bridgerank.core.settings import tomllib  # tomli below Python 3.11

    root = Path(__file__).parents[1]
    setup = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed, folders = set(setup["packages"]), setup["package-dir"]
    found = set()
    for package, folder in folders.items():
        for init in (root / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(root / folder)
            found.add(".".join((package, *relative.parts)))
    assert found - listed == set(), "add these to [tool.setuptools] packages"
