"""The ``flow:`` and ``phases:`` sections typed: the steps a game runs, each with its kind, its
fields, the steps nested in it, where it sits in the tree (``path``) and where it was written
(``pos``). The rule texts in them (a ``do:``, an ``if:``, an option's ``id:``) stay texts here;
``model/flow.py`` compiles them.

>>> flow = FlowSection.from_data({"flow": {"round": [{"name": "pick", "choose": {
...     "who": "0", "options": [{"id": "take:{c}", "for": "c in cards"}]}}]}})
>>> step = flow.round[0]
>>> step.kind, step.name, step.path, [o.id for o in step.choose.options]
('choose', 'pick', ('flow', 'round', 0), ['take:{c}'])
>>> [s.name for s in flow.choose_steps()]
['pick']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from interpreter.load.locate import is_map
from interpreter.ruleset.nodes import (
    NOWHERE,
    Places,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    plain,
    seq_of,
    text,
    value_at,
    written_at,
)

__all__ = [
    "STEP_KINDS",
    "Choose",
    "FlowSection",
    "LogLine",
    "Loop",
    "OptionDecl",
    "Phase",
    "Step",
]

# a step's kind is its head key (the schema allows exactly one of them per step)
STEP_KINDS = ("do", "log", "choose", "if", "each-player", "repeat", "phase", "stop-if")


@dataclass(frozen=True, slots=True)
class LogLine:
    """A ``log:`` line (a ``log`` step's, an option's): a template every seat reads, or,
    written as a map (``split``), ``text`` every seat reads but one, which reads ``own``;
    ``seat``, an expression, names that seat (None: not written, as an option's line leaves
    it: the seat deciding)."""

    text: Plain
    own: Plain = ""
    seat: Plain = None
    split: bool = False

    @classmethod
    def of(cls, value: Plain) -> LogLine:
        """The line a ``log:`` value writes (as :func:`~interpreter.ruleset.nodes.plain`
        gives it); the parts a map leaves out are empty texts."""
        if not isinstance(value, dict):
            return cls(value)
        return cls(value.get("text", ""), value.get("own", ""), value.get("seat"), True)


@dataclass(frozen=True, slots=True)
class OptionDecl:
    """One line under a ``choose:``'s ``options:``: an id template, the ``for`` parts that
    make it many options, when it is offered (``if:``), and what taking it does."""

    id: str
    fors: tuple[str, ...] = ()
    if_text: Plain = None  # the `if:` as written; None: always offered
    do: Plain = None  # None: none written (taking it does nothing)
    log: Plain = None  # None: none written
    path: TreePath = ()
    pos: Pos = NOWHERE
    # where each `for` part sits: `(*path, "for")` for one text, `(*path, "for", i)` in a list
    for_at: tuple[TreePath, ...] = ()
    condition_pos: Pos = NOWHERE  # where its `if:` was written (the line's own place if none)
    node: object = field(default=None, repr=False, compare=False)  # for `places` alone

    @property
    def places(self) -> Places:
        """Where the line's keys and values were written (found when asked)."""
        return Places(self.node)

    @property
    def family(self) -> str:
        """The part of the id before its first ``:`` (the whole id when it has none)."""
        return self.id.split(":", 1)[0]

    @property
    def condition(self) -> str | None:
        """The ``if:`` text stripped (what tells one condition from another); None: none."""
        return None if self.if_text is None else str(self.if_text).strip()

    @classmethod
    def from_node(cls, node: object, path: TreePath, pos: Pos) -> OptionDecl | None:
        ident = node.get("id") if is_map(node) else None
        if not is_map(node) or not isinstance(ident, str):
            return None
        fors = node.get("for")
        parts = [str(fors)] if isinstance(fors, str) else [str(f) for f in seq_of(fors)]
        at: list[TreePath] = (
            [(*path, "for")]
            if isinstance(fors, str)
            else [(*path, "for", i) for i in range(len(parts))]
        )
        return cls(
            ident,
            tuple(parts),
            plain(node.get("if")),
            plain(node.get("do")),
            plain(node.get("log")),
            path,
            pos,
            tuple(at),
            written_at(node, "if") if "if" in node else pos,
            node,
        )


