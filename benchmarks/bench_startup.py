"""Start-up cost of the commands a user types most: CPU seconds of a whole process.

Baselines, measured in the same run: ``python -c pass`` (the interpreter itself) and
``python -c "import sqlalchemy.orm"`` (the floor of any command that opens the database).
Each command runs ``--repeat`` times; the best (least CPU) run counts, since the machines are
shared and noisy. ``status`` runs on a database that has been through ingest, clean and
match of a small file.

Usage: python benchmarks/bench_startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "bb1997_sf04_head.pbn"


def _cpu(command: list[str], cwd: Path) -> float:
    """User plus system CPU seconds of one run of ``command`` (a child process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL)
    # `status` exits 1 when a stage is behind (as make -q does): the database here went
    # through match only, so that is its answer, not a failure
    if done.returncode not in (0, 1 if "status" in command else 0):
        raise subprocess.CalledProcessError(done.returncode, command)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    python = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        subprocess.run(
            [python, "-m", "bridgerank", "run", str(SAMPLE), "--to", "match"],
            cwd=work,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        commands = {
            "python -c pass (baseline)": [python, "-c", "pass"],
            "python -c 'import sqlalchemy.orm'": [python, "-c", "import sqlalchemy.orm"],
            "bridgerank --help": [python, "-m", "bridgerank", "--help"],
            "bridgerank --version": [python, "-m", "bridgerank", "--version"],
            "bridgerank status": [python, "-m", "bridgerank", "status"],
        }
        best = {
            name: min(_cpu(command, work) for _ in range(repeat))
            for name, command in commands.items()
        }
    base = best["python -c pass (baseline)"]
    print(f"{'command':<36} {'CPU s':>7} {'x baseline':>11} {'above baseline':>15}")
    for name, seconds in best.items():
        print(f"{name:<36} {seconds:>7.3f} {seconds / base:>11.1f} {seconds - base:>15.3f}")


if __name__ == "__main__":
    main()
