"""Compiles a composed ruleset (already schema-checked) into the tables and closures a Game runs.

Reads the ruleset's sections once: sets, tables, catalogs (pieces with attributes, dynamic
fields, grants and hooks), state declarations, events, functions and procedures, the flow and
phases, and scoring. All DSL texts are compiled here; every fault becomes a Diagnostic that
points at the rule file (file:line:col inside the effect text), and all of them are reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.compiler import Callable_, Compiler, Env, Fn, Scope, _Nested
from interpreter.dsl.parser import DslSyntaxError
from interpreter.load.locate import json_pointer, locate, position_of
from interpreter.model.flow import (
    CHOOSE,
    DO,
    END_ROUND,
    FINISH,
    RETURN,
    ChooseSpec,
    OptionSpec,
    Program,
    StepCompiler,
)

NONE_WORD = "none"


def plain(x: Any) -> Any:
    """ruamel containers to plain dicts/lists; the word `none` to None."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if isinstance(x, str):
        return None if x == NONE_WORD else str(x)
    return x


@dataclass
class Hook:
    fn: Fn
    self_key: str
    owner_key: str
    param_keys: tuple[str, ...]


@dataclass
class Scoring:
    before: Fn | None
    seat_key: str
    components: list[tuple[str, Fn]]
    tiebreak: Fn | None


@dataclass
class Rules:
    """Everything compiled from one ruleset for one player count and option set."""

    env: Env
    program: Program
    global_init: dict[str, tuple[str, Any]]  # name -> (kind, start)
    player_init: dict[str, tuple[str, Any]]
    hidden_global: set[str]
    hidden_player: set[str]
    hidden_all: set[str]
    player_areas: tuple[str, ...]
    hooks: dict[str, dict[str, Hook]]
    active: dict[str, tuple[Fn, str]]  # piece type -> (predicate, self slot)
    round_over: Fn
    trigger: Fn | None
    scoring: Scoring
    warnings: list[Diagnostic] = field(default_factory=list)


_source_cache: dict[str, list[str]] = {}


def _source_lines(path: str | None) -> list[str]:
    if not path:
        return []
    if path not in _source_cache:
        try:
            _source_cache[path] = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError:
            _source_cache[path] = []
    return _source_cache[path]


