"""Keep seat and creator tokens out of the server's logs.

A seat link is ``/t/ID?token=T`` and the websocket is ``/ws/tables/ID?token=T``; uvicorn writes
each request's path with its query to the access log (``uvicorn.access``, at ``--log-level
info``) and each websocket's to ``uvicorn.error``. Whoever reads a log must not get a seat, so
:class:`RedactTokens` rewrites ``token=VALUE`` and ``creator=VALUE`` to ``token=REDACTED`` in
every record of those loggers before any handler formats it.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

__all__ = ["LOGGERS", "RedactTokens", "log_config", "redact"]

LOGGERS = ("uvicorn.access", "uvicorn.error")
_SECRET = re.compile(r"(?i)\b(token|creator)=[^&\s\"']*")


def redact(text: str) -> str:
    """``text`` with every token and creator query value replaced by ``REDACTED``."""
    return _SECRET.sub(lambda m: f"{m.group(1)}=REDACTED", text)


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """Redacts the message and each string argument of a record (uvicorn's access formatter
    reads the arguments one by one: client, method, path, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(arg) for key, arg in record.args.items()}
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's own logging set-up (pass it as ``uvicorn.run(..., log_config=log_config())``)
    with :class:`RedactTokens` on its loggers and on their handlers (a handler's filter sees
    every record it writes, a logger's those made on it), and the access log on stderr beside
    the rest: the server's whole log is one stream."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact-tokens"] = {"()": RedactTokens}
    for name in LOGGERS:
        config["loggers"].setdefault(name, {})
    for part in ("loggers", "handlers"):
        for name, entry in config[part].items():
            if part == "handlers" or name in LOGGERS:
                entry["filters"] = [*entry.get("filters", []), "redact-tokens"]
    config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    return config
