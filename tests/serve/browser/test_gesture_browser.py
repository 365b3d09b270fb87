"""A turn as one gesture in a real browser: seat 0's Puerto Rico Mayor phase is one press
(the proposal is complete: the confirm button), and at the next Mayor phase the page starts
from the placement it sent last time, again one press; the log shows the small moves."""

from __future__ import annotations

import re

import httpx
import pytest

from helpers.page_clicks import press

try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright: the browser fixture skips (or fails) saying so
    expect = None

pytestmark = pytest.mark.browser


def _to_seat_0s_gesture(server: str, table: dict, token: str) -> dict:
    """Seat 0 takes its first option (over HTTP) until it is asked a gesture; its message."""
    state = f"{server}/api/tables/{table['id']}/state"
    for _ in range(200):
        mine = httpx.get(state, params={"token": token}).json()
        if mine["to_move"] != 0:
            continue  # the bots move on their own
        if mine["gesture"] is not None:
            return mine
        body = {"token": token, "option": mine["options"][0]["id"], "decision": mine["decision"]}
        assert httpx.post(f"{server}/api/tables/{table['id']}/move", json=body).status_code == 200
    raise AssertionError("seat 0 was never asked a gesture")


def test_a_mayor_phase_is_one_press_and_the_next_starts_from_the_last_placement(page, server):
    table = httpx.post(
        f"{server}/api/tables",
        json={
            "game": "puerto-rico",
            "players": 3,
            "seats": ["human", "first", "first"],
            "seed": 2**61,
        },
    ).json()
    token = table["seats"][0]["token"]
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    first = _to_seat_0s_gesture(server, table, token)
    assert first["gesture"]["kind"] == "assign"
    picks = first["gesture"]["picks"]
    page.goto(f"{server}/t/{table['id']}?token={token}")
    expect(page.locator("#gesture-count")).to_have_text(f"{picks} of {picks} placed")
    placed = page.locator("#log li", has_text=re.compile(r"^Player 1 places a colonist"))
    expect(page.locator("#gesture-confirm")).to_be_enabled()
    before = placed.count()
    press(page.locator("#gesture-confirm"))  # the whole Mayor phase: one press
    expect(placed).to_have_count(before + picks)
    expect(page.locator("#gesture-count")).to_have_count(0)

    second = _to_seat_0s_gesture(server, table, token)
    gesture = second["gesture"]
    kept = [p for p in first["gesture"]["proposal"] if p in dict(gesture["most"])]
    assert gesture["proposal"][: len(kept)] == kept  # the last placement, where it still fits
    page.reload()
    total = gesture["picks"]
    expect(page.locator("#gesture-count")).to_have_text(f"{total} of {total} placed")
    before = placed.count()
    press(page.locator("#gesture-confirm"))
    expect(placed).to_have_count(before + total)
    assert not errors, errors