class DslHost:
    """Compiles the DSL texts found at data paths, turning faults into positioned diagnostics."""

    def __init__(self, compiler: Compiler, root: Any, players: int) -> None:
        self.c = compiler
        self.root = root
        self.players = players
        self.diagnostics: list[Diagnostic] = []

    # -- positions -----------------------------------------------------------------------
    def _text_origin(self, path: Sequence[Any]) -> tuple[str | None, int | None, int | None]:
        parent = self.root
        for seg in path[:-1]:
            try:
                parent = parent[seg]
            except (KeyError, IndexError, TypeError):
                return locate(self.root, list(path))
        try:
            return position_of(parent, path[-1])
        except Exception:  # noqa: BLE001 - positions are best effort
            return locate(self.root, list(path))

    def _text_at(self, path: Sequence[Any]) -> str:
        node = self.root
        try:
            for seg in path:
                node = node[seg]
        except (KeyError, IndexError, TypeError):
            return ""
        return _text(node)

    def position(self, path: Sequence[Any], line: int, column: int) -> tuple:
        """file:line:col of (line, column) inside the effect text at `path`.

        YAML may fold, indent or quote the text (`|`, `>-`, plain over several lines, quotes);
        its non-blank characters still appear in the file in the same order, so the fault is
        found by counting them.
        """
        file, vline, vcol = self._text_origin(path)
        if vline is None:
            return file, None, None
        text = self._text_at(path)
        lines = _source_lines(file)
        if not lines or not text:
            return file, vline, vcol
        tlines = text.split("\n")
        line = max(1, min(line, len(tlines)))
        offset = sum(len(x) + 1 for x in tlines[: line - 1]) + max(0, column - 1)
        nonblank = [i for i, ch in enumerate(text) if not ch.isspace()]
        if not nonblank:
            return file, vline, vcol
        want = sum(1 for i in nonblank if i < offset)
        after_end = want >= len(nonblank)
        if after_end:
            want = len(nonblank) - 1
        head = lines[vline - 1] if 0 < vline <= len(lines) else ""
        col0 = (vcol or 1) - 1
        indicator = head[col0 : col0 + 1]
        if indicator in ("|", ">"):
            li, ci = vline, 0  # a block scalar starts on the next line
        else:
            li, ci = vline - 1, col0 + (1 if indicator in ("'", '"') else 0)
        count = 0
        while li < len(lines):
            row = lines[li]
            while ci < len(row):
                if not row[ci].isspace():
                    if count == want:
                        return file, li + 1, ci + 1 + (1 if after_end else 0)
                    count += 1
                ci += 1
            li += 1
            ci = 0
        return file, vline, vcol

    def where(self, path: Sequence[Any]) -> str:
        file, line, col = self._text_origin(path)
        return ":".join(str(x) for x in (file, line, col) if x is not None) or json_pointer(path)

    def fail(self, path: Sequence[Any], err: DslSyntaxError) -> None:
        if isinstance(err, _Nested) and err.function.origin is not None:
            inner = err.inner
            while isinstance(inner, _Nested) and inner.function.origin is not None:
                err, inner = inner, inner.inner
            path = err.function.origin
            err = inner
        file, line, col = self.position(path, err.line, err.column)
        self.diagnostics.append(
            Diagnostic(
                code=err.code,
                message=err.message,
                file=file,
                line=line,
                column=col,
                json_path=json_pointer(list(path)),
            )
        )

    def error(
        self,
        path: Sequence[Any],
        code: str,
        message: str,
        hint: str | None = None,
        at_key: bool = False,
    ) -> None:
        file, line, col = (
            locate(self.root, list(path), key=True) if at_key else self._text_origin(path)
        )
        self.diagnostics.append(
            Diagnostic(code, message, file, line, col, json_pointer(list(path)), hint=hint)
        )

    # -- compiling -----------------------------------------------------------------------
    def _guard(self, path: Sequence[Any], make: Any, column_offset: int = 0) -> Fn:
        try:
            return make()
        except DslSyntaxError as e:
            if column_offset and e.line == 1 and not isinstance(e, _Nested):
                e.column += column_offset
            self.fail(path, e)
            return lambda s: None

    def expression(
        self, text: Any, path: Sequence[Any], scope: Scope | None = None, column_offset: int = 0
    ) -> Fn:
        sc = scope or self.c.root
        return self._guard(path, lambda: self.c.expression(_text(text), sc), column_offset)

    def statements(self, text: Any, path: Sequence[Any], scope: Scope | None = None) -> Fn:
        sc = scope or self.c.root
        return self._guard(path, lambda: self.c.statements(_text(text), sc))

    def template(self, text: Any, path: Sequence[Any], scope: Scope | None = None) -> Fn:
        """A plain text with {expr} parts (option ids, log lines)."""
        sc = scope or self.c.root
        raw = _text(text)
        if '"' in raw:
            self.error(path, "D006", 'a template may not contain the character "')
            return lambda s: raw
        token = Token("STRING", f'"{raw}"', line=1, column=0)
        return self._guard(path, lambda: self.c._format(token, sc))

    def log(self, text: Any, path: Sequence[Any]) -> Fn:
        fmt = self.template(text, path)

        def log(s: Any) -> None:
            if s.log is not None:
                s.log.append((s.round, None, fmt(s)))

        return log

    def declare_var(self, name: str) -> None:
        self.c.root.bindings[name] = ("var", name)

    def choose(self, spec: Any, path: list, idle: tuple[str, ...]) -> ChooseSpec:
        who = self.expression(spec.get("who", "0"), [*path, "who"])
        options: list[OptionSpec] = []
        for i, o in enumerate(spec.get("options", [])):
            opath = [*path, "options", i]
            scope = self.c.root.child()
            parts = o.get("for", [])
            if isinstance(parts, str):
                parts = [parts]
                part_paths = [[*opath, "for"]]
            else:
                part_paths = [[*opath, "for", j] for j in range(len(parts))]
            slots: list[str] = []
            domains: list[Fn] = []
            for part, ppath in zip(parts, part_paths, strict=True):
                name, sep, rest = str(part).partition(" in ")
                if not sep or not name.strip().replace("-", "").replace("_", "").isalnum():
                    self.error(ppath, "D007", f"expected 'NAME in COLLECTION', got {part!r}")
                    continue
                offset = len(name) + len(sep)  # faults in the collection keep their column
                domains.append(self.expression(rest, ppath, scope, offset))
                slots.append(scope.temp(name.strip()))
            cond = self.expression(o["if"], [*opath, "if"], scope) if "if" in o else None
            template = self.template(o.get("id", ""), [*opath, "id"], scope)
            effect = self.statements(o.get("do", "pass"), [*opath, "do"], scope)
            log = self.template(o["log"], [*opath, "log"], scope) if "log" in o else None
            options.append(OptionSpec(template, tuple(slots), tuple(domains), cond, effect, log))
        return ChooseSpec(
            who=who,
            options=options,
            label=str(spec.get("label", "")),
            idle_flags=idle,
            where=self.where(path),
        )


