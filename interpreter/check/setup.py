"""The set-up run at validate time (E001, E002): a compiled ruleset is set up once (seed 0)
and its declared invariants checked right after.

A rule that fails while setting up (a counter driven out of its range by a default copy
count, a table read with a key it lacks) or a set-up that leaves an invariant broken (the
supply set up for the wrong player count) is found here at its rule's file:line, before anyone
plays, for every player count the ruleset allows. It costs one set-up per count: the set-up
runs to the first decision and stops there.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.engine.game import Game
from interpreter.engine.invariant_checks import broken_invariants
from interpreter.model.rules import Rules

__all__ = ["SETUP_SEED", "setup_faults"]

# The seed the set-up is run with: any fixed one, so that validate's answer is reproducible.
SETUP_SEED = 0


def setup_faults(rules: Rules, players: int, options: dict[str, Any]) -> list[Diagnostic]:
    """What goes wrong setting up ``rules`` for ``players`` seats: the E001 of a rule that
    fails on the way, else an E002 for each invariant broken once the set-up is done (none when
    the set-up itself asks for decisions: the state is still being built then)."""
    game = Game(rules, "", "", players, (), dict(options), [])
    try:
        state = game.new_state(seed=SETUP_SEED)
        return [_at_count(d, players) for d in broken_invariants(state)]
    except RulesError as err:
        return [_at_count(d, players) for d in err.diagnostics]
    finally:
        # the game bound itself into the rules' run-time helpers (a cycle): unbound, the rules
        # are freed as soon as the caller drops them, not at the garbage collector's next pass
        for name in ("fire", "ability"):
            rules.env.runtime.pop(name, None)


def _at_count(d: Diagnostic, players: int) -> Diagnostic:
    """``d`` saying which set-up it was found in (a fault may show with one count only)."""
    return dataclasses.replace(d, message=f"{d.message} (set up for {players} players, seed 0)")
