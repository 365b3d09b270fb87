"""Where the bytes arrive: uvicorn as ``rulebook serve`` runs it, and its websocket protocol.

Limits that only the connection can keep are kept here, before the application sees a byte:

- a websocket message over :data:`MAX_MESSAGE` bytes is refused from its frame header (close
  code 1009), never read whole (uvicorn's own bound is 16 MB);
- a text frame that is not UTF-8 closes the socket with 1007 and one warning line (uvicorn
  logs it with a traceback);
- a connection the server lets go of is ended at once, TCP included: the application may
  abort it (:func:`abort`, for a reader too slow to take its messages: closing it politely
  would wait for the very bytes it does not read), and one whose handler has ended is aborted
  if its close has not gone through within :data:`LINGER_S`; so is every socket still open
  :data:`LINGER_S` after the server was asked to stop (a shutdown never waits on a client);
- :func:`when_closed` tells the application when the connection is really gone (the
  per-address socket count is kept until then).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Scope
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode

from interpreter.serve.own_answers import HTTPProtocol, with_headers_on_refusals

__all__ = [
    "LINGER_S",
    "MAX_MESSAGE",
    "SHUTDOWN_S",
    "WebSocketProtocol",
    "abort",
    "run_server",
    "when_closed",
]

MAX_MESSAGE = 64 * 1024  # a websocket message from a client (a move is under 100 bytes)
LINGER_S = 1.0  # a connection the server is done with has this long to close, then is cut
SHUTDOWN_S = 5  # a stopping server waits at most this long for requests under way

_ABORT = "rulebook.abort"
_CLOSED = "rulebook.closed"
_log = logging.getLogger("rulebook.serve")


def abort(scope: Scope) -> bool:
    """End the connection of ``scope`` now (a TCP reset, nothing more sent); False where the
    server runs no :class:`WebSocketProtocol` (a test client): then close it as usual."""
    cut: Callable[[], None] | None = scope.get(_ABORT)
    if cut is None:
        return False
    cut()
    return True


def when_closed(scope: Scope) -> asyncio.Future[None] | None:
    """A future done once the connection of ``scope`` is closed (None where unknown)."""
    return scope.get(_CLOSED)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, with the connection ends above (and its refusals of a
    handshake with the security headers)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        with_headers_on_refusals(self.conn)

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.closed: asyncio.Future[None] = self.loop.create_future()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self.closed.done():
            self.closed.set_result(None)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # a handshake accepted: the application gets these two
            scope[_ABORT] = self.cut
            scope[_CLOSED] = self.closed

    def cut(self) -> None:
        """End the connection at once, TCP included: a reset, whatever it still had to send
        dropped (a plain close would leave the kernel holding the socket, and its unsent
        bytes, for as long as the peer keeps its window shut)."""
        if self.closed.done() or self.transport is None:
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def cut_later(self) -> None:
        self.loop.call_later(LINGER_S, self.cut)

    def shutdown(self) -> None:
        super().shutdown()  # a close frame (1012), then an orderly close
        self.cut_later()  # which a client that reads nothing would hold up for ever

    async def run_asgi(self) -> None:
        await super().run_asgi()
        self.cut_later()

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                _log.warning(
                    "a websocket from %s sent a text frame that is not UTF-8: closed (1007)",
                    self.client[0] if self.client else "an unknown address",
                )
                self.conn.fail(CloseCode.INVALID_DATA, "text frames must be UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()


def run_server(
    app: ASGIApp, host: str, port: int, log_level: str, forwarded_allow_ips: str
) -> None:
    """Serve ``app`` with uvicorn until the process is asked to stop (SIGINT, SIGTERM)."""
    import uvicorn

    from interpreter.serve.garbage import settle
    from interpreter.serve.logs import log_config

    settle()  # what is imported and built so far lives as long as the server
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        # seat and creator tokens in request lines are written as token=REDACTED
        log_config=log_config(),
        # keep-alive connections stay open 30 s (uvicorn's 5 s closes them under a busy client)
        timeout_keep_alive=30,
        timeout_graceful_shutdown=SHUTDOWN_S,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        http=HTTPProtocol,
        ws=WebSocketProtocol,
        ws_max_size=MAX_MESSAGE,
    )
