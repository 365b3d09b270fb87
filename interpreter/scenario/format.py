"""Scenario files: load (positioned YAML), check against ``schemas/scenario.schema.json``, read
as a typed :class:`~interpreter.ruleset.scenariofile.ScenarioFile` (what ``rulebook validate``
reads too), and turn into :class:`Scenario` records whose every step and expectation knows its
file:line:col.

Nothing here knows a game: field names, ids and option ids are the ruleset's own and are
checked when a scenario runs against its game (:mod:`interpreter.scenario.runner`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.schema import check, load_schema
from interpreter.ruleset.gameconfig import Chosen
from interpreter.ruleset.nodes import Plain, Pos, empty_map, frozen_map
from interpreter.ruleset.scenariofile import ScenarioFile, ScenarioSpec
from interpreter.ruleset.scenariosteps import (
    ONLY_CHOICE_STEP,
    SEAT_KEY,
    ExpectEntry,
    ExpectItem,
    SetupSpec,
    parse_move,
    parse_option_step,
)

__all__ = [
    "Where",
    "Expectation",
    "Step",
    "Scenario",
    "load_scenarios",
    "parse_option_step",
    "parse_move",
]

SEAT_MAY = re.compile(r"^seat ([0-9]+) (may|may include|may not)$")
SEAT_SEES = re.compile(r"^seat ([0-9]+) (sees|does not see)$")
LOG_KINDS = ("log contains", "log lacks", "log order")
# the checks whose value is a text or a list of texts, read one by one
LISTED = ("refused", "moved", "not moved", *LOG_KINDS)
ANY_CASE = "any case"  # beside a log check: its texts matched letter case aside
ANY_ORDER = "any order"  # a pile or area compared as a multiset: `hand: {any order: [a, b]}`


@dataclass(frozen=True)
class Where:
    """A position in a scenario file (1-based line and column; either may be unknown)."""

    file: str
    line: int | None = None
    column: int | None = None

    @classmethod
    def of(cls, pos: Pos, file: str) -> Where:
        """Where ``pos`` is, in the file ``file`` where ``pos`` does not name one."""
        return cls(pos.file or file, pos.line, pos.column)

    def __str__(self) -> str:
        out = self.file
        if self.line is not None:
            out += f":{self.line}"
            if self.column is not None:
                out += f":{self.column}"
        return out


@dataclass(frozen=True)
class Expectation:
    """One check as the runner makes it, read from the scenario's typed expectation
    (ruleset/scenariosteps.py): a rule expression (``expr``, an item's text), or one entry of
    an expectation map (``entry``), with the kind of check its key names and the seat it
    names."""

    kind: str  # expr, fields, may, may include, may not, to move, refused, log contains, ...
    where: Where
    entry: ExpectEntry | None = None  # None: a rule expression
    expression: str = ""  # the rule expression of an `expr`
    seat: int | str | None = None  # a seat number, "global" for global fields
    field_where: Mapping[str, Where] = field(default_factory=empty_map)
    any_case: bool = False  # a log text matched letter case aside (`any case: true`)

    @property
    def value(self) -> Plain:
        """The value as written (an `expr`'s text)."""
        return self.expression if self.entry is None else self.entry.value

    @property
    def texts(self) -> list[str]:
        """The texts it lists, one by one (`seat N may`, `refused`, `moved`, the log checks: a
        text alone or a list of texts)."""
        return [] if self.entry is None else [str(t.value) for t in self.entry.texts]

    def text(self) -> str:
        """How the expectation reads in the file (for failure messages)."""
        if self.kind == "expr":
            return self.expression
        if self.kind == "fields":
            head = "global" if self.seat == "global" else f"seat {self.seat}"
            return f"{head}: {_flow(self.value)}"
        if self.kind.startswith("may"):
            return f"seat {self.seat} {self.kind}: {_flow(self.texts)}"
        if self.kind in ("sees", "does not see"):
            return f"seat {self.seat} {self.kind}: {_flow(self.value)}"
        shown = _flow(self.texts) if self.kind in LISTED else _flow(self.value)
        if self.any_case:
            return f"{self.kind}: {shown}, any case: true"
        return f"{self.kind}: {shown}"


@dataclass
class Step:
    kind: str  # option, expect, set, auto
    where: Where
    option: str = ""
    seat: int | None = None
    expectations: list[Expectation] = field(default_factory=list)
    setup: SetupSpec | None = None
    prefer: list[str] = field(default_factory=list)
    until: str | None = None
    random: bool = False  # `auto: random`: seeded random legal options instead of `prefer`
    # `forced: ask` stops at the decisions with one option before this step (`take`: the
    # engine takes them); `optional: take | decline` answers the optional questions before it;
    # None: the scenario's setting
    forced: str | None = None
    optional: str | None = None
    block: str | None = None  # the named block (`do:`) the step was taken in from
    # `only choice: seat 3 load:x`: the engine's own move (one legal option), listed as a step
    only_choice: bool = False

    def text(self) -> str:
        if self.kind == "option":
            if self.only_choice:  # as written: `only choice: seat 3 load:x`
                move = self.option if self.seat is None else f"seat {self.seat} {self.option}"
                return f"{ONLY_CHOICE_STEP}: {move}"
            return self.option if self.seat is None else f"seat {self.seat}: {self.option}"
        if self.kind == "auto":
            how = "random" if self.random else _flow(self.prefer)
            return f"auto: {how}" + (f" until {self.until}" if self.until else "")
        return self.kind


@dataclass
class Scenario:
    name: str
    file: str
    where: Where
    game: str
    players: int
    overlays: tuple[str, ...]
    options: Mapping[str, Plain]
    seed: int
    doc: str = ""
    setups: list[SetupSpec] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    expect: list[Expectation] = field(default_factory=list)
    forced: str = "take"  # `ask`: the runner stops at decisions with one legal option
    optional: str | None = None  # `take` / `decline`: optional questions answered on the way
    # `refused: TEXT`: the game or its set-up must be refused, for a reason holding TEXT
    refused: Chosen | None = None

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}"


def _flow(value: object) -> str:
    """A compact YAML-ish rendering: [a, b], {k: v}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _whole(value: Plain) -> int:
    """A whole number as written (the schema has checked it is one)."""
    return int(value) if isinstance(value, int | float | str) else 0


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.errors: list[Diagnostic] = []

    def error(self, where: Where, message: str, code: str = "T001") -> None:
        self.errors.append(Diagnostic(code, message, where.file, where.line, where.column))

    def at(self, pos: Pos) -> Where:
        """Where ``pos`` is in this file (``pos`` may not know its file)."""
        return Where.of(pos, self.file)

    # -- pieces -------------------------------------------------------------------------
    def expectations(self, items: tuple[ExpectItem, ...]) -> list[Expectation]:
        out: list[Expectation] = []
        for item in items:
            iw = self.at(item.pos)
            if item.text is not None:
                out.append(Expectation("expr", iw, expression=item.text))
                continue
            any_case = item.any_case
            said = item.entry(ANY_CASE)
            if said is not None and not any(item.entry(k) for k in LOG_KINDS):
                self.error(
                    self.at(said.key_pos),
                    f"`{ANY_CASE}:` says how a log text is matched: put it beside "
                    "`log contains`, `log lacks` or `log order`",
                )
            for entry in item.entries:
                k = entry.key
                if k == ANY_CASE:
                    continue
                kw = self.at(entry.key_pos)
                m = SEAT_KEY.match(k)
                if m or k == "global":
                    fw = frozen_map({name: self.at(pos) for name, pos in entry.names.items()})
                    seat: int | str = int(m.group(1)) if m else "global"
                    out.append(Expectation("fields", kw, entry, seat=seat, field_where=fw))
                    continue
                m = SEAT_MAY.match(k) or SEAT_SEES.match(k)
                if m:
                    out.append(Expectation(m.group(2), kw, entry, seat=int(m.group(1))))
                    continue
                out.append(Expectation(k, kw, entry, any_case=any_case and k in LOG_KINDS))
        return out

    def steps(self, spec: ScenarioSpec) -> list[Step]:
        """The scenario's steps, the named blocks they `do:` taken in
        (ruleset/scenariosteps.py)."""
        out: list[Step] = []
        for found in spec.steps:
            where = self.at(found.pos)
            option = "" if found.option is None else str(found.option.value)
            if found.seats > 1:
                self.error(where, "a step takes one option: name one seat per step")
            if found.kind == "option":
                step = Step("option", where, option=option, seat=found.seat)
            elif found.kind == "only choice":
                step = Step("option", where, option=option, seat=found.seat, only_choice=True)
            elif found.kind == "expect":
                step = Step("expect", where, expectations=self.expectations(found.expect))
            elif found.kind == "set" and found.setup is not None:
                step = Step("set", where, setup=found.setup)
            elif found.kind == "auto":
                until = None if found.until is None else str(found.until.value)
                step = Step(
                    "auto",
                    where,
                    prefer=list(found.prefer),
                    until=None if until is None or until == "over" else until,
                    random=found.random,
                )
            else:
                self.error(
                    where, "a step of settings only: add an option, `expect`, `set` or `auto`"
                )
                continue
            step.forced = found.forced
            step.optional = found.optional
            step.block = found.block
            out.append(step)
        for fault in spec.step_faults:
            self.error(self.at(fault.pos), fault.message)
        return out

    def scenario(self, spec: ScenarioSpec, name: str, where: Where, base: Path) -> Scenario:
        asked = spec.config
        game = asked.game_at.value if asked.game_at is not None else None
        if game is None:
            self.error(where, f"scenario '{name}' names no game (add `game:` here or at the top)")
            game = ""
        game = _resolve(str(game), base)
        players = asked.players.value if asked.players is not None else None
        if players is None:
            self.error(where, f"scenario '{name}' names no player count (add `players:`)")
            players = 0
        setups = list(spec.setups)
        if spec.refused is not None:
            for key in ("steps", "expect"):
                if key in spec.keys:
                    self.error(
                        self.at(spec.keys[key]),
                        f"a scenario whose set-up must be `refused:` has no `{key}:` (it "
                        "never starts); write it as another scenario",
                    )
        expect = self.expectations(spec.expect)
        scenario = Scenario(
            name=name,
            file=self.file,
            where=where,
            game=game,
            players=_whole(players),
            overlays=tuple(_resolve(str(o.value), base) for o in asked.overlays),
            options=dict(spec.options),
            seed=_whole(spec.seed or 0),
            doc=" ".join(spec.doc.split()),
            setups=setups,
            steps=self.steps(spec),
            expect=expect,
            forced=str(spec.forced or "take"),
            optional=None if spec.optional is None else str(spec.optional),
            refused=spec.refused,
        )
        if spec.check_totals is False:  # an impossible position, knowingly
            scenario.setups = [replace(one, check_totals=False) for one in scenario.setups]
            for st in scenario.steps:
                if st.setup is not None:
                    st.setup = replace(st.setup, check_totals=False)
        return scenario


def _resolve(spec: str, base: Path) -> str:
    """A path-like game or overlay (`*.yaml`, `*.json`, or a folder holding a game:
    `../my-game`) is relative to the scenario file."""
    if Path(spec).is_absolute():
        return spec
    candidate = base / spec
    if spec.endswith((".yaml", ".yml", ".json")) and candidate.exists():
        return str(candidate)
    if ("/" in spec or spec.startswith(".")) and (candidate / "ruleset.yaml").is_file():
        return str(candidate)
    return spec


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Every scenario of one file; a malformed file raises RulesError with file:line:col."""
    from interpreter.load.yamlload import load_yaml_file

    file = str(path)
    doc = load_yaml_file(file)
    data = doc.data
    if data is None:
        raise RulesError(Diagnostic("T001", "the scenario file is empty", file, 1, 1))
    diags = [d for d in check(data, load_schema("scenario")) if d.severity == "error"]
    if diags:
        raise RulesError(diags)
    reader = _Reader(file)
    base = Path(file).resolve().parent
    written = ScenarioFile.from_data(data, file)
    out: list[Scenario] = []
    if written.listed:
        for key in ("steps", "expect", "name"):
            if key in written.keys:
                reader.error(
                    reader.at(written.keys[key]),
                    f"`{key}:` belongs inside each scenario when the file lists `scenarios:`",
                )
        seen: dict[str, Where] = {}
        for spec in written.scenarios:
            where = reader.at(spec.pos)
            name = spec.name
            if name in seen:
                reader.error(where, f"a second scenario named '{name}' (first at {seen[name]})")
            seen[name] = where
            out.append(reader.scenario(spec, name, where, base))
    else:
        for spec in written.scenarios:
            name = spec.name or Path(file).stem
            out.append(reader.scenario(spec, name, Where(file, 1, 1), base))
    if reader.errors:
        # a block taken in by several scenarios is read in each: its faults are said once
        unique = {(d.message, d.file, d.line, d.column): d for d in reader.errors}
        raise RulesError(list(unique.values()))
    return out
