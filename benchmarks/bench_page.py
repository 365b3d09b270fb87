"""What a newcomer waits for at the web table, measured in a real headless Chromium.

    python benchmarks/bench_page.py                        # this tree, both games
    python benchmarks/bench_page.py --root /other/checkout # another tree's server (before/after)
    python benchmarks/bench_page.py --runs 5 --json

For each game (3-player Puerto Rico with the nobles, 3-player San Juan) and each run, on a fresh
`rulebook serve` with a fresh database:

- ``ready``: from starting the server process to its first answer;
- ``form``: the new-game page loaded and shown (the browser's load event);
- ``start``: the game chosen and submitted with the form's defaults (seat 0 a person, the
  others bots), then seat 0's link followed, until the table page shows its first option;
- ``first paint``: the table page's first contentful paint, from the start of its navigation
  (``performance.getEntriesByType("paint")``);
- ``first move``: a click on the first option until the page shows the next position;
- ``weight``: the bytes of every response the table page loaded (HTML, CSS, scripts, icon;
  bodies as sent) and the first position sent over the websocket (the board, options and
  log the page draws), with the HTML and that position alone.

Medians over the runs are printed; the figures need Chromium (the Debian ``chromium`` package)
and Playwright, as the browser tests do.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve import free_port, start_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"puerto-rico": ["nobles"], "san-juan": []}
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def one_run(browser, root: Path, game: str, overlays: list[str]) -> dict[str, float]:
    """The newcomer's path once, on a fresh server: figures in seconds and bytes."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        began = time.perf_counter()
        server = start_server(root, Path(folder) / "tables.sqlite3", port)
        ready = time.perf_counter() - began
        base = f"http://127.0.0.1:{port}"
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            began = time.perf_counter()
            page.goto(f"{base}/new", wait_until="load")
            form = time.perf_counter() - began
            page.select_option("#game", game)
            page.fill("#players", "3")
            for overlay in overlays:
                page.check(f'input[name="overlay:{game}"][value="{overlay}"]')
            sizes: dict[str, int] = {}

            def count(response) -> None:
                if response.request.resource_type in ("document", "stylesheet", "script", "image"):
                    try:
                        sizes[response.url] = len(response.body())
                    except Exception:  # a redirect has no body  # noqa: BLE001
                        pass

            began = time.perf_counter()
            page.click("#start")
            page.wait_for_selector("a.seat-link")
            frames: list[int] = []

            def socket(ws) -> None:
                ws.on("framereceived", lambda payload: frames.append(len(payload)))

            page.on("response", count)  # the table page's own loads from here
            page.on("websocket", socket)
            page.click("a.seat-link")
            page.wait_for_selector("button.option:not([disabled])")
            start = time.perf_counter() - began
            paint = page.evaluate(
                "() => (performance.getEntriesByType('paint')"
                ".find(e => e.name === 'first-contentful-paint') || {}).startTime || 0"
            )
            decision = page.get_attribute("#app", "data-decision")
            began = time.perf_counter()
            page.locator("button.option").first.click()
            page.wait_for_selector(f'#app:not([data-decision="{decision}"])')
            move = time.perf_counter() - began
            html = sum(n for url, n in sizes.items() if "/t/" in url)
            page.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return {
        "ready": ready,
        "form": form,
        "start": start,
        "first paint": paint / 1000,
        "first move": move,
        "weight": float(sum(sizes.values()) + (frames[0] if frames else 0)),
        "position": float(frames[0] if frames else 0),
        "html": float(html),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree whose server runs")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no Chromium here: apt-get install -y chromium (see the README)")
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        for game, overlays in GAMES.items():
            runs = [one_run(browser, args.root.resolve(), game, overlays) for _ in range(args.runs)]
            out[game] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            row = out[game]
            print(
                f"{game}: ready {row['ready']:.2f} s, form {row['form']:.2f} s, "
                f"start {row['start']:.2f} s (first paint {row['first paint']:.2f} s), "
                f"first move {row['first move'] * 1000:.0f} ms; "
                f"page {row['weight'] / 1024:.1f} KiB (HTML {row['html'] / 1024:.1f} KiB, "
                f"first position {row['position'] / 1024:.1f} KiB); "
                f"median of {args.runs}"
            )
        browser.close()
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
