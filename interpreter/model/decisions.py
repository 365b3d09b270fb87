"""Which decisions of a build may depend on a hidden field: each ``choose`` step with what
decides which of its options are legal (its options' conditions and collections), and each
option line with its ``for`` collections, gathered as model/host.py compiles them and settled
once every text is compiled, from what the texts read and assign (infoset/secrecy.py). The
engine asks such a decision even with one legal option (``ChooseSpec.hidden_dependent``), and
the leak check compares a secret line's options (``OptionSpec.secret_values``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.dsl.resolve import ir
from interpreter.infoset.secrecy import Secrets
from interpreter.model.flow import ChooseSpec, OptionSpec

__all__ = ["SECRET_VARS", "Decisions"]

# the key of the settled marks (Decisions.settle) that holds the secret flow variables' names
SECRET_VARS = ("flow variables",)


class Decisions:
    """The decisions a build compiled, with what decides them (``secrets``: what every text
    of the build reads and assigns)."""

    def __init__(self, secrets: Secrets) -> None:
        self.secrets = secrets
        # each `choose`, with what decides which of its options are legal
        self.choices: list[tuple[ChooseSpec, list[ir.Expr]]] = []
        # each option line, its `for` collections and its position
        self.option_lines: list[tuple[OptionSpec, list[ir.Expr], str]] = []

    def settle(
        self,
        hidden_global: set[str],
        hidden_player: set[str],
        counted: set[tuple[str, str]],
        areas: bool,
        marks: Mapping[Any, Any] | None = None,
    ) -> dict[Any, Any]:
        """Once every text is compiled: mark each `choose` whose legal options may depend on a
        hidden field (`ChooseSpec.hidden_dependent`), and each option line whose `for`
        collections may (`OptionSpec.secret_values`). `counted`: the hidden piles whose size
        every seat is shown, ("global" or "player", name); `areas`, whether an area of a
        seat's pieces is hidden (what pieces grant then reads it). `marks`: the marks another
        build of the same ruleset settled, by the `choose`'s position (a lazy build resolves
        no text before it runs, so it takes them over; a `choose` they lack is asked).
        Returns the marks, by position, and under ``SECRET_VARS`` the flow variables whose
        value may come from a secret (None where a lazy build's marks lack them: any may)."""
        if marks is None:
            self.secrets.settle(hidden_global, hidden_player, counted, areas)
            reads = self.secrets.reads_secret
            for spec, nodes in self.choices:
                spec.hidden_dependent = any(reads(node) for node in nodes)
            for line, nodes, _where in self.option_lines:
                line.secret_values = any(reads(node) for node in nodes)
        else:
            for spec, _nodes in self.choices:
                spec.hidden_dependent = marks.get(spec.where, True)
            for line, _nodes, where in self.option_lines:
                line.secret_values = marks.get(("option", where), False)
        found: dict[Any, Any] = {spec.where: spec.hidden_dependent for spec, _ in self.choices}
        for line, _nodes, where in self.option_lines:
            found["option", where] = line.secret_values
        if marks is None:
            secret = self.secrets.secret
            found[SECRET_VARS] = frozenset(
                n[1] for n in secret if type(n) is tuple and n[0] == "var"
            )
        else:
            found[SECRET_VARS] = marks.get(SECRET_VARS)
        return found
