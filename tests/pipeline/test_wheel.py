"""The wheel a user installs: one top-level name, and the quick start works from it.

Builds the wheel, installs it into a fresh virtual environment (its dependencies come from
the package index, or pip's cache) and runs ``bridgerank run`` on the embedded sample there,
from a folder outside the repository. Slow (the double dummy solver); CI runs it.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_wheel_runs_the_quick_start_and_installs_only_bridgerank(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next((tmp_path / "dist").glob("bridgerank-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True)

    record = subprocess.run(
        [
            str(python),
            "-c",
            "from importlib.metadata import distribution as d; "
            "print(d('bridgerank').read_text('top_level.txt')); "
            "print('\\n'.join(str(f) for f in d('bridgerank').files))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.split("\n")
    assert record[0].split() == ["bridgerank"]
    tops = {path.split("/")[0] for path in record[1:] if path and not path.startswith("..")}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"bridgerank"}

    work = tmp_path / "elsewhere"
    work.mkdir()
    run = subprocess.run(
        [str(venv / "bin" / "bridgerank"), "run"], cwd=work, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "using the embedded sample" in run.stdout
    assert (work / "out" / "report" / "methods.html").stat().st_size > 10_000
    assert "match: 18 of 70 raw names matched" in run.stdout  # the WBF lists are in the wheel
