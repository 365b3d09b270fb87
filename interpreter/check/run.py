"""The stages run on each file, by kind, each only when the ones before it found no error there.

    ruleset:  YAML -> schema -> references + DSL per player count -> whole-ruleset checks
              -> its overlays in combination (composed, compiled)
    overlay:  YAML -> schema -> chain and composition -> as a ruleset
              -> (a house rule) with its game's expansions, and with the others of its folder
    config:   YAML -> schema -> game, overlays, players, options -> composition compiled
    scenario: YAML -> schema -> per scenario: game as played (as a config) -> options of steps

A fault in one file's checker never hides the other files' results: it is reported on that
file (V999, or Y006 for nesting too deep to walk) and the run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from interpreter.check.compile import check_ruleset
from interpreter.check.compositions import check_combinations, check_overlay_file
from interpreter.check.configs import check_config_file
from interpreter.check.scenarios import check_scenario_file
from interpreter.check.session import Session
from interpreter.check.stacks import check_stacks
from interpreter.diagnostics.errors import Diagnostic

__all__ = ["check_files", "check_ruleset_file"]


def check_ruleset_file(run: Session, path: str, doc: Any) -> None:
    """Schema, then references, DSL and the whole-ruleset checks; then, when the base is sound,
    the base with its overlays in combination."""
    errs = run.schema_errors(doc.data, "ruleset", path)
    if errs:
        run.emit(errs)
        return
    found = check_ruleset(doc.data)
    run.emit(found)
    if not any(d.severity == "error" for d in found):
        check_combinations(run, path)


def check_house_rule_file(run: Session, path: str, doc: Any) -> None:
    """The overlay as its own file; then, when it is sound, in the stacks a game would lay it
    in (check/stacks.py)."""
    start = len(run.out)
    check_overlay_file(run, path, doc)
    if not any(d.severity == "error" for d in run.out[start:]):
        check_stacks(run, path)


_CHECK_BY_KIND = {
    "ruleset": check_ruleset_file,
    "overlay": check_house_rule_file,
    "config": check_config_file,
    "scenario": check_scenario_file,
}


def check_files(run: Session, files: list[str], kinds: Mapping[str, str]) -> None:
    """Run every stage that applies on each file; what they find goes to ``run.out``."""
    for path in files:
        kind = kinds[path]
        if kind == "skipped":
            continue
        run.checked_files.add(os.path.realpath(path))
        loaded = run.load(path)
        if loaded.doc is None:
            run.emit(loaded.diagnostics)
            continue
        try:
            _CHECK_BY_KIND[kind](run, path, loaded.doc)
        except RecursionError:
            run.emit([Diagnostic("Y006", "nesting too deep to check", file=path)])
        except Exception as err:  # a bug in a checker must not hide the other files' results
            run.emit([_internal_error(path, err)])


def _internal_error(path: str, err: Exception) -> Diagnostic:
    return Diagnostic(
        "V999",
        f"internal error while checking this file ({type(err).__name__}: "
        f"{' '.join(str(err).split())[:200]}); please report it",
        file=path,
    )
