"""Every setting allows only the values it can use: a value outside its rule is one `error:`
line naming the key, the value and what is allowed, and exit code 2, through the real CLI.

The bad values are derived from each field's declared rule (core/sections.py), so a key
added later is covered as soon as it declares one; the literal cases below pin the rules
that matter most against a rule that would be too lax.
"""

import dataclasses
import json
import math
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.core.errors import SettingsError
from bridgerank.core.sections import Allowed, RunSettings, Settings, rule_of
from bridgerank.core.settings import default_settings, defaults_path, load_settings
from bridgerank.pipeline.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULTS = tomllib.loads(defaults_path().read_text())


def _leaves(cls, table, path=()):
    """(path, field, type, default value) of every plain setting, nested tables included."""
    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        kind = hints[field.name]
        if dataclasses.is_dataclass(kind):
            yield from _leaves(kind, table[field.name], (*path, field.name))
        else:
            yield (*path, field.name), field, kind, table[field.name]


LEAVES = list(_leaves(Settings, DEFAULTS))


def _toml(value):
    """A TOML literal (JSON's string escapes are TOML's too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _settings_file(tmp_path, path, value):
    """A settings file that sets only ``path`` (``("rate", "cycles", "alpha")``)."""
    file = tmp_path / "settings.toml"
    file.write_text(f"[{'.'.join(path[:-1])}]\n{path[-1]} = {_toml(value)}\n")
    return file


def _numbers_outside(rule: Allowed, kind) -> list:
    step = 1 if kind is int else 0.5
    values = []
    if rule.at_least is not None:
        values.append(kind(rule.at_least - step))
    if rule.above is not None:
        values.append(kind(rule.above))
    if rule.at_most is not None:
        values.append(kind(rule.at_most + step))
    if rule.below is not None:
        values.append(kind(rule.below))
    if kind is float and values:
        values.append(math.nan)  # inside no bound
    return values


def _strings_outside(rule: Allowed) -> list:
    values = []
    if rule.one_of:
        values.append("evil")
    if rule.non_empty:
        values.append("")
    if rule.trimmed:
        values += [" padded", "two\nlines"]
    if rule.pattern:
        values.append("two words")
    return values


def _scalars_outside(rule: Allowed, kind) -> list:
    if kind is bool:
        return ["yes"]  # a boolean's only bad values are of another type
    if kind is str:
        return _strings_outside(rule)
    return _numbers_outside(rule, kind)


def _inside(rule: Allowed, kind, count: int) -> list:
    """``count`` different items the rule allows (for an array too long)."""
    if rule.one_of:
        return list(rule.one_of[:count])
    low = rule.at_least if rule.at_least is not None else (rule.above or 0) + 1
    return [kind(low + number) for number in range(count)]


def _arrays_outside(rule: Allowed, item, default: list) -> list:
    good = list(default[:1]) or _inside(rule, item, 1)
    values = [[*good, bad] for bad in _scalars_outside(rule, item)]
    if rule.min_items:
        values.append([])
    if rule.max_items is not None:
        values.append(_inside(rule, item, rule.max_items + 1))
    if rule.distinct:
        values.append(good + good)
    return values


def _outside(field, kind, default) -> list:
    """Values of the field's type that break its rule: one per part of the rule."""
    rule = rule_of(field)
    if typing.get_origin(kind) is tuple:
        return _arrays_outside(rule, typing.get_args(kind)[0], default)
    return _scalars_outside(rule, kind)


BAD = [
    (path, value)
    for path, field, kind, default in LEAVES
    for value in _outside(field, kind, default)
]


def _id(path, value):
    return f"{'.'.join(path)}={value!r}"


def test_every_setting_of_defaults_toml_gets_bad_values():
    assert {path for path, _ in BAD} == {path for path, *_ in LEAVES}


def test_every_plain_field_declares_a_rule_and_only_booleans_allow_everything():
    for path, field, kind, _ in LEAVES:
        rule = rule_of(field)
        assert rule is not None, f"{'.'.join(path)}: declare its values with allowed()"
        assert rule.constrains or kind is bool, f"{'.'.join(path)} allows any value"


@pytest.fixture(autouse=True)
def _settings_from_the_file_only(monkeypatch):
    """The session's BRIDGERANK_DD_STORE (conftest.py) would win over a bad [dds] store in
    the file: these tests read the file's value."""
    monkeypatch.delenv("BRIDGERANK_DD_STORE")


def _status(*args, env=None):
    """``bridgerank status`` through click, stderr apart from stdout."""
    return CliRunner().invoke(main, ["status", *map(str, args)], env=env)


