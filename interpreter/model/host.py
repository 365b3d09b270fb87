"""The DSL host: compiles the effect texts found at paths of the rule data and turns every fault
into a Diagnostic at file:line:col of the rule file (inside the effect text), so section
compilers only name where a text lives."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from functools import partial
from operator import attrgetter
from types import CodeType
from typing import Any, Literal, TypeVar

from lark import Token

from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.compiler import Compiler, Deferred, Fn, Scope, _Nested
from interpreter.dsl.emit.emitter import RULE_FILE, Emitted, emitted
from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.none_safety import Key, known_not_none
from interpreter.dsl.resolve.types import ANY, SEAT, item_of
from interpreter.dsl.runtime.loglines import OwnText
from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.infoset.secrecy import Secrets
from interpreter.load.locate import json_pointer, locate, node_at, position_at
from interpreter.model.blame import Blame
from interpreter.model.decisions import Decisions
from interpreter.model.flow import ChooseSpec, OptionSpec
from interpreter.model.may import at_card
from interpreter.model.origins import TextOrigins, place_in_text
from interpreter.model.probes import Probes
from interpreter.model.texts import Block, LogStep, OptionLine, Texts
from interpreter.model.values import rule_text
from interpreter.ruleset.flow_steps import Choose, LogLine, OptionDecl
from interpreter.ruleset.header import Header
from interpreter.ruleset.nodes import Plain, Pos, TreePath

# stands for a text whose resolved form is not known here (a lazy build's, one that failed):
# read as a secret, so a decision that depends on it is asked (infoset/secrecy.py)
UNKNOWN = ir.BuiltinCall("random", [])

T = TypeVar("T")


class DslHost:
    """Compiles the DSL texts found at data paths, turning faults into positioned diagnostics."""

    def __init__(
        self,
        compiler: Compiler,
        root: Any,
        players: int,
        probes: Probes | None = None,
        written: Mapping[tuple[Any, ...], Any] | None = None,
        header: Header | None = None,
    ) -> None:
        """`root`: the composed rule tree, where a text's place is found. `probes`: a
        coverage build's counters (model/probes.py), or None (no counting). `written`: the
        nodes the engine writes beside `root`, by path (model/may_phase.py), whose texts and
        places are found there as the rules' own are in `root`. `header`: the composed
        ruleset's (read from `root` when not given), whose options a fault may be blamed on."""
        self.c = compiler
        self.root = root
        self.written = written or {}
        self._written_heads = {path[0] for path in self.written}
        self.players = players
        self.probes = probes
        if probes is not None:
            probes.locate = self.position
        self.diagnostics: list[Diagnostic] = []
        # each declared name (a set, a catalog, a table) -> the data path declaring it
        # (model/catalogs.py); a fault that is a declaration's is reported there (blame.py)
        self.declared: dict[str, list] = {}
        self.blame = Blame(self, Header.from_data(root) if header is None else header)
        self.pending: list[tuple[Any, Any, Any, str]] = []  # (path, tree, node, expect)
        # generated code object -> the data path of the text it was compiled from, so a rule
        # failing while a game runs is reported at its file:line (see origins())
        self.texts: dict[CodeType, TreePath] = {}
        # what each text reads and assigns, for which decisions depend on hidden fields: the
        # conditions the text being compiled runs under, and each `choose` and option line
        # with what decides its options (settled in model/decisions.py)
        self.secrets = Secrets()
        self.context: list[ir.Expr] = []
        self.decisions = Decisions(self.secrets)
        # every resolved text, where it is and what it runs under (model/texts.py); the texts
        # of the last log line compiled (public, own, the own text's seat) and the seat deciding
        self.rule_texts = Texts(position=self.position)
        # (text, own text, seat) of the last log line compiled, for its LogStep
        self.last_log: tuple[ir.Expr | None, ...] = (None, None, None)
        self.deciding: ir.Expr | None = None
        # the pointer of each rule the engine wrote from a card -> the card's (model/may.py),
        # so a fault there, at load or while a game runs, names a path an overlay can write
        self.card_paths: Mapping[str, str] = {}

    # -- positions -----------------------------------------------------------------------
    def text_origin(self, path: Sequence[str | int]) -> tuple[str | None, int | None, int | None]:
        """file, line and column where the text at `path` starts."""
        return self._text_origin(path)

    def _beside(self, path: Sequence[str | int]) -> Mapping[tuple[Any, ...], Any] | None:
        """The written nodes where `path` may lead into one (None: it cannot)."""
        return self.written if path and path[0] in self._written_heads else None

    def _text_origin(self, path: Sequence[str | int]) -> tuple[str | None, int | None, int | None]:
        written = self.written if path and path[0] in self._written_heads else None
        return position_at(self.root, path, written)

    def _text_at(self, path: Sequence[str | int]) -> str:
        try:
            node = node_at(self.root, path, self._beside(path))
        except (KeyError, IndexError, TypeError):
            return ""
        return rule_text(node)

    def position(
        self, path: Sequence[str | int], line: int, column: int
    ) -> tuple[str | None, int | None, int | None]:
        """file:line:col of (line, column) inside the effect text at `path` (however YAML
        folds, indents or quotes it: origins.place_in_text)."""
        file, vline, vcol = self._text_origin(path)
        return place_in_text(file, vline, vcol, self._text_at(path), line, column)

    def pointer(self, path: Sequence[str | int]) -> str:
        """The JSON pointer a report names for the text at `path`: the card's own, for a rule
        the engine wrote from a card's `may:`."""
        return at_card(json_pointer(list(path)), self.card_paths)

    def where(self, path: Sequence[str | int]) -> str:
        file, line, col = self._text_origin(path)
        return ":".join(str(x) for x in (file, line, col) if x is not None) or json_pointer(path)

    def fail(self, path: Sequence[str | int], err: DslSyntaxError) -> None:
        if isinstance(err, _Nested) and err.function.origin is not None:
            inner = err.inner
            while isinstance(inner, _Nested) and inner.function.origin is not None:
                err, inner = inner, inner.inner
            origin = err.function.origin
            if origin is not None:  # the loop stops at a function that has one
                path = origin
            err = inner
        file, line, col = self.position(path, err.line, err.column)
        if self.blame.declaration(err, path, (file, line, col)):
            return
        self.diagnostics.append(
            Diagnostic(
                code=err.code,
                message=err.message,
                file=file,
                line=line,
                column=col,
                json_path=self.pointer(path),
            )
        )

    def error(
        self,
        path: Sequence[str | int],
        code: str,
        message: str,
        hint: str | None = None,
        at_key: bool = False,
    ) -> None:
        file, line, col = (
            locate(self.root, list(path), key=True, written=self._beside(path))
            if at_key
            else self._text_origin(path)
        )
        self.diagnostics.append(
            Diagnostic(code, message, file, line, col, self.pointer(path), hint=hint)
        )

    def error_at(
        self, at: Pos, path: Sequence[str | int], code: str, message: str, hint: str | None = None
    ) -> None:
        """A fault at ``at``, where a typed object says it was written; ``path``, where it
        sits in the tree, is what the report names."""
        self.diagnostics.append(
            Diagnostic(code, message, at.file, at.line, at.column, self.pointer(path), hint=hint)
        )

    # -- compiling -----------------------------------------------------------------------
    def origins(self) -> TextOrigins:
        """Each generated code object -> where its rule text is (found when first asked)."""
        return TextOrigins(self)

    def _note_code(self, path: TreePath, code: CodeType) -> None:
        if code.co_filename.startswith(RULE_FILE):
            self.texts[code] = path

    def point(self, kind: str, label: str, path: Sequence[str | int]) -> int | None:
        """A coverage build's point at the rule data node `path` (None when not counting)."""
        if self.probes is None:
            return None
        return self.probes.point(kind, label, *self._text_origin(path))

    def _guard(
        self, path: Sequence[str | int], make: Callable[[], T], column_offset: int = 0
    ) -> T | Fn:
        if self.probes is not None:
            self.probes.path = tuple(path)
        try:
            fn = make()
            code = getattr(fn, "__code__", None)
            if code is not None:
                self._note_code(tuple(path), code)
            elif isinstance(fn, Deferred):
                fn.on_code = partial(self._note_code, tuple(path))
            return fn
        except DslSyntaxError as e:
            if column_offset and e.line == 1 and not isinstance(e, _Nested):
                e.column += column_offset
            self.fail(path, e)
            return lambda s: None

    def expression(
        self,
        text: Any,
        path: Sequence[str | int],
        scope: Scope | None = None,
        column_offset: int = 0,
        expect: str | None = None,
    ) -> Emitted:
        """A compiled expression text: its function (`.fn`) and what its users know of it
        without calling it (dsl/emit/emitter.py). `expect`: bool, seat, number or phase, what the
        text's place needs (type_checker.py)."""
        sc = scope or self.c.root
        self.c.last = None
        made: list[Emitted] = []

        def make() -> Fn:
            made.append(self.c.emitted_expression(rule_text(text), sc, expect))
            return made[-1].fn

        fn = self._guard(path, make, column_offset)
        if expect is not None and self.c.last is not None:
            self.pending.append((path, *self.c.last, expect))
        node = self.last_node()
        if node is not UNKNOWN:
            self.secrets.expression(node, self.context)
        return made[-1] if made else Emitted(fn, rule_text(text))

    def last_node(self) -> ir.Expr:
        """The resolved form of the last expression compiled (UNKNOWN when there is none)."""
        last = self.c.last
        node = last[1] if last is not None else None
        return node if isinstance(node, ir.Expr) else UNKNOWN

    @contextmanager
    def under(self, *conditions: ir.Expr) -> Iterator[None]:
        """Compile the texts of a flow step's arms (loop body) knowing they run only as
        `conditions` say: what they assign depends on what those read (infoset/secrecy.py)."""
        self.context.extend(conditions)
        try:
            yield
        finally:
            del self.context[len(self.context) - len(conditions) :]

    def not_none(self, truth: bool = True) -> set[Key]:
        """What the last expression compiled (a flow `if:`), being `truth`, shows is not none."""
        last = self.c.last
        return known_not_none(last[1], truth) if last is not None else set()

    def assume(self, keys: set[Key]) -> AbstractContextManager[None]:
        """Compile under the knowledge that the values `keys` name are not none (none_safety.py)."""
        return self.c.resolver.tc.assume(keys)

    def recheck(self) -> None:
        """The places that read a flow variable, checked with all its assignments known."""
        for path, tree, node, expect in self.pending:
            self._guard(path, partial(self.c.recheck, tree, node, expect))
        self.pending.clear()

    def statements(
        self, text: Any, path: Sequence[str | int], scope: Scope | None = None, block: bool = True
    ) -> Fn:
        """`block`: note the text as a Block of its own (an option's `do` is its line's)."""
        sc = scope or self.c.root
        self.c.last_block = None
        fn = self._guard(path, lambda: self.c.statements(rule_text(text), sc))
        if self.c.last_block is not None:
            self.secrets.statements(self.c.last_block, self.context)
            if block:
                temps = {k: v[1] for k, v in sc.bindings.items() if v[0] == "temp"}
                self.rule_texts.blocks.append(
                    Block(tuple(path), self.c.last_block, tuple(self.context), temps)
                )
        return fn

    def template(
        self, text: Any, path: Sequence[str | int], scope: Scope | None = None, words: bool = False
    ) -> Fn:
        """A plain text with {expr} parts (option ids, log lines); a log line's (`words`)
        prints the ids it fills in as their names (model/words.py)."""
        sc = scope or self.c.root
        raw = rule_text(text)
        self.c.last = None
        if '"' in raw:
            self.error(path, "D006", 'a template may not contain the character "')
            return lambda s: raw
        token = Token("STRING", f'"{raw}"', line=1, column=0)
        return self._guard(path, lambda: self.c._format(token, sc, words))

    def log_line(self, text: Plain, path: Sequence[str | int], scope: Scope | None = None) -> Fn:
        """A log line's text: a template, or ``{text, own, seat}`` whose `own` the seat `seat`
        reads instead of `text` (dsl/runtime/loglines.py; an option's, with a `scope`, is read
        by the seat deciding); an OwnText, whose ``public`` is the public template (the leak check
        finds the line's rule text by it)."""
        line = LogLine.of(text)
        if not line.split:
            fn = self.template(line.text, path, scope, True)
            self.last_log = (self._template_node(), None, None)
            return fn
        public = self.template(line.text, [*path, "text"], scope, True)
        texts = [self._template_node()]
        own = self.template(line.own, [*path, "own"], scope, True)
        texts.append(self._template_node())
        self.last_log = (*texts, None)
        if line.seat is not None:
            seat = self.expression(line.seat, [*path, "seat"], scope, expect="seat").fn
            self.last_log = (*texts, self.last_node())
        elif scope is not None:
            seat = attrgetter("who")
        else:
            self.error(path, "D002", "a log step's own text needs `seat:`, the seat that reads it")
            return public
        return OwnText(public, seat, own)

    def _template_node(self) -> ir.Expr | None:
        """The resolved form of the last template compiled (None: it failed)."""
        node = self.c.last[1] if self.c.last is not None else None
        return node if isinstance(node, ir.Expr) else None

    def log(self, text: Any, path: Sequence[str | int]) -> Fn:
        line = self.log_line(text, path)
        text, own, seat = self.last_log
        self.rule_texts.logs.append(LogStep(tuple(path), text, own, seat, tuple(self.context)))
        # the leak check reads `fmt`, the public template, off this frame (secrets_trace.py)
        fmt = line.public if isinstance(line, OwnText) else line
        both = line if fmt is not line else None

        def log(s: RunningState) -> None:
            if s.log is not None:
                s.log.append((s.round, None, fmt(s) if both is None else both(s)))

        return log

    def declare_var(self, name: str, ty: Literal["seat"] | None = None) -> None:
        """A flow variable; `ty` the type of its values when the flow says (a seat)."""
        self.c.root.bindings[name] = ("var", name)
        types = self.c.env.types
        if types is not None and ty == "seat":
            types.variables[name] = SEAT

    def choose(self, spec: Choose, idle: tuple[str, ...], ask_when_only_one: bool) -> ChooseSpec:
        """A `choose` step: who decides, and each `options:` line (see :meth:`option`);
        `ask_when_only_one` is the flow's default for a step that does not say."""
        path = list(spec.path)
        who = self.expression(spec.who or "0", [*path, "who"], expect="seat")
        self.deciding = self.last_node()
        reads: list[ir.Expr] = []  # what decides which options are legal
        options = [self.option(o, reads) for o in spec.options]
        asks = spec.ask_when_only_one
        choose = ChooseSpec(
            who=who,
            options=options,
            label="" if spec.label is None else spec.label,
            idle_flags=idle,
            where=self.where(path),
            ask_when_only_one=ask_when_only_one if asks is None else asks,
            ids=tuple(o.id for o in spec.options),
            decline=spec.decline or "pass",
        )
        if spec.decline is not None and choose.decline not in choose.ids:
            self.unknown_decline(choose, [*path, "decline"])
        self.decisions.choices.append((choose, reads))
        return choose

    def unknown_decline(self, choose: ChooseSpec, path: list) -> None:
        """R001: a `decline:` naming no option of its step: the step would never be taken as
        declined (answers set in advance and `optional: decline` would pass it by)."""
        fixed = [i for i in choose.ids if "{" not in i]
        guess = did_you_mean(choose.decline, fixed)
        self.error(
            path,
            "R001",
            f"'decline: {choose.decline}' names no option of this step "
            f"(its options: {', '.join(choose.ids) or 'none'})",
            f"did you mean '{guess}'?" if guess else None,
        )

    def per_listing(self, cond: Emitted, text: Any, path: list, slots: list[str]) -> Emitted:
        """An option line's condition `cond`, the last text compiled, with its forms for one
        listing: the loop over a `for` part's values (`select`) and the test of one candidate
        with what reads no `for` name computed once (`per_listing`); options.py uses them."""
        if not hasattr(cond.fn, "__code__"):
            return cond
        select = self.c.listing_select(rule_text(text), slots) if len(slots) == 1 else None
        if select is not None:
            self._note_code(tuple(path), select.__code__)
        maker = self.c.listing_condition(rule_text(text), frozenset(slots))
        if maker is not None:
            self._note_code(tuple(path), maker.__code__)
            for inner in maker.__code__.co_consts:  # the test itself: a failure is reported here
                if isinstance(inner, CodeType):
                    self._note_code(tuple(path), inner)
        return replace(cond, select=select, per_listing=maker)

    def option(self, o: OptionDecl, reads: list[ir.Expr] | None = None) -> OptionSpec:
        """One options line: its `for` parts bind slots the id, `if`, `do` and `log` then read.
        `reads` gets what decides whether it is legal: its collections and its condition."""
        reads = [] if reads is None else reads
        opath = list(o.path)
        scope = self.c.root.child()
        slots: list[str] = []
        domains: list[Emitted] = []
        at: list[tuple[TreePath, int]] = []  # each part's path and its collection's column
        for part, ppath in zip(o.fors, o.for_at, strict=True):
            name, sep, rest = part.partition(" in ")
            if not sep or not name.strip().replace("-", "").replace("_", "").isalnum():
                self.error(ppath, "D007", f"expected 'NAME in COLLECTION', got {part!r}")
                continue
            offset = len(name) + len(sep)  # faults in the collection keep their column
            domains.append(self.expression(rest, ppath, scope, offset, expect="collection"))
            slots.append(scope.temp(name.strip(), item_of(self.c.last_type or ANY)))
            at.append((ppath, offset))
            reads.append(self.last_node())
            self.secrets.bind(slots[-1], [reads[-1]])  # a `for` name: from its collection
        collections = reads[len(reads) - len(slots) :]
        test = o.if_text
        cond = None if test is None else self.expression(test, [*opath, "if"], scope, expect="bool")
        if cond is not None:
            reads.append(self.last_node())
            cond = self.per_listing(cond, test, [*opath, "if"], slots)
        mine = reads[len(reads) - len(slots) - (cond is not None) :]
        self.c.last = None
        template = self.template(o.id, [*opath, "id"], scope)
        ident = self._template_node()
        parts = self.c.template_parts(slots) if hasattr(template, "__code__") else None
        with self.under(*mine):  # the effect runs only when this option is legal and taken
            do = "pass" if o.do is None else o.do
            effect = self.statements(do, [*opath, "do"], scope, False)
        body = self.c.last_block or []
        self.last_log = (None, None, None)
        logged = o.log is not None
        log = self.log_line(o.log, [*opath, "log"], scope) if logged else None
        self.rule_texts.options.append(
            OptionLine(
                tuple(opath),
                self.deciding,
                [(k, x, *a) for k, x, a in zip(slots, collections, at, strict=True)],
                reads[-1] if cond is not None else None,
                ident,
                *self.last_log[:2],
                logged,
                body,
                tuple(self.context),
            )
        )
        probes = self.probes
        if probes is not None:  # a coverage build: count each line offered and taken
            where = self._text_origin(opath)
            template = probes.wrap(probes.point("option-offered", o.id, *where), template)
            parts = None
            effect = probes.wrap(probes.point("option-taken", o.id, *where), effect)
        # the id as options.py writes it: a fixed text, or its parts and `for` names (a
        # coverage build's counted id is called: `template` is the counting wrapper there)
        ident_text = replace(emitted(template, o.id), parts=parts)
        line = OptionSpec(ident_text, tuple(slots), tuple(domains), cond, effect, log)
        self.decisions.option_lines.append((line, collections, self.where(opath)))
        return line
