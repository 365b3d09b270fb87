"""The web table under load: N tables played at once on one `rulebook serve` process, every seat
a person driven through the HTTP API (random legal moves), each game to its end.

    python benchmarks/bench_serve.py                       # 50 tables of 3-player Puerto Rico
    python benchmarks/bench_serve.py --tables 20 --game san-juan --players 4
    python benchmarks/bench_serve.py --tables 10 --spectators 1   # without, then with
    python benchmarks/bench_serve.py --root /other/checkout       # another tree's server

Starts a real server (uvicorn, a fresh SQLite database in a temporary folder, every move
committed to disk before it is acknowledged), then plays all tables concurrently from one
asyncio client. Prints moves/s over the whole run and the median, 95th- and 99th-percentile
latency of a move (the POST that applies it). Any error response or unfinished game fails the run.

With ``--spectators K`` the same run is made twice, each on a fresh server: first with no
spectator, then with K spectator websockets per table that never read (a tiny receive buffer,
nothing read after the handshake), held open for the whole run: a server where a slow reader
slows the table shows it in the second run's latency, or never finishes it (a run that passes
``--run-timeout`` is reported as hung, with the moves acknowledged until then).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
UNLIMITED = ["--max-tables", "1000000", "--max-uploads", "1000000"]  # the quotas, where known


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(root: Path) -> list[str]:
    """``rulebook serve`` of the tree at ``root``, with no per-client quota where it has one
    (the benchmark is one client making every table)."""
    command = [sys.executable, "-m", "interpreter.cli.main", "serve"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    usage = subprocess.run(
        [*command, "--help"], env=env, cwd=root, capture_output=True, text=True
    ).stdout
    return [*command, *UNLIMITED] if "--max-tables" in usage else command


def start_server(root: Path, db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [*server_command(root), "--port", str(port)]
    # run from the tree itself: `python -m` puts the working folder first on the path
    process = subprocess.Popen([*command, "--db", str(db)], env=env, cwd=root)
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


async def stuck_spectator(port: int, table_id: str) -> socket.socket:
    """A spectator websocket at the table that never reads after its handshake."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: a small window
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(
        sock,
        (
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode(),
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(sock, 1)  # nothing past the handshake is read
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"a spectator was refused: {head!r}")
    return sock


async def play_table(
    client: httpx.AsyncClient,
    args: argparse.Namespace,
    seed: int,
    latencies: list[float],
    errors: list[int],
    spectators: list[socket.socket],
) -> int:
    """One full game; returns the number of moves made."""
    game, players = args.game, args.players
    response = await client.post(
        "/api/tables",
        json={"game": game, "players": players, "seats": ["human"] * players, "seed": seed},
    )
    response.raise_for_status()
    table = response.json()
    tokens = [s["token"] for s in table["seats"]]
    for _ in range(args.spectators_now):
        spectators.append(await stuck_spectator(args.port, table["id"]))
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


def percentile(ordered: list[float], q: float) -> float:
    return ordered[round(q * (len(ordered) - 1))]


async def run(args: argparse.Namespace, base: str) -> None:
    latencies: list[float] = []
    errors: list[int] = []
    spectators: list[socket.socket] = []
    limits = httpx.Limits(max_connections=args.tables)
    async with httpx.AsyncClient(base_url=base, timeout=args.run_timeout, limits=limits) as client:
        started = time.perf_counter()
        games = asyncio.gather(
            *(
                play_table(client, args, args.seed + i, latencies, errors, spectators)
                for i in range(args.tables)
            )
        )
        try:
            counts = await asyncio.wait_for(games, timeout=args.run_timeout)
        except TimeoutError:
            counts = None
        elapsed = time.perf_counter() - started
    for sock in spectators:
        sock.close()
    watched = f"{args.spectators_now} non-reading spectator(s) per table"
    if counts is None:
        print(
            f"{watched}: HUNG: {len(latencies)} moves acknowledged, then none for the rest of "
            f"the {args.run_timeout:g} s allowed"
        )
        return
    moves = sum(counts)
    latencies.sort()
    print(
        f"{watched}: {args.tables} tables of {args.game} ({args.players} players) finished, no "
        f"error response ({len(errors)} dropped connection(s) retried)"
    )
    print(f"  {moves} moves in {elapsed:.1f} s: {moves / elapsed:.0f} moves/s")
    print(
        "  move latency: "
        + ", ".join(
            f"p{round(q * 100)} {percentile(latencies, q) * 1000:.1f} ms" for q in (0.5, 0.95, 0.99)
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", default="puerto-rico")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        metavar="K",
        help="run twice: with no spectator, then with K non-reading spectators per table",
    )
    parser.add_argument(
        "--run-timeout",
        type=float,
        default=600.0,
        metavar="S",
        help="a run not finished in S seconds is reported as hung (default: %(default)g)",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the source tree whose server is measured (default: this one)",
    )
    args = parser.parse_args()
    print(f"server: {args.root.resolve()}")
    for spectators in [0, args.spectators] if args.spectators else [0]:
        args.spectators_now = spectators
        with tempfile.TemporaryDirectory() as folder:
            args.port = free_port()
            server = start_server(args.root, Path(folder) / "tables.sqlite3", args.port)
            try:
                asyncio.run(run(args, f"http://127.0.0.1:{args.port}"))
            finally:
                server.terminate()
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:  # a server stuck on a socket: end it
                    server.kill()
                    server.wait()


if __name__ == "__main__":
    main()
