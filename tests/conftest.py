"""Shared by every test folder: tests/ goes on the import path, so the shared helpers import as
``helpers`` whichever test file runs first, or alone (pytest adds tests/ by itself only once
it has collected one of the game test packages beside tests/helpers)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
# and the repository's root, so that a test of one folder may use another's tools as
# ``tests.validate.mutations`` whichever folder pytest collects first
ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.append(ROOT)


def pytest_collection_modifyitems(config, items) -> None:
    """The tests marked ``slow`` run first (the order is otherwise kept): spread over workers
    (pytest-xdist), a minutes-long test handed out last would keep one worker busy while the
    others sit idle at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
