"""Shared fixtures: paths to real data and a fresh database per test."""

from pathlib import Path

import pytest

from bridgerank.core.settings import ENVIRONMENT
from bridgerank.core.store import open_engine

TESTS = Path(__file__).parent
TEST_DATA = TESTS / "data"
SHARED_DATA = TESTS.parent.parent / "shared" / "data"


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


def shared(*parts) -> Path:
    """A file of ../shared/data; the test is skipped when the shared data is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    return path
