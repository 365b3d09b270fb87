"""What one client may cost the server: per-client quotas on new tables and uploads (a sliding
window per client address, answered 429 with Retry-After), how long an unwatched table stays in
memory, and how long a websocket may take to read a message.

The client is the address the connection comes from (``scope["client"]``); behind a reverse
proxy, run uvicorn with ``--forwarded-allow-ips`` set to the proxy so that address is the
visitor's, not the proxy's (else every visitor shares one quota).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import deque
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from interpreter.serve.fanout import MAX_WAITING, SEND_DEADLINE_S
from interpreter.serve.transport import when_closed

__all__ = ["Limits", "QuotaMiddleware", "SlidingWindow", "add_limit_flags", "limits_from"]


@dataclass(frozen=True)
class Limits:
    """The server's limits (``create_app(limits=...)``); the defaults suit a public server."""

    tables_per_window: int = 30  # new tables one client may make per window
    uploads_per_window: int = 20  # overlays one client may upload per window
    window_s: float = 600.0
    idle_table_s: float = 1800.0  # an unwatched table leaves memory after this long untouched
    send_deadline_s: float = SEND_DEADLINE_S  # a websocket that takes no message this long: out
    send_queue: int = MAX_WAITING  # one-off messages a websocket may have waiting
    sockets_per_client: int = 64  # websockets open at once from one client address


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """The limits as ``rulebook serve`` flags (the defaults of :class:`Limits`)."""
    default = Limits()
    per = f"per client address in {default.window_s / 60:g} minutes"
    parser.add_argument(
        "--max-tables",
        type=int,
        metavar="N",
        default=default.tables_per_window,
        help=f"new tables {per} (default: %(default)s)",
    )
    parser.add_argument(
        "--max-uploads",
        type=int,
        metavar="N",
        default=default.uploads_per_window,
        help=f"overlay uploads {per} (default: %(default)s)",
    )
    parser.add_argument(
        "--idle-minutes",
        type=float,
        metavar="M",
        default=default.idle_table_s / 60,
        help="a table nobody watches leaves memory after M minutes untouched; it comes back "
        "from the database when asked for (default: %(default)g)",
    )
    parser.add_argument(
        "--max-sockets",
        type=int,
        metavar="N",
        default=default.sockets_per_client,
        help="websockets open at once from one client address (default: %(default)s)",
    )


def limits_from(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` that :func:`add_limit_flags`'s flags ask for."""
    return Limits(
        tables_per_window=args.max_tables,
        uploads_per_window=args.max_uploads,
        idle_table_s=args.idle_minutes * 60,
        sockets_per_client=args.max_sockets,
    )


class SlidingWindow:
    """At most ``limit`` events per client in any ``window_s`` seconds."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._events: dict[str, deque[float]] = {}
        self._calls = 0

    def peek(self, client: str, now: float | None = None) -> float:
        """What :meth:`take` would answer, without counting an event."""
        now = time.monotonic() if now is None else now
        events = [t for t in self._events.get(client, ()) if t > now - self.window_s]
        if len(events) >= self.limit:
            return max(events[0] + self.window_s - now, 0.001)
        return 0.0

    def take(self, client: str, now: float | None = None) -> float:
        """Count one event for ``client``: 0 if allowed, else the seconds until one is."""
        now = time.monotonic() if now is None else now
        self._calls += 1
        if self._calls % 1024 == 0:  # clients who went away leave no memory behind
            self._forget_before(now - self.window_s)
        events = self._events.setdefault(client, deque())
        while events and events[0] <= now - self.window_s:
            events.popleft()
        if len(events) >= self.limit:
            return max(events[0] + self.window_s - now, 0.001)
        events.append(now)
        return 0.0

    def _forget_before(self, cutoff: float) -> None:
        for client in [
            c for c, events in self._events.items() if not events or events[-1] <= cutoff
        ]:
            del self._events[client]


# "try again later" (as a dropped slow reader): the page reconnects after a pause
TOO_MANY_SOCKETS = 1013

# (method, path) -> (quota, what it counts): the requests that make tables or take uploads
RATED = {
    ("POST", "/api/tables"): ("tables", "new tables"),
    ("POST", "/new"): ("tables", "new tables"),
    ("POST", "/api/overlays"): ("uploads", "overlay uploads"),
}


class QuotaMiddleware:
    """ASGI middleware: a client past its quota of new tables or uploads is answered 429 (with
    Retry-After) before the request is read, and one with too many websockets open has the
    next refused (closed before it is accepted: the page retries later); every other request
    passes untouched."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.windows = {
            "tables": SlidingWindow(limits.tables_per_window, limits.window_s),
            "uploads": SlidingWindow(limits.uploads_per_window, limits.window_s),
        }
        self.sockets: dict[str, int] = {}  # open websockets by client address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        rated = RATED.get((scope.get("method", ""), scope.get("path", "")))
        if scope["type"] == "http" and rated is not None:
            quota, what = rated
            client = (scope.get("client") or ("unknown", 0))[0]
            wait = self.windows[quota].take(client)
            if wait:
                await self._refuse(send, what, quota, math.ceil(wait))
                return
        await self.app(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = (scope.get("client") or ("unknown", 0))[0]
        open_now = self.sockets.get(client, 0)
        if open_now >= self.limits.sockets_per_client:
            await send({"type": "websocket.close", "code": TOO_MANY_SOCKETS})
            return
        self.sockets[client] = open_now + 1
        try:
            await self.app(scope, receive, send)
        finally:
            # counted until the connection is closed, not only until its handler ends
            closed = when_closed(scope)
            if closed is None or closed.done():
                self._release(client)
            else:
                closed.add_done_callback(lambda _done: self._release(client))

    def _release(self, client: str) -> None:
        left = self.sockets[client] - 1
        if left:
            self.sockets[client] = left
        else:
            del self.sockets[client]

    async def _refuse(self, send: Send, what: str, quota: str, retry_after: int) -> None:
        limit = self.windows[quota].limit
        minutes = self.limits.window_s / 60
        message = (
            f"too many {what} from this address: at most {limit} in {minutes:g} minutes; "
            f"try again in {retry_after} s"
        )
        body = json.dumps({"error": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry_after).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
