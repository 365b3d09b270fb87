"""Undo in a real browser: the seat to move takes the builder by a click, the Undo button
appears, a click takes the move back (the builder is offered again, the button gone); once
the seat has chosen a building (a card of its hidden hand now in everybody's view) the button
is not there."""

from __future__ import annotations

import httpx
import pytest

from helpers.page_clicks import press

try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright: the browser fixture skips (or fails) saying so
    expect = None

pytestmark = pytest.mark.browser


def test_undo_takes_back_a_move_and_is_gone_after_a_card_is_seen(page, server):
    table = httpx.post(
        f"{server}/api/tables",
        json={"game": "san-juan", "players": 2, "seats": ["human", "human"], "seed": 5},
    ).json()
    seat = httpx.get(f"{server}/api/tables/{table['id']}/state").json()["to_move"]
    token = table["seats"][seat]["token"]
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/t/{table['id']}?token={token}")
    builder = page.locator('button.option[data-option="role:builder"]')
    undo = page.locator("#undo")
    expect(builder).to_be_visible()
    expect(undo).to_be_hidden()
    press(builder)
    expect(undo).to_be_visible()
    expect(builder).to_have_count(0)
    press(undo)
    expect(builder).to_be_visible()
    expect(undo).to_be_hidden()
    press(builder)
    expect(undo).to_be_visible()
    press(page.locator('button.option[data-option^="build:"]').first)
    expect(page.locator('button.option[data-option^="build:"]')).to_have_count(0)
    expect(undo).to_be_hidden()
    assert errors == []
