"""The web table under load: N tables played at once on one `rulebook serve` process, every seat
a person driven through the HTTP API (random legal moves), each game to its end, with K
spectator websockets per table that never read.

    python benchmarks/bench_serve.py                       # 50 tables of 3-player Puerto Rico
    python benchmarks/bench_serve.py --tables 10
    python benchmarks/bench_serve.py --tables 20 --game san-juan --players 4 --spectators 0
    python benchmarks/bench_serve.py --against /tmp/old --runs 2  # another tree, alternating

Starts a real server (uvicorn, a fresh SQLite database in a temporary folder, every move
committed to disk before it is acknowledged) in its own process, then plays all tables
concurrently from this one: per move, the seat to move asks for its position (GET, with its
options) and sends its move (POST), one kept-alive connection per table, parsed with the least
work (the client shares the machine's cores with the server). Prints moves/s over the whole
run, the median, 95th- and 99th-percentile latency of a move (the POST that applies it), and
the CPU time per move of the server (its process and its worker processes) and of this client,
counted apart, and the bytes per move the seats' connections received (the server's answers,
heads included). Any error response or unfinished game fails the run.

The spectators (a tiny receive buffer, nothing read after the handshake) are held open for the
whole run: a server where a slow reader slows the table shows it in the latency, or never
finishes (a run past ``--run-timeout`` is reported as hung, with the moves acknowledged until
then).

``--hostile on`` adds a hostile table beside the normal ones: a bot-only table of an uploaded
overlay whose every role pick enters a loop that never ends, so its move spins until the
server's CPU budget for one move stops the table; a new one is made at once, for the whole run
(one hostile move spinning at its budget at every moment). ``--hostile both`` measures each run
without, then with it, and prints the ratio of the normal tables' p95 move latency.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import importlib.util
import json
import os
import random
import re
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


SPEEDUPS = ("httptools", "uvloop")  # uvicorn's optional C parts, used when installed


def hide_speedups(folder: Path) -> str:
    """A folder of stand-ins that fail to import, put first on a server's path: the server then
    runs as it does where uvicorn's optional speedups are not installed."""
    for name in SPEEDUPS:
        (folder / name).mkdir(parents=True, exist_ok=True)
        (folder / name / "__init__.py").write_text("raise ImportError('hidden')\n")
    return str(folder) + os.pathsep


def start_server(
    root: Path, db: Path, port: int, prefix: str = "", extra: tuple[str, ...] = ()
) -> subprocess.Popen[bytes]:
    """The server, started and answering (its own process: the CPU it uses is its own)."""
    # the hostile overlay's upload check (a fresh process validating Puerto Rico) may take
    # longer than the server's default 20 s on a machine busy with other work
    env = {"RULEBOOK_UPLOAD_SECONDS": "180", **os.environ, "PYTHONPATH": prefix + str(root)}
    command = [*server_command(root), "--port", str(port), *extra]
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


class Connection:
    """One kept-alive HTTP/1.1 connection with the least parsing a JSON answer needs (the
    benchmark's client shares the machine with the server: it must cost little)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.received = 0  # bytes of the server's answers, heads included

    async def request(self, method: str, path: str, data: object = None) -> tuple[int, dict]:
        """(status, JSON answer); a connection the server closed is opened again once."""
        body = b"" if data is None else json.dumps(data).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        for attempt in range(2):
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(
                        "127.0.0.1", self.port, limit=2**22
                    )
                self.writer.write(head + body)
                answer = await self.reader.readuntil(b"\r\n\r\n")
                length = int(LENGTH.search(answer).group(1))
                self.received += len(answer) + length
                return int(answer[9:12]), json.loads(await self.reader.readexactly(length))
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt or method != "GET":  # a POST is not sent twice: it may have moved
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


LENGTH = re.compile(rb"content-length:\s*(\d+)", re.IGNORECASE)

# an overlay whose every role pick enters a loop of 2e9 passes: each move spins at its budget
SPIN = b"""overlay: spin
extends: puerto-rico
title: A loop that never ends
add:
  flow/round/choose-roles/repeat/steps/each-chooses/each-player/steps/spin:
    after: pick-role
    repeat:
      max: 2000000000
      while: picks < 2000000000
      steps:
        - name: spin-once
          do: rooms-left = rooms-left
