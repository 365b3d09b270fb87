"""The answers uvicorn writes without the application, with the security headers
(``headers.py``) that the application's answers carry.

uvicorn answers some requests before, or instead of, the application: a request it cannot parse
(400 ``Invalid HTTP request received.``), and a websocket handshake it refuses: the application
closed the socket before accepting it (403: a wrong link, too many sockets), a handshake that
is not a valid one (400), a failure before the handshake was done (500). :class:`HTTPProtocol`
and :func:`with_headers_on_refusals` add the headers to each of these. (An application that
fails before it begins its answer is answered by ``faults.LastResort`` inside the
application, with the headers, so uvicorn's own 500 is not reached.)

uvicorn's parser (httptools) takes a request's head of any size: :class:`HTTPProtocol` refuses
one past :data:`MAX_HEAD_BYTES` or :data:`MAX_HEAD_FIELDS` with a 431, counted as the bytes
arrive (a head that never ends is refused once past the limit, not read on).
"""

from __future__ import annotations

import logging
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from interpreter.serve.headers import ERROR_HEADERS

__all__ = ["MAX_HEAD_BYTES", "MAX_HEAD_FIELDS", "HTTPProtocol", "with_headers_on_refusals"]

MAX_HEAD_BYTES = 16 * 1024  # a request's line and header fields (a browser sends some 1-4 KB)
MAX_HEAD_FIELDS = 100  # header fields in one request
LINGER_S = 1.0  # a refused head's connection reads (and drops) what is still coming this long

_log = logging.getLogger("rulebook.serve")


def _header_lines(headers: list[tuple[bytes, bytes]]) -> bytes:
    return b"".join(name + b": " + value + b"\r\n" for name, value in headers)


class _HeadTooLarge(Exception):
    """Raised by a parser callback to stop the parser: the head passed a limit (``str``: which)."""


class _Parser:
    """httptools' request parser, through which :class:`_HeadTooLarge` reaches the protocol
    as itself: httptools wraps what a callback raises in its own parser error, which uvicorn
    answers as a request it cannot parse (400)."""

    def __init__(self, parser: Any) -> None:
        self._parser = parser

    def feed_data(self, data: bytes) -> None:
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserCallbackError as error:
            if isinstance(error.__context__, _HeadTooLarge):
                raise error.__context__ from None
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._parser, name)


class HTTPProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol on httptools, its own error answers with the security headers,
    and a request's head bounded (431 past :data:`MAX_HEAD_BYTES` or :data:`MAX_HEAD_FIELDS`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.parser = _Parser(self.parser)  # type: ignore[assignment]  # the same, forwarded
        self._head_open = True  # the next bytes are a request's head (until its end is parsed)
        self._head_arrived = 0  # bytes arrived while the head was open (some may be its body)
        self._head_parsed = 0  # bytes of the head's line and fields parsed so far
        self._head_fields = 0
        self._refused = False

    def data_received(self, data: bytes) -> None:
        if self._refused:  # answered: what is still coming is dropped
            return
        if self._head_open:
            self._head_arrived += len(data)
        try:
            super().data_received(data)
        except _HeadTooLarge as too_large:
            self._refuse_head(str(too_large))
            return
        if self._head_open and self._head_arrived > MAX_HEAD_BYTES:  # a head not yet ended
            self._refuse_head(f"its head is over {MAX_HEAD_BYTES // 1024} KB")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_open = True
        self._head_parsed = self._head_fields = 0

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_fields += 1
        if self._head_fields > MAX_HEAD_FIELDS:
            raise _HeadTooLarge(f"it has over {MAX_HEAD_FIELDS} fields")
        self._count_head(len(name) + len(value) + 4)  # "NAME: VALUE\r\n"
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_open = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head_open = True  # a keep-alive connection's next request
        self._head_arrived = 0

    def _count_head(self, size: int) -> None:
        self._head_parsed += size
        if self._head_parsed > MAX_HEAD_BYTES:
            raise _HeadTooLarge(f"its head is over {MAX_HEAD_BYTES // 1024} KB")

    def _refuse_head(self, why: str) -> None:
        """Answer 431 and end the connection: the answer sent, the sending side shut, what the
        client still sends read and dropped for :data:`LINGER_S` (closing at once, with its
        bytes unread, would reset the connection and lose the answer), then closed."""
        self._refused = True
        _log.warning(
            "a request from %s was refused (431): %s",
            self.client[0] if self.client else "an unknown address",
            why,
        )
        self._send_and_close(
            b"431 Request Header Fields Too Large",
            f"Request header fields too large: {why} (at most {MAX_HEAD_BYTES // 1024} KB"
            f" and {MAX_HEAD_FIELDS} fields)",
            linger=True,
        )

    def send_400_response(self, msg: str) -> None:
        """A request uvicorn could not parse: answered, then the connection closed."""
        self._send_and_close(b"400 Bad Request", msg)

    def _send_and_close(self, status: bytes, msg: str, linger: bool = False) -> None:
        body = msg.encode("ascii")
        headers = [
            *self.server_state.default_headers,
            *ERROR_HEADERS,
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
        ]
        head = b"HTTP/1.1 " + status + b"\r\n" + _header_lines(headers) + b"\r\n"
        self.transport.write(head + body)
        if linger and self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_S, self.transport.close)
        else:
            self.transport.close()


def with_headers_on_refusals(conn: Any) -> None:
    """Make a websocket handshake's refusals (``websockets``' ``ServerProtocol.reject``, which
    uvicorn and the handshake's own checks both call) carry the security headers."""
    reject = conn.reject

    def reject_with_headers(status: Any, text: str) -> Any:
        response = reject(status, text)
        for name, value in ERROR_HEADERS:
            response.headers[name.decode("latin-1")] = value.decode("latin-1")
        return response

    conn.reject = reject_with_headers
