"""The documentation site: the generated pages (the data model from the declared tables, the
CLI reference from every command's --help) are what the code says, and `mkdocs build --strict`
passes (every page in the nav, every link and anchor found)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "docs" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_data_model_page_is_generated_from_the_declared_tables():
    generator = _generator()
    assert generator.render_data_model() == generator.PAGE.read_text(encoding="utf-8"), (
        "docs/data-model.md is out of date: run `python docs/generate.py` to update it"
    )


def test_the_cli_reference_is_generated_from_the_commands_help():
    generator = _generator()
    assert generator.render_cli() == generator.CLI_PAGE.read_text(encoding="utf-8"), (
        "docs/cli.md is out of date: run `python docs/generate.py` to update it"
    )


def test_every_declared_table_is_on_the_data_model_page():
    from bridgerank.core.store import Base

    page = _generator().render_data_model()
    missing = [name for name in Base.metadata.tables if f"### `{name}`" not in page]
    assert not missing


def test_the_site_builds_strictly(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "data-model" / "index.html").exists()
