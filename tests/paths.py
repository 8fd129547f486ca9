"""Where the test data lives, for the few modules that need a path at import time
(parametrize lists and their ids, case tables, module-level constants). Tests take the
``test_data`` and ``shared_data`` fixtures of conftest.py instead."""

from pathlib import Path

TESTS = Path(__file__).parent
TEST_DATA = TESTS / "data"
SHARED_DATA = TESTS.parent.parent / "shared" / "data"
