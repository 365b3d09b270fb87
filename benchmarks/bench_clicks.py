"""How many presses a game takes a person at the web table, measured in a real headless Chromium.

    python benchmarks/bench_clicks.py                          # this tree, both games, 1 game each
    python benchmarks/bench_clicks.py --against /work/main     # and another tree (before/after)
    python benchmarks/bench_clicks.py --games 2 --json
    python benchmarks/bench_clicks.py --game puerto-rico --seed 1001 --prompts   # one game

A scripted person plays seat 0 through the table page for whole games against the games' own
bots (3-player Puerto Rico against two ``pr-heuristic``, 2-player San Juan against
``sj-heuristic``), on a fresh ``rulebook serve`` with a fresh database, each game from the same
seeds in both trees. It presses the first thing offered (``tests/helpers/page_clicks.py``): the
first option, or at a gesture the first picks in order until the run is complete (an
assignment's proposal already is), then its confirm button.

For each game: ``presses`` (every press of the person), ``decisions`` (the position changed
under the person's press: one per option, one per gesture), ``longest run`` (the most presses
in a row under one prompt, the status line the page shows) and its prompt, and ``mayor``: the
most presses one Puerto Rico mayor phase took the person (the run of "place a colonist"
prompts), and ``moved``: the pairs of options shown at two prompts in a row of one decision
(the same prompt) whose order changed between them; with ``--prompts``, the presses under
each prompt (which decisions take them). A benchmark, not a test: it needs Chromium (the
Debian ``chromium`` package) and Playwright, as the browser tests do.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bench_serve import free_port, start_server  # noqa: E402

from helpers.page_clicks import press_first_option  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
GAMES = {
    "puerto-rico": {"players": 3, "seats": ["human", "pr-heuristic", "pr-heuristic"]},
    "san-juan": {"players": 2, "seats": ["human", "sj-heuristic"]},
}
OPTION_IDS = "els => els.map((e) => e.dataset.option)"
MAYOR = "place a colonist"  # the prompt of a Puerto Rico mayor phase (its label in the rules)
PRESSES = 2000  # a game that takes more is reported as unfinished


def one_game(browser: Any, base: str, game: str, seed: int) -> dict[str, Any]:
    """One whole game of seat 0 pressed through the page: the figures of the module's doc."""
    spec = GAMES[game]
    table = httpx.post(
        f"{base}/api/tables",
        json={"game": game, "players": spec["players"], "seats": spec["seats"], "seed": seed},
        timeout=60,
    ).json()
    seat = table["seats"][0]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{base}/t/{table['id']}?token={seat['token']}")
    presses = decisions = 0
    run = longest = mayor = mayor_now = moved = 0
    previous, longest_prompt = "", ""
    shown: list[str] = []  # the options of the previous prompt, in the page's order
    prompts: dict[str, int] = {}  # presses under each prompt
    while presses < PRESSES:
        page.wait_for_selector("button.option:not([disabled]), #scores", timeout=60_000)
        if page.locator("#scores").count():
            break
        status = page.inner_text("#status").split("·", 1)[-1].strip()
        decision = page.get_attribute("#app", "data-decision")
        now = page.eval_on_selector_all("#options [data-option]", OPTION_IDS)
        if status == previous:  # the next prompt of one decision: the same options in place?
            moved += _swapped(shown, now)
        shown = now
        made = press_first_option(page)
        page.wait_for_selector(f'#app:not([data-decision="{decision}"])', timeout=60_000)
        presses += made
        decisions += 1
        prompts[status] = prompts.get(status, 0) + made
        run = run + made if status == previous else made
        if run > longest:
            longest, longest_prompt = run, status
        mayor_now = mayor_now + made if MAYOR in status.lower() else 0
        mayor = max(mayor, mayor_now)
        previous = status
    page.close()
    return {
        "presses": presses,
        "decisions": decisions,
        "longest run": longest,
        "longest prompt": longest_prompt,
        "mayor": mayor,
        "moved": moved,
        "prompts": dict(sorted(prompts.items(), key=lambda item: -item[1])),
    }


def _swapped(before: list[str], after: list[str]) -> int:
    """Pairs of options shown at both prompts whose order changed between them."""
    kept = [o for o in after if o in set(before)]
    place = {o: i for i, o in enumerate(before)}
    return sum(place[a] > place[b] for i, a in enumerate(kept) for b in kept[i + 1 :])


def measure(
    browser: Any, root: Path, kinds: list[str], seeds: list[int]
) -> dict[str, list[dict[str, Any]]]:
    """A game of each kind from each seed, on one fresh server of ``root``."""
    out: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(root, Path(folder) / "tables.sqlite3", port)
        try:
            for game in kinds:
                out[game] = [
                    one_game(browser, f"http://127.0.0.1:{port}", game, seed) for seed in seeds
                ]
        finally:
            server.terminate()
            server.wait(timeout=30)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1, help="games of each kind (seeds 1000...)")
    parser.add_argument("--seed", type=int, action="append", help="play this seed (repeatable)")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game")
    parser.add_argument("--prompts", action="store_true", help="the presses under each prompt")
    parser.add_argument("--against", type=Path, help="another tree, measured in turn")
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no Chromium here: apt-get install -y chromium (see the README)")
    from playwright.sync_api import sync_playwright

    trees = {"this tree": ROOT} | ({"against": args.against.resolve()} if args.against else {})
    seeds = args.seed or [1000 + n for n in range(args.games)]
    kinds = args.game or list(GAMES)
    results: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        for name, root in trees.items():
            results[name] = measure(browser, root, kinds, seeds)
            for game, rows in results[name].items():
                for seed, row in zip(seeds, rows, strict=True):
                    print(
                        f"{name} ({root}): {game} seed {seed}: {row['presses']} presses, "
                        f"{row['decisions']} decisions, longest run {row['longest run']} "
                        f"({row['longest prompt']!r}), most presses in one mayor phase "
                        f"{row['mayor']}, options that changed places {row['moved']}"
                    )
                    if args.prompts:
                        for prompt, made in row["prompts"].items():
                            print(f"    {made:4d}  {prompt}")
        browser.close()
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
