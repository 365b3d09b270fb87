"""The seat's own board and its options on the first screen, for every decision of a whole game
of each shipped game (the smallest player count, 2), at a laptop's 1366x768 and a phone's
390x844, in one browser and one game: the seat open in two windows, one of each size, both
checked at every decision.

A person (seat 0, named "Ana") plays against the fast ``first`` bot by taking the first option;
where the board draws the thing that option stands for (``presentation: acts:``: a role card, a
building for sale, a ship, a card in hand), the person clicks that thing on the board instead of
the button (in the phone's window). At every decision, with nothing scrolled:

- laptop: every option button and the seat's whole own area (its coins, colonists, goods,
  buildings: the zone marked ``own``) inside the window;
- phone: the list of what happened since the seat's last decision (``#recent``, above the
  options), every option button (a long list, a builder's buildings, is a grid of two columns
  of 44 px targets) and every row of slots an option acts on (a ship when loading: its room
  and cargo) inside the window;
- no id of the ruleset (a hyphenated word a player never reads) in the page's text, and no seat
  said by its number.

At the end: the final scores and the log name the person and the bot; Puerto Rico's role
cards said "taken" and the doubloons on them (another row of their zone, on the card); what
changed since the seat's previous decision was marked on the board at most decisions, and board
clicks moved the game.

One whole game per test (about 200 decisions in all, both sizes checked at each) keeps each
test to a few tens of seconds, the test_layout.py games aside.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from helpers.page_clicks import next_decision, press, press_first_option, wait_until
from helpers.page_words import hyphenated_ids, ids_in
from interpreter.engine.loader import load_game_and_data

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
DECISIONS = 400  # the person's decisions at most: a 2-player game of either takes < 120
BOT_NAME = "First choice bot"

# The boxes the rules are about, with nothing scrolled: every option, the own area, the list
# of what just happened (null where there is none), the page's scroll; the page's text; and
# the board thing standing for the first option alone (acts.js marks it, named by the
# option's text): its place among the board's marked things, or -1.
BOXES = """() => {
  window.scrollTo(0, 0);
  const firstOnBoard = () => {
    const first = document.querySelector("#options button.option");
    if (!first || first.classList.contains("gesture-pick")) return -1;
    return [...document.querySelectorAll("#board .act")]
      .findIndex((t) => t.getAttribute("aria-label") === first.textContent);
  };
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const recent = document.getElementById("recent");
  return {
    options: [...document.querySelectorAll("#options button")].filter((b) => !b.hidden)
      .map((b) => ({text: b.textContent, box: box(b)})),
    own: box(document.querySelector("#board .zone.own")),
    recent: recent && !recent.hidden ? box(recent) : null,
    rows: [...document.querySelectorAll("#board .srow.act")]
      .map((r) => ({text: r.getAttribute("aria-label"), box: box(r)})),
    marks: [...document.querySelectorAll("#board .card .c-mark")].map((m) => m.textContent),
    scrolled: window.scrollY,
    changed: document.querySelectorAll("#board .changed").length,
    text: document.body.innerText,
    onBoard: firstOnBoard(),
  };
}"""


# The status line once the page shows the decision numbered `d` (the seat's other window
# following the one pressed)
_AT = """(d) => document.getElementById("app").dataset.decision === d
  && document.querySelector("button.option:not([disabled])")
  && document.getElementById("status").innerText"""


def _inside(box: dict[str, float] | None, size: tuple[int, int]) -> bool:
    return (
        box is not None
        and box["top"] >= 0
        and box["left"] >= 0
        and box["bottom"] <= size[1] + 0.5
        and box["right"] <= size[0] + 0.5
    )


def _check_first_screen(page: Any, size_name: str, where: str) -> dict[str, Any]:
    """The rules of the first screen on `page`, whose window is already `size_name`."""
    size = SIZES[size_name]
    found = page.evaluate(BOXES)
    assert found["scrolled"] == 0, where
    assert found["options"], f"{where}: no option drawn"
    out = [o["text"] for o in found["options"] if not _inside(o["box"], size)]
    if size_name == "laptop":
        assert not out, f"{where} ({size_name}): options off the first screen: {out[:3]}"
        assert _inside(found["own"], size), f"{where}: own area {found['own']} off the screen"
    else:
        assert not out, f"{where} ({size_name}): options off the first screen: {out[:3]}"
        rows = [r["text"] for r in found["rows"] if not _inside(r["box"], size)]
        assert not rows, f"{where} ({size_name}): what options act on is off the screen: {rows}"
        assert found["recent"] is None or _inside(found["recent"], size), (
            f"{where}: what just happened off the screen: {found['recent']}"
        )
    return found


def _words_only(text: str, ids: set[str], where: str) -> None:
    assert ids_in(text, ids) == [], f"{where}: {ids_in(text, ids)}"
    assert not re.search(r"\bseat \d", text, re.IGNORECASE), where


def _sized(page: Any, size_name: str) -> None:
    page.set_viewport_size({"width": SIZES[size_name][0], "height": SIZES[size_name][1]})


@pytest.mark.parametrize("game", ["puerto-rico", "san-juan"])
def test_own_area_and_options_on_the_first_screen_for_every_decision(page, browser, server, game):
    ids = hyphenated_ids(load_game_and_data(game, 2, [])[1]) | {"pr-heuristic", "sj-heuristic"}
    made = httpx.post(
        f"{server}/api/tables",
        # one seeded game: the same decisions at every run (a long list of options on a phone
        # leaves less room for what just happened)
        json={"game": game, "players": 2, "seats": ["human", "first"], "seed": 2},
        timeout=30,
    ).json()
    seat_url = server + made["seats"][0]["url"]
    page.goto(seat_url)
    page.fill("#name", "Ana")
    press(page.locator("#name-form button"))
    page.wait_for_selector("#name-form", state="detached")
    # the seat open in a second window of the other size, which follows every move: each
    # window keeps its size for the whole game, and both are checked at every decision; each
    # draws its first position at the browser's default window, as the seat's one window did
    # before it was set to each size in turn
    laptop = browser.new_page()
    laptop.set_default_timeout(30_000)
    try:
        laptop.goto(seat_url)
        next_decision(laptop)
        _sized(laptop, "laptop")
        now = next_decision(page)
        _sized(page, "phone")
        _play_checked(page, laptop, game, ids, now)
    finally:
        laptop.close()


def _play_checked(phone: Any, laptop: Any, game: str, ids: set[str], now: dict[str, Any]) -> None:
    """The seat's whole game, pressed on the phone's window, both windows checked at every
    decision; then the end."""
    decisions = on_board = marked = listed = 0
    card_marks: set[str] = set()  # what other rows say on a card: a role "taken", its doubloons
    for decisions in range(DECISIONS):
        if decisions:
            now = next_decision(phone, now["decision"])
        if now["ended"]:
            break
        where = f"{game}, decision {decisions}: {now['status']}"
        on_laptop = wait_until(laptop, _AT, now["decision"])
        assert on_laptop == now["status"], f"{where}: the laptop's window says {on_laptop}"
        found_laptop = _check_first_screen(laptop, "laptop", where)
        _words_only(found_laptop["text"], ids, where)
        found = _check_first_screen(phone, "phone", where)
        marked += found["changed"] > 0
        listed += found["recent"] is not None
        card_marks.update(found["marks"])
        _words_only(found["text"], ids, where)
        thing = found["onBoard"]
        if thing >= 0:  # the first option's thing on the board: a click on it
            press(phone.locator("#board .act").nth(thing))
            on_board += 1
        else:
            press_first_option(phone)
    assert now["ended"], f"{game}: no end after {decisions} decisions"
    assert decisions > 20
    # the board clicks played the game as the buttons do; what changed and the lines since
    # the seat's last decision were shown at most decisions
    assert on_board > decisions // 4, (on_board, decisions)
    assert marked > decisions // 2 and listed > decisions // 2, (marked, listed, decisions)
    if game == "puerto-rico":  # its role cards say "taken" and the doubloons on them
        assert "taken" in card_marks, card_marks
        assert any(re.fullmatch(r"\d+ doubloons?", m) for m in card_marks), card_marks
    scores = phone.inner_text("#scores")
    assert "Ana" in scores and BOT_NAME in scores, scores
    log = phone.locator("#log li")
    assert log.filter(has_text=re.compile(r"^Ana\b")).count() >= 1
    assert log.filter(has_text=re.compile(rf"^{BOT_NAME}\b")).count() >= 1
    laptop.wait_for_selector("#scores")
    for size_name, window in (("laptop", laptop), ("phone", phone)):
        _words_only(window.inner_text("body"), ids, f"{game}, the end, {size_name}")


# Six doubloons at the start (an uploaded house rule): the builder's list is 15 buildings and
# Pass, the longest a person sees in a late 3-player game.
RICH = b"overlay: rich\nextends: puerto-rico\npatch:\n  tables/start-doubloons: {3: 6}\n"


def test_fifteen_buildings_end_on_a_phones_first_screen_at_a_practice_table(page, server):
    overlay = httpx.post(f"{server}/api/overlays?name=rich.yaml", content=RICH, timeout=60)
    made = httpx.post(
        f"{server}/api/tables",
        json={
            "game": "puerto-rico",
            "players": 3,
            "seats": ["human", "first", "first"],
            "seed": 5,  # a chosen seed: a practice table, which says so above the options
            "overlays": [overlay.json()["overlay"]],
        },
        timeout=30,
    ).json()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + made["seats"][0]["url"])
    page.fill("#name", "Ana")
    press(page.locator("#name-form button"))
    page.wait_for_selector("#name-form", state="detached")
    press(page.locator('button.option[data-option="role:builder"]'))
    page.wait_for_selector('button.option[data-option="build:small-indigo-plant"]')
    assert page.locator("#practice").is_visible()
    found = _check_first_screen(page, "phone", "the builder's list at a practice table")
    assert len(found["options"]) == 16, [o["text"] for o in found["options"]]
