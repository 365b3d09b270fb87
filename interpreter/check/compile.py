"""References and DSL (R, D codes): a ruleset compiled once for each player count it allows.

The ruleset is compiled with :func:`interpreter.model.rules.compile_rules`, which reports every
reference and effect-language fault it meets instead of stopping at the first;
only when every count compiles do the whole-ruleset checks run (a mistyped call must not also
read as "never used").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from interpreter.check.act_names import act_faults
from interpreter.check.drawing import drawing_faults
from interpreter.check.gesture_names import gesture_faults
from interpreter.check.references import whole_ruleset_checks
from interpreter.check.setup import setup_faults
from interpreter.check.taint import leak_flows
from interpreter.compose.paths import named_path
from interpreter.diagnostics.errors import ConfigError, Diagnostic, RulesError
from interpreter.dsl.compiler import Emit, EmitPlan
from interpreter.load.locate import is_map, locate
from interpreter.ruleset.header import PlayerRange
from interpreter.ruleset.ruleset import Ruleset

if TYPE_CHECKING:
    from interpreter.model.rules import Rules, SecretMarks
    from interpreter.model.texts import Texts

__all__ = ["MAX_COUNTS", "check_ruleset", "player_counts", "whole_number"]

# Most player counts a ruleset is compiled for (the smallest, the largest, and the ones between).
MAX_COUNTS = 8


def whole_number(value: object, default: int) -> int:
    """``value`` when it is an int (not a bool), else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def player_counts(players: PlayerRange) -> list[int]:
    """Every player count a ruleset allows (its header's ``players``), or :data:`MAX_COUNTS`
    spread from least to most."""
    lo = players.min
    hi = max(lo, players.max)
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
    keep: list[Rules] | None = None,
) -> list[Diagnostic]:
    """References and DSL (compiled per player count), then the whole-ruleset checks.

    ``data`` is a schema-valid ruleset tree (a loaded or composed document).  ``counts``
    defaults to every allowed player count (at most :data:`MAX_COUNTS` of them), ``options``
    to the declared defaults.  With ``whole=False`` the whole-ruleset checks are left out.
    With ``setup`` (the default), when nothing else is wrong, each count is also set up once
    and its declared invariants checked after (check/setup.py); the code of a text is written
    only if the set-up runs it (``Emit.ON_FIRST_RUN``). ``keep``, a list, is given the first count's
    rules when they compile (what a scenario's expressions are compiled against).
    """
    if not is_map(data):
        return []
    ruleset = Ruleset.of(data)
    chosen = {**ruleset.header.option_defaults(), **(options or {})}
    counting = _Counts(ruleset, chosen, setup, keep)
    for n in player_counts(ruleset.header.players) if counts is None else counts:
        if not counting.check(n):
            break
    out = counting.out
    if whole:
        if not counting.failed:
            # only on a ruleset that compiles: a mistyped call must not also read as "never
            # used"
            out.extend(whole_ruleset_checks(ruleset))
        # the board's drawing names fields, catalogs and tables: a slip would draw nothing
        out.extend(drawing_faults(ruleset))
        out.extend(gesture_faults(ruleset))
        out.extend(act_faults(ruleset))
    if not any(d.severity == "error" for d in out):
        # a set-up failing for a reason already reported (a table listing more copies than
        # the catalog has) would only repeat it; one count's set-up fault is enough
        out.extend(counting.set_up)
    return out


class _Counts:
    """The ruleset built for one player count after another, collecting what each gives."""

    def __init__(
        self, ruleset: Ruleset, resolved: dict[str, Any], setup: bool, keep: list[Rules] | None
    ) -> None:
        self.ruleset = ruleset
        self.data = ruleset.data
        self.resolved = resolved
        self.setup = setup
        self.keep = keep
        self.out: list[Diagnostic] = []
        self.failed = False
        self.set_up: list[Diagnostic] = []  # the first count's set-up faults, if nothing else
        self.same_for_all = (
            False  # nothing checked read the count's value: later counts only set up
        )
        self.marks: SecretMarks | None = None  # the decisions a hidden field decides
        self.leaks_read = False  # the static leak check ran on a full build's texts

    def check(self, n: int) -> bool:
        """Check count ``n``; False when the later counts have nothing more to give."""
        if self.same_for_all:
            return self._set_up_only(n)
        from interpreter.model import rules

        # the code of a text is written only if the set-up runs it; none when none will run
        when = Emit.CHECK_ONLY if self.failed or not self.setup else Emit.ON_FIRST_RUN
        try:
            plan = EmitPlan(when)
            built = rules.compile_rules(self.data, n, dict(self.resolved), plan, typed=self.ruleset)
        except RulesError as err:
            self.failed = True
            self.out.extend(err.diagnostics)
            return True
        except ConfigError as err:
            self.failed = True
            self.out.append(Diagnostic("C005", str(err), *locate(self.data, ["options"])))
            return True
        if built.rules is None:
            self.failed = True
            self.out.extend(built.faults)
        else:
            self._compiled(built.rules, n, built.texts)
        self.marks = built.marks
        if not built.count_used:
            if self.failed:
                return False  # every other count fails just so
            self.same_for_all = True
        return True

    def _compiled(self, rules: Rules, n: int, texts: Texts | None) -> None:
        self.out.extend(rules.warnings)
        if not self.leaks_read and texts is not None:
            # values read from hidden fields where other seats read them: once (L005)
            self.out.extend(leak_flows(texts, partial(named_path, self.data)))
            self.leaks_read = True
        if self.keep is not None and not self.keep:
            self.keep.append(rules)
        if self.setup and not self.failed and not self.set_up:
            # now, while this count's rules are at hand: kept for later, they would cost
            # memory (and the garbage collector's time) for every count
            self.set_up = setup_faults(rules, n, self.resolved)

    def _set_up_only(self, n: int) -> bool:
        """Every diagnostic this count could give, the first count gave already; only its
        set-up is its own (tables by player count, a count in a set-up rule): its texts are
        resolved, unchecked, when the set-up runs them, with the first count's secrecy marks."""
        if not self.setup or self.set_up or self.marks is None:
            return False
        from interpreter.model import rules

        lazily = EmitPlan(Emit.UNCHECKED_ON_FIRST_RUN)
        try:
            built = rules.compile_rules(
                self.data, n, dict(self.resolved), lazily, self.marks, typed=self.ruleset
            )
        except (RulesError, ConfigError):
            return False
        if built.rules is None:
            return False
        self.set_up = setup_faults(built.rules, n, self.resolved)
        return True