def _text(x: Any) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


# ---------------------------------------------------------------------------------------------


def _add_constant(
    host: DslHost, constants: dict[str, Any], owner: dict[str, list], name: str, value: Any, path
) -> None:
    if name in constants and constants[name] != value:
        first = owner[name]
        host.error(
            path,
            "R002",
            f"the name '{name}' is declared twice (first at {json_pointer(first)})",
        )
        return
    constants[name] = value
    owner.setdefault(name, list(path))


def build_rules(
    data: Any, players: int, options: dict[str, Any], *, for_checking: bool = False
) -> Rules:
    """Compile `data` (a composed ruleset tree) for `players` seats and the resolved options.

    ``for_checking`` stops the effect compiler after its resolve pass: the same names, checks
    and diagnostics without generating any code, for callers that only want the diagnostics
    (validation). The returned rules then cannot be played.
    """
    compiler_root = Scope(None)
    sets = {str(k): [str(x) for x in v] for k, v in (data.get("sets") or {}).items()}
    tables = {str(k): plain(v) for k, v in (data.get("tables") or {}).items()}
    catalogs = data.get("catalogs") or {}
    state_decl = data.get("state") or {}

    constants: dict[str, Any] = {}
    owners: dict[str, list] = {}
    attrs: dict[str, dict[str, Any]] = {}
    piece_defaults: dict[str, dict[str, Any]] = {}
    piece_fields: set[str] = set()
    abilities: dict[str, dict[str, int]] = {}

    env = Env(
        players=players,
        global_fields={},
        player_fields={"seat": "value"},
        piece_fields=piece_fields,
        abilities=abilities,
        constants=constants,
        attrs=attrs,
        piece_defaults=piece_defaults,
        options=dict(options),
    )
    compiler = Compiler(env, compiler_root, checking=for_checking)
    host = DslHost(compiler, data, players)

    for name, members in sets.items():
        _add_constant(host, constants, owners, name, tuple(members), ["sets", name])
        for m in members:
            _add_constant(host, constants, owners, m, m, ["sets", name])
    for cname, cat in catalogs.items():
        cname = str(cname)
        entries = cat.get("entries") or {}
        _add_constant(
            host, constants, owners, cname, tuple(str(e) for e in entries), ["catalogs", cname]
        )
        defaults = plain(cat.get("defaults") or {})
        fields = plain(cat.get("fields") or {})
        piece_fields.update(fields)
        for eid, entry in entries.items():
            eid = str(eid)
            epath = ["catalogs", cname, "entries", eid]
            _add_constant(host, constants, owners, eid, eid, epath)
            values = dict(defaults)
            for k, v in (entry or {}).items():
                if k in ("on", "grants", "doc"):
                    continue
                values[str(k)] = plain(v)
            values["catalog"] = cname
            attrs[eid] = values
            piece_defaults[eid] = dict(fields)
            for ability, amount in ((entry or {}).get("grants") or {}).items():
                abilities.setdefault(str(ability), {})[eid] = int(amount)
    for name, value in tables.items():
        _add_constant(host, constants, owners, name, value, ["tables", name])
    for oname, odecl in (data.get("options") or {}).items():
        choices = list(odecl.get("choices") or [])
        if choices and "default" in odecl and odecl["default"] not in choices:
            host.error(
                ["options", oname, "default"],
                "R004",
                f"the default {odecl['default']!r} of option '{oname}' is not one of its choices",
                _hint(str(odecl["default"]), [str(c) for c in choices]),
            )
        for choice in choices:
            if isinstance(choice, str) and choice not in constants:
                constants[choice] = choice

    # state declarations
    global_init: dict[str, tuple[str, Any]] = {}
    player_init: dict[str, tuple[str, Any]] = {}
    hidden_global: set[str] = set()
    hidden_player: set[str] = set()
    hidden_all: set[str] = set()  # not even a pile's size is shown
    for where, target, hidden, fields_out in (
        ("global", global_init, hidden_global, env.global_fields),
        ("player", player_init, hidden_player, env.player_fields),
    ):
        for fname, decl in (state_decl.get(where) or {}).items():
            fname = str(fname)
            fpath = ["state", where, fname]
            kind, start = _field_kind(decl)
            if kind in ("bag", "pile", "area"):
                over = str(decl[kind])
                if over not in sets and over not in catalogs:
                    host.error(
                        [*fpath, kind],
                        "R001",
                        f"unknown set or catalog '{over}'",
                        _hint(over, [*sets, *catalogs]),
                    )
                    members: list[str] = []
                else:
                    members = sets.get(over) or [str(e) for e in catalogs[over].get("entries", {})]
                start = members if kind == "bag" else None
            if where == "global" and fname in constants:
                host.error(fpath, "R002", f"'{fname}' is already the name of a set, entry or table")
            target[fname] = (kind, start)
            fields_out[fname] = kind
            if decl.get("hidden"):
                hidden.add(fname)
                if decl.get("hidden") == "all":
                    hidden_all.add(fname)

    # rule functions and procedures (inlined at their call sites)
    for section, is_proc, body_key in (("functions", False, "expr"), ("procedures", True, "do")):
        for fname, fdecl in (data.get(section) or {}).items():
            fname = str(fname)
            if fname in env.functions:
                host.error([section, fname], "R002", f"'{fname}' is declared twice")
            env.functions[fname] = Callable_(
                name=fname,
                params=[str(p) for p in (fdecl.get("params") or [])],
                text=_text(fdecl.get(body_key, "pass" if is_proc else "0")),
                is_procedure=is_proc,
                origin=[section, fname, body_key],
            )
    env.events = {
        str(k): [str(p) for p in (v or [])] for k, v in (data.get("events") or {}).items()
    }

    flow = data.get("flow") or {}
    for var in flow.get("variables") or []:
        host.declare_var(str(var))

    # pieces: active predicates and hooks
    active: dict[str, tuple[Fn, str]] = {}
    hooks: dict[str, dict[str, Hook]] = {}
    for cname, cat in catalogs.items():
        if "active" in cat:
            scope = compiler_root.child()
            key = scope.temp("self")
            pred = host.expression(cat["active"], ["catalogs", cname, "active"], scope)
            for eid in cat.get("entries") or {}:
                active[str(eid)] = (pred, key)
        for eid, entry in (cat.get("entries") or {}).items():
            for event, text in ((entry or {}).get("on") or {}).items():
                event = str(event)
                hpath = ["catalogs", cname, "entries", eid, "on", event]
                if event not in env.events:
                    host.error(
                        hpath,
                        "R003",
                        f"unknown event '{event}'",
                        _hint(event, env.events),
                        at_key=True,
                    )
                    continue
                scope = compiler_root.child()
                self_key = scope.temp("self")
                owner_key = scope.temp("owner")
                keys = tuple(scope.temp(p) for p in env.events[event])
                fn = host.statements(text, hpath, scope)
                hooks.setdefault(event, {})[str(eid)] = Hook(fn, self_key, owner_key, keys)

    # the flow program: setup, the round loop, then each phase as a callable block
    program = Program()
    steps = StepCompiler(program, host)
    steps.steps(flow.get("setup") or [], ["flow", "setup"])

    def first_round(s: Any) -> None:
        s.round = 1

    program.emit(DO, first_round)
    program.round_start = program.here()
    steps.steps(flow.get("round") or [], ["flow", "round"])
    end_round = program.emit(END_ROUND, -1)
    finish = program.emit(FINISH)
    program.patch(end_round, END_ROUND, finish)
    phases = data.get("phases") or {}
    for pname, psteps in phases.items():
        program.phases[str(pname)] = program.here()
        steps.steps(psteps or [], ["phases", pname])
        program.emit(RETURN)
    for at in program.stops:
        ins = program.code[at]
        program.patch(at, ins[0], ins[1], finish)

    round_over = host.expression(
        flow.get("end-after-round-if", "false"), ["flow", "end-after-round-if"]
    )
    trigger = host.expression(flow["trigger"], ["flow", "trigger"]) if "trigger" in flow else None

    sc = data.get("scoring") or {}
    seat_scope = compiler_root.child()
    seat_key = seat_scope.temp("p")
    before = host.statements(sc["before"], ["scoring", "before"]) if "before" in sc else None
    components = [
        (
            str(c.get("name")),
            host.expression(c.get("value", "0"), ["scoring", "components", i, "value"], seat_scope),
        )
        for i, c in enumerate(sc.get("components") or [])
    ]
    tiebreak = (
        host.expression(sc["tiebreak"], ["scoring", "tiebreak"], seat_scope)
        if "tiebreak" in sc
        else None
    )

    _check_functions(host, compiler_root)
    _check_phase_references(host, program, data)
    warnings = _unused(host, data, env)

    if host.diagnostics:
        # a fault inside a rule function is found at every call site: report it once
        unique = {(d.code, d.file, d.line, d.column, d.message): d for d in host.diagnostics}
        raise RulesError(sorted(unique.values(), key=Diagnostic.sort_key))

    return Rules(
        env=env,
        program=program,
        global_init=global_init,
        player_init=player_init,
        hidden_global=hidden_global,
        hidden_player=hidden_player,
        hidden_all=hidden_all,
        player_areas=tuple(k for k, (kind, _) in player_init.items() if kind == "area"),
        hooks=hooks,
        active=active,
        round_over=round_over,
        trigger=trigger,
        scoring=Scoring(before, seat_key, components, tiebreak),
        warnings=warnings,
    )


