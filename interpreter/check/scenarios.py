"""Scenario files (T001-T004, and C001-C005 for the game each scenario plays), checked without
playing: the game each scenario names must load as it asks for it (overlays, player count,
options), and every option a step takes, or an expectation lists under ``seat N may``, must be
one the game's `choose` steps can offer.

Whether a step is *legal* when it comes is for ``rulebook test`` to say, which plays the game;
here an option matches when it fits one of the game's option templates with a name or number
the rules use in each gap (``take:{x}`` fits ``take:apple`` when ``apple`` is a name of the
game), so a misspelt ``tkae:apple`` or ``take:appel``, or a step of another game, is found
before a run. ``seat N may not`` asks less: an id that fits a template's shape holds there even
with a name the game does not have (a house rule that removes a component proves it with
``seat 0 may not: take:apple``), unless that name is a near miss of one it has (a misspelling).
:class:`OptionNames` is the one implementation: ``rulebook test`` (scenario/runner.py) checks
the same ids with it, so the two commands refuse exactly the same ones. Every `until:` and
`expect` expression is compiled against the game (T003, check/expressions.py), as `rulebook
test` compiles it, and every text a `log contains`, `log lacks` or `log order` looks for must
be one the game's log can hold (T004, check/logtexts.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from interpreter.check.compile import check_ruleset
from interpreter.check.configs import resolve_game
from interpreter.check.expressions import ExpressionFault, compile_look, flow_names
from interpreter.check.logtexts import LogTexts
from interpreter.check.session import Session
from interpreter.check.stepblocks import BLOCKS, DO, ONLY_CHOICE_STEP, walk_steps
from interpreter.check.verdicts import diagnostic_at
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import did_you_mean, hint_for
from interpreter.load.locate import is_map, is_seq, json_pointer, locate
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.vocabulary import Vocabulary

__all__ = ["OptionNames", "check_scenario_file", "option_templates"]

_OPTION_STEP = re.compile(r"^\s*seat\s+[0-9]+\s*:\s*(\S+)\s*$")
_SEAT_KEY = re.compile(r"^seat [0-9]+$")
_MAY_KEY = re.compile(r"^seat [0-9]+ (may|may include|may not)$|^(moved|not moved)$")
_MOVE = re.compile(r"^\s*seat\s+[0-9]+\s*:?\s+(\S+)\s*$")  # format.parse_move's
_SETTINGS = ("forced", "optional")  # a step's settings, beside its seat key
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_LOG_KINDS = ("log contains", "log lacks", "log order")


def check_scenario_file(run: Session, path: str, doc: Any) -> None:
    """Schema, then each scenario: its game (C001-C005, compiled once per run and way it is
    played), its player count and game (T001), its steps' options (T002)."""
    errs = run.schema_errors(doc.data, "scenario", path)
    if errs:
        run.emit(errs)
        return
    top = doc.data
    if not is_map(top):
        return
    listed = top.get("scenarios")
    nodes = list(listed) if is_seq(listed) else [top]
    seen: dict[str, int] = {}
    start = len(run.out)
    for i, node in enumerate(nodes):
        if not is_map(node):
            continue
        where = ["scenarios", i] if node is not top else []
        name = str(node.get("name") or "")
        if name and name in seen:
            _fault(run, path, top, [*where, "name"], "T001", f"a second scenario named '{name}'")
        seen.setdefault(name, i)
        faults: list[tuple[list[Any], str]] = []
        list(walk_steps(top, node.get("steps"), [*where, "steps"], faults))
        for at, message in faults:
            _fault(run, path, top, at, "T001", message)
        _check_one(run, path, top, node, where)
    _check_unused_blocks(run, path, top, nodes)
    # a block taken in by several scenarios is checked in each: its faults are reported once
    run.out[start:] = list(
        {(d.code, d.file, d.line, d.column, d.message): d for d in run.out[start:]}.values()
    )


def _check_unused_blocks(run: Session, path: str, top: Any, nodes: list[Any]) -> None:
    """A block no scenario takes in is checked all the same (its options, expressions and log
    texts), against the game of the file's first scenario, as a scenario that took it in would
    be: a slip in it is found before a scenario uses it."""
    blocks = top.get(BLOCKS)
    first = next((n for n in nodes if is_map(n) and "refused" not in n), None)
    if not is_map(blocks) or first is None:
        return
    used: set[str] = set()
    for node in nodes:
        if is_map(node):
            list(walk_steps(top, node.get("steps"), [], [], blocks_used=used))
    unused = [str(name) for name in blocks if str(name) not in used]
    if not unused:
        return
    settings = ("game", "players", "with", "options", "seed")
    stand_in = {k: first[k] for k in settings if k in first and first is not top}
    stand_in["steps"] = [{DO: name} for name in unused]
    _check_one(run, path, top, stand_in, [])


