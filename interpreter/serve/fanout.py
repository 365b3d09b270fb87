"""Each websocket's own sender, so that no client can slow another down.

A change at a table only marks every listener's :class:`Outbox` dirty (:meth:`Outbox.notify`
never waits on a socket); each connection's own task builds the newest message when its socket
can take one and sends it within a deadline. A slow reader therefore gets the latest position
with every log entry it has not had (the messages it could not take are coalesced, none is
lost), and one that falls too far behind (a send past its deadline, or too many one-off
messages waiting) is disconnected at once, TCP included (it would not take a close frame
either: ``transport.py``), and forgotten: the page reconnects and gets the whole table again.
Where the server cannot reset a connection (a test client), it is closed with
:data:`TOO_SLOW`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from interpreter.serve.jsonbody import dumps
from interpreter.serve.transport import abort

__all__ = ["MAX_WAITING", "SEND_DEADLINE_S", "TOO_SLOW", "Outbox"]

SEND_DEADLINE_S = 5.0  # a socket that cannot take one message in this long is dropped
MAX_WAITING = 32  # one-off messages (refusals) a socket may have waiting before it is dropped
# "try again later": under 4000, so the page reconnects (4000 and up mean "do not come back")
TOO_SLOW = 1013


class Outbox:
    """The messages one websocket has yet to be sent: a "the table changed" flag (the message
    itself is built by ``build`` when it can be sent) and a bounded queue of one-off messages,
    sent in order by :meth:`run`, the connection's own task."""

    def __init__(
        self,
        socket: Any,
        build: Callable[[], Mapping[str, object]],
        deadline: float = SEND_DEADLINE_S,
        limit: int = MAX_WAITING,
    ) -> None:
        self.socket = socket
        self.build = build
        self.deadline = deadline
        self.limit = limit
        self.dropped: str | None = None  # why the server let go of this socket, once it has
        self._waiting: deque[Mapping[str, object]] = deque()
        self._dirty = False
        self._close: tuple[int, str] | None = None
        self._wake = asyncio.Event()

    def notify(self) -> None:
        """The table changed: send this socket the newest message when it can take one."""
        if self._close is None:
            self._dirty = True
            self._wake.set()

    def push(self, message: Mapping[str, object]) -> None:
        """Send ``message`` once (before any newer table message); a socket with too many
        waiting is dropped."""
        if self._close is not None:
            return
        if len(self._waiting) >= self.limit:
            self.drop(f"more than {self.limit} messages waiting")
            return
        self._waiting.append(message)
        self._wake.set()

    def close(self, code: int, reason: str) -> None:
        """Send what is waiting, then close the socket with ``code`` and ``reason``."""
        if self._close is None:
            self._close = (code, reason)
            self._wake.set()

    def drop(self, why: str) -> None:
        """Give up on this socket: nothing more is sent but the close (:data:`TOO_SLOW`)."""
        if self.dropped is None:
            self.dropped = why
            self._waiting.clear()
            self._dirty = False
            self._close = (TOO_SLOW, "too slow to keep up: reconnect to get the table again")
            self._wake.set()

    async def run(self) -> None:
        """Send until the socket closes, is closed, or is dropped (then returns)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.dropped is None and (self._waiting or self._dirty):
                if self._waiting:
                    message = self._waiting.popleft()
                else:
                    self._dirty = False
                    message = self.build()
                try:
                    await asyncio.wait_for(
                        self.socket.send_text(dumps(message)), timeout=self.deadline
                    )
                except TimeoutError:
                    self.drop(f"a message was not taken in {self.deadline:g} s")
                except Exception:  # noqa: BLE001 - the socket is gone: nothing left to do
                    return
            if self._close is not None:
                code, reason = self._close
                # a socket that takes nothing cannot take the close either: its connection is
                # ended at once (transport.py); a server that cannot do that gives up after the
                # deadline, and ends the connection once this handler returns
                if self.dropped is not None and abort(self.socket.scope):
                    return
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.socket.close(code, reason), timeout=self.deadline)
                return
