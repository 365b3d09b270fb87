"""The agent environment's hot modules, compiled where a C compiler was at hand.

``pip install`` compiles the modules named in :data:`COMPILED` with Cython, each from its own
``.py`` file, into an extension module beside it (pyproject.toml, ``ext-modules``; about 1.3x
the environment's steps per second, docs/performance.md). The compilation is optional: without a
compiler the install goes on and the same modules run as plain Python, with the same results.

Python itself prefers an extension module to the source beside it. The finder installed here
(by the package's ``__init__``) decides instead, for all of them at once:

* ``RULEBOOK_PURE_PYTHON=1`` in the environment: the sources, always (the tests run both ways
  and compare them; a profiler sees inside the source);
* a module without a build, or with a build older than its source or than its C layout (the
  ``.pxd`` beside it: an edit or a checkout after the last build): the sources, so that an
  edit is never silently shadowed by a stale build;
* otherwise the extension modules.

All or none, because a compiled module reads the classes of another (its ``.pxd``) by their C
layout: a compiled encoder beside an owners module run from its source would not load.
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

__all__ = ["COMPILED", "PURE_ENV", "install", "is_build", "status"]

PACKAGE = "interpreter.agents"
# the modules a step of the environment runs (pyproject.toml names the same ones)
COMPILED = ("encoder", "env", "owners", "refill", "spaces", "walk")
PURE_ENV = "RULEBOOK_PURE_PYTHON"
FOLDER = Path(__file__).resolve().parent


def _pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def is_build(file: str) -> bool:
    """Whether a module's ``__file__`` is an extension module: the module runs compiled (its
    C functions, declared in its ``.pxd``, exist only then)."""
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def extension_of(name: str, folder: Path = FOLDER) -> Path | None:
    """The compiled module ``name`` in ``folder``, if one was built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def built_fresh(name: str, folder: Path = FOLDER) -> bool:
    """Whether module ``name`` in ``folder`` has a build no older than its source and its C
    layout (``.pxd``, where it has one)."""
    extension = extension_of(name, folder)
    if extension is None:
        return False
    try:
        built = extension.stat().st_mtime_ns
        sources = [folder / f"{name}.py", folder / f"{name}.pxd"]
        return all(not s.exists() or s.stat().st_mtime_ns <= built for s in sources)
    except OSError:
        return False


def sources_win(
    folder: Path = FOLDER, pure: bool | None = None, names: Sequence[str] = COMPILED
) -> bool:
    """Whether the modules ``names`` load from their sources (all of them; see the module)
    rather than their builds; ``pure`` None reads the environment."""
    if _pure() if pure is None else pure:
        return True
    return not all(built_fresh(name, folder) for name in names)


class _Chooser(importlib.abc.MetaPathFinder):
    """Loads a :data:`COMPILED` module from its source when :func:`sources_win` says so;
    leaves everything else, and the extension modules, to Python's own finders."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in COMPILED:
            return None
        if not sources_win():
            return None
        return importlib.util.spec_from_file_location(fullname, FOLDER / f"{name}.py")


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
            compiled = not sources_win()
        out[name] = "compiled" if compiled else "python"
    return out
