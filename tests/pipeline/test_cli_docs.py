"""The CLI's surface: every command has help and is in the README, the quick start, and
the CI running the README's test command. (The settings loader's errors are in
tests/core/test_settings.py.)"""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main

README = (Path(__file__).parents[2] / "README.md").read_text()


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help_and_is_documented(command):
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    assert main.commands[command].help, f"{command} has no help text"
    assert re.search(rf"bridgerank {command}\b", README), f"{command} is not in the README"


def test_quick_start_is_two_commands():
    block = README.split("## Quick start", 1)[1].split("```")[1]
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert lines == ["pip install -e . && bridgerank run", 'pip install -e ".[test]" && pytest']


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).parents[2] / ".ci" / "run").read_text()
    assert 'pip install -e ".[test]" && pytest' in ci.splitlines()