def _check_one(run: Session, path: str, top: Any, node: Any, where: list[Any]) -> None:
    parent = top if node is not top else None
    for field, what in (("game", "game"), ("players", "player count")):
        if field not in node and (parent is None or field not in parent):
            _fault(run, path, top, where, "T001", f"this scenario names no {what} (add `{field}:`)")
            return
    if "refused" in node:
        return  # the game must not start: `rulebook test` checks that it does not, and why
    chosen = resolve_game(run, path, node, parent)
    if chosen is None:
        return
    composed, counts, options = chosen
    ruleset = run.typed(composed)
    key = (id(composed), tuple(counts or ()), tuple(sorted(map(str, options.items()))))
    if key not in run.compiled:
        run.compiled.add(key)
        run.keep_alive.append(composed)
        built: list[Any] = []
        run.emit(
            check_ruleset(
                composed, counts=counts, options=options, whole=False, setup=False, keep=built
            )
        )
        run.built[key] = built[0] if built else None
    rules = run.built.get(key)
    if rules is not None:
        variables = run.flow_names.get(key)
        if variables is None:
            variables = run.flow_names[key] = flow_names(ruleset.flow)
        _check_expressions(run, path, top, node, where, rules.env, variables)
        logs = run.log_texts.get(key)
        if logs is None:
            logs = run.log_texts[key] = LogTexts(ruleset)
        for at, kind, text, any_case in _log_texts(top, node, where):
            fault = logs.fault(kind, text, any_case=any_case)
            if fault is not None:
                _fault(run, path, top, at, "T004", fault[0], hint=fault[1])
    names = OptionNames(ruleset)
    for step_where, option, absent_ok in _options_named(top, node, where):
        fault = names.fault(option, absent_ok=absent_ok)
        if fault is not None:
            _fault(run, path, top, step_where, "T002", fault[0], hint=fault[1])


def _check_expressions(
    run: Session, path: str, top: Any, node: Any, where: list[Any], env: Any, names: set[str]
) -> None:
    """T003: each `until:` and `expect` expression compiled as `rulebook test` compiles it
    (check/expressions.py), with every flow variable of the game in scope."""
    for at, text in _expressions(top, node, where):
        try:
            compile_look(env, names, text)
        except ExpressionFault as e:
            file, line, col = locate(top, at)
            if line is not None and col is not None:
                line, col = _inside(run, file or path, line, col, e)
            run.emit(
                [
                    Diagnostic(
                        "T003",
                        f"in the expression `{text}`: {e.message}",
                        file or path,
                        line,
                        col,
                        json_pointer(at),
                    )
                ]
            )


def _inside(run: Session, file: str, line: int, col: int, e: ExpressionFault) -> tuple[int, int]:
    """The position in the scenario file of a fault at ``e``'s place in a text written at
    (line, col): past an opening quote, on the text's first line or a later one."""
    if e.line > 1:
        return line + e.line - 1, e.column
    doc = run.load(file).doc
    lines = doc.text.splitlines() if doc is not None else []
    quoted = 0 < line <= len(lines) and lines[line - 1][col - 1 : col] in ('"', "'")
    return line, col + int(quoted) + e.column - 1


def _steps(top: Any, node: Any, where: list[Any]) -> list[tuple[list[Any], Any]]:
    """(path, step) of each step of the scenario, its `do:` blocks taken in (faults: T001)."""
    found = walk_steps(top, node.get("steps"), [*where, "steps"], [])
    return [(f.path, f.step) for f in found]


def _expressions(top: Any, node: Any, where: list[Any]) -> Iterator[tuple[list[Any], str]]:
    """(where, text) of every `until:` of an `auto` step and every `expect` expression."""
    for at, step in _steps(top, node, where):
        if not is_map(step):
            continue
        until = step.get("until")
        if "auto" in step and isinstance(until, str) and until != "over":
            yield [*at, "until"], until
        if "expect" in step:
            yield from _expression_items(step["expect"], [*at, "expect"])
    if "expect" in node:
        yield from _expression_items(node["expect"], [*where, "expect"])


def _log_texts(top: Any, node: Any, where: list[Any]) -> Iterator[tuple[list[Any], str, str, bool]]:
    """(where, kind, text, any case) of every text of a `log contains`, `log lacks` or `log
    order`."""
    found = [
        (step["expect"], [*at, "expect"])
        for at, step in _steps(top, node, where)
        if is_map(step) and "expect" in step
    ]
    if "expect" in node:
        found.append((node["expect"], [*where, "expect"]))
    for expect, at in found:
        items = list(enumerate(expect)) if is_seq(expect) else [(None, expect)]
        for i, item in items:
            if not is_map(item):
                continue
            any_case = item.get("any case") is True
            for kind in _LOG_KINDS:
                value = item.get(kind)
                here = [*at, kind] if i is None else [*at, i, kind]
                if isinstance(value, str):
                    yield here, kind, value, any_case
                elif is_seq(value):
                    for j, text in enumerate(value):
                        yield [*here, j], kind, str(text), any_case


def _expression_items(expect: Any, at: list[Any]) -> Iterator[tuple[list[Any], str]]:
    if isinstance(expect, str):
        yield at, expect
    elif is_seq(expect):
        for j, item in enumerate(expect):
            if isinstance(item, str):
                yield [*at, j], item


