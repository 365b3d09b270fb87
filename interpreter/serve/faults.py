"""The server's own faults, answered like any refusal and logged in one line.

A request that raises past every handler would reach Starlette's error page (plain text, and
outside the security headers' middleware) and uvicorn's log with a traceback. :class:`LastResort`
sits just inside :class:`~interpreter.serve.headers.SecurityHeaders`: it answers ``500
{"error": ...}`` (with the headers, as every answer), closes a websocket with 1011, and logs
the fault in one line at ERROR; the traceback only at DEBUG (``--log-level debug``), never at
the default level, where a log line is all a stranger's request may cost.
"""

from __future__ import annotations

import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from interpreter.serve.logs import redact

__all__ = ["INTERNAL_ERROR", "LastResort"]

INTERNAL_ERROR = "internal server error: the request was not carried out"
_log = logging.getLogger("rulebook.serve")


class LastResort:
    """ASGI middleware: no exception leaves the application (see the module's docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:  # noqa: BLE001 - the last place an exception can be answered
            what = f"{scope.get('method', 'WEBSOCKET')} {scope.get('path', '?')}"
            said = redact(str(exc))[:200]  # one short line: no token, no echoed megabyte
            _log.error("internal error answering %s: %s: %s", what, type(exc).__name__, said)
            _log.debug("the traceback of that error", exc_info=True)
            if not started:
                await _answer(scope, send)


async def _answer(scope: Scope, send: Send) -> None:
    """The fault's answer to a request nothing has been sent to yet (the client may be gone)."""
    try:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1011})
            return
        body = json.dumps({"error": INTERNAL_ERROR}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 500,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
    except Exception:  # noqa: BLE001, S110 - nobody is left to answer
        pass
