"""The tables a request names, opened before its handler runs (``--workers`` N > 0).

A :class:`~interpreter.serve.offloop.WorkerHub` holds in memory only the tables asked for
lately; one that is not is opened from the database in its worker (its choices played again
there), which the event loop awaits. The handlers read tables synchronously, so
:class:`TableOpener` opens the tables a request names first, and the event loop serves other
requests meanwhile.
"""

from __future__ import annotations

import contextlib
import re
from urllib.parse import parse_qs

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from interpreter.serve.api import MAX_REMEMBERED, remembered_tables
from interpreter.serve.tables import Hub, ServeError

__all__ = ["TableOpener"]

_NAMED = re.compile(r"^/(?:api/tables|ws/tables|t)/([A-Za-z0-9_-]{1,64})(?:/|$)")


class TableOpener:
    """ASGI middleware: a table that a request names (in its path, or ``/replay?table=ID``)
    is opened from the database, in its worker, before the request reaches its handler, so
    that the handlers find it in memory; the event loop serves others meanwhile."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            for table_id in self._named(scope):
                if table_id not in self.hub.tables:
                    with contextlib.suppress(ServeError):  # the handler answers an unknown one
                        await self.hub.get_async(table_id)
        await self.app(scope, receive, send)

    @staticmethod
    def _named(scope: Scope) -> list[str]:
        """The tables the request names; on the lobby, those this browser made (it shows
        their seat links and delete buttons)."""
        path = scope.get("path", "")
        found = _NAMED.match(path)
        if found is not None:
            return [found.group(1)]
        if path == "/replay":
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            return query.get("table", [])[:1]
        if path == "/" and scope["type"] == "http":
            return list(remembered_tables(HTTPConnection(scope)))[:MAX_REMEMBERED]
        return []
