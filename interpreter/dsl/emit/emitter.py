"""The one place where written Python source becomes a function, and what a compiled text is.

Rule texts (generator.py, listing_code.py), a decision's option listing (engine/options.py), a
run of the flow program (engine/blocks.py) and a state's copier (engine/copier.py) are each
written out as the source of one Python function and compiled once. `define` does that for all
of them: it compiles the source under a file name that says where it came from, runs it into
the namespace its names are read from, and returns the function. `function_source` lays out a
function's source, and `readable` turns a label into a name a traceback can be read by.

Generated names are numbered per build (a Generator's counters, a flow's, a scope's), so the
same rules give the same source at every load, and `define` keeps the code objects of recent
sources: a ruleset loaded again (another player count, a table of a game already played, a
test) skips Python's compile. A code object is immutable; each `define` still runs it into
its own namespace, so the function it returns is new and reads that namespace.

A compiled rule text is handed to its users as an `Emitted`: the function and what a caller may
know of it without calling it (a constant value, the parts an option id is written from, the
one flow variable it reads, a collection's declared order), so the engine writes faster code
around it (engine/options.py, engine/blocks.py) from typed fields.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from types import CodeType
from typing import Any, Final

from interpreter.dsl.runtime.runtime_state import Fn, RunningState

# the legal values of an option line's one `for` part: (state, candidate values) -> legal ones
Select = Callable[[RunningState, Iterable[Any]], list[Any]]

# the start of the file name of code written from a rule text: a failure's traceback is
# matched back to its rule by it (engine/machine.py, model/host.py)
RULE_FILE: Final = "<rule: "


def rule_filename(text: str) -> str:
    """The file name of code written from the rule text `text` (its first 60 characters)."""
    return f"{RULE_FILE}{text[:60]!r}>"


def function_source(name: str, params: str, body: Iterable[str]) -> str:
    """The source of ``def name(params):`` with the lines of `body` indented under it."""
    return f"def {name}({params}):\n" + "".join(f"    {line}\n" for line in body)


def define(source: str, name: str, namespace: dict[str, Any], filename: str) -> Callable[..., Any]:
    """Compile `source` (one or more ``def`` statements) under `filename`, run it into
    `namespace` (where its free names are read when it runs) and return the function `name`.

    Source that does not compile is a fault of its writer, never of a rule author."""
    if _recording is not None:
        _recording.append((filename, source))
    try:
        code = compiled(source, filename)
    except SyntaxError as e:
        raise RuntimeError(f"generated code does not compile: {e}\n{source}") from None
    exec(own_copy(code), namespace)  # noqa: S102 - source our own writers wrote (rule texts, listings ...)
    return namespace[name]


# How many code objects `compiled` keeps, the most recently used. A ruleset's load and the
# games played on it write some hundreds of functions, so this keeps a few rulesets at each of
# their player counts and house-rule stacks (a validation run, a test suite, a server's
# tables of a few games), and a server that compiles ever new uploaded rules holds no more
# than this many.
COMPILED_KEPT: Final = 4096


@lru_cache(maxsize=COMPILED_KEPT)
def compiled(source: str, filename: str) -> CodeType:
    """The code object of `source` compiled under `filename`, kept for the next same source.

    A branch a rule never takes may read a field of a constant (`x.f if x != none` inlined
    with x = none): Python warns at compile time, so the warning is silenced; the branch never
    runs. Raises SyntaxError (not kept) where the source does not compile."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        return compile(source, filename, "exec")


def own_copy(code: CodeType) -> CodeType:
    """`code` and the code objects it holds (its functions, their comprehensions) as new
    objects equal to them.

    Python specialises a code object's instructions to the namespace its functions ran in
    last; two builds of the same rules (two player counts of one game, a game loaded again)
    whose functions shared one code object would undo each other's specialisation as their
    games take turns. A copy costs a tenth of a compile."""
    return code.replace(
        co_consts=tuple(own_copy(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    )


_recording: list[tuple[str, str]] | None = None


@contextmanager
def recorded_sources() -> Iterator[list[tuple[str, str]]]:
    """While the block runs, the (file name, source) of every function `define` writes, in
    order: for the tests that the same rules give the same source."""
    global _recording
    outer, _recording = _recording, []
    mine = _recording
    try:
        yield mine
    finally:
        _recording = outer
        if outer is not None:
            outer.extend(mine)


_NOT_NAME = re.compile(r"[^0-9a-z]+")


def readable(label: str, most: int = 40) -> str:
    """`label` as a part of a Python name: lower case letters and digits joined by ``_``
    ("Choose a role" -> ``choose_a_role``); "" when it has no letter or digit."""
    return _NOT_NAME.sub("_", label.lower()).strip("_")[:most].rstrip("_")


class Constant:
    """The function of a text whose value is fixed (`true`, `3`, `"pass"`): callers that see
    one skip the call (engine/blocks.py writes no test for `if: true`)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, s: RunningState) -> Any:
        return self.value

    def __repr__(self) -> str:
        return f"Constant({self.value!r})"


class _NotConstant:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_CONSTANT"


# `Emitted.constant` of a text whose value depends on the state
NOT_CONSTANT: Final = _NotConstant()


@dataclass(frozen=True, slots=True)
class Expression:
    """A function's value as one Python expression of the state `s`, and the names it reads
    (`source` reads each by its key): for a caller to write in place of a call."""

    source: str
    names: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Emitted:
    """A compiled rule text: its function and what its users know of it without calling it.

    `origin`: the rule text it was written from. `constant`: its value when it is the same in
    every state (else NOT_CONSTANT). `reads_var`: the flow variable it reads, when it reads
    that alone (engine/blocks.py reads it in place of a call).

    For an option line's texts (engine/options.py lists a decision's options with them):
    `parts`, an id written from text and `for` names only (a text, or the index of the `for`
    name); `text_values`, a collection whose values are ids (texts); `id_order`, the declared
    order its ids are listed in (dsl/emit/idorder.py), None where the state's order is kept;
    `with_repeats`, the collection of a `distinct(...)` without the `distinct` (a listing
    that keeps the first of equal ids needs none); `select`, a condition as the loop that
    picks a `for` part's legal values (listing_code.py); `per_listing`, a condition as the
    function that returns its test of one candidate with the parts that read no `for` name
    computed once a listing. `expression`: its value as one expression, where it has one."""

    fn: Fn
    origin: str = ""
    constant: Any = NOT_CONSTANT
    reads_var: str | None = None
    parts: tuple[str | int, ...] | None = None
    text_values: bool = False
    id_order: dict[str, int] | None = None
    with_repeats: Fn | None = None
    select: Select | None = None
    per_listing: Fn | None = None
    expression: Expression | None = None

    @property
    def fixed(self) -> bool:
        """Whether the text's value is the same in every state (`constant` holds it)."""
        return self.constant is not NOT_CONSTANT


def emitted(fn: Fn, origin: str = "") -> Emitted:
    """`fn` as a compiled text of its own: known to be constant when it is a `Constant`."""
    return Emitted(fn, origin, fn.value if isinstance(fn, Constant) else NOT_CONSTANT)
