"""The games listing is read from the rule files in a thread, never on the event loop:
reading it loads every shipped rule file (most of a second of CPU), and a fresh server's first
``GET /api/games`` must not hold up the other requests meanwhile."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.serve import game_menu
from interpreter.serve.app import create_app


def test_other_requests_are_answered_while_the_listing_is_read(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reading, release = threading.Event(), threading.Event()
    order: list[str] = []
    listing = {"games": [], "bots": []}  # (what the rule files hold is another test's)

    def held_read() -> dict[str, Any]:
        """The listing's reading, held until the test has seen another request answered."""
        reading.set()
        release.wait(timeout=10)
        order.append("listing read")
        return listing

    monkeypatch.setattr(game_menu, "_read_listing", held_read)
    monkeypatch.setattr(game_menu, "_kept", None)  # as a fresh server
    answers: dict[str, httpx.Response] = {}

    def ask(client: TestClient, name: str, path: str) -> None:
        answers[name] = client.get(path)
        order.append(f"{name} answered")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db)) as client:
            games = threading.Thread(target=ask, args=(client, "games", "/api/games"))
            games.start()
            assert reading.wait(timeout=10)  # the rule files are being read
            other = threading.Thread(target=ask, args=(client, "lobby", "/"))
            other.start()
            other.join(timeout=5)  # on the event loop, the reading would hold it till released
            release.set()
            games.join(timeout=10)
            other.join(timeout=10)
    assert order[0] == "lobby answered", order
    assert answers["lobby"].status_code == 200
    assert answers["games"].status_code == 200 and answers["games"].json() == listing
