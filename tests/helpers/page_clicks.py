"""A scripted person at the table page (a real browser, Playwright): what pressing "the first
thing offered" is, a gesture included (static/gesture.js)."""

from __future__ import annotations

import time
from typing import Any

# Where the page draws a thing, as a person would find it: scrolled into view, its centre, and
# whether it is drawn there (a box, not hidden), on top at that point (nothing covers it) and
# enabled. Playwright's own wait before a click counts animation frames for a "stable" box, and
# a headless Chromium on a loaded machine can go seconds without drawing one; the page has no
# animation to wait out, so the click is checked here and pressed with the mouse.
_DRAWN_AT = """(el) => {
  el.scrollIntoView({block: "nearest", inline: "nearest"});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  return {
    x, y,
    drawn: r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true}),
    onTop: top !== null && (top === el || el.contains(top)),
    enabled: !el.disabled && el.getAttribute("aria-disabled") !== "true",
    label: el.getAttribute("aria-label") || el.textContent.slice(0, 80),
  };
}"""


# The seat's next decision after the one numbered `after` (null: any), once the page has drawn
# it with an option to press, or the final scores: what a person waits for after a click, in
# one wait (the page's decision number, its round and status line come with it).
_NEXT = """(after) => {
  if (document.querySelector("#scores")) return {ended: true};
  const decision = document.getElementById("app").dataset.decision;
  if (decision === after || !document.querySelector("button.option:not([disabled])"))
    return null;
  const status = document.getElementById("status").innerText;
  const words = status.split(/\\s+/);
  const round = words[0] === "Round" && /^\\d+$/.test(words[1]) ? +words[1] : 0;
  return {ended: false, decision, status, round};
}"""


# `check(arg)` once now and after every change of the page's DOM, until it returns a value: no
# polling by animation frames, which a window in the background of a headless browser (a
# second window of one seat) is given seldom or never.
_UNTIL = """([arg, ms]) => new Promise((resolve, reject) => {
  const test = CHECK;
  const done = (value) => { watch.disconnect(); clearTimeout(timer); resolve(value); };
  const watch = new MutationObserver(() => { const value = test(arg); if (value) done(value); });
  const timer = setTimeout(() => {
    watch.disconnect(); reject(new Error("not within " + ms + " ms: " + test)); }, ms);
  watch.observe(document.body,
    {subtree: true, childList: true, attributes: true, characterData: true});
  const value = test(arg);
  if (value) done(value);
})"""


def wait_until(page: Any, check: str, arg: Any = None, timeout_ms: int = 30_000) -> Any:
    """The first value of the JavaScript function `check` (given `arg`) that is not false or
    null, tried now and at each change of the page; fails after `timeout_ms`."""
    return page.evaluate(_UNTIL.replace("CHECK", check), [arg, timeout_ms])


def next_decision(page: Any, after: str | None = None) -> dict[str, Any]:
    """Wait for the seat's next decision after the one numbered `after` (a page's
    ``data-decision``; None: the first); returns ``{"ended": True}`` once the final scores are
    drawn, else ``{"ended": False, "decision", "status", "round"}`` (the status line's round,
    0 where it names none)."""
    return wait_until(page, _NEXT, after)


def press(target: Any, timeout_s: float = 30.0) -> None:
    """A person's click on `target` (a Playwright locator of one element): at the centre of
    where it is drawn, once it is drawn, on top there and enabled (tried again until
    `timeout_s`, as a person waits for a button to appear)."""
    deadline = time.monotonic() + timeout_s
    where = target.evaluate(_DRAWN_AT)
    while not (where["drawn"] and where["onTop"] and where["enabled"]):
        assert time.monotonic() < deadline, (
            f"{where['label']!r} cannot be clicked by a person: {where}"
        )
        time.sleep(0.05)
        where = target.evaluate(_DRAWN_AT)
    target.page.mouse.click(where["x"], where["y"])


def press_first_option(page: Any) -> int:
    """Press the first option; at a gesture, press its picks in the options' order until the
    run is complete (an assignment's proposal already is), then its confirm button. Returns
    the presses made."""
    confirm = page.locator("#gesture-confirm")
    if not confirm.count():
        press(page.locator("button.option").first)
        return 1
    presses = 0
    picks = page.locator("button.gesture-pick")
    for i in range(picks.count()):
        left = int(page.locator("fieldset.gesture").get_attribute("data-left") or 0)
        if left == 0:
            break
        pick = picks.nth(i)
        room = int(pick.get_attribute("data-most") or 0) - int(
            pick.get_attribute("data-count") or 0
        )
        for _ in range(min(room, left)):
            press(pick)
            presses += 1
    press(confirm)
    return presses + 1
