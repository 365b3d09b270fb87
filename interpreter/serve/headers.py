"""Security headers on every answer of ``rulebook serve``.

A seat page's address holds its token (``/t/ID?token=T``), and pages and API answers carry
hidden information, so every answer but the static files says: keep no copy
(``Cache-Control: no-store``), send no address onwards (``Referrer-Policy: no-referrer``, or a
link followed from a seat page would hand its token to another site), run only this server's
own scripts and styles (``Content-Security-Policy``: the pages have no inline script; the
board's colour chips are ``style`` attributes, the one inline thing allowed), and show in no
frame of another site (``frame-ancestors 'none'``, ``X-Frame-Options`` for older browsers).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "ERROR_HEADERS", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

_EVERY: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
_DYNAMIC: list[tuple[bytes, bytes]] = [
    (b"cache-control", b"no-store"),
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
]
# what an answer the server writes without the application (a malformed request, a refused
# websocket handshake) carries: it is no static file
ERROR_HEADERS: list[tuple[bytes, bytes]] = _EVERY + _DYNAMIC
STATIC_PREFIX = "/static/"  # the same files for everybody: cacheable, no secret in them


class SecurityHeaders:
    """ASGI middleware adding the headers above to each HTTP answer (a header the route set
    itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wanted = list(_EVERY)
        if not scope.get("path", "").startswith(STATIC_PREFIX):
            wanted += _DYNAMIC

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in wanted if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