def _one_error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


@pytest.mark.parametrize("path,value", BAD, ids=[_id(*case) for case in BAD])
def test_a_bad_value_is_one_error_line_naming_the_key_through_the_cli(tmp_path, path, value):
    config = _settings_file(tmp_path, path, value)
    # --out would replace a bad [store] out; status only reads, so creates nothing without it
    out = () if path == ("store", "out") else ("--out", tmp_path)
    line = _one_error_line(_status("--config", config, *out))
    assert line.startswith(f"error: {config}"), line  # the file to correct
    if value == "yes":  # a boolean's bad value is of the wrong type
        assert f"{config}.{'.'.join(path[:-1])}: {path[-1]!r} must be bool" in line, line
        return
    # the table, the key (and the item), the value, what is allowed
    assert re.match(
        rf"error: \S+: \[{re.escape('.'.join(path[:-1]))}\] {path[-1]}(\[\d+\])? = ", line
    )
    assert ": must " in line, line


@pytest.mark.parametrize(
    "text,message",
    [
        ("[run]\njobs = -3\n", "[run] jobs = -3: must be at least 1 and at most 256"),
        ("[run]\njobs = 0\n", "[run] jobs = 0: must be at least 1 and at most 256"),
        ("[run]\njobs = 1000\n", "[run] jobs = 1000: must be at least 1 and at most 256"),
        (
            "[rate]\nbootstrap_resamples = -5\n",
            "[rate] bootstrap_resamples = -5: must be at least 0 and at most 10000",
        ),
        (
            "[rate]\nbootstrap_resamples = 1000000000\n",
            "[rate] bootstrap_resamples = 1000000000: must be at least 0 and at most 10000",
        ),
        ('[dds]\nbackend = "evil"\n', "[dds] backend = 'evil': must be one of 'loky', 'dask'"),
        ("[dds]\nchunk_deals = 0\n", "[dds] chunk_deals = 0: must be at least 1 and at most 1000"),
        ("[dds]\nretries = -1\n", "[dds] retries = -1: must be at least 0 and at most 10"),
        ("[rate]\ntrain_share = 1\n", "[rate] train_share = 1.0: must be above 0 and below 1"),
        ("[rate]\ntrain_share = nan\n", "[rate] train_share = nan: must be above 0 and below 1"),
        ('[rate]\nweighting = "IMPs"\n', "[rate] weighting = 'IMPs': must be one of 'board'"),
        ("[rate.cycles]\nalpha = 0\n", "[rate.cycles] alpha = 0.0: must be above 0"),
        (
            "[regress]\nsweep_factors = [0, -1]\n",
            "[regress] sweep_factors[1] = -1.0: must be at least 0 and at most 100",
        ),
        (
            "[regress]\nresponses = []\n",
            "[regress] responses = []: must have at least 1 item",
        ),
        (
            '[regress]\nresponses = ["pp", "pp"]\n',
            "[regress] responses[1] = 'pp': must not repeat an earlier item",
        ),
        ('[regress]\nresponses = ["wbf"]\n', "[regress] responses[0] = 'wbf': must be one of"),
        ("[regress]\nforward_entry = 0\n", "[regress] forward_entry = 0.0: must be above 0"),
        ("[regress]\ncv_folds = 1\n", "[regress] cv_folds = 1: must be at least 2"),
        (
            "[regress.thresholds]\nleads = -1\n",
            "[regress.thresholds] leads = -1: must be at least 0",
        ),
        ('[store]\nout = ""\n', "[store] out = '': must not be empty"),
        (
            '[dds]\nscheduler = "tcp://host: 8786"\n',
            "[dds] scheduler = 'tcp://host: 8786': must be empty, or an address like",
        ),
        ('[ingest]\nextensions = [""]\n', "[ingest] extensions[0] = '': must not be empty"),
        (
            "[clean]\nfirst_year = 2000\nlast_year = 1999\n",
            "[clean] last_year = 1999: must be 0 or at least first_year (2000)",
        ),
        ("[clean]\nfirst_year = 99\n", "[clean] first_year = 99: must be at least 1000"),
    ],
)
def test_the_message_names_the_file_the_key_the_value_and_the_rule(tmp_path, text, message):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(SettingsError) as caught:
        load_settings(path, environ={})
    assert str(caught.value).startswith(f"{path}: {message}"), str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_shipped_defaults_pass():
    settings = load_settings(environ={})
    assert settings == default_settings()
    for path, field, _, _ in LEAVES:
        value = settings
        for name in path:
            value = getattr(value, name)
        assert rule_of(field).problem(value) is None, path