@dataclass(frozen=True, slots=True)
class Choose:
    """A ``choose:`` step's decision: who decides, and the option lines offered."""

    who: str
    options: tuple[OptionDecl, ...]
    label: str | None = None
    ask_when_only_one: bool | None = None  # None: not written (the flow's default holds)
    decline: str | None = None
    path: TreePath = ()
    pos: Pos = NOWHERE

    @classmethod
    def from_node(cls, node: object, path: TreePath, pos: Pos) -> Choose:
        if not is_map(node):
            return cls("", (), path=path, pos=pos)
        listed = node.get("options")
        found = (
            OptionDecl.from_node(item, (*path, "options", i), written_at(listed, i))
            for i, item in enumerate(seq_of(listed))
        )
        label, decline = node.get("label"), node.get("decline")
        return cls(
            text(node.get("who")),
            tuple(o for o in found if o is not None),
            None if label is None else str(label),
            _flag(node.get("ask-when-only-one")),
            None if decline is None else str(decline),
            path,
            pos,
        )


def _flag(value: object) -> bool | None:
    """A yes/no field: None where it is not written."""
    return None if value is None else bool(value)


@dataclass(frozen=True, slots=True)
class Loop:
    """What an ``each-player`` or ``repeat`` step says besides its steps, at its defaults
    where a part is not written, each part with where its value was written (the step's key
    where it is not).

    ``each-player``: the seat variable (``as:``, ``actor``), the first seat (``from:``, ``0``),
    whether it goes round again until nobody acted (``repeat: until-idle``) and the test
    before each seat (``while:``). ``repeat``: the test before each pass (``while:``) and the
    most passes (``max:``, 1000)."""

    seat_name: str | None = None  # `as:` as written; None: not written (the seat is `actor`)
    start: Plain = "0"  # `from:`, an expression
    until_idle: bool = False  # `repeat: until-idle` (else `once`)
    condition: Plain = None  # `while:`, an expression; None: not written
    max: int = 1000  # `max:`
    seat_pos: Pos = NOWHERE
    start_pos: Pos = NOWHERE
    repeat_pos: Pos = NOWHERE
    condition_pos: Pos = NOWHERE
    max_pos: Pos = NOWHERE

    @property
    def seat(self) -> str:
        """The flow variable that holds the seat whose turn it is."""
        return "actor" if self.seat_name is None else self.seat_name

    @classmethod
    def from_node(cls, node: object, pos: Pos) -> Loop:
        """The loop of the map under a step's ``each-player:`` or ``repeat:`` (``pos``: where
        that key was written); the defaults for anything else."""
        if not is_map(node):
            return cls()

        def at(key: str) -> Pos:
            return value_at(node, key) if key in node else pos

        written = node.get("max", 1000)
        return cls(
            str(node["as"]) if "as" in node else None,
            plain(node.get("from", "0")),
            node.get("repeat", "once") == "until-idle",
            plain(node["while"]) if "while" in node else None,
            int(written) if isinstance(written, int | float | str) else 1000,
            at("as"),
            at("from"),
            at("repeat"),
            at("while"),
            at("max"),
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One flow step. ``head`` is the value under its kind's key for the kinds that hold a
    rule text (``do``, ``log``, ``if``, ``phase``, ``stop-if``); ``choose`` the decision of a
    choose step; ``then``/``otherwise`` the arms of an ``if``; ``body`` the steps of an
    ``each-player`` or ``repeat``, whose other fields (``as``, ``from``, ``while``,
    ``repeat``, ``max``) are its ``loop`` (the defaults for the other kinds)."""

    kind: str  # one of STEP_KINDS, "" for none (a hand-made tree)
    name: str | None = None
    head: Plain = None
    choose: Choose | None = None
    then: tuple[Step, ...] = ()
    otherwise: tuple[Step, ...] | None = None  # None: no `else:` written
    body: tuple[Step, ...] = ()
    loop: Loop = Loop()
    path: TreePath = ()
    pos: Pos = NOWHERE
    node: object = field(default=None, repr=False, compare=False)  # for `places` alone

    @property
    def places(self) -> Places:
        """Where the step's keys and values were written (found when asked)."""
        return Places(self.node)

    def walk(self) -> Iterator[Step]:
        """This step, then every step nested in it, in the order written."""
        yield self
        for inner in (*self.then, *(self.otherwise or ()), *self.body):
            yield from inner.walk()

    @classmethod
    def from_node(cls, node: object, path: TreePath, pos: Pos) -> Step:
        if not is_map(node):
            return cls("", path=path, pos=pos)
        kind = next((k for k in STEP_KINDS if k in node), "")
        name = node.get("name")
        value = node.get(kind) if kind else None
        nested = value if kind in ("each-player", "repeat") and is_map(value) else {}
        return cls(
            kind,
            name if isinstance(name, str) else None,
            plain(value) if kind in ("do", "log", "if", "phase", "stop-if") else None,
            Choose.from_node(value, (*path, kind), written_at(node, kind))
            if kind == "choose"
            else None,
            steps_of(node.get("then"), (*path, "then")) if kind == "if" else (),
            steps_of(node.get("else"), (*path, "else"))
            if kind == "if" and "else" in node
            else None,
            steps_of(nested.get("steps"), (*path, kind, "steps")),
            Loop.from_node(value, written_at(node, kind))
            if kind in ("each-player", "repeat")
            else Loop(),
            path,
            pos,
            node,
        )


def steps_of(node: object, path: TreePath) -> tuple[Step, ...]:
    """The steps of a list of steps at ``path`` (none for anything else)."""
    return tuple(
        Step.from_node(item, (*path, i), written_at(node, i)) for i, item in enumerate(seq_of(node))
    )


@dataclass(frozen=True, slots=True)
class Phase:
    """A ``phases:`` entry: steps a ``phase:`` step runs by the phase's name."""

    name: str
    steps: tuple[Step, ...]
    path: TreePath = ()
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class FlowSection:
    """``flow:`` (its variables, the set-up steps, one round's steps, when the game ends after
    a round) and the ``phases:`` a step may run."""

    variables: tuple[str, ...] = ()
    setup: tuple[Step, ...] = ()
    round: tuple[Step, ...] = ()
    end_after_round_if: Plain = None
    phases: Mapping[str, Phase] = field(default_factory=empty_map)
    pos: Pos = NOWHERE
    trigger: Plain = None  # `trigger:`, what ended the game (None: none written)
    ask_when_only_one: bool = False  # the default of its `choose` steps
    end_pos: Pos = NOWHERE  # where the `end-after-round-if:` condition was written

    def steps(self) -> Iterator[Step]:
        """Every step, nested ones too: set-up, round, then each phase, in the order written."""
        for top in (self.setup, self.round, *(p.steps for p in self.phases.values())):
            for step in top:
                yield from step.walk()

    def choose_steps(self) -> Iterator[Step]:
        """Every named choose step (what a gesture or an overlay addresses by name)."""
        return (s for s in self.steps() if s.kind == "choose" and s.name is not None)

    def option_decls(self) -> Iterator[OptionDecl]:
        """Every option line of every choose step."""
        for step in self.steps():
            if step.choose is not None:
                yield from step.choose.options

    @classmethod
    def from_data(cls, data: object) -> FlowSection:
        if not is_map(data):
            return cls()
        flow = data.get("flow")
        flow = flow if is_map(flow) else {}
        return cls(
            tuple(str(v) for v in seq_of(flow.get("variables"))),
            steps_of(flow.get("setup"), ("flow", "setup")),
            steps_of(flow.get("round"), ("flow", "round")),
            plain(flow.get("end-after-round-if")),
            frozen_map(_phases(data.get("phases"))),
            written_at(data, "flow"),
            plain(flow.get("trigger")),
            bool(flow.get("ask-when-only-one", False)),
            value_at(flow, "end-after-round-if") if "end-after-round-if" in flow else NOWHERE,
        )


def _phases(node: object) -> dict[str, Phase]:
    """The phases of a ``phases:`` map."""
    found: dict[str, Phase] = {}
    for name, listed in node.items() if is_map(node) else ():
        path = ("phases", name)
        found[str(name)] = Phase(str(name), steps_of(listed, path), path, written_at(node, name))
    return found
