"""The pipe between the server's event loop and one worker process (``rule_workers.py``), read
and written by the event loop itself.

A request (``worker_protocol.py``) is a pickled dict in a frame (an 8-byte length, then the
bytes); the worker answers each in turn, in the order sent. The event loop writes a request as
soon as it is made (a worker busy with another table's move finds the next one waiting when it
is done: no wake-up between them) and reads the answers when the pipe is readable, so a move
costs no thread of the server, no hand-over of the interpreter lock between threads, and no
wake-up of the loop from another thread. The worker's side (:func:`serve_frames`) is plain
blocking I/O.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import socket
import struct
from collections.abc import Callable

from interpreter.serve.worker_protocol import Answer, Request

__all__ = ["Channel", "serve_frames"]

HEADER = struct.Struct("!Q")  # a frame's length, before its bytes
READ_CHUNK = 1 << 18


def _frame(obj: object) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(min(size - len(chunks), READ_CHUNK))
        if not chunk:
            raise EOFError
        chunks += chunk
    return bytes(chunks)


def serve_frames(fd: int, handle: Callable[[Request], Answer]) -> None:
    """The worker's side: answer each request read from ``fd`` with ``handle``'s answer, until
    the server closes its end."""
    sock = socket.socket(fileno=fd)
    try:
        while True:
            try:
                (size,) = HEADER.unpack(_read_exactly(sock, HEADER.size))
                request = pickle.loads(_read_exactly(sock, size))
            except (EOFError, OSError):
                return
            try:
                sock.sendall(_frame(handle(request)))
            except OSError:
                return
    finally:
        sock.close()


class Channel:
    """The server's end of one worker's pipe, on the event loop that first writes to it:
    each answer read is given to ``on_answer``, in the order the requests were written, and
    ``on_gone`` is called once if the worker's end closes."""

    def __init__(
        self, fd: int, on_answer: Callable[[Answer], None], on_gone: Callable[[], None]
    ) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.on_answer = on_answer
        self.on_gone = on_gone
        self._out = bytearray()  # written once the pipe takes it
        self._in = bytearray()
        self._closed = False

    def send(self, request: Request) -> None:
        """Write ``request`` (after those before it)."""
        if self._closed:
            return
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            self.loop.add_reader(self.fd, self._readable)
        pending = bool(self._out)
        self._out += _frame(request)
        if not pending:
            self._flush()

    def _flush(self) -> None:
        try:
            written = os.write(self.fd, self._out)
        except BlockingIOError:
            written = 0
        except OSError:
            self._gone()
            return
        del self._out[:written]
        if self._out and self.loop is not None:
            self.loop.add_writer(self.fd, self._writable)

    def _writable(self) -> None:
        if self.loop is not None:
            self.loop.remove_writer(self.fd)
        if self._out and not self._closed:
            self._flush()

    def _readable(self) -> None:
        while True:
            try:
                data = os.read(self.fd, READ_CHUNK)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self._gone()
                return
            self._in += data
            if len(data) < READ_CHUNK:
                break
        while len(self._in) >= HEADER.size and not self._closed:
            (size,) = HEADER.unpack_from(self._in)
            end = HEADER.size + size
            if len(self._in) < end:
                break
            answer = pickle.loads(bytes(self._in[HEADER.size : end]))
            del self._in[:end]
            self.on_answer(answer)

    def _gone(self) -> None:
        if not self._closed:
            self.close()
            self.on_gone()

    def close(self) -> None:
        """Stop reading and writing, and close this end (the worker then reads the end)."""
        if self._closed:
            return
        self._closed = True
        if self.loop is not None and not self.loop.is_closed():
            with contextlib.suppress(Exception):
                self.loop.remove_reader(self.fd)
                self.loop.remove_writer(self.fd)
        with contextlib.suppress(OSError):
            os.close(self.fd)
