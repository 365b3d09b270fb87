"""WCAG AA on the table page, measured in a real browser from computed styles: every piece of
text reads at a contrast of at least 4.5:1 against what is behind it, and every button, field
and the panel's disclosure is a touch target of at least 44 x 44 px on a phone (390x844),
the options at least 5 px apart; the log is in the page's proportional font, 15 px at least.
One page load of a Puerto Rico table in mid-play (ships, trading house, empty counters, the
log) for a seat to move."""

from __future__ import annotations

import httpx
import pytest

from helpers.page_clicks import press

pytestmark = pytest.mark.browser

# Each visible element that holds text of its own: its colour against the first background
# behind it that is not transparent (colours with alpha blended over what is under them,
# down to the page's white). Disabled controls are exempt (WCAG 1.4.3), so is text in SVG.
MEASURE = """() => {
  const probe = document.createElement("canvas").getContext("2d");
  const rgba = (css) => {
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = "#000"; probe.fillStyle = css; probe.fillRect(0, 0, 1, 1);
    const d = probe.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const seen = (el) => el.checkVisibility({visibilityProperty: true});
  const what = (el, text) => `${el.tagName.toLowerCase()}.${el.className} "${text.slice(0, 30)}"`;
  const low = [];
  let texts = 0;
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") || el.closest(":disabled") || !seen(el)) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.textContent).join("").trim();
    if (!own) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    texts += 1;
    const style = getComputedStyle(el);
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const bg = behind(el);
    const fg = rgba(style.color);
    const r = ratio(over([...fg.slice(0, 3), fg[3] * opacity], bg), bg);
    if (r < 4.5)
      low.push(`${r.toFixed(2)}:1 ${what(el, own)} ${style.color} on rgb(${bg.map(Math.round)})`);
  }
  const small = [];
  const controls = "button, .button, select, input:not([type=hidden]), .answers summary";
  for (const el of document.body.querySelectorAll(controls)) {
    if (!seen(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.height < 44 || box.width < 44)
      small.push(`${Math.round(box.width)}x${Math.round(box.height)} ` +
                 what(el, (el.textContent || el.value || "").trim()));
  }
  const options = [...document.querySelectorAll("button.option")]
    .map((b) => b.getBoundingClientRect());
  const gaps = options.slice(1).map((b, i) => b.top - options[i].bottom)
    .filter((g) => g >= 0 && g < 5);
  const line = getComputedStyle(document.querySelector(".log li"));
  return {texts, low, small, buttons: options.length, gaps,
          log: [parseFloat(line.fontSize), line.fontFamily]};
}"""


def test_every_text_reads_at_aa_contrast_and_every_control_is_a_44px_target(browser, server):
    table = httpx.post(
        f"{server}/api/tables",
        json={
            "game": "puerto-rico",
            "players": 3,
            "seats": ["human", "pr-heuristic", "pr-heuristic"],
            "seed": 3,
        },
    ).json()
    token = table["seats"][0]["token"]
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.goto(f"{server}/t/{table['id']}?token={token}")
        page.locator("button.option").first.wait_for()
        press(page.locator("button.option").first)  # a role: the log has lines, bots move
        page.locator(".log li").first.wait_for()
        page.locator("button.option").first.wait_for()
        found = page.evaluate(MEASURE)
    finally:
        page.close()
    assert found["texts"] > 50 and found["buttons"] > 1, found
    assert found["low"] == [], "text under 4.5:1:\n" + "\n".join(found["low"])
    assert found["small"] == [], "targets under 44x44 px:\n" + "\n".join(found["small"])
    assert found["gaps"] == [], f"option buttons closer than 5 px: {found['gaps']}"
    # the log reads as the page does: a proportional font of 15 px at least, not monospace
    size, family = found["log"]
    assert size >= 15 and "mono" not in family, found["log"]
