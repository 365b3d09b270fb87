"""The pages under their Content-Security-Policy in a real Chromium: no script or style of
theirs is refused; the replay page of a table people play never asks for its save; a save file
with a 256-bit seed replays in the browser exactly."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from helpers.page_clicks import press

pytestmark = pytest.mark.browser

try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright: the browser fixture skips (or fails) saying so
    expect = None


def _watch(page: Any) -> tuple[list[str], list[str]]:
    """Console lines about the policy and page errors; every URL the page asks for."""
    refused: list[str] = []
    asked: list[str] = []
    page.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.on("request", lambda r: asked.append(r.url))
    return refused, asked


def test_no_page_breaks_its_own_policy(page, server):
    refused, asked = _watch(page)
    page.goto(f"{server}/new")
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    expect(page.locator(".seat-row").nth(2)).to_be_hidden()  # forms.js ran
    page.select_option("#game", "san-juan")
    page.select_option('select[name="seat1"]', "human")
    press(page.locator("#start"))
    page.wait_for_selector("text=Table ready")
    link = page.locator("a.seat-link").first.get_attribute("href")
    page.goto(server + link)
    page.wait_for_selector("button.option")
    assert page.locator("#board .chip").count() > 0  # the board, with its coloured chips
    table_id = link.split("/t/", 1)[1].split("?", 1)[0]
    page.goto(f"{server}/replay?table={table_id}")
    expect(page.locator("#step")).to_have_text(re.compile(r"^0 / 0"), timeout=30_000)
    page.goto(f"{server}/")
    page.wait_for_selector(f'tr[data-table="{table_id}"]')
    assert refused == []
    assert not [u for u in asked if "/save" in u]  # the replay page asked the server per step


def test_the_replay_page_of_a_live_table_shows_its_public_history(page, server):
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "san-juan", "players": 2, "seats": ["human", "sj-heuristic"]},
    ).json()
    token = created["seats"][0]["token"]
    for _ in range(4):  # a few moves of the person; the bot answers each
        mine = httpx.get(
            f"{server}/api/tables/{created['id']}/state", params={"token": token}
        ).json()
        httpx.post(
            f"{server}/api/tables/{created['id']}/move",
            json={"token": token, "option": mine["options"][0]["id"], "decision": mine["decision"]},
        )
    decisions = httpx.get(f"{server}/api/tables/{created['id']}/state").json()["decision"]
    refused, asked = _watch(page)
    page.goto(f"{server}/replay?table={created['id']}")
    # it opens at the end: what every visitor sees now
    expect(page.locator("#step")).to_have_text(f"{decisions} / {decisions}", timeout=30_000)
    press(page.locator("#prev"))
    expect(page.locator("#step")).to_have_text(f"{decisions - 1} / {decisions}", timeout=30_000)
    assert (
        page.locator("#board section").count() > 0 and page.locator("#options button").count() == 0
    )
    assert refused == [] and not [u for u in asked if "/save" in u]


def test_a_save_with_a_256_bit_seed_replays_in_the_browser(page, server, tmp_path):
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "san-juan", "players": 2, "seats": ["random", "random"], "speed": 0},
    ).json()
    text = httpx.get(f"{server}/api/tables/{created['id']}/save").text
    assert int(created["seed"]) > 2**53
    path = tmp_path / "game.json"
    path.write_text(text)
    page.goto(f"{server}/replay")
    page.set_input_files("#save-file", str(path))
    steps = len(json.loads(text)["choices"])
    expect(page.locator("#step")).to_have_text(f"{steps} / {steps}", timeout=30_000)
    press(page.locator("#prev"))
    expect(page.locator("#step")).to_have_text(f"{steps - 1} / {steps}", timeout=30_000)
    assert page.locator("#error").is_hidden()
