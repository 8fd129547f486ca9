"""``bridgerank`` run in a child process and measured: exit code, output, wall time and peak
memory, for the tests of hostile input (a file built to exhaust memory must be refused in
bounded memory and seconds)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

# Every hostile run must stay under these (the CLI alone peaks at about 75 MB).
PEAK_MB = 300
SECONDS = 20

# Runs a command and reports its exit code, output, wall time and peak memory: a fresh
# process, so that RUSAGE_CHILDREN holds the command alone.
_MEASURE = textwrap.dedent(
    """
    import json, resource, subprocess, sys, time
    start = time.monotonic()
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
    print(json.dumps({
        "code": done.returncode, "stdout": done.stdout, "stderr": done.stderr,
        "seconds": time.monotonic() - start,
        "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }))
    """
)


def bridgerank_measured(*args: object) -> dict[str, Any]:
    """``bridgerank ARGS`` in a child process: ``code``, ``stdout``, ``stderr``, ``seconds``
    and ``peak_mb``."""
    command = [sys.executable, "-m", "bridgerank", *map(str, args)]
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def error_lines(run: dict[str, Any]) -> list[str]:
    """The ``error:`` lines a measured run wrote."""
    return [line for line in run["stderr"].splitlines() if line.startswith("error:")]
