"""A scripted person at the table page (a real browser, Playwright): what pressing "the first
thing offered" is, a gesture included (static/gesture.js)."""

from __future__ import annotations

from typing import Any


def press_first_option(page: Any) -> int:
    """Press the first option; at a gesture, press its picks in the options' order until the
    run is complete (an assignment's proposal already is), then its confirm button. Returns
    the presses made."""
    confirm = page.locator("#gesture-confirm")
    if not confirm.count():
        page.locator("button.option").first.click()
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
            pick.click()
            presses += 1
    confirm.click()
    return presses + 1
