"""The table page's layout where people play: a phone (390x844), a laptop (1366x768) and a wide
screen (1920x1080), for Puerto Rico (with nobles) and San Juan.

A person at seat 0 plays a whole game against two bots by clicking the first option. At the
start, at every 15th decision and at the end the page must keep its rules:

- nothing is wider than the window (the document's scrollWidth, and every element's box);
- on the phone, the first option is on the first screen, with nothing scrolled;
- on the laptop and wider, the options panel stays in view beside the board (sticky), so the
  seat's own area and its options are seen together;
- the final score table fits the window;
- no console error.

A run writes the screenshots (the window only) to a temporary folder, so a test run leaves the
tree as it found it; RULEBOOK_UPDATE_SCREENSHOT=1 writes them into docs/screens/, where
docs/serve.md and the README show them.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest

from helpers.page_clicks import next_decision, press, press_first_option

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]

SIZES = {"phone": (390, 844), "laptop": (1366, 768), "wide": (1920, 1080)}
GAMES = {
    "puerto-rico": {
        "overlays": ["nobles"],
        "bots": ["pr-heuristic", "random"],
        "short": "pr",
        "middle": 8,
    },
    "san-juan": {"overlays": [], "bots": ["sj-heuristic", "random"], "short": "sj", "middle": 8},
}
CLICKS = 800  # the person's decisions clicked at most: a whole game of either takes < 300
# "middle": the round of the middle screenshot (30 bot games of each with these seats all
# lasted 14 rounds or more)
CHECK_EVERY = 15  # the layout rules are checked at every 15th decision of the person
SHOT_SIZES = ("phone", "laptop")  # the screenshots docs/ keeps

# Every element box with its left and right edge, the ones outside the window named
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5)
      out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (el.className && typeof el.className === "string" ? "." + el.className : "") +
        " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  return {scroll: document.documentElement.scrollWidth, width: width, out: out.slice(0, 8)};
}"""


def _shots_folder(tmp_path: Path) -> Path:
    if os.environ.get("RULEBOOK_UPDATE_SCREENSHOT") == "1":
        folder = ROOT / "docs" / "screens"
        folder.mkdir(exist_ok=True)
        return folder
    return tmp_path


def _no_overflow(page, where: str) -> None:
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["width"], f"{where}: the page scrolls sideways: {found}"
    assert not found["out"], f"{where}: boxes outside the window: {found['out']}"


def _in_window(box, size: tuple[int, int]) -> bool:
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size[1]


def _check_layout(page, size_name: str, where: str) -> None:
    """The layout rules at one moment of a game where the seat has options."""
    size = SIZES[size_name]
    _no_overflow(page, where)
    page.evaluate("() => window.scrollTo(0, 0)")
    first = page.locator("button.option").first
    if size_name == "phone":
        # the options first: the first one on the first screen, nothing scrolled
        assert _in_window(first.bounding_box(), size), f"{where}: {first.bounding_box()}"
        own = page.locator("#board .zone.own")
        others = page.locator("#board .zone.seat:not(.own)")
        if own.count() and others.count():
            # the seat's own area before the others (folded, a tap opens one)
            assert own.bounding_box()["y"] < others.first.bounding_box()["y"]
    else:
        # the panel beside the board, still in view once the board is scrolled to its end
        assert first.bounding_box()["x"] > page.locator("#board").bounding_box()["x"]
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(50)
        assert _in_window(first.bounding_box(), size), f"{where}: scrolled, {first.bounding_box()}"
        own = page.locator("#board .own").first
        assert own.count(), f"{where}: no area marked as the seat's own (class own)"
        own.scroll_into_view_if_needed()
        box = own.bounding_box()
        assert box["y"] < size[1] and box["y"] + box["height"] > 0  # own area on screen...
        assert _in_window(first.bounding_box(), size), where  # ...with the options
        page.evaluate("() => window.scrollTo(0, 0)")


def _check_end(page, size_name: str, where: str) -> None:
    """The finished game: the score table whole in the window, total and tiebreak too."""
    size = SIZES[size_name]
    page.wait_for_selector("#scores")
    page.evaluate("() => window.scrollTo(0, 0)")
    _no_overflow(page, where)
    box = page.locator("#scores").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], f"{where}: {box}"
    text = page.inner_text("#scores")
    # the total and the tiebreak, in the ruleset's words ("Doubloons and goods", "Cards in
    # hand and goods")
    assert "Total" in text and "and goods" in text
    if size_name == "phone":
        assert _in_window(box, size), f"{where}: the scores below the first screen: {box}"


def _finished_table(server: str, game: str, players: int) -> str:
    """A bot-only table of ``game`` played to its end at once; its spectator page (the most
    seats: the widest score table)."""
    spec = GAMES[game]
    made = httpx.post(
        f"{server}/api/tables",
        json={
            "game": game,
            "players": players,
            "overlays": spec["overlays"],
            "seats": ["random"] * players,
            "speed": 0,
        },
    ).json()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if httpx.get(f"{server}/api/tables/{made['id']}/save").json()["result"] is not None:
            return server + made["watch"]
        time.sleep(0.2)
    raise AssertionError(f"the bot-only {game} table did not end within 120 s")