"""


async def hostile_tables(port: int, done: asyncio.Event, stopped: list[str]) -> None:
    """One hostile table at a time until ``done``: each spins at its budget and stops, and
    the next is made at once; ``stopped``: why each stopped."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    writer.write(
        b"POST /api/overlays?name=spin.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + f"Content-Length: {len(SPIN)}\r\n\r\n".encode()
        + SPIN
    )
    head = await reader.readuntil(b"\r\n\r\n")
    upload = json.loads(await reader.readexactly(int(LENGTH.search(head).group(1))))
    writer.close()
    if "overlay" not in upload:
        raise SystemExit(f"the hostile overlay was refused: {upload}")
    conn = Connection(port)
    seats = ["random"] * 3
    while not done.is_set():
        status, table = await conn.request(
            "POST",
            "/api/tables",
            {"game": "puerto-rico", "seats": seats, "overlays": [upload["overlay"]], "speed": 0},
        )
        if status != 201:
            raise SystemExit(f"a hostile table was refused: {status} {table}")
        while not done.is_set():
            state = await get_json(conn, f"/api/tables/{table['id']}/state")
            if state["error"] is not None:
                stopped.append(state["error"])
                break
            await asyncio.sleep(0.05)
    conn.close()


async def get_json(conn: Connection, path: str) -> dict:
    status, answer = await conn.request("GET", path)
    if status != 200:
        raise SystemExit(f"GET {path.split('?')[0]}: {status} {answer}")
    return answer


