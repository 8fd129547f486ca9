"""The embedded sample run to the report once per session, for the tests that only read
what a run wrote (a test that changes the folder copies it first)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgerank.pipeline.cli import main


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory, session_dd_store) -> Path:
    """The output folder of ``bridgerank run --out FOLDER`` on the embedded sample."""
    folder = tmp_path_factory.mktemp("sample-run")
    # the session's store, as the function-scoped fixtures of tests/conftest.py set it
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BRIDGERANK_DD_STORE", str(session_dd_store))
        result = CliRunner().invoke(main, ["run", "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder
