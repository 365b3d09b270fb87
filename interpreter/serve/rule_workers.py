"""The worker processes that run the rules of ``rulebook serve``'s tables (``player.py``).

Each table is given to one worker, which keeps its state and bots: a move sent there costs a
pipe round trip and a snapshot of the new position (a few KB for a board game), not a
replay. Tables whose rules all come from the catalog share ``workers`` processes; tables with an
uploaded overlay (a stranger's rules) have their own processes, at a lower scheduling priority
(``nice``), so that a table spinning at its budget takes CPU time the catalog's tables leave
over, not theirs. A table goes to the worker of its lane with the fewest tables.

Each worker answers its requests one at a time, in the order the event loop wrote them to its
pipe (``channel.py``: the event loop writes and reads the pipe itself, with no thread of the
server between them, and waits only on a future). A worker that has not answered long after
its CPU budget (a rule stuck in one C call, which the budget's timer signal cannot interrupt:
twice its budget and 2 s of CPU time without an answer) is killed and started again; its
tables are opened again from the database on their next move.

``--workers 0``: no process; the tables' rules run on the server's event loop as the tests'
servers run them (``tables.Hub``), without the CPU budget, which needs a process of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
import zlib
from collections import Counter, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import overload

from interpreter.serve.caps import Caps
from interpreter.serve.channel import Channel, serve_frames
from interpreter.serve.garbage import settle
from interpreter.serve.player import Player
from interpreter.serve.worker_protocol import (
    Answer,
    BotRequest,
    Compiled,
    CompileRequest,
    Failure,
    Moved,
    MoveRequest,
    Opened,
    OpenRequest,
    Planned,
    PlanRequest,
    RecordMade,
    RecordRequest,
    Replayed,
    ReplayRequest,
    Request,
)

__all__ = ["WorkerPool", "add_worker_flags", "caps_from", "default_workers"]

STRANGER_NICE = 10  # how much lower the workers of uploaded rules are scheduled
SLACK_S = 2.0  # CPU seconds past twice its budget before a worker that did not answer is killed
WALL_FACTOR = 30  # and wall-clock seconds per CPU second it may have, on a very busy machine
POLL_S = 0.25  # how often the event loop looks at a busy worker's CPU time
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def default_workers() -> int:
    """The processes for the catalog's rules by default: one per core the server may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover - not Linux
        return max(os.cpu_count() or 1, 1)


def _serve(conn: Connection, caps: Caps, nice: int) -> None:
    """A worker process: answer requests until the pipe closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops it, not a Ctrl-C
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    player = Player(caps, budget=True)
    settle()  # the imports live as long as the worker

    def answer(request: Request) -> Answer:
        try:
            return player.handle(request)
        except Exception as exc:  # noqa: BLE001 - told to the server, which stops the table
            return {"failed": "fault", "message": f"{type(exc).__name__}: {exc}"}

    fd = os.dup(conn.fileno())
    conn.close()
    serve_frames(fd, answer)


def _stopping() -> Failure:
    """The answer to a request the server's stop cut short: nothing is known of the move."""
    return {"failed": "stopping", "message": "the server is stopping"}


@dataclass
class Pending:
    """A request written to a worker and not answered yet."""

    data: Request
    future: asyncio.Future[Answer]
    cpu_s: float  # the CPU time it may take before the worker is killed


