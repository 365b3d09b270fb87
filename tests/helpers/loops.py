"""An event loop for a test of its own: after the browser tests, pytest's main thread may
already hold a running loop, where ``asyncio.run`` refuses to start another."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def run_apart(coroutine: Any) -> Any:
    """Run a coroutine on an event loop of its own thread and return its result."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