async def ask_every_question(conn: Connection, base: str, tokens: list[str]) -> None:
    """Every seat is asked each of its decisions (no answer set in advance, which a ruleset may
    start a seat with): each move is a clicked one, as the client plays them all."""
    for token in tokens:
        status, answers = await conn.request("GET", f"{base}/answers?token={token}")
        if status == 404:  # a server without answers set in advance
            return
        for question in answers["questions"]:
            if question.get("start", "ask") == "ask":
                continue
            data = {"token": token, "question": question["key"], "answer": "ask"}
            status, answer = await conn.request("POST", f"{base}/answers", data)
            if status != 200:
                raise SystemExit(f"the answers of a seat were refused: {status} {answer}")


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
    args: argparse.Namespace,
    seed: int,
    latencies: list[float],
    spectators: list[socket.socket],
    received: list[int],
) -> int:
    """One full game through its own connection; returns the number of moves made."""
    conn = Connection(args.port)
    game, players = args.game, args.players
    status, table = await conn.request(
        "POST",
        "/api/tables",
        {"game": game, "players": players, "seats": ["human"] * players, "seed": seed},
    )
    if status != 201:
        raise SystemExit(f"a table was refused: {status} {table}")
    tokens = [s["token"] for s in table["seats"]]
    base = f"/api/tables/{table['id']}"
    await ask_every_question(conn, base, tokens)
    for _ in range(args.spectators_now):
        spectators.append(await stuck_spectator(args.port, table["id"]))
    rng = random.Random(seed)
    message = await get_json(conn, f"{base}/state")
    logged = len(message["log"])  # like the page, ask only for log entries not had yet
    moves = 0
    while not message["over"]:
        seat = message["to_move"]
        mine = await get_json(conn, f"{base}/state?token={tokens[seat]}&log_from={logged}")
        logged += len(mine["log"])
        option = rng.choice(mine["options"])["id"]
        started = time.perf_counter()
        status, message = await conn.request(
            "POST",
            f"{base}/move?log_from={logged}",
            {"token": tokens[seat], "option": option, "decision": mine["decision"]},
        )
        latencies.append(time.perf_counter() - started)
        if status != 200:
            raise SystemExit(f"table {table['id']}: {status} {message}")
        logged += len(message["log"])
        moves += 1
    conn.close()
    received.append(conn.received)
    return moves


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU seconds the server's own process (its event loop and its writer
    thread) and its running children (the worker processes) have used so far, apart (Linux
    /proc; 0 elsewhere)."""
    own = children = 0
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if entry.name == str(pid):
            own += int(fields[11]) + int(fields[12])
        elif fields[1] == str(pid):
            children += int(fields[11]) + int(fields[12])
    tick = os.sysconf("SC_CLK_TCK")
    return own / tick, children / tick


def percentile(ordered: list[float], q: float) -> float:
    return ordered[round(q * (len(ordered) - 1))]


async def run(args: argparse.Namespace, server_pid: int) -> dict[str, float] | None:
    """Play every table at once; the run's figures, or None if it hung."""
    latencies: list[float] = []
    spectators: list[socket.socket] = []
    received: list[int] = []
    server_cpu, client_cpu = cpu_seconds(server_pid), time.process_time()
    done, stopped = asyncio.Event(), []
    hostile = (
        asyncio.create_task(hostile_tables(args.port, done, stopped)) if args.with_hostile else None
    )
    started = time.perf_counter()
    games = asyncio.gather(
        *(
            play_table(args, args.seed + i, latencies, spectators, received)
            for i in range(args.tables)
        )
    )
    try:
        counts = await asyncio.wait_for(games, timeout=args.run_timeout)
    except TimeoutError:
        counts = None
    elapsed = time.perf_counter() - started
    done.set()
    if hostile is not None:
        await hostile
    own_cpu, workers_cpu = (
        after - before for after, before in zip(cpu_seconds(server_pid), server_cpu, strict=True)
    )
    client_cpu = time.process_time() - client_cpu
    for sock in spectators:
        sock.close()
    if counts is None:
        print(
            f"  HUNG: {len(latencies)} moves acknowledged, then none for the rest of the "
            f"{args.run_timeout:g} s allowed"
        )
        return None
    moves = sum(counts)
    latencies.sort()
    figures = {
        "moves": moves,
        "seconds": elapsed,
        "moves/s": moves / elapsed,
        **{f"p{round(q * 100)}": percentile(latencies, q) * 1000 for q in (0.5, 0.95, 0.99)},
        "server cpu ms/move": (own_cpu + workers_cpu) / moves * 1000,
        "event loop cpu ms/move": own_cpu / moves * 1000,
        "workers cpu ms/move": workers_cpu / moves * 1000,
        "client cpu ms/move": client_cpu / moves * 1000,
        "kb/move": sum(received) / moves / 1000,
    }
    print(
        f"  {moves} moves in {elapsed:.1f} s: {figures['moves/s']:.0f} moves/s; move latency "
        + ", ".join(f"p{q} {figures[f'p{q}']:.1f} ms" for q in (50, 95, 99))
        + f"; CPU per move: server {figures['server cpu ms/move']:.2f} ms (its own process "
        f"{figures['event loop cpu ms/move']:.2f} ms, workers "
        f"{figures['workers cpu ms/move']:.2f} ms), "
        f"client {figures['client cpu ms/move']:.2f} ms; {figures['kb/move']:.1f} KB a move "
        "from the server to the seats; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    if hostile is not None:
        figures["hostile tables stopped"] = len(stopped)
        print(
            f"  beside them, {len(stopped)} hostile tables, each stopped at its budget"
            + (f" ({stopped[0]!r})" if stopped else "")
        )
    return figures


def measure(args: argparse.Namespace, root: Path) -> dict[str, float] | None:
    """One run on a fresh server of the tree at ``root`` (a fresh database)."""
    with tempfile.TemporaryDirectory() as folder:
        args.port = free_port()
        prefix = hide_speedups(Path(folder) / "hidden") if args.plain else ""
        server = start_server(
            root, Path(folder) / "tables.sqlite3", args.port, prefix, tuple(args.server_args)
        )
        try:
            return asyncio.run(run(args, server.pid))
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a server stuck on a socket: end it
                server.kill()
                server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", default="puerto-rico")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--spectators",
        type=int,
        default=1,
        metavar="K",
        help="non-reading spectator websockets per table (default: %(default)s)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, metavar="N", help="runs of each tree (default: 1)"
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
    parser.add_argument(
        "--against",
        type=Path,
        metavar="ROOT",
        help="another source tree (e.g. a worktree of main) measured in turn with --root, "
        "alternating, with the same client and tables",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="hide uvicorn's optional speedups (" + ", ".join(SPEEDUPS) + ") from the servers, "
        "as on an install without them",
    )
    parser.add_argument(
        "--hostile",
        choices=["off", "on", "both"],
        default="off",
        help="a hostile table beside the normal ones (see above); both: each run without, "
        "then with it (default: %(default)s)",
    )
    parser.add_argument(
        "--server-args",
        nargs="*",
        default=[],
        metavar="ARG",
        help="more arguments for `rulebook serve` (e.g. --workers 2 --move-seconds 1)",
    )
    args = parser.parse_args()
    args.spectators_now = args.spectators
    roots = [args.root] if args.against is None else [args.against, args.root]
    speedups = [name for name in SPEEDUPS if importlib.util.find_spec(name) and not args.plain]
    print(
        f"{args.tables} tables of {args.game} ({args.players} players), "
        f"{args.spectators} non-reading spectator(s) per table, {os.cpu_count()} CPUs, "
        f"uvicorn speedups: {', '.join(speedups) or 'none'}"
    )
    results: dict[Path, list[dict[str, float]]] = {root: [] for root in roots}
    modes = {"off": [False], "on": [True], "both": [False, True]}[args.hostile]
    for _ in range(args.runs):
        for root in roots:
            p95 = {}
            for args.with_hostile in modes:
                print(
                    f"server: {root.resolve()}"
                    + (", with a hostile table" if args.with_hostile else "")
                )
                figures = measure(args, root)
                if figures is not None:
                    results[root].append(figures)
                    p95[args.with_hostile] = figures["p95"]
            if len(p95) == 2:
                print(f"p95 with the hostile table / without: {p95[True] / p95[False]:.2f}x")
    if args.against is not None and all(results.values()):
        before, after = (", ".join(f"{r['moves/s']:.0f}" for r in results[root]) for root in roots)
        print(f"moves/s, run by run: {before} (--against) -> {after} (--root)")


if __name__ == "__main__":
    main()
