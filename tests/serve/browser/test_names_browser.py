"""Names and words in a real browser at 1366x768: a person takes a seat by name through the
page's form, plays a few moves by clicking, and reads their name (in their colour) in the log,
the bots named by their kind; a finished game's page shows the final scores by name. No id of
the ruleset (a hyphenated word a player never reads) is in any text of the page, the new-game
form's included."""

from __future__ import annotations

import io
import re

import httpx
import pytest

from helpers.page_clicks import press
from helpers.page_words import hyphenated_ids, ids_in
from interpreter.cli.config import resolve_config
from interpreter.cli.logfmt import Output
from interpreter.cli.play import play
from interpreter.engine.loader import load_game_and_data
from interpreter.table.seat_names import SEAT_COLOURS

try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright: the browser fixture skips (or fails) saying so
    expect = None

pytestmark = pytest.mark.browser

GAME = "san-juan"


def test_names_in_the_log_and_scores_and_no_ruleset_id_in_any_text(page, server, tmp_path):
    _, data = load_game_and_data(GAME, 2, [])
    ids = hyphenated_ids(data) | {"sj-heuristic", "pr-heuristic"}
    assert {"cards-under", "city-full", "sj-heuristic"} <= ids  # the check can fail
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{server}/new")
    assert ids_in(page.inner_text("body"), ids) == []
    made = httpx.post(
        f"{server}/api/tables",
        json={"game": GAME, "players": 2, "seats": ["human", "sj-heuristic"], "seed": 11},
        timeout=30,
    ).json()
    page.goto(server + made["seats"][0]["url"])
    # joining: the page asks for a name, the heading and every page then say it
    page.fill("#name", "Ana")
    press(page.locator("#name-form button"))
    expect(page.locator("#who")).to_have_text("Ana")
    expect(page.locator("#name-form")).to_have_count(0)
    for _ in range(3):
        page.wait_for_selector("button.option:not([disabled])")
        decision = page.get_attribute("#app", "data-decision")
        press(page.locator("button.option").first)
        page.wait_for_selector(f'#app:not([data-decision="{decision}"])')
    mine = page.locator("#log li.by-seat", has_text=re.compile(r"^Ana\b"))
    assert mine.count() >= 1
    colour = mine.first.evaluate("li => getComputedStyle(li).borderLeftColor")
    assert colour == "rgb(31, 95, 168)"  # seat 0's colour, SEAT_COLOURS[0]
    assert SEAT_COLOURS[0] == "#1f5fa8"
    assert page.locator("#log li", has_text=re.compile(r"^Heuristic bot\b")).count() >= 1
    assert not re.search(r"\bseat \d", page.inner_text("body"), re.IGNORECASE)
    assert ids_in(page.inner_text("body"), ids) == []
    # a finished game (two bots, played here, its save opened on the replay page): its scores
    # and the winner by name, the end in words, and still no id in any text of the page
    cfg = resolve_config({"game": GAME, "players": 2, "seed": 3}, bots=["sj-heuristic"])
    save = tmp_path / "finished.json"
    play(cfg, Output(False, True, out=io.StringIO()), save_path=str(save))
    page.goto(f"{server}/replay")
    page.set_input_files("#save-file", str(save))
    page.wait_for_selector("#scores")
    scores = page.inner_text("#scores")
    assert "Heuristic bot 1" in scores and "Heuristic bot 2" in scores
    assert "Cards under buildings" in scores and "Total" in scores
    result = page.inner_text("#result")
    assert re.search(r"Winners?(?: \(tied\))?: Heuristic bot [12]", result), result
    assert "the game ended: " in result
    assert page.locator("#log li", has_text=re.compile(r"^Heuristic bot 2\b")).count() >= 1
    text = page.inner_text("body")
    assert ids_in(text, ids) == [], ids_in(text, ids)
    assert not re.search(r"\bseat \d", text, re.IGNORECASE)