class OptionNames:
    """The option ids a game can offer (its `choose` option templates, and the names and numbers
    that may fill their gaps), and why an id a scenario names is not one of them: T002 in
    ``rulebook validate``, the same words in ``rulebook test``."""

    def __init__(self, ruleset: Ruleset) -> None:
        words = ruleset.vocabulary()
        self.templates = option_templates(words)
        # every key and every one-word text of the rules: what a template's gap may hold
        self.words = {*words.keys, *(t for t in words.texts if " " not in t)}

    def fault(self, option: str, *, absent_ok: bool = False) -> tuple[str, str] | None:
        """(message, hint) when ``option`` cannot be an option of this game, else None.

        ``absent_ok`` (``seat N may not``): an id of a template's shape whose names the game
        does not have is accepted (it is never offered, which is what the check says), unless a
        name is a near miss of one the game has."""
        templates = self.templates.values()
        if any(_fits(t, option, self.words) for t in templates):
            return None
        shown = sorted(self.templates)
        message = f"'{option}' is not an option this game offers"
        if absent_ok:
            shaped = [m for m in (t.fullmatch(option) for t in templates) if m is not None]
            misses = [
                (g, guess)
                for m in shaped
                for g in m.groups()
                if not (g.isdigit() or g in self.words)
                and (guess := _near_miss(g, self.words)) is not None
            ]
            if shaped and not misses:
                return None
            if misses:
                g, guess = misses[0]
                return message, f"did you mean '{option.replace(g, guess, 1)}'?"
        return message, hint_for(option, shown) or f"its options: {', '.join(shown) or 'none'}"


def _fits(template: re.Pattern[str], option: str, words: set[str]) -> bool:
    """Whether ``option`` fits the template with a name or number of the game in each gap."""
    m = template.fullmatch(option)
    return m is not None and all(g.isdigit() or g in words for g in m.groups())


def _near_miss(word: str, words: set[str]) -> str | None:
    """A name of the game one slip away from ``word`` (a letter wrong, missing, extra or two
    swapped; two slips in a long name): the likely intended name, or None when it is no typo."""
    allowed = 2 if len(word) >= 10 else 1
    near = [w for w in words if abs(len(w) - len(word)) <= allowed and _slips(word, w) <= allowed]
    return did_you_mean(word, near) or (near[0] if len(near) == 1 else None)


def _slips(a: str, b: str) -> int:
    """Optimal string alignment distance: edits, a swap of neighbours counting as one."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[len(b)]


def _options_named(top: Any, node: Any, where: list[Any]) -> Iterator[tuple[list[Any], str, bool]]:
    """(where, option id, whether an absent id holds) of every step that takes an option and
    every `seat N may...` item (an absent id holds in `may not` only)."""
    for at, step in _steps(top, node, where):
        seats = [k for k in step if _SEAT_KEY.match(str(k))] if is_map(step) else []
        if isinstance(step, str):
            m = _OPTION_STEP.match(step)
            yield at, m.group(1) if m else step.strip(), False
        elif seats and all(_SEAT_KEY.match(str(k)) or k in _SETTINGS for k in step):
            key = seats[0]
            yield [*at, key], str(step[key]).strip(), False
        elif is_map(step) and ONLY_CHOICE_STEP in step:
            move = str(step[ONLY_CHOICE_STEP])
            yield [*at, ONLY_CHOICE_STEP], _option_of(move, True), False
        elif is_map(step) and "expect" in step:
            yield from _may(step["expect"], [*at, "expect"])
    if "expect" in node:
        yield from _may(node["expect"], [*where, "expect"])


def _may(expect: Any, where: list[Any]) -> Iterator[tuple[list[Any], str, bool]]:
    items = list(enumerate(expect)) if is_seq(expect) else [(None, expect)]
    for i, item in items:
        if not is_map(item):
            continue
        at = where if i is None else [*where, i]
        for key, value in item.items():
            m = _MAY_KEY.match(str(key))
            if not m:
                continue
            absent_ok = (m.group(1) or m.group(2)) in ("may not", "not moved")
            moved = m.group(2) is not None
            if isinstance(value, str):
                yield [*at, key], _option_of(value, moved), absent_ok
            elif is_seq(value):
                for j, option in enumerate(value):
                    yield [*at, key, j], _option_of(str(option), moved), absent_ok


def _option_of(text: str, moved: bool) -> str:
    """The option id of a `seat N may...` item, or of a `moved:` move (`seat 0: x` -> x)."""
    m = _MOVE.match(text) if moved else None
    return m.group(1) if m else text.strip()


def option_templates(words: Vocabulary) -> dict[str, re.Pattern[str]]:
    """Every option id template of a ruleset's `choose` steps (``take:{x}``), as a pattern
    that a concrete id (``take:apple``) matches."""
    found: dict[str, re.Pattern[str]] = {}
    for ident in words.option_ids:
        if ident not in found:
            parts = _PLACEHOLDER.split(ident)
            found[ident] = re.compile("(.+?)".join(re.escape(p) for p in parts))
    return found


def _fault(run: Session, path: str, top: Any, where: list[Any], code: str, msg: str, **kw: Any):
    run.emit([diagnostic_at(top, where, code, msg, default_file=path, **kw)])
