"""Browser tests of the web table: real headless Chromium (the Debian `chromium` package) driven
by Playwright, against a real `rulebook serve` on a free port.

Without a Chromium these tests skip, saying why; with RULEBOOK_REQUIRE_BROWSER=1 (.ci/run) a
missing browser fails them instead, so CI cannot pass by skipping.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from helpers.server import free_port, start_server

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = _chromium()
    if found is None:
        message = "no Chromium here: apt-get install -y chromium (see the README)"
        if os.environ.get("RULEBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail(message + "; RULEBOOK_REQUIRE_BROWSER=1 needs it")
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("serve") / "tables.sqlite3"
    port = free_port()
    # every browser test of a worker makes its tables from this one address: more of them
    # than one visitor's quota of new tables (the quota has tests of its own)
    process = start_server(db, port, "--max-tables", "1000")
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def browser(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium_path,
            headless=True,
            args=[a for a in CHROMIUM_FLAGS if a != "--headless"],
            viewport={"width": 1280, "height": 900},
        )
        yield context
        context.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    yield page
    page.close()
