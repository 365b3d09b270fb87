"""The web table in a real browser: the new-game form, clicking options, the score table,
replay with the slider, a broken uploaded overlay, watching bots."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from helpers.page_clicks import press, press_first_option

# waits through locators, not page.wait_for_function: that evaluates a string in the page,
# which the pages' Content-Security-Policy (no 'unsafe-eval') refuses, as it should
try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright: the browser fixture skips (or fails) saying so
    expect = None

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]


def start_from_form(page, server, game="puerto-rico", players=3, seats=None, overlays=()):
    page.goto(f"{server}/new")
    page.select_option("#game", game)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "input")
    for overlay in overlays:
        page.check(f'fieldset[data-game="{game}"] input[value="{overlay}"]')
    for seat, kind in enumerate(seats or ["human"] + ["random"] * (players - 1)):
        page.select_option(f'select[name="seat{seat}"]', kind)
    press(page.locator("#start"))


def test_the_form_starts_a_game_with_an_expansion_and_gives_seat_links(page, server):
    start_from_form(page, server, overlays=["new-buildings"])
    page.wait_for_selector("text=Table ready")
    link = page.locator("a.seat-link").first.get_attribute("href")
    assert re.match(r"/t/[\w-]+\?token=[\w-]{40,}", link)
    page.goto(server + link)
    page.wait_for_selector("button.option")
    assert "new-buildings" in page.content() or "Draft" in page.inner_text("#options")


def test_clicking_options_plays_moves(page, server):
    start_from_form(page, server, seats=["human", "human", "random"])
    page.wait_for_selector("text=Table ready")
    page.goto(server + page.locator("a.seat-link").first.get_attribute("href"))
    page.wait_for_selector("button.option")
    status = page.inner_text("#status")
    assert "Your turn" in status
    first = page.locator("button.option").first
    text = first.inner_text()
    assert ":" not in text  # a human text, not an option id
    press(first)
    page.wait_for_selector('#app:not([data-decision="0"])', timeout=30_000)
    assert page.locator("#log li").count() >= 2


def test_several_moves_by_clicking_then_the_score_table(page, server):
    start_from_form(page, server, game="san-juan", players=2, seats=["human", "sj-heuristic"])
    page.wait_for_selector("text=Table ready")
    page.goto(server + page.locator("a.seat-link").first.get_attribute("href"))
    clicks = 0
    for _ in range(600):
        page.wait_for_selector("button.option:not([disabled]), #scores")
        if page.locator("#scores").count():
            break
        decision = page.get_attribute("#app", "data-decision")
        press_first_option(page)
        page.wait_for_selector(f'#app:not([data-decision="{decision}"])', timeout=30_000)
        clicks += 1
    assert clicks >= 10 and page.locator("#scores").count() == 1
    rows = page.locator("#scores tr")
    assert rows.count() == 3 and "Total" in rows.first.inner_text()
    assert re.search(r"Winners?( \(tied\))?: (Player 1|Heuristic bot)", page.inner_text("#result"))


def test_a_broken_uploaded_overlay_shows_its_diagnostics_and_starts_nothing(page, server, tmp_path):
    broken = tmp_path / "my-rules.yaml"
    broken.write_text(
        "overlay: mine\nextends: puerto-rico\npatch:\n  tables/vp-chips-start: {3: x}\n"
    )
    page.goto(f"{server}/new")
    page.set_input_files("#upload", str(broken))
    press(page.locator("#start"))
    error = page.wait_for_selector("#form-error").inner_text()
    assert "my-rules.yaml does not validate" in error and "my-rules.yaml:4:" in error
    assert "error[" in error
    assert "Table ready" not in page.content()


def test_a_good_uploaded_overlay_plays(page, server, tmp_path):
    rule = tmp_path / "short.yaml"
    rule.write_text((ROOT / "examples/variants/pr-short-game.yaml").read_text())
    page.goto(f"{server}/new")  # 4 players by default
    page.set_input_files("#upload", str(rule))
    press(page.locator("#start"))
    page.wait_for_selector("text=Table ready")
    page.goto(server + page.locator("a.seat-link").first.get_attribute("href"))
    page.wait_for_selector("button.option")
    chips = page.inner_text('#board tr[data-field="vp-chips"] td')
    assert chips == "65"  # the house rule's 65 VP chips for 4 players (100 without it)


def test_replay_a_save_with_the_slider(page, server, tmp_path):
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "puerto-rico", "players": 3, "seats": ["random"] * 3, "speed": 0},
    ).json()
    save = None
    for _ in range(600):
        save = httpx.get(f"{server}/api/tables/{created['id']}/save").json()
        if save["result"] is not None:
            break
        page.wait_for_timeout(200)
    assert save["result"] is not None
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save))
    page.goto(f"{server}/replay")
    page.set_input_files("#save-file", str(path))
    total = len(save["choices"])
    # a replay opens at the end: the result shown
    expect(page.locator("#step")).to_have_text(re.compile(rf"^{total} /"), timeout=30_000)
    page.wait_for_selector("#scores")
    slider = page.locator("#slider")
    slider.evaluate("(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", 40)
    expect(page.locator("#step")).to_have_text(re.compile(r"^40 /"), timeout=30_000)
    assert f"40 / {total}" in page.inner_text("#step")
    slider.evaluate("(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", total)
    page.wait_for_selector("#scores")
    press(page.locator("#prev"))
    expect(page.locator("#step")).to_have_text(re.compile(rf"^{total - 1} /"), timeout=30_000)


def test_watching_bots_live(page, server):
    start_from_form(page, server, seats=["random", "random", "random"])
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#speed")
    first = page.inner_text("#status")
    expect(page.locator("#status")).not_to_have_text(first, timeout=20_000)
    assert "Waiting for " in page.inner_text("#status") or "Game over" in page.inner_text("#status")


def test_a_reload_resumes_the_seat(page, server):
    start_from_form(page, server, seats=["human", "human", "human"])
    page.wait_for_selector("text=Table ready")
    link = server + page.locator("a.seat-link").first.get_attribute("href")
    page.goto(link)
    page.wait_for_selector("button.option")
    press(page.locator("button.option").first)
    page.wait_for_selector('#app[data-decision="1"]', timeout=30_000)
    assert "decision" not in page.inner_text("#status")  # bookkeeping, not for people
    page.goto(link)
    page.wait_for_selector("#log li")
    page.wait_for_selector('#app[data-decision="1"]', timeout=30_000)


def test_the_lobby_gives_the_creator_its_links_and_a_delete_button(page, server, browser):
    start_from_form(page, server, seats=["human", "human", "random"])
    page.wait_for_selector("text=Table ready")
    link = page.locator("a.seat-link").first.get_attribute("href")
    table_id = link.split("/t/", 1)[1].split("?", 1)[0]
    page.goto(server + "/")
    row = page.locator(f'tr[data-table="{table_id}"]')
    assert row.locator("a.seat-link").count() == 2
    # another browser (no cookie) sees the table but neither its links nor the button
    anonymous = httpx.get(server + "/").text
    assert table_id in anonymous and link not in anonymous
    assert f"/t/{table_id}/delete" not in anonymous
    refused = httpx.request("DELETE", f"{server}/api/tables/{table_id}")
    assert refused.status_code == 403
    with page.expect_navigation():  # the form's answer: the lobby again, without the table
        press(row.locator("form.delete button"))
    page.wait_for_url(server + "/")
    assert page.locator(f'tr[data-table="{table_id}"]').count() == 0


def test_a_bot_only_table_that_fails_shows_why(page, server, tmp_path):
    broken = (
        b"overlay: fails-mid-game\nextends: puerto-rico\nreplace:\n  functions/privilege:\n"
        b"    params: [p]\n    expr: (1 // (0 if round >= 3 else 1)) if p == chooser else 0\n"
    )
    path = tmp_path / "fails-mid-game.yaml"
    path.write_bytes(broken)
    page.goto(f"{server}/new")
    page.set_input_files("#upload", str(path))
    page.fill('input[name="speed"]', "0")
    for seat in range(3):
        page.select_option(f'select[name="seat{seat}"]', "random")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    press(page.locator("#start"))
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#error:not([hidden])", timeout=60_000)
    error = page.inner_text("#error")
    assert error.startswith("The game stopped: seat ") and "error[E001]" in error
    assert "division by zero" in error and "Traceback" not in error
