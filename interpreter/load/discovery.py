"""Finding rule files and telling what each one is, before anything is parsed: the files
``rulebook validate`` checks and the scenario files ``rulebook test`` runs.

:func:`discover` lists the YAML files below the paths given (less those marked to be left
out); :func:`classify` decides from a cheap text scan of a file's top-level keys whether it is
a ruleset, an overlay, a game config, a scenario file or something else (skipped);
:func:`plain_id` reads a ruleset's or overlay's id from its text when the text states it
plainly, so that most files need no parse just to be found.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from interpreter.diagnostics.suggest import did_you_mean

__all__ = [
    "IGNORE_FILE",
    "KINDS",
    "SCHEMA_KEYS",
    "PathError",
    "classify",
    "discover",
    "plain_id",
    "read_head",
    "skip_reason",
]

KINDS = ("ruleset", "overlay", "config", "scenario")
_KIND_KEY = {"ruleset": "ruleset", "overlay": "overlay", "game": "config"}
# Beside `game:`, a key only a scenario file has makes it one (a config has none of these).
_SCENARIO_ONLY = ("scenarios", "steps", "expect", "setup", "name", "doc")
_SCENARIO_BODY = ("steps", "expect", "setup")
# Every top-level key of the four schemas: such a key is meant as written, never a misspelling
# (`name:` is a scenario's key, not a slip for `game:`).  tests/validate/test_file_kinds.py
# holds this list to the schemas.
SCHEMA_KEYS = frozenset(
    (
        *("ruleset", "overlay", "game", "title", "description", "doc", "name"),
        *("players", "with", "options", "seed", "seats", "scenarios", "setup", "steps"),
        *("forced", "optional", "blocks", "check-totals"),
        *("expect", "extends", "add", "replace", "patch", "remove", "extension-points"),
        *("sets", "tables", "catalogs", "state", "events", "functions", "procedures", "flow"),
        *("limits", "phases", "scoring", "invariants", "presentation"),
    )
)
# A ruleset's own sections: two of them (no id) still make a ruleset, so a file that lost its
# `ruleset:` line is checked; one alone is too common elsewhere (a build spec's `phases:`, a
# serverless app's `functions:`).
_RULESET_SECTIONS = (
    *("catalogs", "phases", "flow", "scoring", "procedures", "functions", "invariants"),
    "extension-points",
)
# What else a file must have for a misspelt kind key (`rulset:`, `overlya:`, `gmae:`) to count:
# a key close to one of those is common in other YAML (`rules:` in a linter's config), so the
# guess needs a key only that kind of rule file has beside it.
_EVIDENCE = {
    "ruleset": ("players", *_RULESET_SECTIONS),
    "overlay": ("extends", "add", "replace", "patch", "remove"),
    "game": ("players", "with", "seats", "expect", "setup"),
}
_OVERLAY_CHANGES = ("add", "replace", "patch", "remove")
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:", re.MULTILINE)
# the schema file itself must be named, not one whose name merely ends so (`compose-config.`)
_SCHEMA_LINE = re.compile(
    r"yaml-language-server:[ \t]*\$schema=(?:\S*[/\\])?(ruleset|overlay|config|scenario)"
    r"\.schema\.json(?:\s|$)"
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
    """A path given to :func:`discover` does not exist or cannot be read (exit code 2)."""


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

    ``ruleset:`` makes a ruleset, ``overlay:`` an overlay, ``scenarios:`` a scenario file, and
    ``game:`` a scenario file with ``steps:``, ``expect:`` or another scenario key beside it,
    else a game config.  Any other YAML (a CI workflow, a chart, an environment) is skipped,
    unless it looks like a rule file with a slip in it: a misspelt kind key beside keys only
    that kind has, or two of a ruleset's own sections, or an overlay's ``extends:`` with a
    change.  :func:`skip_reason` says why a skipped file is not a rule file.

    >>> classify("ruleset: x\\n"), classify("overlay: y\\n"), classify("repos: []\\n")
    ('ruleset', 'overlay', 'skipped')
    >>> classify("rulset: x\\nflow: {}\\n"), classify("rules: {}\\nenv: {}\\n")
    ('ruleset', 'skipped')
    >>> classify("game: g\\nplayers: 3\\n"), classify("game: g\\nscenarios: []\\n")
    ('config', 'scenario')
    >>> classify("name: CI\\non: [push]\\njobs: {}\\n"), classify("name: x\\nsteps: []\\n")
    ('skipped', 'skipped')
    """
    return _kind(text)[0]


def skip_reason(text: str) -> str:
    """Why a file that :func:`classify` skips is not a rule file, in words (for ``--verbose``).

    >>> skip_reason("name: CI\\non: [push]\\njobs: {}\\n")
    'no top-level ruleset:, overlay:, game: or scenarios: key; its keys: name, on, jobs'
    """
    return _kind(text)[1]


def _kind(text: str) -> tuple[str, str]:
    """(kind, why it is skipped: empty unless the kind is ``skipped``)."""
    declared = _DECLARED.search(text[:2000])
    if declared and declared.group(1) != "ignore":
        return declared.group(1), ""
    keys = list(dict.fromkeys(_TOP_KEY.findall(text))) or _json_keys(text)
    if "ruleset" in keys or "overlay" in keys:
        return ("ruleset" if "ruleset" in keys else "overlay"), ""
    if "scenarios" in keys:
        return "scenario", ""
    if "game" in keys:
        return ("scenario" if any(k in _SCENARIO_ONLY for k in keys) else "config"), ""
    marker = _SCHEMA_LINE.search(text[:2000])
    if marker:
        return marker.group(1), ""
    for key in keys:
        guess = None if key in SCHEMA_KEYS else did_you_mean(key, _KIND_KEY)
        if guess and any(k in _EVIDENCE[guess] for k in keys if k != key):
            if guess == "game" and any(k in _SCENARIO_ONLY for k in keys):
                return "scenario", ""
            return _KIND_KEY[guess], ""
    if "players" in keys and any(k in _SCENARIO_BODY for k in keys):
        return "scenario", ""  # a scenario that forgot its game: T001 says so
    if sum(k in _RULESET_SECTIONS for k in keys) >= 2:
        return "ruleset", ""
    if "extends" in keys and any(k in _OVERLAY_CHANGES for k in keys):
        return "overlay", ""
    return "skipped", _why_not(keys)


def _json_keys(text: str) -> list[str]:
    """The top-level keys of a file written as JSON (which YAML reads as it is), whose keys
    the line scan cannot see.

    >>> _json_keys('{"overlay": "x", "extends": "g"}'), _json_keys("[1]"), _json_keys("{oops")
    (['overlay', 'extends'], [], [])
    """
    if not text.lstrip().startswith("{"):
        return []
    try:
        data = json.loads(text)
    except ValueError:
        return []
    return [str(k) for k in data] if isinstance(data, dict) else []


def _why_not(keys: list[str]) -> str:
    if not keys:
        return "no top-level keys (not a mapping, or empty)"
    shown = ", ".join(keys[:6]) + (", ..." if len(keys) > 6 else "")
    if "steps" in keys or "expect" in keys or "setup" in keys:
        return f"no scenarios: key, and steps:/expect:/setup: without game:; its keys: {shown}"
    return f"no top-level ruleset:, overlay:, game: or scenarios: key; its keys: {shown}"


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
