"""A server that stops while a table's rules run in a worker says nothing on its way out: the
call cut short by the shutdown starts no worker in place of the one stopped (a process still
starting when the server exits dies in its first line, ``EOFError: Ran out of input`` in
``multiprocessing``'s ``spawn_main``, a traceback on the server's stderr). That a real server
stopped with a move spinning in its worker logs no traceback:
test_rules_off_the_loop.py::test_a_spinning_rule_stops_its_table_and_no_other_waits."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from interpreter.serve.caps import Caps
from interpreter.serve.rule_workers import Worker


def test_a_worker_stopped_by_the_server_is_not_started_again() -> None:
    async def play() -> None:
        worker = Worker(Caps(), 0)
        first = worker.process
        try:
            ready = await worker.call({"op": "drop", "table": "abc"}, cpu_s=30.0)
            assert "failed" not in ready
            # a table's call in flight when the server stops, and one made after
            cut = worker.submit({"op": "drop", "table": "abc"}, cpu_s=1.0)
            worker.stop()
            late = await worker.call({"op": "drop", "table": "abc"}, cpu_s=1.0)
            for answer in (await asyncio.wait_for(cut, 10), late):
                assert answer == {"failed": "stopping", "message": "the server is stopping"}
            assert worker.process is first and not first.is_alive()
            assert worker.generation == 1
        finally:
            worker.stop()

    # in a thread of its own: a test before it in this process may leave an event loop running
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result()
