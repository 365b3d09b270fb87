"""Scenario files: load (positioned YAML), check against ``schemas/scenario.schema.json``, and
turn into :class:`Scenario` records whose every step and expectation knows its file:line:col.

Nothing here knows a game: field names, ids and option ids are the ruleset's own and are
checked when a scenario runs against its game (:mod:`interpreter.scenario.runner`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.check.stepblocks import ONLY_CHOICE_STEP, walk_steps
from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.locate import key_position, locate, position_of
from interpreter.load.schema import check, load_schema, to_plain

__all__ = [
    "Where",
    "Setup",
    "Expectation",
    "Step",
    "Scenario",
    "load_scenarios",
    "parse_option_step",
    "parse_move",
]

SEAT_KEY = re.compile(r"^seat ([0-9]+)$")
SEAT_MAY = re.compile(r"^seat ([0-9]+) (may|may include|may not)$")
SEAT_SEES = re.compile(r"^seat ([0-9]+) (sees|does not see)$")
OPTION_STEP = re.compile(r"^\s*seat\s+([0-9]+)\s*:\s*(\S+)\s*$")
MOVE = re.compile(r"^\s*seat\s+([0-9]+)\s*:?\s+(\S+)\s*$")
INHERITED = ("game", "players", "with", "options", "seed", "forced", "optional")
LOG_KINDS = ("log contains", "log lacks", "log order")
ANY_CASE = "any case"  # beside a log check: its texts matched letter case aside
ANY_ORDER = "any order"  # a pile or area compared as a multiset: `hand: {any order: [a, b]}`
# a step's settings, written beside its own key (`{seat 1: pass, forced: ask}`)
STEP_SETTINGS = ("forced", "optional")
FILE_SETUP = "file setup"  # `file setup: false`: a scenario without the file's top-level set-up


@dataclass(frozen=True)
class Where:
    """A position in a scenario file (1-based line and column; either may be unknown)."""

    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        out = self.file
        if self.line is not None:
            out += f":{self.line}"
            if self.column is not None:
                out += f":{self.column}"
        return out


@dataclass
class Setup:
    """One `setup:` (or `set:` step): targets in order, each a plain {field: value} map."""

    where: Where
    targets: list[tuple[str | int, dict[str, Any], dict[str, Where]]]  # ("global"|"every"|seat)
    restart: str = "decision"
    check_totals: bool = True
    uncounted: tuple[str, ...] = ()


@dataclass
class Expectation:
    kind: str  # expr, fields, may, may include, may not, to move, refused, log contains, ...
    where: Where
    value: Any
    seat: int | str | None = None  # a seat number, "global" for global fields
    field_where: dict[str, Where] = field(default_factory=dict)
    any_case: bool = False  # a log text matched letter case aside (`any case: true`)

    def text(self) -> str:
        """How the expectation reads in the file (for failure messages)."""
        if self.kind == "expr":
            return str(self.value)
        if self.kind == "fields":
            head = "global" if self.seat == "global" else f"seat {self.seat}"
            return f"{head}: {_flow(self.value)}"
        if self.kind.startswith("may") or self.kind in ("sees", "does not see"):
            return f"seat {self.seat} {self.kind}: {_flow(self.value)}"
        if self.any_case:
            return f"{self.kind}: {_flow(self.value)}, any case: true"
        return f"{self.kind}: {_flow(self.value)}"


@dataclass
class Step:
    kind: str  # option, expect, set, auto
    where: Where
    option: str = ""
    seat: int | None = None
    expectations: list[Expectation] = field(default_factory=list)
    setup: Setup | None = None
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
    options: dict[str, Any]
    seed: int
    doc: str = ""
    setups: list[Setup] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    expect: list[Expectation] = field(default_factory=list)
    forced: str = "take"  # `ask`: the runner stops at decisions with one legal option
    optional: str | None = None  # `take` / `decline`: optional questions answered on the way
    # `refused: TEXT`: the game or its set-up must be refused, for a reason holding TEXT
    refused: str | None = None
    refused_where: Where | None = None

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}"


def _flow(value: Any) -> str:
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


def _at(file: str, container: Any, key: Any, *, of_key: bool = False) -> Where:
    pos = key_position(container, key) if of_key else position_of(container, key)
    return Where(pos[0] or file, pos[1], pos[2])


def parse_option_step(text: str) -> tuple[int | None, str]:
    """``"seat 1: build:x"`` -> (1, "build:x"); a bare id -> (None, id)."""
    m = OPTION_STEP.match(text)
    if m:
        return int(m.group(1)), m.group(2)
    return None, text.strip()


def parse_move(text: str) -> tuple[int | None, str]:
    """A move of `moved:`: ``seat 1: build:x`` or ``seat 1 build:x`` -> (1, "build:x"); a
    bare id -> (None, id), a move of any seat."""
    m = MOVE.match(text)
    if m:
        return int(m.group(1)), m.group(2)
    return None, text.strip()


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.errors: list[Diagnostic] = []

    def error(self, where: Where, message: str, code: str = "T001") -> None:
        self.errors.append(Diagnostic(code, message, where.file, where.line, where.column))

    # -- pieces -------------------------------------------------------------------------
    def setup(self, node: Any, where: Where) -> Setup:
        targets: list[tuple[str | int, dict[str, Any], dict[str, Where]]] = []
        restart = "decision"
        check_totals = True
        uncounted: tuple[str, ...] = ()
        for key in node:
            k = str(key)
            if k == "uncounted":
                uncounted = tuple(str(x) for x in node[key])
                continue
            if k == "restart":
                restart = str(node[key])
                continue
            if k == "check-totals":
                check_totals = bool(node[key])
                continue
            m = SEAT_KEY.match(k)
            target: str | int = int(m.group(1)) if m else ("every" if k == "every seat" else k)
            fields = node[key] or {}
            wheres = {str(f): _at(self.file, fields, f, of_key=True) for f in fields}
            targets.append((target, to_plain(fields), wheres))
        return Setup(where, targets, restart, check_totals, uncounted)

    def expectations(self, node: Any, where: Where) -> list[Expectation]:
        items = node if isinstance(node, list) else [node]
        out: list[Expectation] = []
        for i, item in enumerate(items):
            iw = _at(self.file, node, i) if isinstance(node, list) else where
            if isinstance(item, str):
                out.append(Expectation("expr", iw, item))
                continue
            any_case = bool(item.get(ANY_CASE, False))
            if ANY_CASE in item and not any(k in item for k in LOG_KINDS):
                self.error(
                    _at(self.file, item, ANY_CASE, of_key=True),
                    f"`{ANY_CASE}:` says how a log text is matched: put it beside "
                    "`log contains`, `log lacks` or `log order`",
                )
            for key in item:
                k = str(key)
                if k == ANY_CASE:
                    continue
                kw = _at(self.file, item, key, of_key=True)
                value = to_plain(item[key])
                m = SEAT_KEY.match(k)
                if m or k == "global":
                    fields = item[key] or {}
                    fw = {str(f): _at(self.file, fields, f, of_key=True) for f in fields}
                    seat: int | str = int(m.group(1)) if m else "global"
                    out.append(Expectation("fields", kw, value, seat, fw))
                    continue
                m = SEAT_MAY.match(k)
                if m:
                    opts = [value] if isinstance(value, str) else list(value)
                    out.append(Expectation(m.group(2), kw, opts, int(m.group(1))))
                    continue
                m = SEAT_SEES.match(k)
                if m:
                    out.append(Expectation(m.group(2), kw, value, int(m.group(1))))
                    continue
                if k in ("refused", "moved", "not moved", *LOG_KINDS):
                    value = [value] if isinstance(value, str) else list(value)
                out.append(Expectation(k, kw, value, any_case=any_case and k in LOG_KINDS))
        return out

    def steps(self, top: Any, node: Any, path: list[Any]) -> list[Step]:
        """The steps at `path`, the named blocks they `do:` taken in (check/stepblocks.py)."""
        out: list[Step] = []
        faults: list[tuple[list[Any], str]] = []
        for found in walk_steps(top, node, path, faults):
            item = found.step
            where = self.where(top, found.path)
            if isinstance(item, str):
                seat, option = parse_option_step(item)
                out.append(Step("option", where, option=option, seat=seat, block=found.block))
                continue
            seats = [k for k in item if SEAT_KEY.match(str(k))]
            if len(seats) > 1:
                self.error(where, "a step takes one option: name one seat per step")
            if seats:
                key = seats[0]
                matched = SEAT_KEY.match(str(key))
                assert matched is not None  # (seats holds the keys it matches)
                seat = int(matched.group(1))
                step = Step("option", where, option=str(item[key]).strip(), seat=seat)
            elif ONLY_CHOICE_STEP in item:
                seat, option = parse_move(str(item[ONLY_CHOICE_STEP]))
                step = Step("option", where, option=option, seat=seat, only_choice=True)
            elif "expect" in item:
                ew = _at(self.file, item, "expect")
                items = self.expectations(item["expect"], ew)
                step = Step("expect", where, expectations=items)
            elif "set" in item:
                step = Step("set", where, setup=self.setup(item["set"], where))
            elif "auto" in item:
                until = item.get("until")
                step = Step(
                    "auto",
                    where,
                    prefer=[] if item["auto"] == "random" else [str(x) for x in item["auto"]],
                    until=None if until in (None, "over") else str(until),
                    random=item["auto"] == "random",
                )
            else:
                self.error(
                    where, "a step of settings only: add an option, `expect`, `set` or `auto`"
                )
                continue
            step.forced = None if item.get("forced") is None else str(item["forced"])
            step.optional = None if item.get("optional") is None else str(item["optional"])
            step.block = found.block
            out.append(step)
        for at, message in faults:
            self.error(self.where(top, at), message)
        return out

    def where(self, top: Any, path: list[Any]) -> Where:
        file, line, column = locate(top, path)
        return Where(file or self.file, line, column)

    def scenario(
        self, top: Any, node: Any, name: str, where: Where, base: Path, path: list[Any]
    ) -> Scenario:
        def pick(key: str, default: Any = None) -> Any:
            if node is not top and key in node:
                return node[key]
            return top.get(key, default)

        game = pick("game")
        if game is None:
            self.error(where, f"scenario '{name}' names no game (add `game:` here or at the top)")
            game = ""
        game = _resolve(str(game), base)
        players = pick("players")
        if players is None:
            self.error(where, f"scenario '{name}' names no player count (add `players:`)")
            players = 0
        overlays = pick("with") or []
        if isinstance(overlays, str):
            overlays = [o.strip() for o in overlays.split(",") if o.strip()]
        setups: list[Setup] = []
        unchecked = pick("check-totals") is False  # an impossible position, knowingly
        if node is not top and "setup" in top and node.get(FILE_SETUP) is not False:
            setups.append(self.setup(top["setup"], _at(self.file, top, "setup")))
        if "setup" in node:
            setups.append(self.setup(node["setup"], _at(self.file, node, "setup")))
        refused = node.get("refused")
        if refused is not None:
            for key in ("steps", "expect"):
                if key in node:
                    self.error(
                        _at(self.file, node, key, of_key=True),
                        f"a scenario whose set-up must be `refused:` has no `{key}:` (it "
                        "never starts); write it as another scenario",
                    )
        expect = (
            self.expectations(node["expect"], _at(self.file, node, "expect"))
            if "expect" in node
            else []
        )
        scenario = Scenario(
            name=name,
            file=self.file,
            where=where,
            game=game,
            players=int(players),
            overlays=tuple(_resolve(str(o), base) for o in overlays),
            options=dict(to_plain(pick("options") or {})),
            seed=int(pick("seed", 0) or 0),
            doc=" ".join(str(node.get("doc", "")).split()),
            setups=setups,
            steps=self.steps(top, node.get("steps"), [*path, "steps"]),
            expect=expect,
            forced=str(pick("forced", "take") or "take"),
            optional=None if pick("optional") is None else str(pick("optional")),
            refused=None if refused is None else str(refused),
            refused_where=_at(self.file, node, "refused") if refused is not None else None,
        )
        if unchecked:
            for one in [*scenario.setups, *(st.setup for st in scenario.steps if st.setup)]:
                one.check_totals = False
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
    out: list[Scenario] = []
    if "scenarios" in data:
        for key in ("steps", "expect", "name"):
            if key in data:
                reader.error(
                    _at(file, data, key, of_key=True),
                    f"`{key}:` belongs inside each scenario when the file lists `scenarios:`",
                )
        seen: dict[str, Where] = {}
        for i, node in enumerate(data["scenarios"]):
            where = _at(file, data["scenarios"], i)
            name = str(node["name"])
            if name in seen:
                reader.error(where, f"a second scenario named '{name}' (first at {seen[name]})")
            seen[name] = where
            out.append(reader.scenario(data, node, name, where, base, ["scenarios", i]))
    else:
        name = str(data.get("name") or Path(file).stem)
        out.append(reader.scenario(data, data, name, Where(file, 1, 1), base, []))
    if reader.errors:
        # a block taken in by several scenarios is read in each: its faults are said once
        unique = {(d.message, d.file, d.line, d.column): d for d in reader.errors}
        raise RulesError(list(unique.values()))
    return out
