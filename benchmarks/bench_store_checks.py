"""What checking the DD store's values costs: the dds stage with a healthy store, this version
against the version before the checks, in CPU seconds, in one run.

    python benchmarks/bench_store_checks.py                       # the corpus: pbn and lin
    python benchmarks/bench_store_checks.py --pairs 3 ../shared/data/pbn/1955*

Every value a run takes from the DD store is checked before it is used (:mod:`dds.store_checks`:
what double dummy values obey, on every value, and ``[dds] verify`` of each kind re-solved
live). The baseline is the version before those checks (``91a210c``, the commit issue 46 was
filed against: a ``git worktree`` installed without its dependencies into a virtual
environment that sees this one's packages). Each version first takes the sources through the
match stage into a database of its own and runs the dds stage once, untimed, so that the one
store both read holds every value the stage needs. Then the timed runs alternate, A B A B:
each runs ``bridgerank dds`` on a fresh copy of its version's matched database, taking every
table, trace, lead and par from the store. CPU seconds are the run's own and its worker
processes' (user + system). Printed: each pair, the medians and the ratio of this version's
CPU seconds to the baseline's (issue 46's bound: at most 1.05).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench_quickstart import ROOT, _baseline_python, _cpu_of

BASELINE = "91a210c"
CORPUS = ["../shared/data/pbn", "../shared/data/lin"]


def _bridgerank(python: str, *args: str) -> list[str]:
    return [python, "-m", "bridgerank", *args]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", default=CORPUS)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--current", default="HEAD", help="the version measured (a commit)")
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args()
    sources = [str((ROOT / source).resolve()) for source in args.sources]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        # Both versions installed from commits, so that editing this checkout during the
        # hour the corpus takes changes neither.
        (folder / "old").mkdir()
        (folder / "new").mkdir()
        old_python = str(_baseline_python(args.baseline, folder / "old"))
        new_python = str(_baseline_python(args.current, folder / "new"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("BRIDGERANK_")}
        env["BRIDGERANK_DD_STORE"] = str(folder / "store.sqlite")
        versions = {args.baseline: old_python, "now": new_python}
        cpu: dict[str, list[float]] = {version: [] for version in versions}
        try:
            for version, python in versions.items():
                prepared = folder / f"matched-{version}"
                command = _bridgerank(python, "run", *sources, "--to", "match", "--out")
                _cpu_of([*command, str(prepared)], env, folder)
                warm = folder / f"warm-{version}"
                shutil.copytree(prepared, warm)
                _cpu_of(_bridgerank(python, "dds", "--out", str(warm)), env, folder)
                print(f"{version}: matched and warmed the store", flush=True)
            for pair in range(args.pairs):
                for version, python in versions.items():
                    run = folder / f"run-{version}-{pair}"
                    shutil.copytree(folder / f"matched-{version}", run)
                    seconds, wall = _cpu_of(
                        _bridgerank(python, "dds", "--out", str(run)), env, folder
                    )
                    cpu[version].append(seconds)
                    shutil.rmtree(run)
                    print(
                        f"pair {pair + 1}: {version} {seconds:.1f} CPU s ({wall:.1f} s wall)",
                        flush=True,
                    )
        finally:
            for side in ("old", "new"):
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force"]
                    + [str(folder / side / "source")],
                    check=False,
                )
        old, new = cpu[args.baseline], cpu["now"]
        ratios = [n / o for o, n in zip(old, new)]
        print(
            f"median CPU s of the dds stage: {args.baseline} {statistics.median(old):.1f}, now "
            f"{statistics.median(new):.1f}; now / {args.baseline}: "
            f"{statistics.median(ratios):.3f} (pairs {min(ratios):.3f}-{max(ratios):.3f}; "
            "bound at most 1.05)"
        )


if __name__ == "__main__":
    main()
