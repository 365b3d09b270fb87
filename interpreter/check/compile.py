"""References and DSL (R, D codes): a ruleset compiled once for each player count it allows.

The ruleset is built with :func:`interpreter.model.rules.build_rules` in checking mode, which
reports every reference and effect-language fault it meets instead of stopping at the first;
only when every count compiles do the whole-ruleset checks run (a mistyped call must not also
read as "never used").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.check.drawing import drawing_faults
from interpreter.check.gesture_names import gesture_faults
from interpreter.check.references import whole_ruleset_checks
from interpreter.check.setup import setup_faults
from interpreter.check.taint import leak_flows
from interpreter.diagnostics.errors import ConfigError, Diagnostic, RulesError
from interpreter.load.locate import is_map, locate

__all__ = ["MAX_COUNTS", "check_ruleset", "player_counts", "whole_number"]

# Most player counts a ruleset is compiled for (the smallest, the largest, and the ones between).
MAX_COUNTS = 8


def whole_number(value: Any, default: int) -> int:
    """``value`` when it is an int (not a bool), else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def player_counts(data: Mapping[str, Any]) -> list[int]:
    """Every player count the ruleset allows, or :data:`MAX_COUNTS` spread from least to most."""
    pl = data.get("players") or {}
    lo = whole_number(pl.get("min"), 1)
    hi = max(lo, whole_number(pl.get("max"), lo))
    counts = list(range(lo, hi + 1))
    if len(counts) > MAX_COUNTS:
        step = (hi - lo) / (MAX_COUNTS - 1)
        counts = sorted({lo + round(i * step) for i in range(MAX_COUNTS)})
    return counts


def check_ruleset(
    data: Any,
    *,
    counts: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    whole: bool = True,
    setup: bool = True,
    keep: list[Any] | None = None,
) -> list[Diagnostic]:
    """References and DSL (compiled per player count), then the whole-ruleset checks.

    ``data`` is a schema-valid ruleset tree (a loaded or composed document).  ``counts``
    defaults to every allowed player count (at most :data:`MAX_COUNTS` of them), ``options``
    to the declared defaults.  With ``whole=False`` the whole-ruleset checks are left out.
    With ``setup`` (the default), when nothing else is wrong, each count is also set up once
    and its declared invariants checked after (check/setup.py); the code of a text is written
    only if the set-up runs it (``deferred``). ``keep``, a list, is given the first count's
    rules when they compile (what a scenario's expressions are compiled against).
    """
    from interpreter.model.rules import build_rules

    out: list[Diagnostic] = []
    if not is_map(data):
        return out
    if counts is None:
        counts = player_counts(data)
    declared = data.get("options") or {}
    resolved = {str(k): (v or {}).get("default") for k, v in declared.items() if is_map(v)}
    resolved.update(options or {})
    failed = False
    set_up: list[Diagnostic] = []  # the first count's set-up faults, reported if nothing else is
    same_for_all = False  # nothing checked read the count's value: later counts only set up
    marks: dict[Any, Any] | None = None  # the decisions a hidden field decides (full build)
    leaks_read = False  # the static leak check ran on a full build's texts
    for n in counts:
        notes: dict[str, Any] = {}
        if same_for_all:
            if not setup or set_up:
                break
            # every diagnostic this count could give, the first count gave already; only its
            # set-up is its own (tables by player count, a count in a set-up rule)
            try:
                rules = build_rules(data, n, dict(resolved), lazy=True, secret_marks=marks)
            except (RulesError, ConfigError):
                break
            set_up = setup_faults(rules, n, resolved)
            continue
        try:
            rules = build_rules(
                data,
                n,
                dict(resolved),
                for_checking=failed or not setup,
                deferred=True,
                notes=notes,
            )
        except RulesError as err:
            failed = True
            out.extend(err.diagnostics)
        except ConfigError as err:
            failed = True
            out.append(Diagnostic("C005", str(err), *locate(data, ["options"])))
        else:
            out.extend(rules.warnings)
            if not leaks_read and "texts" in notes:
                # values read from hidden fields where other seats read them: once (L005)
                out.extend(leak_flows(notes["texts"], data))
                leaks_read = True
            if keep is not None and not keep:
                keep.append(rules)
            if setup and not failed and not set_up:
                # now, while this count's rules are at hand: kept for later, they would cost
                # memory (and the garbage collector's time) for every count
                set_up = setup_faults(rules, n, resolved)
        marks = notes.get("secret_marks", marks)
        if notes.get("count_used") is False:
            if failed:
                break  # every other count fails just so
            same_for_all = True
    if whole and not failed:
        # only on a ruleset that compiles: a mistyped call must not also read as "never used"
        out.extend(whole_ruleset_checks(data))
    if whole:
        # the board's drawing names fields, catalogs and tables: a slip would draw nothing
        out.extend(drawing_faults(data))
        out.extend(gesture_faults(data))
    if not any(d.severity == "error" for d in out):
        # a set-up failing for a reason already reported (a table listing more copies than
        # the catalog has) would only repeat it; one count's set-up fault is enough
        out.extend(set_up)
    return out
