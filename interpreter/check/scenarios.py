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
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import did_you_mean, hint_for
from interpreter.load.locate import json_pointer
from interpreter.ruleset.gameconfig import Chosen
from interpreter.ruleset.nodes import Pos, TreePath
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.scenariofile import ScenarioFile, ScenarioSpec
from interpreter.ruleset.scenariosteps import ExpectItem, parse_move
from interpreter.ruleset.vocabulary import Vocabulary

__all__ = ["OptionNames", "check_scenario_file", "option_templates"]

_MAY_KEY = re.compile(r"^seat [0-9]+ (may|may include|may not)$|^(moved|not moved)$")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_LOG_KINDS = ("log contains", "log lacks", "log order")


def check_scenario_file(run: Session, path: str, doc: Any) -> None:
    """Schema, then each scenario: its game (C001-C005, compiled once per run and way it is
    played), its player count and game (T001), its steps' options (T002)."""
    errs = run.schema_errors(doc.data, "scenario", path)
    if errs:
        run.emit(errs)
        return
    written = ScenarioFile.from_data(doc.data, path)
    seen: set[str] = set()
    start = len(run.out)
    for scenario in written.scenarios:
        name = scenario.name
        if name and name in seen and scenario.name_at is not None:
            at = scenario.name_at
            _fault(run, path, at.pos, at.path, "T001", f"a second scenario named '{name}'")
        seen.add(name)
        for fault in scenario.step_faults:
            _fault(run, path, fault.pos, fault.path, "T001", fault.message)
        _check_one(run, path, scenario)
    if written.unused is not None:
        _check_one(run, path, written.unused)
    # a block taken in by several scenarios is checked in each: its faults are reported once
    run.out[start:] = list(
        {(d.code, d.file, d.line, d.column, d.message): d for d in run.out[start:]}.values()
    )


def _check_one(run: Session, path: str, scenario: ScenarioSpec) -> None:
    asked = scenario.config
    for said, field, what in (
        (asked.game_at, "game", "game"),
        (asked.players, "players", "player count"),
    ):
        if said is None:
            message = f"this scenario names no {what} (add `{field}:`)"
            _fault(run, path, scenario.pos, scenario.path, "T001", message)
            return
    if scenario.refused is not None:
        return  # the game must not start: `rulebook test` checks that it does not, and why
    chosen = resolve_game(run, path, asked)
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
        _check_expressions(run, path, scenario, rules.env, variables)
        logs = run.log_texts.get(key)
        if logs is None:
            logs = run.log_texts[key] = LogTexts(ruleset)
        for at, kind, any_case in _log_texts(scenario):
            fault = logs.fault(kind, str(at.value), any_case=any_case)
            if fault is not None:
                _fault(run, path, at.pos, at.path, "T004", fault[0], hint=fault[1])
    names = OptionNames(ruleset)
    for at, absent_ok in _options_named(scenario):
        fault = names.fault(str(at.value), absent_ok=absent_ok)
        if fault is not None:
            _fault(run, path, at.pos, at.path, "T002", fault[0], hint=fault[1])


def _check_expressions(
    run: Session, path: str, scenario: ScenarioSpec, env: Any, names: set[str]
) -> None:
    """T003: each `until:` and `expect` expression compiled as `rulebook test` compiles it
    (check/expressions.py), with every flow variable of the game in scope."""
    for at in _expressions(scenario):
        text = str(at.value)
        try:
            compile_look(env, names, text)
        except ExpressionFault as e:
            file, line, col = at.pos.file, at.pos.line, at.pos.column
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
                        json_pointer(at.path),
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


def _expects(scenario: ScenarioSpec) -> Iterator[ExpectItem]:
    """Every expectation of the scenario: its steps' in order, then its own."""
    for step in scenario.steps:
        yield from step.expect
    yield from scenario.expect


def _expressions(scenario: ScenarioSpec) -> Iterator[Chosen]:
    """Every `until:` of an `auto` step and every `expect` expression, where it is written."""
    for step in scenario.steps:
        if step.kind == "auto" and step.until is not None and step.until.value != "over":
            yield step.until
        yield from _expression_items(step.expect)
    yield from _expression_items(scenario.expect)


def _expression_items(items: tuple[ExpectItem, ...]) -> Iterator[Chosen]:
    for item in items:
        if item.text is not None:
            yield Chosen(item.text, item.path, item.pos)


def _log_texts(scenario: ScenarioSpec) -> Iterator[tuple[Chosen, str, bool]]:
    """(text where written, kind, any case) of every text of a `log contains`, `log lacks` or
    `log order`."""
    for item in _expects(scenario):
        for kind in _LOG_KINDS:
            entry = item.entry(kind)
            for text in entry.texts if entry is not None else ():
                yield text, kind, item.any_case


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


def _options_named(scenario: ScenarioSpec) -> Iterator[tuple[Chosen, bool]]:
    """(option id where written, whether an absent id holds) of every step that takes an
    option and every `seat N may...` item (an absent id holds in `may not` only)."""
    for step in scenario.steps:
        if step.option is not None:
            yield step.option, False
        yield from _may(step.expect)
    yield from _may(scenario.expect)


def _may(items: tuple[ExpectItem, ...]) -> Iterator[tuple[Chosen, bool]]:
    for item in items:
        for entry in item.entries:
            m = _MAY_KEY.match(entry.key)
            if not m:
                continue
            absent_ok = (m.group(1) or m.group(2)) in ("may not", "not moved")
            moved = m.group(2) is not None
            for text in entry.texts:
                yield Chosen(_option_of(str(text.value), moved), text.path, text.pos), absent_ok


def _option_of(text: str, moved: bool) -> str:
    """The option id of a `seat N may...` item, or of a `moved:` move (`seat 0: x` -> x)."""
    return parse_move(text)[1] if moved else text.strip()


def option_templates(words: Vocabulary) -> dict[str, re.Pattern[str]]:
    """Every option id template of a ruleset's `choose` steps (``take:{x}``), as a pattern
    that a concrete id (``take:apple``) matches."""
    found: dict[str, re.Pattern[str]] = {}
    for ident in words.option_ids:
        if ident not in found:
            parts = _PLACEHOLDER.split(ident)
            found[ident] = re.compile("(.+?)".join(re.escape(p) for p in parts))
    return found


def _fault(
    run: Session, path: str, pos: Pos, at: TreePath, code: str, msg: str, hint: str | None = None
) -> None:
    """A fault at ``pos``, written at ``at`` in the scenario file ``path``."""
    run.emit(
        [Diagnostic(code, msg, pos.file or path, pos.line, pos.column, json_pointer(at), hint=hint)]
    )
