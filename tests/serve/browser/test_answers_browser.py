"""Answers in advance in a real browser: seat 0, asked the captain's privilege, opens the
"Answers in advance" panel and chooses "Always" for it by clicks; the server answers the
question at once as seat 0's move (the page shows the move in the log and the question gone),
and the choice is still there after a reload."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import httpx
import pytest

from helpers.page_clicks import press

try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright: the browser fixture skips (or fails) saying so
    expect = None

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
PRIVILEGE = "the captain's privilege: take the victory point?"


def _to_the_privilege(server):
    """A Puerto Rico table whose two people moved at random (over HTTP) until seat 0 is asked
    the captain's privilege; the table and seat 0's token."""
    table = httpx.post(
        f"{server}/api/tables",
        json={
            "game": "puerto-rico",
            "players": 3,
            "seats": ["human", "human", "random"],
            "seed": 20,
        },
    ).json()
    tokens = {s["seat"]: s["token"] for s in table["seats"] if "token" in s}
    state = f"{server}/api/tables/{table['id']}/state"
    rng = random.Random(3)
    for _ in range(2000):
        seat = httpx.get(state).json()["to_move"]
        mine = httpx.get(state, params={"token": tokens[seat]}).json()
        if seat == 0 and mine["prompt"] == PRIVILEGE:
            return table, tokens[0]
        option = rng.choice([o["id"] for o in mine["options"]])
        body = {"token": tokens[seat], "option": option, "decision": mine["decision"]}
        assert httpx.post(f"{server}/api/tables/{table['id']}/move", json=body).status_code == 200
    raise AssertionError("seat 0 was never asked the captain's privilege")


def test_an_answer_set_by_clicks_answers_the_question_and_survives_a_reload(page, server, tmp_path):
    table, token = _to_the_privilege(server)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/t/{table['id']}?token={token}")
    expect(page.locator("#status")).to_contain_text("take the victory point?")
    expect(page.locator("button.option", has_text="Take the victory point")).to_be_visible()
    taken = page.locator("#log li", has_text=re.compile(r"^Player 1 takes .*VP \(privilege\)"))
    before = taken.count()
    press(page.locator("#answers summary"))
    row = page.locator(f'#answers tr[data-question="{PRIVILEGE}"]')
    expect(row).to_contain_text("The captain's privilege: take the victory point?")
    row.locator("select").select_option("take")
    # answered at once as seat 0's move: the log says so, the question is gone
    expect(taken).to_have_count(before + 1)
    expect(page.locator("#status")).not_to_contain_text("take the victory point?")
    # the privilege, and "produce?", which the ruleset starts at Always (presentation: answers:)
    expect(page.locator("#answers summary")).to_contain_text("(2 set)")
    expect(page.locator('#answers tr[data-question="produce?"] select')).to_have_value("take")
    page.reload()
    press(page.locator("#answers summary"))
    expect(page.locator(f'#answers tr[data-question="{PRIVILEGE}"] select')).to_have_value("take")
    # on a phone the open panel fits the window: no box sticks out sideways
    page.set_viewport_size({"width": 390, "height": 844})
    for box in [page.locator("#answers"), *page.locator("#answers select").all()]:
        edge = box.bounding_box()
        assert edge is not None and edge["x"] >= 0 and edge["x"] + edge["width"] <= 390, edge
    shots = ROOT / "docs" / "screens" if os.environ.get("RULEBOOK_UPDATE_SCREENSHOT") else tmp_path
    top, panel = page.locator("#panel").bounding_box(), page.locator("#answers").bounding_box()
    clip = {"x": 0, "y": top["y"], "width": 390, "height": panel["y"] + panel["height"] - top["y"]}
    page.screenshot(path=str(shots / "answers-phone.png"), clip=clip, full_page=True)
    assert not errors, errors
    # a spectator's page has no panel
    page.goto(f"{server}/t/{table['id']}")
    expect(page.locator("#status")).to_contain_text("Round")
    assert page.locator("#answers").count() == 0
