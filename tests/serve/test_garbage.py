"""The server's processes (the event loop's, each rule worker's) settle the garbage collector
once started (serve/garbage.py): their heap frozen out of its walks, the young generation
collected less often, and cyclic garbage made later still collected."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

from interpreter.serve import garbage, rule_workers, transport
from interpreter.serve.caps import Caps


def test_a_settled_process_still_collects_the_cycles_it_makes_later():
    script = textwrap.dedent(
        """
        import gc, weakref
        from interpreter.serve.garbage import YOUNG, settle

        settle()
        assert gc.get_freeze_count() > 0 and gc.get_threshold()[0] == YOUNG
        class Node: pass
        node = Node(); node.me = node; gone = weakref.ref(node); del node
        keep = [[] for _ in range(YOUNG * 3)]  # allocations enough for a collection
        assert gone() is None, "a cycle made after settle() was never collected"
        print("ok")
        """
    )
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.stdout.strip() == "ok", done.stderr


def test_the_server_and_each_worker_settle_once_started(monkeypatch):
    settled = []
    monkeypatch.setattr(garbage, "settle", lambda: settled.append("server"))
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: None)
    transport.run_server(object(), "127.0.0.1", 0, "warning", "127.0.0.1")
    assert settled == ["server"]

    monkeypatch.setattr(rule_workers, "settle", lambda: settled.append("worker"))
    monkeypatch.setattr(rule_workers, "serve_frames", lambda fd, answer: os.close(fd))
    monkeypatch.setattr("signal.signal", lambda *args: None)  # the test's own handlers stay
    ours, theirs = socket.socketpair()
    try:
        rule_workers._serve(theirs, Caps(), 0)
    finally:
        ours.close()
    assert settled == ["server", "worker"]