class Worker:
    """One worker process and the pipe to it, both used from the event loop: requests are
    written at once and answered one after the other (``channel.py``)."""

    def __init__(self, caps: Caps, nice: int) -> None:
        self.caps = caps
        self.nice = nice
        self.generation = 0  # counts restarts: a table opened in an earlier one is gone
        self.due: deque[Pending] = deque()  # written, not answered; the first one runs
        self._timer: asyncio.TimerHandle | None = None
        self._started: tuple[float, float] | None = None  # the first one's CPU and clock
        self.stopped = False
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a server's threads
        ours, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(child, self.caps, self.nice), daemon=True
        )
        self.process.start()
        child.close()
        self.channel = Channel(os.dup(ours.fileno()), self._answered, self._died)
        ours.close()
        self.generation += 1

    def submit(self, request: Request, cpu_s: float) -> asyncio.Future[Answer]:
        """Write one request; its future is its answer. The worker is killed when it has used
        ``cpu_s`` of CPU time on it without answering (its timer signal did not stop the
        rules: one long C call), or after ``WALL_FACTOR`` times that in wall-clock time (a
        machine so busy that a niced worker gets no CPU at all)."""
        loop = asyncio.get_running_loop()
        pending = Pending(request, loop.create_future(), cpu_s)
        if self.stopped:
            pending.future.set_result(_stopping())
            return pending.future
        if self.channel.loop not in (None, loop):  # a server on another event loop: anew
            self.due.clear()
            self._restart()
        self.due.append(pending)
        self.channel.send(request)
        if len(self.due) == 1:
            self._watch()
        return pending.future

    async def call(self, request: Request, cpu_s: float) -> Answer:
        return await self.submit(request, cpu_s)

    def _watch(self) -> None:
        """The first request due has started in the worker: look at its CPU time from
        ``POLL_S`` on (most answers come before: the worker's CPU is not read)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._started = None
        if self.due and self.channel.loop is not None:
            self._timer = self.channel.loop.call_later(POLL_S, self._check)

    def _check(self) -> None:
        if not self.due or self.channel.loop is None:
            return
        if self._started is None:
            self._started = (self._cpu_s(), time.monotonic())
        start_cpu, start = self._started
        cpu_s = self.due[0].cpu_s
        if self._cpu_s() - start_cpu > cpu_s or time.monotonic() - start > cpu_s * WALL_FACTOR:
            self._over(cpu_s)
            return
        self._timer = self.channel.loop.call_later(POLL_S, self._check)

    def _answered(self, answer: Answer) -> None:
        if self.due:
            done = self.due.popleft()
            if not done.future.done():  # a caller that gave up has cancelled it
                done.future.set_result(answer)
        self._watch()

    def _died(self) -> None:
        """The worker's end closed without an answer: as if the first request passed its
        budget (a worker that died idle is started again)."""
        if self.due:
            self._over(self.due[0].cpu_s)
        elif not self.stopped:
            self._restart()

    def _over(self, cpu_s: float) -> None:
        """The first request due did not finish: the worker is started again, the request
        answered as over its budget, and those after it sent to the new worker."""
        first = self.due.popleft()
        after = list(self.due)
        self.due.clear()
        self._restart()
        if not first.future.done():
            first.future.set_result(
                {
                    "failed": "budget",
                    "message": "the rules did not finish one move within this server's "
                    f"{cpu_s:g} s of CPU time; the work was stopped",
                }
            )
        for pending in after:
            if not pending.future.done():
                self.due.append(pending)
                self.channel.send(pending.data)
        self._watch()

    def _cpu_s(self) -> float:
        """CPU seconds the worker process has used (Linux /proc; 0 elsewhere, where only the
        wall-clock limit holds)."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / _TICKS

    def _restart(self) -> None:
        self.channel.close()
        old = self.process
        old.kill()
        # its exit is collected in a thread: the event loop never waits on a process
        threading.Thread(target=old.join, args=(5,), daemon=True).start()
        if not self.stopped:  # a process started as the server exits dies with a traceback
            self._start()

    def stop(self) -> None:
        """Stop the worker for good: the requests it has not answered are answered as cut
        short by the server's stop (no table is stopped for them), and none starts it again."""
        self.stopped = True
        if self._timer is not None:
            self._timer.cancel()
        self.channel.close()
        while self.due:
            pending = self.due.popleft()
            if not pending.future.done():
                pending.future.set_result(_stopping())
        self.process.join(2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(2)


class WorkerPool:
    """Worker processes in two lanes: the catalog's rules, and uploaded (a stranger's) rules."""

    def __init__(self, workers: int, caps: Caps, strangers: int | None = None) -> None:
        self.caps = caps
        self.lanes = {
            False: [Worker(caps, 0) for _ in range(max(workers, 1))],
            True: [Worker(caps, STRANGER_NICE) for _ in range(strangers or max(workers // 2, 1))],
        }
        self.placed: dict[str, tuple[Worker, int]] = {}  # table -> its worker, that generation
        self.load: Counter[int] = Counter()  # tables per worker (by id())

    def worker_of(self, table_id: str, stranger: bool) -> tuple[Worker, bool]:
        """The table's worker, and whether the table must be opened there (new, or the
        worker was started again since)."""
        found = self.placed.get(table_id)
        if found is not None:
            worker, generation = found
            if worker.generation == generation:
                return worker, False
        else:
            lane = self.lanes[stranger]
            worker = min(lane, key=lambda w: self.load[id(w)])
            self.load[id(worker)] += 1
        self.placed[table_id] = (worker, worker.generation)
        return worker, True

    def _cpu_s(self, moves: int) -> float:
        """CPU seconds a request may have before its worker is killed: twice its budget (a
        compile's and one move's per decision it plays) and some slack."""
        return (self.caps.compile_cpu_s + self.caps.move_cpu_s * max(moves, 1)) * 2 + SLACK_S

    @overload
    async def call(
        self, table_id: str, stranger: bool, request: OpenRequest, moves: int = 1
    ) -> Failure | Opened: ...
    @overload
    async def call(
        self, table_id: str, stranger: bool, request: MoveRequest | BotRequest, moves: int = 1
    ) -> Failure | Moved: ...
    @overload
    async def call(
        self, table_id: str, stranger: bool, request: PlanRequest, moves: int = 1
    ) -> Failure | Planned: ...
    async def call(self, table_id: str, stranger: bool, request: Request, moves: int = 1) -> Answer:
        """A request about a table, to its worker; answered as its op answers (or a
        :class:`Failure`)."""
        worker, _fresh = self.worker_of(table_id, stranger)
        return await worker.call(request, self._cpu_s(moves))

    @overload
    async def call_any(
        self, stranger: bool, request: CompileRequest, moves: int = 1, key: str = ""
    ) -> Failure | Compiled: ...
    @overload
    async def call_any(
        self, stranger: bool, request: ReplayRequest, moves: int = 1, key: str = ""
    ) -> Failure | Replayed: ...
    @overload
    async def call_any(
        self, stranger: bool, request: RecordRequest, moves: int = 1, key: str = ""
    ) -> Failure | RecordMade: ...
    async def call_any(
        self, stranger: bool, request: Request, moves: int = 1, key: str = ""
    ) -> Answer:
        """A request of no table (a replay, a compile): to the worker of the lane with the
        fewest tables, or, with a ``key``, always the same worker of the lane for that key
        (a replay's: the worker that keeps the positions of that save)."""
        lane = self.lanes[stranger]
        if key:
            worker = lane[zlib.crc32(key.encode()) % len(lane)]
        else:
            worker = min(lane, key=lambda w: self.load[id(w)])
        return await worker.call(request, self._cpu_s(moves))

    def fresh(self, table_id: str, stranger: bool) -> bool:
        """Whether the table is not open in its worker (it must be sent ``open`` first)."""
        return self.worker_of(table_id, stranger)[1]

    def forget(self, table_id: str) -> None:
        """Let the table's worker drop it (its answer is not waited for; outside an event
        loop, where nothing is sent, the worker keeps it until it is opened again)."""
        found = self.placed.pop(table_id, None)
        if found is not None:
            worker, _generation = found
            self.load[id(worker)] -= 1
            with contextlib.suppress(RuntimeError):  # no running event loop
                worker.submit({"op": "drop", "table": table_id}, SLACK_S)

    def stop(self) -> None:
        for lane in self.lanes.values():
            for worker in lane:
                worker.stop()


def add_worker_flags(parser: argparse.ArgumentParser) -> None:
    """``rulebook serve``'s flags for the worker processes and what a move may cost."""
    default = Caps()
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        default=default_workers(),
        help="processes that run the tables' rules (the catalog's; tables with an uploaded "
        "overlay get N/2 more, at a lower priority); 0: the server's own process, without a "
        "CPU budget (default: one per core, %(default)s here)",
    )
    parser.add_argument(
        "--move-seconds",
        type=float,
        metavar="S",
        default=default.move_cpu_s,
        help="CPU seconds one move may take in a worker; a table whose move takes more stops "
        "(default: %(default)g)",
    )
    parser.add_argument(
        "--compile-seconds",
        type=float,
        metavar="S",
        default=default.compile_cpu_s,
        help="CPU seconds a worker may take to compile the rules of a new table with an "
        "uploaded overlay; past it the table is refused (default: %(default)g)",
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        metavar="N",
        default=default.decisions,
        help="the most decisions a game with an uploaded overlay may last (its own limits: "
        "may be lower, never higher; the catalog's keep theirs) (default: %(default)s)",
    )
    parser.add_argument(
        "--max-rounds",
        type=int,
        metavar="N",
        default=default.rounds,
        help="the most rounds a game with an uploaded overlay may last (default: %(default)s)",
    )


def caps_from(args: argparse.Namespace) -> Caps:
    """The :class:`Caps` that :func:`add_worker_flags`'s flags ask for."""
    return Caps(
        move_cpu_s=max(args.move_seconds, 0.01),
        compile_cpu_s=max(args.compile_seconds, 0.01),
        decisions=max(args.max_decisions, 1),
        rounds=max(args.max_rounds, 1),
    )
