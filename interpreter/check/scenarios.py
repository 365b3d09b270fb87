"""Scenario files (T001-T004, and C001-C005 for the game each scenario plays), checked without
playing: the game each scenario names must load as it asks for it (overlays, player count,
options), and every option a step takes, or an expectation lists under ``seat N may``, must be
one the game's `choose` steps can offer.

Whether a step is *legal* when it comes is for ``rulebook test`` to say, which plays the game;
here an option matches when it fits one of the game's option templates with a name or number
the rules use in each gap (T002, :class:`~interpreter.ruleset.option_names.OptionNames`, with
which ``rulebook test`` checks the same ids, so the two commands refuse exactly the same ones).
Every `until:` and `expect` expression is compiled against the game (T003,
model/expressions.py), as `rulebook test` compiles it, and every text a `log contains`, `log
lacks` or `log order` looks for must be one the game's log can hold (T004, model/logtexts.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from interpreter.check.compile import check_ruleset
from interpreter.check.configs import resolve_game
from interpreter.check.session import Session
from interpreter.diagnostics.errors import Diagnostic
from interpreter.load.locate import json_pointer
from interpreter.model.expressions import ExpressionFault, compile_look, flow_names
from interpreter.model.logtexts import LogTexts
from interpreter.model.rules import Rules
from interpreter.ruleset.gameconfig import Chosen
from interpreter.ruleset.nodes import Pos, TreePath
from interpreter.ruleset.option_names import OptionNames
from interpreter.ruleset.scenariofile import ScenarioFile, ScenarioSpec
from interpreter.ruleset.scenariosteps import ExpectItem, parse_move

__all__ = ["check_scenario_file"]

_MAY_KEY = re.compile(r"^seat [0-9]+ (may|may include|may not)$|^(moved|not moved)$")
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
        built: list[Rules] = []
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
    (model/expressions.py), with every flow variable of the game in scope."""
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


def _fault(
    run: Session, path: str, pos: Pos, at: TreePath, code: str, msg: str, hint: str | None = None
) -> None:
    """A fault at ``pos``, written at ``at`` in the scenario file ``path``."""
    run.emit(
        [Diagnostic(code, msg, pos.file or path, pos.line, pos.column, json_pointer(at), hint=hint)]
    )
