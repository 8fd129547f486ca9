"""Lay out the bridgerank namespace as one folder of symbolic links, for tools that read
packages from disk (import-linter's graph, mypy) and do not follow pyproject's package-dir.

Usage: python .ci/shadow_tree.py FOLDER   (then PYTHONPATH=FOLDER lint-imports, mypy ...)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def build(target: Path) -> Path:
    """Create ``target/bridgerank`` with a link per mapped package; returns ``target``."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"]
    shutil.rmtree(target, ignore_errors=True)
    package = target / "bridgerank"
    package.mkdir(parents=True)
    for source in (ROOT / mapping["bridgerank"]).glob("*.py"):
        (package / source.name).symlink_to(source)
    for name, folder in mapping.items():
        if name != "bridgerank":
            (package / name.split(".", 1)[1]).symlink_to(ROOT / folder, target_is_directory=True)
    return target


if __name__ == "__main__":
    build(Path(sys.argv[1]).resolve())
