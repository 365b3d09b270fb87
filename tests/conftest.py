"""Shared by every test folder: tests/ goes on the import path, so the shared helpers import as
``helpers`` whichever test file runs first, or alone (pytest adds tests/ by itself only once
it has collected one of the game test packages beside tests/helpers)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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


@pytest.fixture(autouse=True, scope="session")
def _parsed_rule_files_stay_as_read() -> Iterator[None]:
    """Fails the run (at the teardown of its last test, in each worker) where a test wrote into
    a rule file's parse that the loader keeps for the whole process: every later load of that
    file would have seen the change, and a test elsewhere would fail or pass by the order the
    tests ran in."""
    yield
    from interpreter.load.yamlload import cached_files_changed

    changed = cached_files_changed()
    assert not changed, (
        "a test changed the loader's kept parse of these files (copy before writing, e.g."
        f" with CopyOnWriteTree): {changed}"
    )
