"""Writes a resolved effect text (ir.py) out as Python source, then compiles it into one function.

A whole effect text becomes one generated function whose arithmetic, comparisons, field reads,
loops and `x for y in z` forms are plain Python bytecode: let-bound names, loop variables and
inlined parameters are Python locals. What each node means was decided by resolver.py; here
only how to write it is chosen.

Generated code reads state only through `s` (the State) and the helper objects placed in its
namespace; it never evaluates rule text with eval at run time.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from types import CodeType
from typing import Any, cast

from interpreter.dsl.emit.assignments import assign_lines
from interpreter.dsl.emit.code_parts import (
    INLINE_BUILTINS,
    REDUCE_EACH,
    REDUCE_ONE,
    UNSET,
    WRITES_TEMP,
    Counters,
    Deferred,
    fires_alone,
    identity_side,
    nothing,
    proved_type,
    put,
    read_again_after_fires,
    words_text,
)
from interpreter.dsl.emit.code_writer import Memo
from interpreter.dsl.emit.emitter import Constant, define, function_source, readable, rule_filename
from interpreter.dsl.emit.journal import JOURNAL_BUILTINS, noted_set_field, noted_set_field_in_range
from interpreter.dsl.emit.layout import (
    MARK,
    inner_map,
    inner_mark,
    is_mark,
    line_map,
    prologue,
)
from interpreter.dsl.emit.lowering import is_loop, reduce_loop, returned, sums_first
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.scope import Env
from interpreter.dsl.resolve.types import Id, Piece, Prim
from interpreter.dsl.runtime.builtins import BUILTINS
from interpreter.dsl.runtime.loglines import own_line
from interpreter.dsl.runtime.runtime_state import Fn
from interpreter.dsl.runtime.support import (
    checked_divide,
    checked_index,
    fast_show,
    named,
    out_of_range,
    player_or_piece_get,
    set_field,
    set_field_in_range,
    show,
    static_attr,
)


class Generator:
    """Emits Python for resolved texts against one Env; constants live in its namespace.

    `checked` code (for scenario expectations, which report a failed read rather than crash)
    turns a missing entry, a division by zero or a field of the wrong kind of thing into a
    RuntimeRuleError that says what went wrong; games run the plain, faster reads.
    """

    def __init__(
        self,
        env: Env,
        checked: bool = False,
        deferred: bool = False,
        probes: Counters | None = None,
        journal: bool = False,
    ) -> None:
        """`probes`: a coverage build's counters (model/probes.py): each arm of every `if`
        then counts its runs. None (every game but a coverage build) generates no counting."""
        self.players = env.players
        self.env = env
        self.checked = checked
        self.deferred = deferred
        self.probes = probes
        self.ns: dict[str, Any] = {
            "_show": fast_show,
            "_named": named,
            "_own_line": own_line,
            "_names": env.id_names,
            "_set_field": set_field,
            "_set_field_in_range": set_field_in_range,
            "_out_of_range": out_of_range,
            "_static": static_attr,
            "_attrs": env.attrs,
            "_get": player_or_piece_get,
            "_runtime": env.runtime,
            "_index": checked_index,
            "_divide": checked_divide,
            "_U": UNSET,
            "_put": put,
        }
        self._consts: dict[int, str] = {}
        # the numbers of the names this generator puts in its namespace (rule functions,
        # constants, select loops) and of the locals of sums written as loops (lowering.py):
        # numbered per generator, so the same rules are written as the same source each load
        self.names = itertools.count()
        self.sum_locals = itertools.count()
        # generated code object -> {its Python line: (line, column) of the statement in the
        # rule text}, for the texts with statements
        self.line_maps: dict[CodeType, dict[int, tuple[int, int]]] = {}
        # the same for the lines of inlined procedures: {Python line: (text's place in
        # inner_texts, line, column)} in the procedure's own text (where a log line it
        # writes comes from, for the leak check)
        self.inner_maps: dict[CodeType, dict[int, tuple[int, int, int]]] = {}
        # the data paths of inlined procedures' texts
        self.inner_texts: list[tuple[str | int, ...]] = []
        # flow variables read into locals by the body being written (None: read in place)
        self._flow_reads: dict[str, str] | None = None
        self._temp_reads: dict[str, str] | None = None  # the same for temps
        self._temp_counts: dict[str, int] = {}  # how often the body reads each temp
        self._loops = 0  # how many comprehensions the part being written is inside
        self._named: dict[int, str] = {}  # id(node) -> the local a line before computed it in
        self._temp_hoist: set[str] | None = None  # the temps read into locals (None: all)
        # the parts of a listing's condition computed once a listing: id(node) -> its place
        self._memo: Memo | None = None
        if probes is not None:
            self.ns["_cov"] = probes.counts
            self.ns["_hit"] = probes.hit
        # a journal build (dsl/emit/journal.py): each write to the state is noted in s.tj
        self.journal = journal
        if journal:
            self.ns["_set_field"] = noted_set_field
            self.ns["_set_field_in_range"] = noted_set_field_in_range

    # -- entry points -------------------------------------------------------------------------
    def expression(self, node: ir.Expr, label: str) -> Fn:
        if isinstance(node, ir.Const):
            return Constant(node.value)
        if self.deferred:
            return Deferred(lambda: self._expression(node, label))
        return self._expression(node, label)

    def _expression(self, node: ir.Expr, label: str) -> Fn:
        return self._build(self._with_flow_reads(lambda: returned(self, node)), label)

    def statements(self, stmts: list[ir.Stmt], label: str) -> Fn:
        if self.deferred:
            return Deferred(lambda: self._statements(stmts, label))
        return self._statements(stmts, label)

    def _statements(self, stmts: list[ir.Stmt], label: str) -> Fn:
        lines = self._with_flow_reads(lambda: self.lines(stmts))
        if all(is_mark(ln) for ln in lines):
            return nothing
        return self._build(lines, label)

    def _with_flow_reads(self, write: Callable[[], list[str]]) -> list[str]:
        """The body `write` gives, with each flow variable it reads, and each bound value (a
        temp: an option's `for` value, a parameter) it reads more than once, read once at the
        top into a local (`actor` is read many times a text, each a dict lookup), and again
        after each `emit` (whose hooks may write either); unless the body writes a flow
        variable or a temp: then as is. (What pieces grant writes only the temp of a
        catalog's `active` test, which cannot itself ask what pieces grant.)"""
        body, reads, temps = self._written(write, None)
        joined = "\n".join(body)
        if "V[" in joined or WRITES_TEMP.search(joined) or not fires_alone(body):
            self._temp_reads = None
            return write()
        once = [key for key, n in self._temp_counts.items() if n == 1]
        if once:  # a temp read once is read in place (t[key] costs less than t.get(key))
            hoist = {key for key in temps if key not in once}
            body, reads, temps = self._written(write, hoist)
        top = [f"{local} = V.get({key!r})" for key, local in reads.items()]
        top += [f"{local} = t.get({key!r})" for key, local in temps.items()]
        return top + read_again_after_fires(body, top)

    def _written(
        self, write: Callable[[], list[str]], hoist: set[str] | None
    ) -> tuple[list[str], dict[str, str], dict[str, str]]:
        """`write()` with flow variables and temps (those in `hoist`; None: all) read into
        locals: the body, and the locals it reads them into."""
        self._flow_reads, self._temp_reads, self._temp_counts = {}, {}, {}
        self._temp_hoist = hoist
        try:
            body = write()
        finally:
            reads, self._flow_reads = self._flow_reads, None
            temps, self._temp_reads = self._temp_reads, None
        return body, reads, temps

    def _build(self, body: list[str], label: str) -> Fn:
        name = f"rule_{next(self.names)}_{readable(label, 30)}".rstrip("_")
        src = function_source(name, "s", prologue(body) + body)
        fn = define(src, name, self.ns, rule_filename(label))
        where = line_map(src)
        if where:
            self.line_maps[fn.__code__] = where
        inner = inner_map(src)
        if inner:
            self.inner_maps[fn.__code__] = inner
        return fn

    def _ref(self, value: Any) -> str:
        """A Python expression for a constant: a literal when possible, else a namespace name."""
        if value is None or isinstance(value, bool | int | str):
            return repr(value)
        key = id(value)
        if key not in self._consts:
            nm = f"_const{next(self.names)}"
            self.ns[nm] = value
            self._consts[key] = nm
        return self._consts[key]

    # -- statements ---------------------------------------------------------------------------
    def lines(self, stmts: list[ir.Stmt]) -> list[str]:
        out: list[str] = []
        for st in stmts:
            at = getattr(st, "pos", None)
            if at is not None:
                out.append(f"{MARK}{at[0]}:{at[1]}")
            out.extend(_STATEMENTS[type(st)](self, st))
        return out

    def _suite(self, stmts: list[ir.Stmt]) -> list[str]:
        body = self.lines(stmts)
        if all(is_mark(ln) for ln in body):
            body.append("pass")
        return ["    " + ln for ln in body]

    def _let(self, st: ir.Let) -> list[str]:
        if self._memo is None and is_loop(st.value):  # `let x = first(...)`: codegen_lower
            return reduce_loop(self, st.slot.py, st.value)
        # a sum the value computes in any case: a loop first (codegen_lower), as below
        return sums_first(self, st.value, lambda: [f"{st.slot.py} = {self.x(st.value)}"])

    def _assign(self, st: ir.Assign) -> list[str]:
        return sums_first(self, st.value, lambda: assign_lines(self, st))

    def _if(self, st: ir.If) -> list[str]:
        counted = self.probes is not None and bool(st.at)
        out: list[str] = []
        for i, (cond, body) in enumerate(st.branches):
            if i == 0:  # the first test runs in any case: its sums are loops before it
                head = sums_first(self, cond, lambda: [f"if {self.x(st.branches[0][0])}:"])
            else:
                head = [f"elif {self.x(cond)}:"]
            if counted:
                head.append("    " + self._count("elif" if i else "then", st.at[i]))
            out += [*head, *self._suite(body)]
        if counted:  # the else arm is counted even where the text has none
            arm = "else" if st.otherwise is not None else "else (none written)"
            out += ["else:", "    " + self._count(arm, st.at[-1])]
            if st.otherwise:
                out += self._suite(st.otherwise)
        elif st.otherwise is not None:
            out += ["else:", *self._suite(st.otherwise)]
        return out

    def _count(self, arm: str, at: tuple) -> str:
        """A coverage build's counting line for one arm of an `if` at (origin, line, column)."""
        probes = self.probes
        assert probes is not None  # (asked only in a coverage build)
        return f"_cov[{probes.add('branch', arm, *at)}] += 1"

    def _for(self, st: ir.For) -> list[str]:
        # a copy (the body may change the collection), unless made here anyway: lists joined
        it = self.x(st.iterable)
        it = it if isinstance(st.iterable, ir.Binary) and st.iterable.op == "+" else f"list({it})"
        self._loops += 1
        try:
            return [f"for {st.slot.py} in {it}:", *self._suite(st.body)]
        finally:
            self._loops -= 1

    def _emit(self, st: ir.Emit) -> list[str]:
        vals = ", ".join(self.x(a) for a in st.args)
        return [f"_runtime['fire'](s, {st.event!r}, [{vals}])"]

    def _log(self, st: ir.Log) -> list[str]:
        text = self.x(st.text)
        if st.own is not None and st.seat is not None:
            text = f"_own_line({text}, {self.x(st.seat)}, {self.x(st.own)})"
        return [f"if s.log is not None: s.log.append((s.round, None, {text}))"]

    def _do(self, st: ir.Do) -> list[str]:
        return [self.x(st.call)]

    def _inline_proc(self, st: ir.InlineProc) -> list[str]:
        out = [f"{slot.py} = {self.x(value)}" for slot, value in st.bound]
        # the body's positions are in the procedure's own text: a failure is reported at the
        # call (line_map); its inner marks say which statement of the procedure runs
        if st.origin is None:
            return out + [ln for ln in self.lines(st.body) if not is_mark(ln)]
        key = tuple(st.origin)
        if key not in self.inner_texts:
            self.inner_texts.append(key)
        place = self.inner_texts.index(key)
        return out + [inner_mark(ln, place) if is_mark(ln) else ln for ln in self.lines(st.body)]

    # -- expressions --------------------------------------------------------------------------
    def x(self, node: ir.Expr) -> str:
        named = self._named.get(id(node))  # a part computed by a line before (codegen_lower)
        if named is not None:
            return named
        memo = self._memo
        if memo is not None:
            if id(node) in memo:
                return memo.form(memo[id(node)], _EXPRESSIONS[type(node)](self, node))
            if id(node) in memo.sets:  # `has` of an area read once a listing (codegen_select)
                area, kind = cast(ir.BuiltinCall, node).args
                return memo.has(memo.sets[id(node)], self.x(area), self.x(kind))
        return _EXPRESSIONS[type(node)](self, node)

    def _const(self, node: ir.Const) -> str:
        return self._ref(node.value)

    def _local(self, node: ir.Local) -> str:
        return node.slot.py

    def _temp(self, node: ir.Temp) -> str:
        reads = self._temp_reads
        if reads is None:
            return f"t[{node.key!r}]"
        counts = self._temp_counts
        # read in a comprehension, it is read once an element: into a local, as if read twice
        counts[node.key] = counts.get(node.key, 0) + (2 if self._loops else 1)
        if self._temp_hoist is not None and node.key not in self._temp_hoist:
            return f"t[{node.key!r}]"
        local = reads.get(node.key)
        if local is None:
            local = reads[node.key] = f"_t{len(reads)}"
        return local

    def _flow_var(self, node: ir.FlowVar) -> str:
        reads = self._flow_reads
        if reads is None:
            return f"V.get({node.key!r})"
        local = reads.get(node.key)
        if local is None:
            local = reads[node.key] = f"_v{len(reads)}"
        return local

    def _round(self, node: ir.Round) -> str:
        return "s.round"

    def _global(self, node: ir.Global) -> str:
        return f"g[{node.name!r}]"

    def _field(self, node: ir.Field) -> str:
        obj = self.x(node.obj)
        if node.holder == "piece" and not self.checked:
            return f"{obj}[{node.name!r}]"
        if node.holder == "player" and not self.checked:
            return f"P[{obj}][{node.name!r}]"
        return f"_get(s, {obj}, {node.name!r}, _attrs)"

    def _static(self, node: ir.Static) -> str:
        table = self._ref(node.table)
        o = self.x(node.obj)
        if not self.checked:
            # what the type pass proved the value is: an entry id or a placed piece, so the
            # entry is found without testing which at run time (an attribute read in a loop
            # over pieces runs for every piece)
            proved = proved_type(node.obj)
            if type(proved) is Piece:
                return f"{table}[{o}['type']]"
            if type(proved) is Id:
                return f"{table}[{o}]"
        if node.obj.simple and not self.checked:
            return f"{table}[{o} if {o}.__class__ is str else {o}['type']]"
        return f"_static({table}, {o}, s, {node.name!r}, _attrs)"

    def _ability(self, node: ir.Ability) -> str:
        return f"_runtime['ability'](s, {self.x(node.obj)}, {node.name!r})"

    def _list(self, node: ir.ListOf) -> str:
        return "[" + ", ".join(self.x(c) for c in node.items) + "]"

    def _index(self, node: ir.Index) -> str:
        if self.checked:
            return f"_index({self.x(node.obj)}, {self.x(node.key)})"
        return f"{self.x(node.obj)}[{self.x(node.key)}]"

    def _unary(self, node: ir.Unary) -> str:
        space = " " if node.op == "not" else ""
        return f"({node.op}{space}{self.x(node.operand)})"

    def _bool_op(self, node: ir.BoolOp) -> str:
        return "(" + f" {node.op} ".join(self.x(c) for c in node.operands) + ")"

    def _cond(self, node: ir.Cond) -> str:
        then, test, other = self.x(node.then), self.x(node.test), self.x(node.other)
        if self.probes is not None and node.at:
            add = self.probes.add
            then = f"_hit({add('branch', 'then', *node.at[0])}, {then})"
            other = f"_hit({add('branch', 'else', *node.at[1])}, {other})"
        return f"({then} if {test} else {other})"

    def _binary(self, node: ir.Binary) -> str:
        kept = identity_side(node)  # `x * 1`, `x - 0`: x
        if kept is not None:
            return self.x(kept)
        if self.checked and node.op in ("//", "%"):
            return f"_divide({self.x(node.left)}, {node.op!r}, {self.x(node.right)})"
        return f"({self.x(node.left)} {node.op} {self.x(node.right)})"

    def _template(self, node: ir.Template) -> str:
        if node.words:
            return words_text(node, self.x, self.env.id_names)
        parts = []
        for p in node.parts:
            if isinstance(p, str):
                parts.append(repr(p))
            elif isinstance(p, ir.Const):
                parts.append(repr(show(p.value)))
            elif p.simple and type(proved_type(p)) is not Prim:
                # an id's text is itself: no call for it (ids are most parts; a number is not)
                v = self.x(p)
                parts.append(f"({v} if {v}.__class__ is str else _show({v}))")
            else:
                parts.append(f"_show({self.x(p)})")
        return "(" + " + ".join(parts) + ")"

    def _builtin(self, node: ir.BuiltinCall) -> str:
        vals = [self.x(a) for a in node.args]
        inline = INLINE_BUILTINS.get(node.name)
        if inline is not None:
            return inline.format(*vals)
        func = self._ref(
            JOURNAL_BUILTINS.get(node.name, BUILTINS[node.name].func)
            if self.journal
            else BUILTINS[node.name].func
        )
        return f"{func}(s, {', '.join(vals)})"

    def _reduce(self, node: ir.Reduce) -> str:
        vals = [self.x(a) for a in node.args]
        if len(vals) > 1:  # min or max of several values
            return f"{node.kind}({', '.join(vals)})"
        return REDUCE_ONE[node.kind].format(vals[0])

    def _reduce_each(self, node: ir.ReduceEach) -> str:
        it = self.x(node.iterable)
        el, cond = self._each(node)
        return REDUCE_EACH[node.kind].format(el, f"for {node.slot.py} in {it}{cond}")

    def _each(self, node: ir.ReduceEach) -> tuple[str, str]:
        """A reducer's element and its ` if cond` ("" without), read once an element."""
        self._loops += 1
        try:
            el = self.x(node.element)
            return el, f" if {self.x(node.cond)}" if node.cond is not None else ""
        finally:
            self._loops -= 1

    def _inline(self, node: ir.Inline) -> str:
        body = self.x(node.body)
        if not node.bound:
            return f"({body})"
        params = ", ".join(slot.py for slot, _ in node.bound)
        args = ", ".join(self.x(value) for _, value in node.bound)
        return f"(lambda {params}: {body})({args})"


_STATEMENTS: dict[type, Callable[[Generator, Any], list[str]]] = {
    ir.Let: Generator._let,
    ir.Assign: Generator._assign,
    ir.If: Generator._if,
    ir.For: Generator._for,
    ir.Emit: Generator._emit,
    ir.Log: Generator._log,
    ir.Do: Generator._do,
    ir.InlineProc: Generator._inline_proc,
}

_EXPRESSIONS: dict[type, Callable[[Generator, Any], str]] = {
    ir.Const: Generator._const,
    ir.Local: Generator._local,
    ir.Temp: Generator._temp,
    ir.FlowVar: Generator._flow_var,
    ir.Round: Generator._round,
    ir.Global: Generator._global,
    ir.Field: Generator._field,
    ir.Static: Generator._static,
    ir.Ability: Generator._ability,
    ir.ListOf: Generator._list,
    ir.Index: Generator._index,
    ir.Unary: Generator._unary,
    ir.BoolOp: Generator._bool_op,
    ir.Cond: Generator._cond,
    ir.Binary: Generator._binary,
    ir.Template: Generator._template,
    ir.BuiltinCall: Generator._builtin,
    ir.Reduce: Generator._reduce,
    ir.ReduceEach: Generator._reduce_each,
    ir.Inline: Generator._inline,
}
