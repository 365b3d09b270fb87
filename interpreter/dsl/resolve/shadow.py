"""Names a rule text may not bind with `let` or `for`: the builtins and the engine's own names.

`let round = ...` would hide the round counter for the rest of the text, silently; a reader
(and the author a week later) takes `round` for the engine's. Binding such a name is an error
(D002) at the name, suggesting another.
"""

from __future__ import annotations

from interpreter.dsl.resolve.scope import SPECIAL_NAMES
from interpreter.dsl.runtime.builtins import BUILTINS

__all__ = ["shadowing"]


def shadowing(name: str) -> str | None:
    """Why `name` may not be bound by a rule text (None: it may)."""
    if name in SPECIAL_NAMES:
        what = "a name of the engine"
    elif name in BUILTINS:
        what = "a builtin"
    else:
        return None
    return f"'{name}' is {what} and cannot be bound with let or for; pick another (e.g. '{name}-n')"
