"""Old save formats read by converting their choices into this engine's (format 4).

A save holds only the option ids chosen, so which decisions it lists depends on which ones
the engine asked when the game was played; a decision with several legal options was always
asked, one with a single option differently by each format:

- format 1 (``rulebook-save/1``): every one was asked, so each is in the choices;
- format 2 (``rulebook-save/2``): every one was taken by the engine (unless its step says
  ``ask-when-only-one``), so none is;
- format 3 (``rulebook-save/3``): one whose options may depend on a hidden field
  (``ChooseSpec.hidden_dependent``, a step's mark found at load) was asked in every state.

Format 4 asks exactly what ``machine.asks_alone`` asks. The converter replays the game with
every decision asked (``take_forced=False``) and walks the old choices beside it: a decision
with several options takes the next old choice; one with a single option takes one exactly
where the old format asked it; and each is written into the new list exactly where
``asks_alone`` asks it. The engine carries no setting for an old format: reading an old save
converts it, and a game resumed from it is saved as format 4.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.diagnostics.errors import ReplayError
from interpreter.engine.game import Game
from interpreter.engine.machine import asks_alone
from interpreter.model.flow import ChooseSpec

FORMAT_BY_STEP = "rulebook-save/3"
FORMAT_TAKEN = "rulebook-save/2"
FORMAT_ASKED = "rulebook-save/1"
OLD_FORMATS = (FORMAT_BY_STEP, FORMAT_TAKEN, FORMAT_ASKED)

__all__ = ["FORMAT_ASKED", "FORMAT_BY_STEP", "FORMAT_TAKEN", "OLD_FORMATS", "upgrade_choices"]


def _old_asked(fmt: str, spec: ChooseSpec) -> bool:
    """Whether a save of format `fmt` lists a decision of step `spec` with one legal option."""
    if fmt == FORMAT_ASKED:
        return True
    if spec.ask_when_only_one:
        return True
    return fmt == FORMAT_BY_STEP and bool(spec.hidden_dependent)


def upgrade_choices(
    game: Game, fmt: str, seed: int, choices: Sequence[str], source: str = "<save>"
) -> list[str]:
    """The format-4 choices of the game that `choices` (a save of old format `fmt`, seed
    `seed`) played in `game`. A choice that does not fit (not a legal option where it is
    read, or left over once the game has ended) raises ``ReplayError`` naming `source` and
    the decision."""
    if fmt not in OLD_FORMATS:
        raise ValueError(f"not an old save format: {fmt!r}")
    state = game.new_state(seed, take_forced=False)
    upgraded: list[str] = []
    read = 0
    while not state.is_over:
        options = state.pending
        if not options:  # pragma: no cover - a live state always has a decision pending
            break
        if len(options) == 1:
            ((only, (spec, _opt, _values)),) = options.items()
            if _old_asked(fmt, spec):
                if read == len(choices):
                    break  # a partial save: it stopped at this decision
                if choices[read] != only:
                    raise _misfit(source, fmt, read, choices[read], [only])
                read += 1
            choice = only
            if asks_alone(state, spec, options):
                upgraded.append(choice)
        else:
            if read == len(choices):
                break
            choice = choices[read]
            if choice not in options:
                raise _misfit(source, fmt, read, choice, list(options))
            read += 1
            upgraded.append(choice)
        state.apply(choice)
    if read < len(choices):
        raise ReplayError(
            f"{source}: the {fmt} save lists {len(choices)} choices, but the game is over "
            f"after choice {read} ({len(choices) - read} left over); the rules may have "
            "changed since the game was saved"
        )
    return upgraded


def _misfit(source: str, fmt: str, index: int, choice: str, legal: list[str]) -> ReplayError:
    shown = ", ".join(repr(option) for option in legal[:8]) + (", ..." if len(legal) > 8 else "")
    return ReplayError(
        f"{source}: choice {index + 1} of the {fmt} save, {choice!r}, is not a legal option "
        f"there (legal: {shown}); the save does not fit these rules"
    )
