"""What the server lets one table cost: the CPU time of a move, and the length of a game of
uploaded rules (a stranger's), held to the server's caps when its rules are compiled."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from interpreter.engine.game import Game
from interpreter.engine.loader import load_game
from interpreter.table.presenter import Presentation

__all__ = ["Caps", "Composition", "compile_game", "is_uploaded"]

# what a compiled game is kept by: its game, player count, overlays and options (as texts)
Composition = tuple[str, int, tuple[str, ...], tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Caps:
    """What one move, and one table of uploaded rules, may cost (``rulebook serve`` flags).

    ``move_cpu_s``: CPU seconds a move (a person's or a bot's, with the options it leaves to
    word) may use in a worker process; the table stops past it. ``compile_cpu_s``: CPU seconds
    a worker may take to compile a composition with an uploaded overlay (the server compiles
    one itself only once a worker has, within this). ``decisions`` and ``rounds``: the most a
    game of uploaded rules may last (its own ``limits:`` may be lower, never higher); the
    rulesets of the catalog keep theirs."""

    move_cpu_s: float = 2.0
    compile_cpu_s: float = 5.0
    decisions: int = 3000
    rounds: int = 200


def is_uploaded(overlay: str) -> bool:
    """Whether an overlay (as a table names it) is a file uploaded to the server, not one of
    the catalog's (an id): a stranger's rules, held to the server's caps."""
    return "/" in overlay or "\\" in overlay or overlay.endswith((".yaml", ".yml"))


def compile_game(
    game: str, players: int, overlays: Sequence[str], options: Mapping[str, object], caps: Caps
) -> tuple[Game, Presentation]:
    """The game and its presentation; a composition with an uploaded overlay is held to the
    server's caps on its length (lowered, never raised). Raises RulebookError."""
    loaded = load_game(game, players, tuple(overlays), dict(options))
    if any(is_uploaded(o) for o in overlays):
        rules = loaded.rules
        rules.limits = replace(
            rules.limits,
            decisions=min(rules.limits.decisions, caps.decisions),
            rounds=min(rules.limits.rounds, caps.rounds),
        )
    return loaded, Presentation.from_ruleset(loaded.ruleset)
