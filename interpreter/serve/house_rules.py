"""Uploaded house-rule overlays: size-checked, validated like ``rulebook validate`` (the same
located diagnostics), then kept content-addressed beside the database so tables that use them
can be rebuilt after a restart.

The validation runs in a worker process with a memory and a time limit
(:mod:`interpreter.serve.sandbox`): an upload's cost is its author's choice, and neither its
memory nor its time may become the server's. :func:`store_overlay` waits for the worker;
:func:`store_overlay_async` waits without holding the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from pathlib import Path

from interpreter.serve.sandbox import CheckRefused, check_upload
from interpreter.serve.tables import ServeError

__all__ = ["MAX_UPLOAD", "UploadRejected", "store_overlay", "store_overlay_async"]

MAX_UPLOAD = 256 * 1024  # bytes; a house rule is a page of YAML, not a data set


class UploadRejected(ServeError):
    """An uploaded overlay that does not validate; ``report`` is the validator's text."""

    def __init__(self, name: str, report: str) -> None:
        super().__init__(f"{name} does not validate:\n{report}", 422)
        self.report = report


def store_overlay(folder: Path, name: str, data: bytes) -> str:
    """Check and keep one uploaded overlay; returns the path a game config names it by.

    Raises :class:`UploadRejected` (422) when it does not validate, and :class:`ServeError`
    when it is too large, not UTF-8, or too costly to check (413: its check passed the
    worker's time or memory limit).
    """
    shown = Path(name or "overlay.yaml").name
    if len(data) > MAX_UPLOAD:
        raise ServeError(
            f"{shown} is too large: an overlay may be at most {MAX_UPLOAD // 1024} KB",
            413,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ServeError(f"{shown} is not UTF-8 text") from None
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(data).hexdigest()[:24]
    path = folder / f"{digest}.yaml"
    if not path.is_file():
        # one name per thread: the same file may be uploaded twice at once
        tmp = folder / f".upload-{digest}-{os.getpid()}-{threading.get_ident()}.yaml"
        tmp.write_text(text, encoding="utf-8")
        try:
            check_upload(str(tmp), shown)
        except CheckRefused as refused:
            tmp.unlink(missing_ok=True)
            if refused.report is not None:
                raise UploadRejected(shown, refused.report) from None
            raise ServeError(refused.message, refused.status) from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        os.replace(tmp, path)
    return str(path)


async def store_overlay_async(folder: Path, name: str, data: bytes) -> str:
    """:func:`store_overlay` from a coroutine: the check's wait happens in a thread, so the
    event loop goes on serving every other request meanwhile."""
    return await asyncio.to_thread(store_overlay, folder, name, data)
