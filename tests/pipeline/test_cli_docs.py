"""The CLI's surface (help, docs) and the settings loader's errors."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.core.errors import SettingsError
from bridgerank.core.settings import load_settings
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
    assert lines == ['pip install -e . && bridgerank run', 'pip install -e ".[test]" && pytest']


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).parents[2] / ".ci" / "run").read_text()
    assert 'pip install -e ".[test]" && pytest' in ci.splitlines()


def test_defaults_load():
    settings = load_settings()
    assert settings.clean.first_year == 1900
    assert settings.store.out == "out"


@pytest.mark.parametrize("text,message", [
    ("[clean]\nfirst_yaer = 1950\n", "unknown setting 'first_yaer'; did you mean 'first_year'?"),
    ("[clean]\nfirst_year = 'soon'\n", "'first_year' must be int, not str"),
    ("[nothing]\n", "unknown setting 'nothing'"),
    ("[cleen]\nfirst_year = 1950\n", "unknown setting 'cleen'; did you mean 'clean'?"),
    ("[regress.thresholds]\nleeds = 1\n", ".regress.thresholds: unknown setting 'leeds'; "
                                           "did you mean 'leads'?"),
    ("clean = 3\n", "'clean' must be a table"),
    ("[match]\nwbf_lists = 'one.csv'\n", "'wbf_lists' must be list, not str"),
    ("[regress]\nresponses = ['pp', 2]\n", "'responses[1]' must be str, not int"),
    ("[rate]\nprior = 1\n", "'prior' must be bool, not int"),
    ("[clean\n", "not valid TOML"),
])
def test_bad_settings_files(tmp_path, text, message):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=re.escape(message)):
        load_settings(path)


def test_bad_settings_file_is_one_line_through_the_cli(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text("[clean]\nfirst_yaer = 1950\n")
    result = CliRunner().invoke(main, ["status", "--config", str(path), "--out", str(tmp_path)])
    assert result.exit_code == 2  # a settings error, like a usage error
    assert result.output.strip() == (f"error: {path}.clean: unknown setting 'first_yaer'; "
                                     "did you mean 'first_year'?")


def test_missing_settings_file(tmp_path):
    result = CliRunner().invoke(main, ["status", "--config", str(tmp_path / "no.toml")])
    assert result.exit_code == 2
    assert "cannot read settings file" in result.output
