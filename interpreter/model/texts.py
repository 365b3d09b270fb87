"""Every resolved rule text of a full build, kept with where it is and what it runs under, for
the analyses that read the whole ruleset's effect language at once (check/taint.py follows
each value from a hidden field to the places other seats read).

A build fills one :class:`Texts` as its host compiles (model/host.py): the statements of each
flow step, hook, procedure and scoring text (:class:`Block`), each flow `log:` step
(:class:`LogStep`) and each `options:` line of a `choose` (:class:`OptionLine`). `context` is
what the flow steps around a text test (an `if:`, a `while:`): the text runs only as they say.
A lazy build resolves no text before it runs, so it records nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from interpreter.dsl.resolve import ir
from interpreter.ruleset.nodes import TreePath

__all__ = ["Block", "LogStep", "OptionLine", "Texts"]

Path = TreePath


@dataclass(eq=False)
class Block:
    """Statements at `path` (a flow step's `do`, a hook, a procedure, scoring's `before`);
    `temps`: the names the engine binds for it (a hook's `self`, `owner`, the event's values),
    name -> s.t key."""

    path: Path
    stmts: list[ir.Stmt]
    context: tuple[ir.Expr, ...]
    temps: dict[str, str] = field(default_factory=dict)


@dataclass(eq=False)
class LogStep:
    """A flow `log:` step: its public text, and the own text `seat` reads instead (or None)."""

    path: Path
    text: ir.Expr | None
    own: ir.Expr | None
    seat: ir.Expr | None
    context: tuple[ir.Expr, ...]


@dataclass(eq=False)
class OptionLine:
    """One `options:` line: who decides, its `for` parts (s.t key, collection, the part's
    path, the column its collection starts at in the part's text), its `if`, its id, its
    `log:` texts (public and own; None: none written) and its `do`."""

    path: Path
    who: ir.Expr | None
    parts: list[tuple[str, ir.Expr, Path, int]]
    condition: ir.Expr | None
    ident: ir.Expr | None
    log: ir.Expr | None
    own: ir.Expr | None
    has_log: bool
    effect: list[ir.Stmt]
    context: tuple[ir.Expr, ...]


@dataclass
class Texts:
    """What a build compiled (see the module's docstring), and how to place a node of it:
    `position(path, line, column)` is file, line and column of (line, column) inside the
    text at `path` (DslHost.position)."""

    blocks: list[Block] = field(default_factory=list)
    logs: list[LogStep] = field(default_factory=list)
    options: list[OptionLine] = field(default_factory=list)
    position: Callable[[Sequence[str | int], int, int], tuple] | None = None
    events: dict[str, list[str]] = field(default_factory=dict)  # event -> its value names
    # the fields hidden from some seat (global: from every seat; player: from the others),
    # the hidden piles and areas, ("global" or "player", name), and whether a seat's area of
    # pieces is hidden (what its pieces grant then reads it)
    hidden_global: frozenset[str] = frozenset()
    hidden_player: frozenset[str] = frozenset()
    piles: frozenset[tuple[str, str]] = frozenset()
    # hidden per-seat counters and values named under `remember:`: every change is seen by
    # all seats (the claim the dynamic check, `--secrets`, tests), only the total is face down
    remembered: frozenset[str] = frozenset()
    hidden_areas: bool = False