@pytest.mark.parametrize(
    "text",
    [
        "[run]\njobs = 1\n",
        "[run]\njobs = 256\n",
        "[rate]\ntrain_share = 0.01\nbootstrap_resamples = 0\nvalidation_bootstrap = 10000\n",
        "[rate]\ntrain_share = 0.99\nmin_tables = 2\ncalibration_rankings = 0\n",
        "[rate.cycles]\nteam_events = 0\ndiscs = 0\nalpha = 100\n",
        "[dds]\nbackend = 'dask'\nscheduler = 'tcp://10.0.0.7:8786'\ndds_threads = 0\n",
        "[dds]\nscheduler = 'localhost:8786'\nchunk_deals = 1\nchunk_boards = 10000\nretries = 0\n",
        "[dds]\nscheduler = 'tls://[::1]:8786'\nretries = 10\n",
        "[store]\ndb = ''\n",
        "[store]\ndb = 'postgresql+psycopg://me@db.example/bridge'\n",
        "[clean]\nfirst_year = 2000\nlast_year = 2000\n",
        "[clean]\nfirst_year = 9999\nlast_year = 0\n",
        "[regress]\nvif_bound = inf\nforward_entry = 1\ncv_folds = 2\nsweep_factors = []\n",
        "[regress]\nresponses = ['headline']\n[regress.thresholds]\nclaims = 0\n",
        "[match]\nwbf_lists = []\nwbf_codes = ''\nfuzzy_min_ratio = 100\ntiebreak_margin = 0.5\n",
        "[ingest]\nsample = []\nextensions = ['.pbn']\n",
    ],
)
def test_boundary_values_pass(tmp_path, text):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    load_settings(path, environ={})


def test_a_flag_is_checked_too(tmp_path):
    line = _one_error_line(_status("--out", tmp_path, "--jobs", "1000"))
    assert line == "error: options: [run] jobs = 1000: must be at least 1 and at most 256"


def test_the_jobs_flag_agrees_with_the_setting_below():
    # click refuses --jobs below the setting's own lower bound, as a usage error (exit 2)
    option = next(param for param in main.commands["status"].params if param.name == "jobs")
    rule = rule_of({f.name: f for f in dataclasses.fields(RunSettings)}["jobs"])
    assert option.type.min == rule.at_least
    assert CliRunner().invoke(main, ["status", "--jobs", "0"]).exit_code == 2


def test_an_environment_variable_is_checked_and_named(tmp_path):
    result = _status(env={"BRIDGERANK_OUT": " padded"})
    line = _one_error_line(result)
    assert line == (
        "error: BRIDGERANK_OUT: [store] out = ' padded': must be one line with no white space "
        "at either end"
    )


def test_the_layer_named_is_the_one_that_set_the_value(tmp_path):
    # the file's good value is replaced by a flag's bad one: the flag is to blame
    config = _settings_file(tmp_path, ("run", "jobs"), 4)
    with pytest.raises(SettingsError, match=re.escape("options: [run] jobs = 999")):
        load_settings(config, {"run": {"jobs": 999}}, environ={})
    # a bad value in the file that a flag then replaces is not an error: the merged result is
    config = _settings_file(tmp_path, ("run", "jobs"), 999)
    assert load_settings(config, {"run": {"jobs": 2}}, environ={}).run.jobs == 2


def test_a_field_without_a_rule_is_a_programming_error():
    from bridgerank.core.sections import section
    from bridgerank.core.settings import _build

    @section
    class Loose:
        count: int

    with pytest.raises(TypeError, match="declares no rule"):
        _build(Loose, {"count": 1}, "test", {})


def test_the_real_command_prints_one_line_and_exits_2(tmp_path):
    config = _settings_file(tmp_path, ("dds", "backend"), "evil")
    done = subprocess.run(
        ["bridgerank", "status", "--config", str(config), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        done.stderr == f"error: {config}: [dds] backend = 'evil': must be one of 'loky', 'dask'\n"
    )


def test_a_setting_taken_away_says_where_it_went(tmp_path: Path) -> None:
    # the synthetic who-beats-whom games left the rate stage for a benchmark
    path = tmp_path / "settings.toml"
    path.write_text("[rate.cycles]\nsynthetic_discs = [0, 1]\n")
    with pytest.raises(SettingsError) as caught:
        load_settings(str(path))
    assert str(caught.value) == (
        f"{path}.rate.cycles: 'synthetic_discs' is no longer a setting: the synthetic games run "
        "in benchmarks/bench_gamematrix_synthetic.py, not in the rate stage; delete the line"
    )
