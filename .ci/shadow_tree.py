"""Lay out the bridgerank namespace as one folder, for tools that read packages from disk
(import-linter's graph, mypy) and do not follow pyproject's package-dir: links by default,
or a copy (``--copy``) that a test may edit without touching the repository.

Usage: python .ci/shadow_tree.py [--copy] FOLDER   (then PYTHONPATH=FOLDER lint-imports ...)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def build(target: Path, copy: bool = False) -> Path:
    """Create ``target/bridgerank`` with a link (or a copy) per mapped package."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ]
    shutil.rmtree(target, ignore_errors=True)
    package = target / "bridgerank"
    package.mkdir(parents=True)
    for source in (ROOT / mapping["bridgerank"]).glob("*.py"):
        if copy:
            shutil.copy2(source, package / source.name)
        else:
            (package / source.name).symlink_to(source)
    for name, folder in mapping.items():
        if name == "bridgerank":
            continue
        place = package / name.split(".", 1)[1]
        if copy:
            shutil.copytree(
                ROOT / folder, place, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            place.symlink_to(ROOT / folder, target_is_directory=True)
    return target


if __name__ == "__main__":
    arguments = sys.argv[1:]
    build(Path(arguments[-1]).resolve(), copy="--copy" in arguments)
