"""The checking pipeline behind ``rulebook validate``: rule files checked like a compiler.

Given files and folders, :func:`validate` finds every ``*.yaml`` / ``*.yml`` below them, decides
what each one is, and runs the stages in order, collecting *all* diagnostics of *all* files::

    YAML (Y)  ->  JSON Schema (S)  ->  composition (O)  ->  references + DSL (R, D)
              ->  whole-ruleset checks that need no game (R004, R005, W002-W005)

What a file is, decided from its top-level keys (a cheap text scan, before parsing):

* ``ruleset: ID``  a base ruleset: schema-checked, then compiled once per allowed player count
  (with the options' defaults), then the whole-ruleset checks;
* ``overlay: ID``  an overlay: schema-checked, then composed onto what it ``extends`` (found
  among the files given, beside the overlay, or among the installed rulesets) so that its
  reference and DSL faults surface; an overlay extending another overlay composes the whole
  chain, so two overlays changing the same entry are reported naming both files (O008); a
  house rule (an overlay away from its base) is then stacked with its game's expansions and
  with the other house rules of its folder, a stack that does not load refused as a warning
  (:mod:`interpreter.check.stacks`);
* ``game: NAME``   a game config: schema-checked, then its game, overlays, player count and
  options are resolved (C001-C005) and the composition it asks for is compiled;
* ``scenarios:`` (or ``game:`` with ``steps:``/``expect:``/``setup:``)  a scenario file: the
  game each scenario plays resolved as a config's, its options (T002), expressions (T003) and
  log texts (T004) checked against that game;
* anything else (``.pre-commit-config.yaml``, CI workflows, charts, ...) is *skipped*, listed
  as such, and never fails a run.  A file that looks like a rule file with a slip in it (a
  misspelt kind key beside keys only that kind has, a ruleset's sections without its id) is
  checked as one, so a typo cannot make a rule file silently vanish from CI
  (:func:`~interpreter.load.discovery.classify` has the exact rules).

A stage runs on a file only when the stages before it found no error there (a schema error
would otherwise echo as a string of confusing compile errors, and a mistyped call would also
make its function look unused).  Identical diagnostics (the
same fault seen for three player counts, or through a base and its overlay) are reported once;
the order is by file, line, column, then code.  Warnings from files outside the ones given
(e.g. an installed base an overlay extends) are not reported; errors always are.

>>> from pathlib import Path
>>> report = validate([Path(__file__).parents[2] / "tests/toy"])
>>> report.errors, [f.kind for f in report.files]
(0, ['overlay', 'ruleset'])
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from interpreter.check.run import check_files
from interpreter.check.session import Session
from interpreter.check.verdicts import CheckedFile, Report, dedupe
from interpreter.check.workers import (
    available_cores,
    balance,
    env_jobs,
    fewer_collections,
    run_all,
)
from interpreter.diagnostics.errors import Diagnostic
from interpreter.load.discovery import classify, discover, read_head

__all__ = ["validate"]

_PARALLEL_FROM = 48_000  # bytes of rule text (bases counted again for their overlays)
# what a file that compiles a game whose base is not among the files given (a house rule of an
# installed game, stacked with its expansions; a config; a scenario file) is counted as: a
# game's worth of rule text, enough work for a process of its own
_A_GAME = _PARALLEL_FROM


def validate(paths: Iterable[str | os.PathLike[str]], *, jobs: int | None = None) -> Report:
    """Check every rule file named or found below ``paths``; never raises for bad content.

    ``jobs`` is how many processes may share the checking (default: ``RULEBOOK_JOBS``, else
    every core); small runs stay in this process, where a fork would cost more than it saves.
    Raises :class:`PathError` only when a path does not exist or cannot be listed.
    """
    with fewer_collections():
        return _validate(discover(paths), jobs)


def _validate(files: list[str], jobs: int | None) -> Report:
    run = Session()
    kinds: dict[str, str] = {}
    heads: dict[str, str] = {}
    for path in files:
        head = read_head(path)
        if head is None:
            kinds[path] = "ruleset"  # the load stage reports why it cannot be read
            continue
        kinds[path] = classify(head)
        heads[path] = head
    for path in files:
        if kinds[path] in ("ruleset", "overlay"):
            # parsing is left to the workers where the text states the id plainly
            run.note_given(path, kinds[path], heads.get(path))
    checked = [CheckedFile(path, kinds[path]) for path in files]
    todo = [path for path in files if kinds[path] != "skipped"]
    lists = _work_lists(todo, kinds, jobs)
    # every file given is parsed above, before any fork: the workers inherit the parses
    for out, done, sources in run_all(lambda part: _check_part(run, part, kinds), lists):
        run.out.extend(out)
        run.checked_files |= done
        for f, text in sources.items():
            run.sources.setdefault(f, text)
    keep = [
        d
        for d in run.out
        if not (d.severity == "warning" and d.file and _real(d.file) not in run.checked_files)
    ]
    return Report(diagnostics=dedupe(keep), files=checked, sources=run.sources)


def _work_lists(todo: list[str], kinds: Mapping[str, str], jobs: int | None) -> list[list[str]]:
    """The files to check, split into lists of similar cost for the workers (or one list)."""
    want = jobs or env_jobs() or available_cores()
    size = {path: _size(path) for path in todo}
    base_size: dict[str, int] = {}
    for path in todo:
        if kinds[path] == "ruleset":
            folder = _folder(path)
            base_size[folder] = max(base_size.get(folder, 0), size[path])
    costs = [
        (p, size[p] + (0 if kinds[p] == "ruleset" else base_size.get(_folder(p), _A_GAME)))
        for p in todo
    ]
    if want < 2 or len(todo) < 2 or sum(c for _, c in costs) < _PARALLEL_FROM:
        return [todo] if todo else []
    # a folder's files share its base's parsed texts: they stay together unless one folder
    # is all there is; the files of a folder without a base (house rules, configs, scenarios
    # of installed games) go each their own way
    groups: dict[str, list[str]] = {}
    for p in todo:
        folder = _folder(p)
        groups.setdefault(folder if folder in base_size else p, []).append(p)
    if len(groups) == 1:
        return balance(costs, want)
    cost = dict(costs)
    folders = [(f, sum(cost[p] for p in ps)) for f, ps in groups.items()]
    lists = balance(folders, want)
    return [sorted((p for f in lst for p in groups[f]), key=todo.index) for lst in lists]


def _folder(path: str) -> str:
    return os.path.dirname(os.path.realpath(path))


def _real(path: str) -> str:
    return os.path.realpath(path)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _check_part(
    run: Session, part: list[str], kinds: Mapping[str, str]
) -> tuple[list[Diagnostic], set[str], dict[str, str]]:
    """Check one work list; what it found, the files it checked and their texts."""
    start = len(run.out)
    check_files(run, part, kinds)
    out = run.out[start:]
    sources: dict[str, str] = {}
    for f in {d.file for d in out if d.file}:
        if f in run.sources:
            sources[f] = run.sources[f]
            continue
        loaded = run.loaded.get(_real(f))
        if loaded is not None and loaded.doc is not None:
            sources[f] = loaded.doc.text
    return out, {_real(p) for p in part}, sources
