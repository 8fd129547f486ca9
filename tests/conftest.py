"""Shared fixtures: paths to the test data and to real data, and a fresh database per test;
the markers that say what a test needs; no test leaves a process behind.

What a test needs is marked here from the fixtures it uses (pyproject.toml lists the markers):
``shared_data`` (../shared/data), ``postgres`` (a server), ``browser`` (Chromium), ``torch``
(PyTorch: tests/ratings/test_neural.py's fixture, training networks). Modules mark ``dds``
(the solver on a whole pipeline) and ``dask`` (a cluster) themselves. A test with none of
these and not ``slow`` is marked ``fast``: ``pytest -m fast`` is the inner loop.

Each of those needs skips when missing, and says why; CI sets ``BRIDGERANK_REQUIRE_*``
(``SHARED_DATA``, ``POSTGRES``, ``BROWSER``, ``TORCH``) so that there it fails instead: the
suite CI runs is the default suite of a fresh clone, and CI never passes by skipping.
"""

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bridgerank.core.settings import ENVIRONMENT
from bridgerank.core.store import open_engine
from tests import postgres, processes
from tests.paths import SHARED_DATA, TEST_DATA

REQUIRE_SHARED_DATA = "BRIDGERANK_REQUIRE_SHARED_DATA"
REQUIRE_BROWSER = "BRIDGERANK_REQUIRE_BROWSER"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's; Playwright drives it (no browser download)

# A fixture used, directly or through another fixture: the marker its tests get.
MARK_BY_FIXTURE = {
    "shared_data": "shared_data",
    "postgres_server": "postgres",
    "chromium": "browser",
    "torch": "torch",
}
# What keeps a test out of the fast selection.
NOT_FAST = ("slow", "dds", "dask", "postgres", "browser", "shared_data", "torch")


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="write tests/golden/ from this run instead of comparing with it",
    )


def pytest_configure(config):
    if processes.available():
        processes.start_session()


def pytest_collection_modifyitems(config, items):
    for item in items:
        for fixture, marker in MARK_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(marker)
        if not any(item.get_closest_marker(marker) for marker in NOT_FAST):
            item.add_marker("fast")


@pytest.fixture(autouse=True)
def _no_process_left_behind(request):
    """The test ends with every process it started gone, its function-scoped fixtures' too
    (this fixture is set up before them and torn down after; what broader fixtures start is
    checked at the session's end). One left is killed, and fails the test."""
    if not processes.available():
        yield
        return
    before = {process.key for process in processes.ours()}
    yield
    new = [p for p in processes.ours() if p.key not in before and not processes.kept(p)]
    left = processes.left_running(new)
    if left:
        processes.kill(left)
        pytest.fail(
            f"{request.node.nodeid} left {len(left)} process(es) running (now killed):\n"
            + "\n".join(map(str, left)),
            pytrace=False,
        )


@pytest.hookimpl(trylast=True)  # after pytest's own, which tears the session's fixtures down
def pytest_sessionfinish(session):
    """After the last teardown: loky's pool shut down, no process of the session may remain."""
    if not processes.available() or hasattr(session.config, "workerinput"):
        return
    loky = sys.modules.get("joblib.externals.loky.reusable_executor")
    if loky is not None and loky._executor is not None:
        loky._executor.shutdown(wait=True)
    left = processes.left_running(
        [p for p in processes.ours() if not processes.kept(p, between_tests=False)]
    )
    if not left:
        return
    processes.kill(left)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"{len(left)} process(es) of the test session still running at its end (now killed):"]
    lines += [f"  {process}" for process in left]
    if reporter:
        reporter.ensure_newline()
        reporter.write_sep("!", "processes left behind", red=True)
        for line in lines:
            reporter.write_line(line, red=True)
    else:
        sys.stderr.write("\n".join(lines) + "\n")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def session_dd_store(tmp_path_factory) -> Path:
    """The double dummy store the session's tests share: never the developer's own (a test
    must not read what a developer solved, nor leave tables in their cache), and one for the
    whole session, as a machine has one, so a deal is solved once per session."""
    return tmp_path_factory.mktemp("dd-store") / "dd-store.sqlite"


@pytest.fixture(autouse=True)
def _no_settings_from_the_environment(monkeypatch, session_dd_store):
    """A developer's BRIDGERANK_DB or BRIDGERANK_OUT must not move a test's database, nor
    their BRIDGERANK_DD_STORE decide what a test solves: the session's store is used."""
    for variable in ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("BRIDGERANK_DD_STORE", str(session_dd_store))


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
        message = f"needs ../shared/data (the real data beside the repository): {path} not found"
        if os.environ.get(REQUIRE_SHARED_DATA):
            pytest.fail(f"{message} ({REQUIRE_SHARED_DATA} is set)", pytrace=False)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_data() -> Callable[..., Path]:
    """``shared_data("thesis", "results")``: a file or folder of ../shared/data. Its tests are
    marked ``shared_data``; they skip when the data is absent, and fail instead when
    ``BRIDGERANK_REQUIRE_SHARED_DATA`` is set (CI sets it)."""
    return _shared


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium, for Playwright. Its tests are marked ``browser``; they skip when it
    is not installed, and fail instead when ``BRIDGERANK_REQUIRE_BROWSER`` is set (CI)."""
    if not CHROMIUM.exists():
        message = f"Debian's chromium is not installed ({CHROMIUM})"
        if os.environ.get(REQUIRE_BROWSER):
            pytest.fail(f"{message} and {REQUIRE_BROWSER} is set", pytrace=False)
        pytest.skip(message)
    return CHROMIUM


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
