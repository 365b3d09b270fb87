"""The agent environment's hot modules, compiled where a C compiler was at hand.

``pip install`` compiles the modules named in :data:`COMPILED` with Cython, each from its own
``.py`` file, into an extension module beside it (pyproject.toml, ``ext-modules``; about 1.2x
the environment's steps per second, docs/performance.md). The compilation is optional: without a
compiler the install goes on and the same modules run as plain Python, with the same results.

Python itself prefers an extension module to the source beside it. The finder installed here
(by the package's ``__init__``) decides instead, module by module:

* ``RULEBOOK_PURE_PYTHON=1`` in the environment: the source, always (the tests run both ways
  and compare them; a profiler sees inside the source);
* an extension module older than its source (the source was edited or checked out after the
  last build): the source, so that an edit is never silently shadowed by a stale build;
* otherwise the extension module, where there is one.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED", "PURE_ENV", "install", "status"]

PACKAGE = "interpreter.agents"
# the modules a step of the environment runs (pyproject.toml names the same ones)
COMPILED = ("encoder", "env", "owners", "refill", "spaces", "walk")
PURE_ENV = "RULEBOOK_PURE_PYTHON"
FOLDER = Path(__file__).resolve().parent


def _pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def extension_of(name: str, folder: Path = FOLDER) -> Path | None:
    """The compiled module ``name`` in ``folder``, if one was built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def source_wins(source: Path, extension: Path | None, pure: bool) -> bool:
    """Whether ``source`` is loaded rather than ``extension`` (see the module)."""
    if extension is None or pure:
        return True
    try:
        return source.stat().st_mtime_ns > extension.stat().st_mtime_ns
    except OSError:
        return True


class _Chooser(importlib.abc.MetaPathFinder):
    """Loads a :data:`COMPILED` module from its source when :func:`source_wins` says so;
    leaves everything else, and the extension modules, to Python's own finders."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in COMPILED:
            return None
        source = FOLDER / f"{name}.py"
        if not source_wins(source, extension_of(name), _pure()):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def install() -> None:
    """Put the finder ahead of Python's own (once per process)."""
    if not any(isinstance(f, _Chooser) for f in sys.meta_path):
        sys.meta_path.insert(0, _Chooser())


def status() -> dict[str, str]:
    """Each compiled-or-not module and how it runs in this process, as it would be (or was)
    imported: ``compiled`` or ``python``."""
    out = {}
    for name in COMPILED:
        module = sys.modules.get(f"{PACKAGE}.{name}")
        if module is not None:
            compiled = not str(getattr(module, "__file__", "")).endswith(".py")
        else:
            compiled = not source_wins(FOLDER / f"{name}.py", extension_of(name), _pure())
        out[name] = "compiled" if compiled else "python"
    return out
