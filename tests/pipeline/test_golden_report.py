"""The golden report: the embedded sample's site and CSVs, as a run writes them, equal byte
for byte the ones kept in ``tests/golden/report.tar.xz`` (the run's times normalised).

A change to the report's code that is meant to change no page (moving what it computes to the
stage that owns the number, reading each table once) is checked by this test. A change meant to
alter a page rewrites the archive on purpose: ``pytest --update-golden
tests/pipeline/test_golden_report.py``, and the archive's diff goes in the same commit.

Bytes of floats depend on the machine. OpenBLAS picks its kernels by the processor, and
NumPy its loops by the instructions the processor has: an AVX-512 machine's round otherwise
than an AVX2 machine's, moving the last bits of every fit (and turning a cyclic disc's axes a
little). The golden run therefore names its arithmetic: OpenBLAS's Haswell kernels
(``OPENBLAS_CORETYPE``) and NumPy's loops up to AVX2 (``NPY_DISABLE_CPU_FEATURES``), which
every x86-64 machine with AVX2 runs alike. It runs in a process of its own, since both
libraries read the setting when they load.
"""

from __future__ import annotations

import difflib
import io
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from bridgerank.core.settings import ENVIRONMENT
from tests.paths import TESTS

pytestmark = pytest.mark.dds  # one run of the sample through the report

GOLDEN = TESTS / "golden" / "report.tar.xz"
# The arithmetic the golden report is written and checked in, whatever the processor.
ARITHMETIC = {
    "OPENBLAS_CORETYPE": "Haswell",
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
}
# The methods page's table of runs: when each stage ran, how long it took, and what the DD
# store already held (a first run solves what a second reads) - the run's, not the report's.
RUN_ROW = re.compile(r"<tr><td>(ingest|clean|match|dds|rate|regress)</td><td>[^\n]*?</tr>")
GENERATED = re.compile(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC")
# The settings the run was given, as the methods page echoes them: the configuration's, not
# the report's (a new setting shows here, with the defaults that keep every figure).
SETTINGS = re.compile(r"(<summary>Settings of this run</summary><pre>).*?(</pre>)", re.DOTALL)


def normalised(path: Path) -> bytes:
    """A written file's bytes with the run's own times, store counts and settings replaced by
    a mark."""
    data = path.read_bytes()
    if path.suffix == ".html":
        text = GENERATED.sub("Generated (when)", data.decode())
        text = RUN_ROW.sub(lambda found: f"<tr><td>{found[1]}</td>(the run's)</tr>", text)
        data = SETTINGS.sub(r"\1(the run's)\2", text).encode()
    return data


def written(folder: Path) -> dict[str, bytes]:
    """Every file of the site and of the CSVs, by its path under the output folder."""
    files = {}
    for top in ("report", "csv"):
        for path in sorted((folder / top).rglob("*")):
            if path.is_file():
                files[path.relative_to(folder).as_posix()] = normalised(path)
    return files


def archived() -> dict[str, bytes]:
    """The golden files, by their paths."""
    with tarfile.open(GOLDEN, "r:xz") as archive:
        return {
            member.name: archive.extractfile(member).read()  # type: ignore[union-attr]
            for member in archive.getmembers()
            if member.isfile()
        }


def archive(files: dict[str, bytes]) -> None:
    """Write ``files`` as the golden archive, in a fixed order with fixed metadata, so that
    the same report gives the same archive."""
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(GOLDEN, "w:xz", preset=9) as target:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            target.addfile(info, io.BytesIO(data))


@pytest.fixture(scope="module")
def golden_run(tmp_path_factory, session_dd_store) -> Path:
    """The output folder of ``bridgerank run --out FOLDER`` on the embedded sample, run in
    the arithmetic the golden report was written in (:data:`ARITHMETIC`)."""
    folder = tmp_path_factory.mktemp("golden-run")
    environment = {key: value for key, value in os.environ.items() if key not in ENVIRONMENT}
    environment.update(BRIDGERANK_DD_STORE=str(session_dd_store), **ARITHMETIC)
    done = subprocess.run(
        [sys.executable, "-m", "bridgerank", "run", "--out", str(folder)],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def test_the_sample_report_equals_the_golden_one(golden_run, request):
    files = written(golden_run)
    if request.config.getoption("--update-golden"):
        archive(files)
        pytest.skip(f"wrote {GOLDEN.relative_to(TESTS.parent)} ({len(files)} files)")
    golden = archived()
    assert sorted(files) == sorted(golden), "files added or missing"
    changed = [name for name in sorted(files) if files[name] != golden[name]]
    if changed:
        first = changed[0]
        diff = difflib.unified_diff(
            golden[first].decode(errors="replace").splitlines(),
            files[first].decode(errors="replace").splitlines(),
            "golden/" + first,
            first,
            lineterm="",
            n=1,
        )
        shown = "\n".join(line[:200] for line in list(diff)[:40])
        pytest.fail(f"{len(changed)} files differ from the golden report: {changed[:5]}\n{shown}")
