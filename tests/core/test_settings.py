"""Typed settings: the dataclasses match defaults.toml, are frozen, layer as documented, and
a bad settings file is one error line."""

import dataclasses
import datetime as dt
import re
import sys

import pytest
from click.testing import CliRunner

from bridgerank.core.errors import SettingsError
from bridgerank.core.sections import CleanSettings, RegressThresholds
from bridgerank.core.settings import default_settings, defaults_path, load_settings
from bridgerank.dds.counters import OPPORTUNITIES
from bridgerank.pipeline.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULTS = tomllib.loads(defaults_path().read_text())


def _sections(settings, table, where="settings"):
    """(where, dataclass instance, its TOML table) for the settings and every nested table."""
    yield where, settings, table
    for field in dataclasses.fields(settings):
        value = getattr(settings, field.name)
        if dataclasses.is_dataclass(value):
            yield from _sections(value, table.get(field.name, {}), f"{where}.{field.name}")


SECTIONS = list(_sections(default_settings(), DEFAULTS))


@pytest.mark.parametrize("where,section,table", SECTIONS, ids=[where for where, *_ in SECTIONS])
def test_toml_keys_and_dataclass_fields_are_the_same_set(where, section, table):
    assert set(table) == {field.name for field in dataclasses.fields(section)}


@pytest.mark.parametrize("where,section,table", SECTIONS, ids=[where for where, *_ in SECTIONS])
def test_no_field_has_a_default_of_its_own(where, section, table):
    # the defaults live in defaults.toml only; a default here would be a second copy
    for field in dataclasses.fields(section):
        assert field.default is dataclasses.MISSING, f"{where}.{field.name}"
        assert field.default_factory is dataclasses.MISSING, f"{where}.{field.name}"


def test_settings_are_frozen_all_the_way_down():
    settings = load_settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.clean.first_year = 1950
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.rate = settings.rate
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.regress.thresholds.leads = 0
    assert isinstance(settings.regress.responses, tuple)
    assert isinstance(settings.match.wbf_lists, tuple)
    hash(settings)  # frozen with tuples: usable as a key


def test_values_from_a_file_replace_the_defaults(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text(
        "[rate]\nmin_tables = 4\n[regress]\nvif_bound = 4\n[regress.thresholds]\nleads = 7\n"
    )
    settings = load_settings(path)
    assert settings.rate.min_tables == 4
    assert settings.regress.vif_bound == 4.0 and isinstance(settings.regress.vif_bound, float)
    assert settings.regress.thresholds.leads == 7
    assert settings.regress.thresholds.claims == DEFAULTS["regress"]["thresholds"]["claims"]


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "[clean]\nfirst_yaer = 1950\n",
            "unknown setting 'first_yaer'; did you mean 'first_year'?",
        ),
        ("[regres]\nvif_bound = 4\n", "unknown setting 'regres'; did you mean 'regress'?"),
        ("[clean]\nxyz = 1\n", "unknown setting 'xyz'"),
    ],
)
def test_a_misspelt_name_gets_a_suggestion(tmp_path, text, message):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=re.escape(message)) as caught:
        load_settings(path)
    if "xyz" in text:
        assert "did you mean" not in str(caught.value)  # nothing close: no guess


def test_overrides_are_checked_like_a_file():
    with pytest.raises(
        SettingsError, match=re.escape("options.run: unknown setting 'job'; did you mean 'jobs'?")
    ):
        load_settings(overrides={"run": {"job": 2}})


def test_environment_is_above_the_file_and_below_the_overrides(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('[store]\nout = "from-file"\ndb = "file.db"\n')
    environ = {"BRIDGERANK_OUT": "from-env", "BRIDGERANK_DB": ""}  # empty: not set
    settings = load_settings(path, environ=environ)
    assert (settings.store.out, settings.store.db) == ("from-env", "file.db")
    settings = load_settings(path, {"store": {"out": "from-flag"}}, environ=environ)
    assert settings.store.out == "from-flag"


def _database(*args, env=None):
    """The database ``status`` looks for (it creates none: it names the one missing)."""
    result = CliRunner().invoke(main, ["status", *map(str, args)], env=env)
    assert result.exit_code == 3, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("error: no database at "), first
    return "database: sqlite:///" + first.removeprefix("error: no database at ").split(" (")[0]


def test_environment_variables_through_the_cli(tmp_path):
    config = tmp_path / "settings.toml"
    config.write_text(f'[store]\ndb = "{(tmp_path / "file.db").as_posix()}"\n')
    env_db, flag_db = tmp_path / "env.db", tmp_path / "flag.db"
    assert _database("--config", config) == f"database: sqlite:///{tmp_path / 'file.db'}"
    assert (
        _database("--config", config, env={"BRIDGERANK_DB": str(env_db)})
        == f"database: sqlite:///{env_db}"
    )
    assert (
        _database("--config", config, "--db", flag_db, env={"BRIDGERANK_DB": str(env_db)})
        == f"database: sqlite:///{flag_db}"
    )
    env_out, flag_out = tmp_path / "env-out", tmp_path / "flag-out"
    assert (
        _database(env={"BRIDGERANK_OUT": str(env_out)})
        == f"database: sqlite:///{env_out / 'bridgerank.db'}"
    )
    assert (
        _database("--out", flag_out, env={"BRIDGERANK_OUT": str(env_out)})
        == f"database: sqlite:///{flag_out / 'bridgerank.db'}"
    )


def test_last_year_zero_means_this_year():
    clean = dataclasses.replace(default_settings().clean, last_year=0)
    assert clean.latest_year == dt.date.today().year
    assert (
        CleanSettings(
            first_year=1900, last_year=2001, infer_vulnerability_from_board=True
        ).latest_year
        == 2001
    )


def test_thresholds_are_opportunity_counters():
    assert {field.name for field in dataclasses.fields(RegressThresholds)} <= set(OPPORTUNITIES)


def test_defaults_load():
    settings = load_settings()
    assert settings.clean.first_year == 1900
    assert settings.store.out == "out"


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "[clean]\nfirst_yaer = 1950\n",
            "unknown setting 'first_yaer'; did you mean 'first_year'?",
        ),
        ("[clean]\nfirst_year = 'soon'\n", "'first_year' must be int, not str"),
        ("[nothing]\n", "unknown setting 'nothing'"),
        ("[cleen]\nfirst_year = 1950\n", "unknown setting 'cleen'; did you mean 'clean'?"),
        (
            "[regress.thresholds]\nleeds = 1\n",
            ".regress.thresholds: unknown setting 'leeds'; did you mean 'leads'?",
        ),
        ("clean = 3\n", "'clean' must be a table"),
        ("[match]\nwbf_lists = 'one.csv'\n", "'wbf_lists' must be list, not str"),
        ("[regress]\nresponses = ['pp', 2]\n", "'responses[1]' must be str, not int"),
        ("[rate]\nprior = 1\n", "'prior' must be bool, not int"),
        ("[clean\n", "not valid TOML"),
    ],
)
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
    assert result.output.strip() == (
        f"error: {path}.clean: unknown setting 'first_yaer'; did you mean 'first_year'?"
    )


def test_missing_settings_file(tmp_path):
    result = CliRunner().invoke(main, ["status", "--config", str(tmp_path / "no.toml")])
    assert result.exit_code == 2
    assert "cannot read settings file" in result.output
