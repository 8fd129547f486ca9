"""A code change reruns exactly the stages whose code it reaches, however indirectly.

The package is copied to a temporary folder and run from there in a subprocess, so a test
can edit a module the way a developer would, without touching the repository.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import TEST_DATA

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.dds  # runs to the dds stage, again after each edit


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "shadow_tree.py"), "--copy", str(site)], check=True
    )
    return site


def _run(copy: Path, out: Path) -> dict[str, str]:
    """``bridgerank run --to dds`` from the copy; each stage's first line of output."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bridgerank",
            "run",
            str(TEST_DATA / "bb1997_sf04_head.pbn"),
            "--to",
            "dds",
            "--out",
            str(out),
        ],
        cwd=out.parent,
        env={"PYTHONPATH": str(copy), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    lines = {}
    for line in result.stdout.splitlines():
        stage = re.match(r"(\w+): ", line)
        if stage and stage.group(1) not in lines:
            lines[stage.group(1)] = line
    return lines


def _touch(copy: Path, module: str) -> None:
    path = copy / "bridgerank" / module
    path.write_text(path.read_text() + "\n# edited by a test\n")


def test_the_copy_is_what_runs(copy):
    where = subprocess.run(
        [sys.executable, "-c", "import bridgerank.bridge.scoring as m; print(m.__file__)"],
        env={"PYTHONPATH": str(copy), "PATH": ""},
        cwd=copy,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(copy))


def test_an_edit_reruns_the_stages_that_reach_it_and_only_those(copy, tmp_path):
    out = tmp_path / "out"
    first = _run(copy, out)
    assert all("up to date" not in first[stage] for stage in ("clean", "match", "dds"))
    assert re.search(r"dds: 6 boards analysed in", first["dds"])

    # ratings are not reached from ingest, clean, match or dds: nothing reruns
    _touch(copy, "ratings/elo.py")
    unchanged = _run(copy, out)
    for stage in ("clean", "match", "dds"):
        assert unchanged[stage] == f"{stage}: up to date, nothing to do"

    # the scoring function: clean uses it directly (score notes), dds through its verdicts,
    # match only through its input (boards, rewritten by clean)
    _touch(copy, "bridge/scoring.py")
    rerun = _run(copy, out)
    for stage in ("clean", "match", "dds"):
        assert "up to date" not in rerun[stage], rerun[stage]
    assert re.search(r"dds: 6 boards analysed in", rerun["dds"])

    # the card parser: clean parses deals with it, and every board's dd analysis reruns
    _touch(copy, "bridge/cards.py")
    again = _run(copy, out)
    assert re.search(r"dds: 6 boards analysed in", again["dds"])

    # the matcher's name rules reach match alone; dds reruns its per-player tables only
    _touch(copy, "cleaning/match/names.py")
    names = _run(copy, out)
    assert names["clean"] == "clean: up to date, nothing to do"
    assert "up to date" not in names["match"]
    assert re.search(r"dds: 0 boards analysed in .* 6 done before", names["dds"])
