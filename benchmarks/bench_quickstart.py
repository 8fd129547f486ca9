"""The quick start's main command, now against an earlier version, in CPU seconds, in one run.

    python benchmarks/bench_quickstart.py                    # against e0dabcb, 3 pairs
    python benchmarks/bench_quickstart.py --baseline REV --pairs 5

Both run ``bridgerank run`` on the embedded sample into a new folder, as on a fresh install:
the baseline is REV's code (``git worktree`` of this repository, installed without its
dependencies into a virtual environment that sees this one's packages), the current one is
this checkout with an empty DD store (so it reads the shipped tables first, as a fresh
install does). They alternate, A B A B, so a machine that slows down slows both; CPU seconds
are the run's own and its worker processes' (user + system, from the operating system's
accounting of the finished process tree). Printed: each pair, the medians, and the ratio of
the current's CPU seconds to the baseline's (the goal of issue 27: at most a third).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# main before the DD store (issue 27): every table of the sample solved on every install
BASELINE = "e0dabcb"


def _baseline_python(rev: str, folder: Path) -> Path:
    """A Python whose ``bridgerank`` is ``rev``'s code and whose other packages are ours."""
    source = folder / "source"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(source), rev],
        check=True,
        capture_output=True,
    )
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            str(source),
        ],
        check=True,
    )
    return python


def _cpu_of(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of a command and every process it waited for.

    It runs in ``cwd``, away from this checkout: ``python -m`` puts the current folder first
    on the path, and this checkout's ``bridgerank/`` would shadow the baseline's package."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, cwd=cwd, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        old_python = _baseline_python(args.baseline, folder)
        env = {k: v for k, v in os.environ.items() if not k.startswith("BRIDGERANK_")}
        old, new = [], []
        try:
            for pair in range(args.pairs):
                old.append(
                    _cpu_of(
                        [
                            str(old_python),
                            "-m",
                            "bridgerank",
                            "run",
                            "--out",
                            str(folder / f"a{pair}"),
                        ],
                        env,
                        folder,
                    )
                )
                fresh = dict(env, BRIDGERANK_DD_STORE=str(folder / f"store{pair}.sqlite"))
                new.append(
                    _cpu_of(
                        [
                            sys.executable,
                            "-m",
                            "bridgerank",
                            "run",
                            "--out",
                            str(folder / f"b{pair}"),
                        ],
                        fresh,
                        folder,
                    )
                )
                print(
                    f"pair {pair + 1}: {args.baseline} {old[-1][0]:.1f} CPU s "
                    f"({old[-1][1]:.1f} s wall), now {new[-1][0]:.1f} CPU s "
                    f"({new[-1][1]:.1f} s wall)",
                    flush=True,
                )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "source")],
                check=False,
            )
        old_cpu = statistics.median(cpu for cpu, _ in old)
        new_cpu = statistics.median(cpu for cpu, _ in new)
        ratios = [n[0] / o[0] for o, n in zip(old, new)]
        print(
            f"median CPU s: {args.baseline} {old_cpu:.1f}, now {new_cpu:.1f}; now / "
            f"{args.baseline}: {statistics.median(ratios):.2f} (pairs {min(ratios):.2f}-"
            f"{max(ratios):.2f}; goal at most 0.33)"
        )


if __name__ == "__main__":
    main()