def _field_kind(decl: Any) -> tuple[str, Any]:
    for kind in ("counter", "value", "bag", "pile", "area"):
        if kind in decl:
            return kind, plain(decl[kind]) if kind in ("counter", "value") else None
    return "value", None


def _hint(name: str, candidates: Any) -> str | None:
    guess = did_you_mean(name, list(candidates))
    return f"did you mean '{guess}'?" if guess else None


def _check_functions(host: DslHost, root: Scope) -> None:
    """Compile each rule function and procedure on its own, so faults in one nobody calls yet
    are reported too (call sites inline their own copies)."""
    for fn in host.c.env.functions.values():
        scope = root.child()
        for param in fn.params:
            scope.temp(param)
        path = fn.origin or []
        if fn.is_procedure:
            host.statements(fn.text, path, scope)
        else:
            host.expression(fn.text, path, scope)


def _check_phase_references(host: DslHost, program: Program, data: Any) -> None:
    """A role naming a phase that does not exist is caught at load, not mid-game."""
    phases = set(program.phases)
    for cname, cat in (data.get("catalogs") or {}).items():
        for eid, entry in (cat.get("entries") or {}).items():
            ph = (entry or {}).get("phase")
            if isinstance(ph, str) and ph != NONE_WORD and ph not in phases:
                host.error(
                    ["catalogs", cname, "entries", eid, "phase"],
                    "R001",
                    f"unknown phase '{ph}'",
                    _hint(ph, phases),
                )


def _unused(host: DslHost, data: Any, env: Env) -> list[Diagnostic]:
    """Events declared but never emitted are warnings (a hook on them could never run)."""
    out: list[Diagnostic] = []
    for event in env.events:
        if event not in env.emitted:
            file, line, col = locate(data, ["events", event], key=True)
            out.append(
                Diagnostic(
                    "W001",
                    f"event '{event}' is never emitted by any rule",
                    file,
                    line,
                    col,
                    json_pointer(["events", event]),
                    severity="warning",
                )
            )
    return out


CHOOSE_OP = CHOOSE  # re-exported for tools that walk programs
