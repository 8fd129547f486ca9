"""Shared fixtures: paths to the test data and to real data, and a fresh database per test."""

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bridgerank.core.settings import ENVIRONMENT
from bridgerank.core.store import open_engine
from tests import postgres
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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server for this test session (see tests/postgres.py)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        postgres.unavailable("the driver is not installed (pip install -e '.[postgres]')")
    url = os.environ.get(postgres.URL_VARIABLE)
    if url:
        yield url
        return
    with postgres.private_server() as started:
        yield started


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    return postgres.new_database(postgres_server)
