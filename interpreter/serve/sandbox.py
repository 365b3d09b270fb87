"""Check an uploaded rule file in a worker process with a memory and a time limit.

An upload is anyone's text, and checking it means loading YAML, composing it onto its game and
compiling the result: work whose cost the uploader chooses. The server therefore never checks
an upload itself. A fresh ``python -m interpreter.serve.sandbox`` process does, under an
address-space limit (``RLIMIT_AS``, set by the worker on itself before it imports the
validator) and a wall-clock limit (the worker is killed when it passes it), and at most
:data:`MAX_WORKERS` at a time. A fresh process rather than a fork: the server runs an event loop
and threads, which a fork would copy in whatever state they were in.

The worker prints one JSON object, the verdict: ``{"verdict": "ok"}``, ``{"verdict":
"rejected", "report": TEXT}`` (the validator's located diagnostics, the file named as the
uploader named it), or ``{"verdict": "memory"}``. :func:`check_upload` turns a verdict, a
timeout or a worker that stopped without one into ``None`` or a :class:`CheckRefused`.

Limits, read at each check (the defaults suit a page of house rules on a small server):
``RULEBOOK_UPLOAD_SECONDS`` (default 20) and ``RULEBOOK_UPLOAD_MEMORY_MB`` (default 1024).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

__all__ = [
    "MAX_WORKERS",
    "CheckRefused",
    "check_upload",
    "memory_limit_mb",
    "time_limit_s",
]

MAX_WORKERS = 2  # checks at once; more uploads wait for a turn (within their own time limit)
DEFAULT_SECONDS = 20.0
DEFAULT_MEMORY_MB = 1024

_ROOT = str(Path(__file__).resolve().parents[2])  # where the `interpreter` package lives
_TURNS = threading.BoundedSemaphore(MAX_WORKERS)
_log = logging.getLogger("rulebook.serve")


class CheckRefused(Exception):
    """The upload could not be checked, or does not validate: ``status`` and a message saying
    which; ``report`` is the validator's text when the file was checked and refused."""

    def __init__(self, message: str, status: int, report: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.report = report


def _env_number(name: str, default: float) -> float:
    text = os.environ.get(name, "")
    try:
        value = float(text)
    except ValueError:
        return default
    return value if value > 0 else default


def time_limit_s() -> float:
    """Seconds a check may take, from ``RULEBOOK_UPLOAD_SECONDS`` (default 20)."""
    return _env_number("RULEBOOK_UPLOAD_SECONDS", DEFAULT_SECONDS)


def memory_limit_mb() -> int:
    """Megabytes of address space a check may use, from ``RULEBOOK_UPLOAD_MEMORY_MB``."""
    return int(_env_number("RULEBOOK_UPLOAD_MEMORY_MB", DEFAULT_MEMORY_MB))


def check_upload(path: str, shown: str) -> None:
    """Validate the rule file at ``path`` in a limited worker; returns when it validates.

    Raises :class:`CheckRefused`: 422 with the report when the file does not validate, 413
    when its check passed the time or the memory limit, 503 when no worker was free in time.
    Blocks the calling thread (never the event loop's: call it through ``asyncio.to_thread``).
    """
    seconds = time_limit_s()
    if not _TURNS.acquire(timeout=seconds):
        raise CheckRefused(
            f"{shown} could not be checked now: the server is checking other uploads; "
            "try again in a moment",
            503,
        )
    try:
        return _run_worker(path, shown, seconds, memory_limit_mb())
    finally:
        _TURNS.release()


def _run_worker(path: str, shown: str, seconds: float, memory_mb: int) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "interpreter.serve.sandbox", path, shown, str(memory_mb)]
    try:
        done = subprocess.run(
            command, capture_output=True, timeout=seconds, env=env, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:  # run() has killed the worker and waited for it
        raise CheckRefused(
            f"{shown} is too costly to check: its check passed the time limit "
            f"({seconds:g} s) and was stopped",
            413,
        ) from None
    verdict = _verdict(done.stdout)
    if verdict is None:
        if _out_of_memory(done.stderr.decode("utf-8", "replace")):
            verdict = {"verdict": "memory"}
        else:
            tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["-"]
            _log.warning("upload check of %s stopped (exit %s): %s", shown, done.returncode, tail)
            raise CheckRefused(f"{shown} could not be checked: the check stopped", 500)
    if verdict.get("verdict") == "ok":
        return None
    if verdict.get("verdict") == "rejected":
        report = str(verdict.get("report", ""))
        raise CheckRefused(f"{shown} does not validate:\n{report}", 422, report)
    raise CheckRefused(
        f"{shown} is too costly to check: its check passed the memory limit ({memory_mb} MB)",
        413,
    )


def _out_of_memory(text: str) -> bool:
    """Whether a failure's words are those of an allocation the memory limit refused."""
    return any(
        sign in text for sign in ("MemoryError", "Cannot allocate memory", "failed to map segment")
    )


def _verdict(out: bytes) -> dict[str, object] | None:
    lines = out.decode("utf-8", "replace").strip().splitlines()
    if not lines:
        return None
    try:
        verdict = json.loads(lines[-1])
    except ValueError:
        return None
    return verdict if isinstance(verdict, dict) else None


# ------------------------------------------------------------------------------- the worker


def _limit_memory(megabytes: int) -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX: the time limit still holds
        return
    limit = megabytes * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _worker(path: str, shown: str) -> dict[str, object]:
    """The verdict on one file; runs inside the limited process."""
    from dataclasses import replace

    from interpreter.check import validate
    from interpreter.diagnostics.report import format_text

    report = validate([path], jobs=1)
    if any(
        d.code == "V999" and "(MemoryError" in d.message for d in report.diagnostics
    ):  # the validator reports a checker's failure on the file; this one is the limit's
        return {"verdict": "memory"}
    if not report.errors:
        return {"verdict": "ok"}
    sources = {shown: next(iter(report.sources.values()), "")}
    diags = [replace(d, file=shown) if d.file == path else d for d in report.diagnostics]
    return {"verdict": "rejected", "report": format_text(diags, sources=sources, summary=True)}


def main(argv: list[str]) -> int:
    """``python -m interpreter.serve.sandbox PATH SHOWN MEGABYTES``: print the verdict."""
    path, shown, megabytes = argv[0], argv[1], int(argv[2])
    _limit_memory(megabytes)
    try:
        verdict = _worker(path, shown)
    except MemoryError:
        verdict = {"verdict": "memory"}
    except (ImportError, OSError) as err:
        if not _out_of_memory(str(err)):
            raise
        verdict = {"verdict": "memory"}  # a library that could not be mapped under the limit
    sys.stdout.write(json.dumps(verdict) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
