"""The public entry point: load a ruleset into an immutable Game, then play States of it.

    game = load_game("my-game", players=4)      # a name under rulesets/, or a path to a file
    state = game.new_state(seed=7)             # set up, advanced to the first decision
    state.to_move                              # the seat that must decide
    state.legal_options()                      # every legal option id, e.g. ['pick:red', ...]
    state.apply("pick:red")                    # an illegal id raises; the state is unchanged

See docs/api.md for the whole surface.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from interpreter.dsl.runtime.support import initial_value
from interpreter.engine import machine
from interpreter.engine.copier import field_copier
from interpreter.engine.standings import finish
from interpreter.engine.state import State
from interpreter.engine.view import View, seat_view
from interpreter.infoset.changes import Journal
from interpreter.model.rules import Rules
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["Game", "Recipe"]

# what loads a game again (load_game's arguments): its base file, player count, overlay files
# and options, each spelt out
Recipe = tuple[str, int, tuple[str, ...], tuple[tuple[str, Any], ...]]


class Game:
    """One ruleset compiled for a player count, overlays and options. Immutable; share freely."""

    def __init__(
        self,
        rules: Rules,
        name: str,
        title: str,
        players: int,
        overlays: tuple[str, ...],
        options: dict[str, Any],
        sources: list[str],
        ruleset: Ruleset | None = None,
    ) -> None:
        self.rules = rules
        # the composed rule files, typed (ruleset/): what the drivers read of the declarations
        self.ruleset = ruleset if ruleset is not None else Ruleset()
        self.env = rules.env
        self.program = rules.program
        self.name = name
        self.title = title
        self.players = players
        self.overlays = overlays
        self.options = options
        self.sources = sources
        # the generated rule code calls these (`emit`, and what active pieces grant)
        self.fire = machine.event_firer(rules)
        self.ability = machine.ability_reader(rules)
        self.env.runtime["fire"] = self.fire
        self.env.runtime["ability"] = self.ability
        self.copy_fields = field_copier(rules)  # what State.copy() runs
        # a journal build (dsl/emit/journal.py): its new states keep a journal of their writes
        # (infoset/changes.py)
        self.journal = rules.journal
        # (base file, players, overlay files, options) and the function that loads them: set by
        # load_game, so that the game and its states pickle by loading it again; None for a
        # game that cannot be (a coverage build, one made by hand)
        self.recipe: Recipe | None = None
        self.reload: (
            Callable[[str, int, tuple[str, ...], tuple[tuple[str, Any], ...]], Game] | None
        ) = None

    def __deepcopy__(self, memo: dict) -> Game:
        return self  # immutable: a deep copy of a state (a tool's clone) shares its game

    def __reduce__(self) -> tuple[Callable[..., Game], Recipe]:
        """A game pickles as what loads it again (its compiled rule code does not pickle): the
        unpickling process loads it once and shares it between the states it unpickles."""
        if self.recipe is None or self.reload is None:
            raise TypeError(f"{self!r} cannot be pickled: it was not made by load_game")
        return (self.reload, self.recipe)

    def __repr__(self) -> str:
        extra = f" with {','.join(self.overlays)}" if self.overlays else ""
        return f"<Game {self.name} {self.players} players{extra}>"

    # -- states ---------------------------------------------------------------------------
    def new_state(
        self,
        seed: int = 0,
        *,
        take_forced: bool = True,
        record: bool = False,
    ) -> State:
        """A fresh game, set up and advanced to its first decision.

        A decision with exactly one legal option is taken by the engine (unless its `choose`
        says `ask-when-only-one`); ``take_forced=False`` asks them all (a preview, a
        scenario, the leak check and the old-save converter look at each). A decision whose
        legal options may depend on a field hidden from some seat is asked even with one
        option, so the other seats learn nothing from it (no "the only choice", no seat
        skipped at once), unless what every seat sees in that state decides it
        (infoset/forced.py). Saves of older formats are converted to this engine's choices
        (engine/save_upgrade.py).

        ``record=True`` keeps every seat's observations and memory as the game goes on
        (``state.information_state(seat)``, infoset/knowledge.py). Otherwise nothing is recorded:
        what seats remember (``state: remember:``) is worked out by replaying the game the
        first time the search bot's sampler asks for it (``State.remembered()``)."""
        g: dict[str, Any] = {}
        for name, (kind, start) in self.rules.global_init.items():
            g[name] = initial_value(kind, start)
        p = []
        for seat in range(self.players):
            d: dict[str, Any] = {"seat": seat}
            for name, (kind, start) in self.rules.player_init.items():
                d[name] = initial_value(kind, start)
            p.append(d)
        s = State(
            game=self,
            g=g,
            p=p,
            v={},
            _rng=random.Random(seed),
            seed=seed,
            take_forced=take_forced,
        )
        if self.journal:
            s.tj = Journal(s)
        self.advance(s)
        if record:
            s.record()
        return s

    # -- for tools and tests that drive a state by hand ---------------------------------------
    def advance(self, s: State) -> None:
        """Run `s` on to its next decision (after a set-up edited it directly)."""
        machine.advance(self.rules, s)

    def take_only_choice(self, s: State) -> None:
        """Take `s`'s pending decision of one legal option as the engine takes one by itself
        (logged as the only choice, not counted), then run on to the next decision."""
        machine.take_only_choice(self.rules, s)

    def finish(self, s: State) -> None:
        """Score `s` and end it now."""
        finish(self.rules, s)

    def view(self, s: State, seat: int) -> View:
        """What one seat may see of `s` (the same as ``s.view(seat)``)."""
        return seat_view(self.rules, s, seat)
