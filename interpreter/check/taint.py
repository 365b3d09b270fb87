"""The static leak check (L005): every value that flows from a field hidden from some seat into
a place another seat reads, found in the resolved effect language of a full build
(model/texts.py), without playing a game.

*Sources* are reads of a hidden field's contents: a field declared ``hidden: true|all``,
global (hidden from every seat) or a seat's own (``actor.hand``: hidden from every other seat),
and what the pieces of a hidden area grant. A hidden pile's size (``len``) is not a source:
every seat is shown it under ``hidden: true``; under ``hidden: all`` whether the public history
fixes it (every card put there logged) is left to ``--secrets``. A hidden
per-seat counter named under ``remember:`` is not one either: every change of it is seen (the
claim ``--secrets`` tests by playing).

A value carries the sources it was computed from through expressions, rule functions and
procedures (inlined where they are called), ``let`` names, flow variables (across every text
that assigns them), an option's ``for`` names (from the collection *and* from the option's
``if``: a value offered only when it is in a hidden hand says it is there), loops and
reductions, the contents of local lists, and an event's values into its hooks. Under a flow
step's ``if:``/``while:``, a statement's ``if`` or an ``emit`` (for the hooks it runs), what
the text does at all depends on what the condition reads.

*Sinks*, where other seats read:

* a public log text (a flow ``log:`` step, a ``log`` statement, an option's ``log:``; an
  option with no ``log:`` whose effect may write no line is logged with its own text, its id);
* an own text, read by one seat, an option's id (its text), read by the seat deciding, and
  which options that seat is offered (their ``for`` collections and ``if``): a source hidden
  from that seat (see _visible);
* a write into a public field (a counter, a value, a bag, a piece's field) of a value that is
  not an id (an id written into a public place is a reveal, as a card turned face up);
* a log line written, a decision asked (its ``who:``, the flow conditions around it), a public
  field written or a public pile changed only under a condition that reads a source.

*Declassification*: a name (an option's ``for`` value, a ``let``, a flow variable) that the
same text (an option line with its effect) puts, unconditionally, into a pile or area every
seat sees, writes into a public field or counts in a public bag, is public in that text, and
so is the option's existence: an option that names the card it takes from a hidden hand and
puts it face up in the same move tells nothing the table is not shown. What runs at game end
(scoring and the hooks only it triggers) is not reported: the game is over. A seat's field is
taken as visible to a seat reading one text unless both are named by different seat numbers:
``chooser`` and ``actor`` may be one seat when the text runs.

It claims no more than that: which *line* of options a seat took (its public text) is taken as
public, and so is how many times a loop runs; a value the engine binds for a hook (its piece,
its owner) is public; a flow that goes through the state (written into a hidden field, read
back later) is followed by the field's own visibility only; end conditions and ``stop-if``
are not read.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from interpreter.check.taint_texts import always_logs, game_end_blocks, hook_event
from interpreter.check.taint_words import (
    Finding,
    Label,
    Spelling,
    Taint,
    Where,
    describe_name,
    findings_to_diagnostics,
)
from interpreter.diagnostics.errors import Diagnostic
from interpreter.dsl.emit.hoist import _children as expr_children
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.types import is_text_id
from interpreter.infoset.secrecy import Name, name_of
from interpreter.model.texts import Block, LogStep, OptionLine, Texts

__all__ = ["leak_flows"]

_CHANGES = {"push": 0, "remove": 0, "clear": 0, "shuffle": 0, "place": 1}  # -> the pile's arg


def leak_flows(texts: Texts, spell: Spelling | None = None) -> list[Diagnostic]:
    """The L005 diagnostics of one build's texts (empty when nothing leaks); their JSON paths
    spelt by `spell` (the composed rules' names and ids of list items) where given."""
    flows = Flows(texts)
    flows.settle()
    return findings_to_diagnostics(flows.findings, texts.position, spell)


def seat_key(node: object) -> Hashable:
    """What names a seat, comparable between two texts (None: not known)."""
    if isinstance(node, ir.BuiltinCall) and node.name == "player" and len(node.args) == 1:
        return seat_key(node.args[0])
    if isinstance(node, ir.Const) and isinstance(node.value, int):
        return ("const", node.value)
    return name_of(node)


def root_name(node: object) -> Name | None:
    while isinstance(node, ir.Index):
        node = node.obj
    return name_of(node)


class Walk:
    """One text being read: its path, the names it makes public, and a memo of its reads."""

    def __init__(
        self, path: Sequence[str | int], public: frozenset[Name | str] = frozenset(), shift: int = 0
    ) -> None:
        """`shift`: the column the text starts at in the rule text at `path` (an option's `for`
        collection, after its name and ``in``)."""
        self.path = tuple(path)
        self.public = public
        self.shift = shift
        self.memo: dict[int, Taint] = {}

    def where(self, node: object) -> Where:
        return self.where_at(getattr(node, "where", (None, 1, 1)))

    def where_at(self, place: tuple[ir.Origin, int, int]) -> Where:
        origin, line, column = place
        if origin is None and line == 1:
            column += self.shift
        return (self.path, origin, line, column)


class Flows:
    """The fixed point of what each name may carry, then the findings at the sinks."""

    def __init__(self, texts: Texts) -> None:
        self.t = texts
        self.names: dict[Name, Taint] = {}
        self.changed = False
        self.findings: list[Finding] | None = None  # filled on the reporting pass only
        # event -> the s.t keys of its values in each hook
        self.hook_values: dict[str, list[list[str]]] = {}
        for block in texts.blocks:
            event = hook_event(block.path)
            if event is not None:
                keys = [block.temps.get(p) for p in texts.events.get(event, [])]
                self.hook_values.setdefault(event, []).append([k for k in keys if k])
        self.over = game_end_blocks(texts)
        # a remembered counter's every change is seen: only its total is face down
        self.hidden_player = texts.hidden_player - texts.remembered

    # -- the passes ------------------------------------------------------------------------
    def settle(self) -> None:
        """Read every text until no name carries more, then once more, reporting."""
        for _ in range(50):  # each pass adds a label to a name, or it is the last
            self.changed = False
            self.read_all()
            if not self.changed:
                break
        self.findings = []
        self.read_all()

    def read_all(self) -> None:
        for block in self.t.blocks:
            self.block(block)
        for step in self.t.logs:
            self.log_step(step)
        for line in self.t.options:
            self.option(line)

    def flow(self, name: Name | None, taint: Taint) -> None:
        if name is None or not taint:
            return
        have = self.names.setdefault(name, {})
        for label, where in taint.items():
            if label not in have:
                have[label] = where
                self.changed = True

    def report(
        self, kind: str, node: Any, w: Walk, taint: Taint, at: Any = None, **extra: Any
    ) -> None:
        """A finding of `kind` at `node` (or at `at`, a place in the text) on the last pass."""
        if self.findings is not None and taint:
            where = w.where(node) if at is None else w.where_at(at)
            self.findings.append(Finding(kind, where, node, taint, extra))

    # -- values ------------------------------------------------------------------------------
    def taint(self, node: ir.Expr | None, w: Walk) -> Taint:
        if node is None:
            return {}
        key = id(node)
        found = w.memo.get(key)
        if found is None:
            found = w.memo[key] = self._taint(node, w)
        return found

    def _taint(self, node: ir.Expr, w: Walk) -> Taint:
        t = self.t
        if isinstance(node, ir.Global):
            hidden = node.name in t.hidden_global
            return {("global", node.name, None, ""): w.where(node)} if hidden else {}
        if isinstance(node, ir.Field):
            out = dict(self.taint(node.obj, w))
            if node.holder != "piece" and node.name in self.hidden_player:
                label = ("player", node.name, seat_key(node.obj), describe_name(node.obj))
                out.setdefault(label, w.where(node))
            return out
        name = name_of(node)
        if name is not None:
            return {} if name in w.public else self.names.get(name, {})
        if isinstance(node, ir.Ability):
            out = dict(self.taint(node.obj, w))
            if t.hidden_areas:
                label = ("area", node.name, seat_key(node.obj), describe_name(node.obj))
                out.setdefault(label, w.where(node))
            return out
        if isinstance(node, ir.BuiltinCall) and node.name == "len" and len(node.args) == 1:
            arg = node.args[0]
            if self._size_shown(arg):
                return self.taint(arg.obj, w) if isinstance(arg, ir.Field) else {}
        if isinstance(node, ir.ReduceEach):
            self.flow(node.slot, self.taint(node.iterable, w))
        elif isinstance(node, ir.Inline):
            for slot, value in node.bound:
                self.flow(slot, self.taint(value, w))
        return _union(self.taint(child, w) for child in expr_children(node))

    def _size_shown(self, node: ir.Expr) -> bool:
        # a hidden pile's size: every seat is shown it under `hidden: true`; under `hidden:
        # all` what the public history tells of it (each card put there logged) is not known
        # here, and left to --secrets
        counted = self.t.piles
        if isinstance(node, ir.Global):
            return ("global", node.name) in counted
        return isinstance(node, ir.Field) and ("player", node.name) in counted

    def is_public(self, node: ir.Expr | None) -> bool:
        """Whether a state place (a pile, an area, a field) is shown to every seat."""
        if isinstance(node, ir.Global):
            return node.name not in self.t.hidden_global
        if isinstance(node, ir.Field):
            return node.holder == "piece" or node.name not in self.t.hidden_player
        return False

    # -- texts -------------------------------------------------------------------------------
    def context(self, conditions: Iterable[ir.Expr], w: Walk) -> Taint:
        return _union(self.taint(c, w) for c in conditions)

    def block(self, block: Block) -> None:
        w = Walk(block.path, self.revealed(block.stmts))
        if block.path in self.over:
            saved, self.findings = self.findings, None  # game end: followed, never reported
            self.stmts(block.stmts, w, {})
            self.findings = saved
            return
        ctx = self.context(block.context, w)
        event = hook_event(block.path)
        if event is not None:  # a hook runs only when its event is emitted: under its conditions
            ctx = _union((ctx, self.names.get(("event", event), {})))
        self.stmts(block.stmts, w, ctx)

    def log_step(self, step: LogStep) -> None:
        w = Walk(step.path)
        ctx = self.context(step.context, w)
        self.report("only-if", step.text, w, ctx, what="this log step")
        self.public_text(step.text, Walk([*step.path, "text"]) if step.own else w)
        if step.own is not None:
            self.own_text(step.own, step.seat, Walk([*step.path, "own"]))

    def option(self, line: OptionLine) -> None:
        public: frozenset[Name | str] = self.revealed(line.effect)
        parts = {("temp", part[0]) for part in line.parts}
        if parts and parts <= public:
            public |= {"existence"}
        w = Walk(line.path, frozenset(public))
        who = seat_key(line.who)
        if "existence" not in public:
            # which values are offered: the collections, and what the `if` keeps of them
            reads: list[tuple[Any, Walk]] = [
                (collection, Walk(path, shift=column))
                for _key, collection, path, column in line.parts
            ]
            reads.append((line.condition, Walk([*line.path, "if"])))
            exists = _union(self.taint(node, rw) for node, rw in reads)
            for key, *_rest in line.parts:
                self.flow(("temp", key), exists)
            for node, rw in reads:
                hidden = {k: v for k, v in self.taint(node, rw).items() if not _visible(k, who)}
                self.report("offered", node, rw, hidden, seat=line.who)
        ctx = self.context(line.context, w)
        if line.path[-1:] == (0,):  # once for the decision, at its first line: who is asked
            asked = _union((ctx, self.taint(line.who, Walk([*line.path[:-2], "who"]))))
            self.report("asked", line.ident, Walk([*line.path, "id"]), asked, seat=line.who)
        idw = Walk([*line.path, "id"], w.public)
        if not line.has_log and not always_logs(line.effect):
            self.public_text(line.ident, idw, kind="option-logged")
        else:
            self.own_text(line.ident, line.who, idw, kind="option-text")
        if line.log is not None:
            text = [*line.path, "log", "text"] if line.own is not None else [*line.path, "log"]
            self.public_text(line.log, Walk(text, w.public))
        if line.own is not None:
            self.own_text(line.own, line.who, Walk([*line.path, "log", "own"], w.public))
        self.stmts(line.effect, Walk([*line.path, "do"], w.public), ctx)

    def public_text(self, text: Any, w: Walk, kind: str = "public") -> None:
        for part, at in _parts(text):
            self.report(kind, part, w, self.taint(part, w), at)

    def own_text(self, text: Any, seat: Any, w: Walk, kind: str = "own") -> None:
        reader = seat_key(seat)
        for part, at in _parts(text):
            hidden = {k: v for k, v in self.taint(part, w).items() if not _visible(k, reader)}
            self.report(kind, part, w, hidden, at, seat=seat)

    # -- statements ----------------------------------------------------------------------
    def stmts(self, stmts: Sequence[ir.Stmt], w: Walk, ctx: Taint) -> None:
        for st in stmts:
            if isinstance(st, ir.Let):
                self.flow(st.slot, self.taint(st.value, w))
                self.changes(st.value, w, ctx)
            elif isinstance(st, ir.Assign):
                self.assign(st, w, ctx)
            elif isinstance(st, ir.If):
                tests: Taint = dict(ctx)
                for test, body in st.branches:
                    tests = _union((tests, self.taint(test, w)))
                    self.stmts(body, w, tests)
                if st.otherwise:
                    self.stmts(st.otherwise, w, tests)
            elif isinstance(st, ir.For):
                self.flow(st.slot, self.taint(st.iterable, w))
                self.stmts(st.body, w, ctx)
            elif isinstance(st, ir.InlineProc):
                for slot, value in st.bound:
                    self.flow(slot, self.taint(value, w))
                self.stmts(st.body, w, ctx)
            elif isinstance(st, ir.Emit):
                self.flow(("event", st.event), ctx)
                for keys in self.hook_values.get(st.event, []):
                    for key, arg in zip(keys, st.args, strict=False):
                        self.flow(("temp", key), _union((self.taint(arg, w), ctx)))
            elif isinstance(st, ir.Log):
                self.log(st, w, ctx)
            elif isinstance(st, ir.Do):
                self.taint(st.call, w)  # binds what it binds (a reduction's name)
                self.changes(st.call, w, ctx)

    def log(self, st: ir.Log, w: Walk, ctx: Taint) -> None:
        if not (isinstance(st.text, ir.Const) and st.text.value == ""):
            self.report("only-if", st.text, w, ctx, what="this log line")
        self.public_text(st.text, w)
        if st.own is not None:
            self.own_text(st.own, st.seat, w)

    def assign(self, st: ir.Assign, w: Walk, ctx: Taint) -> None:
        target = st.target
        value = self.taint(st.value, w)
        if target.kind in ("local", "temp", "var"):
            name = target.key if target.kind == "local" else (target.kind, target.key)
            self.flow(name, _union((value, ctx)))
            return
        place = _place_of(target)
        if target.kind == "index":
            root = root_name(target.obj)
            if root is not None:
                self.flow(root, _union((value, self.taint(target.index, w), ctx)))
                return
            value = _union((value, self.taint(target.index, w)))
        elif target.kind == "field":
            value = _union((value, self.taint(target.obj, w)))
        if place is None or not self.is_public(place):
            return
        if is_text_id(getattr(st.value, "ty", None)):
            value = {}  # an id written where every seat sees it: a reveal, as a card turned up
        name = _field_name(target)
        if value:
            self.report("field", st.value, w, value, field=name)
        else:
            self.report("only-if", st.value, w, ctx, what=f"this write to the public '{name}'")

    def changes(self, node: Any, w: Walk, ctx: Taint) -> None:
        """A builtin that changes a pile or a list: a local list carries what is put in; a
        public pile changed under a hidden condition tells that condition."""
        if not isinstance(node, ir.BuiltinCall) or node.name not in _CHANGES:
            return
        pile = node.args[_CHANGES[node.name]] if node.args else None
        root = root_name(pile)
        if root is not None:
            self.flow(root, _union([ctx, *(self.taint(a, w) for a in node.args)]))
        elif self.is_public(pile):
            self.report("only-if", node, w, ctx, what=f"this {node.name}")

    # -- declassification ---------------------------------------------------------------
    def revealed(self, stmts: Sequence[ir.Stmt]) -> frozenset[Name]:
        """The names `stmts` put, unconditionally, where every seat sees them."""
        out: set[Name] = set()
        for st in stmts:
            if isinstance(st, ir.InlineProc):
                out |= self.revealed(st.body)
                continue
            call = st.call if isinstance(st, ir.Do) else getattr(st, "value", None)
            if isinstance(call, ir.BuiltinCall) and call.name in ("push", "place"):
                pile, value = (call.args[0], call.args[1])
                if call.name == "place":
                    pile, value = value, pile
                name = name_of(value)
                if self.is_public(pile) and name is not None:
                    out.add(name)
            elif isinstance(st, ir.Assign):
                target = st.target
                if target.kind == "index" and self.is_public(target.obj):
                    shown = target.index  # a public bag's count of it changes: seen by all
                elif target.kind in ("global", "field") and self.is_public(_place_of(target)):
                    shown = st.value
                else:
                    continue
                name = name_of(shown)
                if name is not None:
                    out.add(name)
        return frozenset(out)


def _visible(label: Label, reader: Any) -> bool:
    """Whether the seat `reader` (a seat key) may see what `label` reads: a seat's own field,
    unless both are named by different seat numbers. A seat named otherwise than the field's
    owner may be the same seat when the text runs (`chooser` and `actor`): not reported here
    (no false alarm), left to --secrets. A global hidden field is hidden from every seat."""
    if label[0] == "global":
        return False
    owner = label[2]
    return not (_is_number(owner) and _is_number(reader) and owner != reader)


def _is_number(key: Any) -> bool:
    return isinstance(key, tuple) and key[:1] == ("const",)


def _union(taints: Iterable[Taint]) -> Taint:
    out: Taint = {}
    for t in taints:
        for label, where in t.items():
            out.setdefault(label, where)
    return out


def _parts(text: Any) -> list[tuple[Any, Any]]:
    """Each {expr} part of a text with its place in the text (None: its node's own)."""
    if isinstance(text, ir.Template):
        exprs = [p for p in text.parts if isinstance(p, ir.Expr)]
        places = text.places if len(text.places) == len(exprs) else (None,) * len(exprs)
        return list(zip(exprs, places, strict=True))
    return [] if text is None or isinstance(text, ir.Const) else [(text, None)]


def _place_of(target: ir.Target) -> ir.Expr | None:
    """The state place an assignment writes (a field, a global, a table's container)."""
    if target.kind == "index":
        return target.obj
    if target.kind == "global":
        return ir.Global(target.key)
    if target.kind == "field" and target.obj is not None:
        return ir.Field(target.obj, target.key, "any")
    return None


def _field_name(target: ir.Target) -> str:
    if target.kind == "index":
        obj = target.obj
        return str(getattr(obj, "name", describe_name(obj)))
    if target.kind == "field":
        return f"{describe_name(target.obj)}.{target.key}"
    return str(target.key)
