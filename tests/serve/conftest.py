"""The web table under Starlette's TestClient: a fresh database per test (helpers to drive seats
through the HTTP API are in tests/helpers/serve_api.py)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2; httpx is what it runs on today
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.serve.app import create_app
from interpreter.serve.store import TableStore
from interpreter.serve.tables import Hub


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db)) as c:
            yield c


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    """A table hub over a fresh database, without a server (the move path called directly)."""
    store = TableStore(tmp_path / "tables.sqlite3")
    yield Hub(store)
    store.close()