@pytest.mark.parametrize("size_name", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_fits_the_window_from_start_to_end(page, server, tmp_path, game, size_name):
    spec = GAMES[game]
    size = SIZES[size_name]
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    shots = _shots_folder(tmp_path)
    stem = f"{spec['short']}-{size_name}"
    keep = size_name in SHOT_SIZES or shots == tmp_path
    made = httpx.post(
        f"{server}/api/tables",
        json={
            "game": game,
            "players": 3,
            "overlays": spec["overlays"],
            "seats": ["human", *spec["bots"]],
        },
    ).json()
    page.goto(server + made["seats"][0]["url"])
    # the person names their seat first, as a new player does (the screenshots show the name)
    page.fill("#name", "Ana")
    press(page.locator("#name-form button"))
    page.wait_for_selector("#name-form", state="detached")
    now = next_decision(page)
    _check_layout(page, size_name, f"{stem} start")
    if keep:
        page.screenshot(path=str(shots / f"{stem}-start.png"))
    clicks, ended, middle = 0, False, False
    for clicks in range(CLICKS):
        if clicks:
            now = next_decision(page, now["decision"])
        if now["ended"]:
            ended = True
            break
        if clicks and clicks % CHECK_EVERY == 0:
            _check_layout(page, size_name, f"{stem} decision {clicks}")
        if not middle and now["round"] >= spec["middle"]:
            # the middle: a grown island and city, the options still first / in view
            _check_layout(page, size_name, f"{stem} middle")
            if keep:
                page.screenshot(path=str(shots / f"{stem}-middle.png"))
            middle = True
        press_first_option(page)
    assert ended, f"{stem}: no end after {clicks} clicks"
    assert middle, f"{stem}: the game ended before round {spec['middle']}"
    _check_end(page, size_name, f"{stem} end")
    if keep:
        page.screenshot(path=str(shots / f"{stem}-end.png"))
    assert not errors, errors


@pytest.mark.parametrize("size_name", list(SIZES))
@pytest.mark.parametrize(("game", "players"), [("puerto-rico", 5), ("san-juan", 4)])
def test_the_widest_score_table_fits(page, server, size_name, game, players):
    """The most seats a game has: its widest score table (a row per seat, or a column)."""
    size = SIZES[size_name]
    page.set_viewport_size({"width": size[0], "height": size[1]})
    watch = _finished_table(server, game, players)
    page.goto(watch)
    _check_end(page, size_name, f"{game}, {players} seats, {size_name}")
    assert page.locator("#scores td").count() >= players * 5
    # the replay page draws the same places: it fits too, every hand shown at the end
    page.goto(f"{server}/replay?table={watch.rsplit('/', 1)[1]}")
    _check_end(page, size_name, f"the replay of {game}, {players} seats, {size_name}")


def test_on_a_phone_the_other_seats_fold_and_a_tap_opens_one(page, server):
    page.set_viewport_size({"width": 390, "height": 844})
    made = httpx.post(
        f"{server}/api/tables",
        json={"game": "puerto-rico", "players": 3, "seats": ["human", "human", "random"]},
    ).json()
    page.goto(server + made["seats"][0]["url"])
    page.wait_for_selector("button.option:not([disabled])")
    other = page.locator('#board .zone[data-seat="1"]')
    assert "collapsed" in other.get_attribute("class")
    assert not other.locator("table").is_visible()  # its title only
    assert page.locator("#board .own table").is_visible()  # the seat's own area stays open
    press(other.locator("h3"))
    assert other.locator("table").is_visible()
    assert other.locator("h3").get_attribute("aria-expanded") == "true"
    _no_overflow(page, "a seat opened")
    # the person's choice holds when the next position is drawn
    decision = page.get_attribute("#app", "data-decision")
    press(page.locator("button.option").first)
    page.wait_for_selector(f'#app:not([data-decision="{decision}"])')
    assert page.locator('#board .zone[data-seat="1"] table').is_visible()
    page.locator('#board .zone[data-seat="1"] h3').press("Enter")  # the keyboard folds it
    assert not page.locator('#board .zone[data-seat="1"] table').is_visible()


def test_a_wide_window_opens_every_seat(page, server):
    page.set_viewport_size({"width": 1366, "height": 768})
    made = httpx.post(
        f"{server}/api/tables",
        json={"game": "san-juan", "players": 3, "seats": ["human", "human", "random"]},
    ).json()
    page.goto(server + made["seats"][0]["url"])
    page.wait_for_selector("button.option:not([disabled])")
    assert page.locator("#board .zone.collapsed").count() == 0
    assert page.locator('#board .zone[data-seat="2"] table').is_visible()
