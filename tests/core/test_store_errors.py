"""Which failures inside a run become one-line database errors, and which stay bugs."""

from __future__ import annotations

import pytest

from bridgerank.core.errors import StoreError
from bridgerank.core.store import store_errors


def test_a_missing_database_driver_is_one_line_with_what_to_install() -> None:
    with pytest.raises(StoreError) as caught:
        with store_errors("postgresql+psycopg://user@host/db"):
            raise ModuleNotFoundError("No module named 'psycopg'", name="psycopg")
    assert str(caught.value).startswith("the database driver for postgresql is not installed")
    assert caught.value.hint == "Install it: pip install 'psycopg[binary]'"


def test_an_import_failing_in_our_own_code_is_not_called_a_missing_driver() -> None:
    # a half-installed or broken bridgerank module inside a stage: a bug, with its traceback
    with pytest.raises(ModuleNotFoundError, match="bridgerank.ratings.nowhere"):
        with store_errors("sqlite:///out/bridgerank.db"):
            raise ModuleNotFoundError(
                "No module named 'bridgerank.ratings.nowhere'", name="bridgerank.ratings.nowhere"
            )
