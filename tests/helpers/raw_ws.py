"""A websocket client written byte by byte, to send what no library sends (a frame header that
announces 15 MB, a text frame that is not UTF-8) and to read nothing at all (a stuck reader)."""

from __future__ import annotations

import base64
import os
import socket
import struct
import time

TCP_ESTABLISHED = 1  # the first byte of Linux's struct tcp_info: the connection's state


def connect(port: int, path: str, small_window: bool = False) -> socket.socket:
    """A websocket at ``path`` after its handshake, nothing past the handshake read
    (``small_window``: a 4 KB receive buffer, so a reader that takes nothing fills up soon)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if small_window:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)  # one byte at a time: nothing past the handshake is read
        if not byte:
            raise AssertionError(f"the server ended the handshake: {head!r}")
        head += byte
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionRefusedError(head.decode(errors="replace"))
    return sock


def frame_header(opcode: int, length: int, fin: bool = True) -> bytes:
    """A client frame's header (masked, as a client must) announcing ``length`` bytes."""
    first = (0x80 if fin else 0) | opcode
    if length < 126:
        head = struct.pack("!BB", first, 0x80 | length)
    elif length < 1 << 16:
        head = struct.pack("!BBH", first, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, length)
    return head + b"\x00\x00\x00\x00"  # a mask of zeros: the payload goes as it is


def text_frame(payload: bytes) -> bytes:
    return frame_header(0x1, len(payload)) + payload


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def close_code(sock: socket.socket, within: float = 5.0) -> int | None:
    """The code of the close frame the server sends, reading (and dropping) every message
    before it; None if the connection ends, or nothing comes in ``within`` seconds, first."""
    sock.settimeout(within)
    try:
        while True:
            first, second = _read_exact(sock, 2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", _read_exact(sock, 2))
            elif length == 127:
                (length,) = struct.unpack("!Q", _read_exact(sock, 8))
            payload = _read_exact(sock, length)
            if first & 0x0F == 0x8:
                return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
    except (EOFError, TimeoutError, ConnectionResetError):
        return None


def still_open(sock: socket.socket) -> bool:
    """Whether the TCP connection is still established, asked of the kernel without reading
    a byte (reading would let a stuck server-side send through)."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    return info[0] == TCP_ESTABLISHED


def ended_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server ends this connection within ``seconds`` (asked without reading)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not still_open(sock):
            return True
        time.sleep(0.05)
    return not still_open(sock)
