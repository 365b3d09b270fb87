"""Uploaded house-rule overlays: size-checked, validated like ``rulebook validate`` (the same
located diagnostics), then kept content-addressed beside the database so tables that use them
can be rebuilt after a restart."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from interpreter.check import validate
from interpreter.diagnostics.report import format_text
from interpreter.serve.tables import ServeError

__all__ = ["MAX_UPLOAD", "UploadRejected", "store_overlay"]

MAX_UPLOAD = 256 * 1024  # bytes; a house rule is a page of YAML, not a data set


class UploadRejected(ServeError):
    """An uploaded overlay that does not validate; ``report`` is the validator's text."""

    def __init__(self, name: str, report: str) -> None:
        super().__init__(f"{name} does not validate:\n{report}", 422)
        self.report = report


def store_overlay(folder: Path, name: str, data: bytes) -> str:
    """Check and keep one uploaded overlay; returns the path a game config names it by."""
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
        tmp = folder / f".upload-{digest}-{os.getpid()}.yaml"
        tmp.write_text(text, encoding="utf-8")
        report = validate([str(tmp)], jobs=1)
        if report.errors:
            tmp.unlink()
            sources = {shown: next(iter(report.sources.values()), "")}
            diags = [_renamed(d, str(tmp), shown) for d in report.diagnostics]
            raise UploadRejected(shown, format_text(diags, sources=sources, summary=True))
        os.replace(tmp, path)
    return str(path)


def _renamed(diag, tmp: str, shown: str):  # type: ignore[no-untyped-def]
    """The diagnostic as the uploader knows the file: by the name they uploaded."""
    from dataclasses import replace

    return replace(diag, file=shown) if diag.file == tmp else diag
