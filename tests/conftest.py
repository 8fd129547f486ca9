"""Shared fixtures: paths to the test data and to real data, and a fresh database per test."""

from collections.abc import Callable
from pathlib import Path

import pytest

from bridgerank.core.settings import ENVIRONMENT
from bridgerank.core.store import open_engine
from tests.paths import SHARED_DATA, TEST_DATA


@pytest.fixture(autouse=True)
def _no_settings_from_the_environment(monkeypatch):
    """A developer's BRIDGERANK_DB or BRIDGERANK_OUT must not move a test's database."""
    for variable in ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def engine(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'test.db'}")
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def test_data() -> Path:
    """The small real files of tests/data."""
    return TEST_DATA


def _shared(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Callable[..., Path]:
    """``shared_data("thesis", "results")``: a file or folder of ../shared/data; the test is
    skipped when the shared data is absent."""
    return _shared
