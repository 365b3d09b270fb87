"""The web table under load: N tables played at once on one `rulebook serve` process, every seat
a person driven through the HTTP API (random legal moves), each game to its end.

    python benchmarks/bench_serve.py                       # 50 tables of 3-player Puerto Rico
    python benchmarks/bench_serve.py --tables 20 --game san-juan --players 4

Starts a real server (uvicorn, a fresh SQLite database in a temporary folder, every move
committed to disk before it is acknowledged), then plays all tables concurrently from one
asyncio client. Prints moves/s over the whole run and the median and 95th-percentile latency of
a move (the POST that applies it). Any error response or unfinished game fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "interpreter.cli.main", "serve", "--port", str(port)]
    process = subprocess.Popen([*command, "--db", str(db)], env=env)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2)
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


async def get_json(client: httpx.AsyncClient, url: str, **params: object) -> dict:
    """A GET, tried again when a kept-alive connection was closed under it (nothing changes)."""
    for attempt in range(5):
        try:
            response = await client.get(url, params=params)
            response.raise_for_status()
            return response.json()
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.1)
    raise AssertionError("unreachable")


async def play_table(
    client: httpx.AsyncClient,
    game: str,
    players: int,
    seed: int,
    latencies: list[float],
    errors: list[int],
) -> int:
    """One full game; returns the number of moves made."""
    response = await client.post(
        "/api/tables",
        json={"game": game, "players": players, "seats": ["human"] * players, "seed": seed},
    )
    response.raise_for_status()
    table = response.json()
    tokens = [s["token"] for s in table["seats"]]
    rng = random.Random(seed)
    message = await get_json(client, f"/api/tables/{table['id']}/state")
    logged = len(message["log"])  # like the page, ask only for log entries not had yet
    moves = 0
    while not message["over"]:
        seat = message["to_move"]
        url = f"/api/tables/{table['id']}/state"
        mine = await get_json(client, url, token=tokens[seat], log_from=logged)
        logged += len(mine["log"])
        option = rng.choice(mine["options"])["id"]
        started = time.perf_counter()
        try:
            response = await client.post(
                f"/api/tables/{table['id']}/move",
                params={"log_from": logged},
                json={"token": tokens[seat], "option": option, "decision": mine["decision"]},
            )
        except httpx.TransportError:
            # the connection dropped: the decision number tells whether the move was made
            errors.append(1)
            message = await get_json(client, f"/api/tables/{table['id']}/state", log_from=logged)
            logged += len(message["log"])
            moves += message["decision"] > mine["decision"]
            continue
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise SystemExit(f"table {table['id']}: {response.status_code} {response.text}")
        message = response.json()
        logged += len(message["log"])
        moves += 1
    return moves


async def run(args: argparse.Namespace, base: str) -> None:
    latencies: list[float] = []
    errors: list[int] = []
    limits = httpx.Limits(max_connections=args.tables)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        started = time.perf_counter()
        counts = await asyncio.gather(
            *(
                play_table(client, args.game, args.players, args.seed + i, latencies, errors)
                for i in range(args.tables)
            )
        )
        elapsed = time.perf_counter() - started
    moves = sum(counts)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"{args.tables} tables of {args.game} ({args.players} players) finished, no error "
        f"response ({len(errors)} dropped connection(s) retried)"
    )
    print(f"{moves} moves in {elapsed:.1f} s: {moves / elapsed:.0f} moves/s")
    print(
        f"move latency: median {statistics.median(latencies) * 1000:.1f} ms, "
        f"95th percentile {p95 * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", default="puerto-rico")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder) / "tables.sqlite3", port)
        try:
            asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
