"""Finding the files to check and telling what each one is, before anything is parsed.

:func:`discover` lists the YAML files below the paths given (less those marked to be left
out); :func:`classify` decides from a cheap text scan of a file's top-level keys whether it is
a ruleset, an overlay, a game config, a scenario file or something else (skipped);
:func:`plain_id` reads a ruleset's or overlay's id from its text when the text states it
plainly, so that most files need no parse just to be found.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable
from pathlib import Path

from interpreter.diagnostics.suggest import did_you_mean

__all__ = ["IGNORE_FILE", "KINDS", "PathError", "classify", "discover", "plain_id", "read_head"]

KINDS = ("ruleset", "overlay", "config", "scenario")
_KIND_KEY = {"ruleset": "ruleset", "overlay": "overlay", "game": "config"}
# Top-level keys only a scenario file has (a game config shares its game/players/with/options).
_SCENARIO_ONLY = ("scenarios", "steps", "expect", "setup", "name", "doc")
# Top-level keys only a rule file has: a file with one of these but no id is still checked.
_RULESET_ONLY = ("catalogs", "phases", "flow", "scoring", "procedures", "functions")
_OVERLAY_ONLY = ("extends",)
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:", re.MULTILINE)
_SCHEMA_LINE = re.compile(
    r"yaml-language-server:\s*\$schema=\S*?(ruleset|overlay|config|scenario)\.schema"
)
# `# rulebook: scenario` (or ruleset, overlay, config) declares a file's kind; `# rulebook: ignore`
# keeps it out of every folder search (a deliberately broken fixture, say)
_DECLARED = re.compile(
    r"^#[ \t]*rulebook:[ \t]*(ruleset|overlay|config|scenario|ignore)[ \t]*$", re.MULTILINE
)
IGNORE_FILE = ".rulebookignore"
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox"}
_ID_LINE = {
    kind: re.compile(rf"^{kind}:[ \t]*([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*(?:#.*)?$", re.MULTILINE)
    for kind in ("ruleset", "overlay")
}
_HEAD_BYTES = 1 << 16  # enough text to find a file's top-level keys and id


class PathError(Exception):
    """A path given to :func:`validate` does not exist or cannot be read (exit code 2)."""


def discover(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """Every YAML file named or found below the folders named, sorted, each once.

    Hidden folders and tool folders (``.git``, ``node_modules``, virtualenvs) are not entered,
    nor what a ``.rulebookignore`` of a folder searched lists (one pattern a line, relative to
    that folder, ``fixtures/`` for a folder, ``*.broken.yaml`` for files), nor a file whose
    first lines say ``# rulebook: ignore``; a file named explicitly is always taken, whatever
    its suffix.  Raises :class:`PathError` for a path that does not exist or a folder that
    cannot be listed.
    """
    found: dict[str, None] = {}
    for raw in paths:
        p = Path(raw)
        if p.is_file():
            found[os.fspath(raw)] = None
        elif p.is_dir():
            try:
                for path in _walk(p):
                    found[path] = None
            except OSError as err:
                raise PathError(f"{raw}: cannot list folder ({err.strerror or err})") from None
        elif p.exists():
            raise PathError(f"{raw}: not a file or folder")
        else:
            raise PathError(f"{raw}: no such file or folder")
    return sorted(found)


def _walk(top: Path) -> Iterable[str]:
    """The YAML files below ``top`` that no ignore rule leaves out."""
    rules: list[tuple[str, list[str]]] = []  # (folder, patterns) of the ignore files met
    for dirpath, dirnames, filenames in os.walk(top, onerror=_raise):
        if IGNORE_FILE in filenames:
            rules.append((dirpath, _patterns(os.path.join(dirpath, IGNORE_FILE))))
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in _SKIP_DIRS
            and not d.startswith(".")
            and not _ignored(os.path.join(dirpath, d), rules, folder=True)
        )
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith((".yaml", ".yml")) and not _ignored(path, rules, folder=False):
                if not _declared_ignore(path):
                    yield path


def _patterns(path: str) -> list[str]:
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]


def _ignored(path: str, rules: list[tuple[str, list[str]]], *, folder: bool) -> bool:
    for base, patterns in rules:
        rel = os.path.relpath(path, base)
        if rel.startswith(".."):
            continue
        rel = rel.replace(os.sep, "/")
        for pattern in patterns:
            if pattern.endswith("/"):
                if folder and fnmatch.fnmatchcase(rel, pattern.rstrip("/")):
                    return True
            elif fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(
                rel.rsplit("/", 1)[-1], pattern
            ):
                return True
    return False


def _declared_ignore(path: str) -> bool:
    head = read_head(path)
    if head is None:
        return False
    match = _DECLARED.search(head[:2000])
    return bool(match and match.group(1) == "ignore")


def _raise(err: OSError) -> None:
    raise err


def read_head(path: str) -> str | None:
    """The start of a file as text (enough to classify it), or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return fh.read(_HEAD_BYTES).decode("utf-8-sig", "replace")
    except OSError:
        return None


def classify(text: str) -> str:
    """``ruleset``, ``overlay``, ``config``, ``scenario`` or ``skipped``, from a text scan of
    top-level keys (or the kind a file declares: ``# rulebook: scenario``, a schema line).

    >>> classify("ruleset: x\\n"), classify("overlay: y\\n"), classify("repos: []\\n")
    ('ruleset', 'overlay', 'skipped')
    >>> classify("rulset: x\\nflow: {}\\n")
    'ruleset'
    >>> classify("game: g\\nplayers: 3\\n"), classify("game: g\\nscenarios: []\\n")
    ('config', 'scenario')
    """
    declared = _DECLARED.search(text[:2000])
    if declared and declared.group(1) != "ignore":
        return declared.group(1)
    keys = _TOP_KEY.findall(text)
    if "ruleset" in keys or "overlay" in keys:
        return "ruleset" if "ruleset" in keys else "overlay"
    if any(k in _SCENARIO_ONLY for k in keys):
        return "scenario"
    for key in keys:
        if key in _KIND_KEY:
            return _KIND_KEY[key]
    marker = _SCHEMA_LINE.search(text[:2000])
    if marker:
        return marker.group(1)
    for key in keys:
        guess = did_you_mean(key, _KIND_KEY)
        if guess and guess != key:
            return _KIND_KEY[guess]
    if any(k in _RULESET_ONLY for k in keys):
        return "ruleset"
    if any(k in _OVERLAY_ONLY for k in keys):
        return "overlay"
    return "skipped"


def plain_id(head: str, kind: str) -> str | None:
    """A ruleset's or overlay's id when its file states it once, as a plain word at the top
    level (``ruleset: my-game``); None when only parsing can tell.

    >>> plain_id("# x\\nruleset: my-game  # the base\\nplayers: {}\\n", "ruleset")
    'my-game'
    >>> plain_id("overlay: a\\noverlay: b\\n", "overlay") is None
    True
    """
    found = _ID_LINE[kind].findall(head)
    return found[0] if len(found) == 1 else None
