"""The answers uvicorn writes without the application, with the security headers
(``headers.py``) that the application's answers carry.

uvicorn answers some requests before, or instead of, the application: a request it cannot parse
(400 ``Invalid HTTP request received.``), an application that failed before it began its answer
(500 ``Internal Server Error``), and a websocket handshake it refuses: the application closed
the socket before accepting it (403: a wrong link, too many sockets), a handshake that is not a
valid one (400), a failure before the handshake was done (500). :class:`HTTPProtocol` and
:func:`with_headers_on_refusals` add the headers to each of these.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from interpreter.serve.headers import ERROR_HEADERS

__all__ = ["HTTPProtocol", "with_headers_on_refusals"]


def _header_lines(headers: list[tuple[bytes, bytes]]) -> bytes:
    return b"".join(name + b": " + value + b"\r\n" for name, value in headers)


class HTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (httptools where installed, else h11), its own error answers
    with the security headers."""

    def send_400_response(self, msg: str) -> None:
        """A request uvicorn could not parse: answered, then the connection closed."""
        body = msg.encode("ascii")
        headers = [
            *self.server_state.default_headers,
            *ERROR_HEADERS,
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
        ]
        head = b"HTTP/1.1 400 Bad Request\r\n" + _header_lines(headers) + b"\r\n"
        self.transport.write(head + body)
        self.transport.close()

    async def send_500_response(self) -> None:
        """The application failed before it began its answer."""
        await self.send(
            {
                "type": "http.response.start",
                "status": 500,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", b"21"),
                    (b"connection", b"close"),
                    *ERROR_HEADERS,
                ],
            }
        )
        await self.send({"type": "http.response.body", "body": b"Internal Server Error"})


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
