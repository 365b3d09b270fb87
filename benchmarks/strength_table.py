"""The markdown table of docs/bots.md from the JSON lines of bench_search.py/bench_openspiel.py.

    python benchmarks/strength_table.py pr-random.jsonl sj-random.jsonl ...

Reads finished games only, so it also summarises runs still going or stopped early.
"""

from __future__ import annotations

import sys
from pathlib import Path

from game_rows import read_rows

from interpreter.simulate.stats import wilson


def search_row(rows: list[dict]) -> str:
    first = rows[0]
    games = len(rows)
    share = sum(r["win"] for r in rows)
    low, high = wilson(share, games)
    others = [s for s in first["seats"] if s != first["seats"][first["bot_seat"]]]
    iters = sum(r["iterations"] for r in rows)
    secs = sum(r["search_seconds"] for r in rows)
    rate = f"{iters / secs:,.0f}" if secs else "-"
    overlays = ", ".join(Path(o).stem for o in first["with"]) or "-"
    return (
        f"| {first['game']} | {overlays} | {', '.join(others)} | {games} | {share / games:.3f} "
        f"| [{low:.3f}, {high:.3f}] | {rate} |"
    )


def spiel_row(rows: list[dict]) -> str:
    games = len(rows)
    cells = []
    for name in ("search", "ismcts"):
        share = sum(r["returns"][r["seats"].index(name)] for r in rows)
        low, high = wilson(share, games)
        iters = sum(r["work"][name][0] for r in rows)
        secs = sum(r["work"][name][1] for r in rows)
        rate = f"{iters / secs:,.0f}" if secs else "-"
        cells.append(f"{share / games:.3f} [{low:.3f}, {high:.3f}] | {rate}")
    return f"| {rows[0]['game']} | {games} | " + " | ".join(cells) + " |"


def main() -> None:
    search, spiel = [], []
    for name in sys.argv[1:]:
        rows = read_rows(Path(name))
        if rows:
            (spiel if "returns" in rows[0] else search).append(rows)
    if search:
        print("| game | overlays | against | games | search win share | 95% interval | it/s |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for rows in search:
            print(search_row(rows))
    if spiel:
        print()
        print(
            "| game | games | search share [95%] | search it/s"
            " | ISMCTS share [95%] | ISMCTS sims/s |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for rows in spiel:
            print(spiel_row(rows))


if __name__ == "__main__":
    main()
