"""Values that have one shape are typed with it, not with ``Any``: a scope binding's payload,
what ``blame`` uses of the resolver's calls, the game ``taken_back`` replays, the state a
scenario's expectation reads, a recorder's places, and the messages a rule worker answers with
(their shapes: tests/serve/test_message_shapes.py)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable

import pytest

from interpreter.dsl.resolve import expression_types, scope
from interpreter.engine import undo
from interpreter.infoset import knowledge
from interpreter.scenario import expect
from interpreter.serve import worker_protocol


def _hints(target: Callable[..., object] | type) -> dict[str, object]:
    return typing.get_type_hints(target, include_extras=True)


@pytest.mark.parametrize(
    "target",
    [
        expression_types.blame,
        expression_types._fits,
        scope.Scope.__init__,
        scope.Scope.lookup,
        undo.Watched.game.fget,
        expect.check,
        expect._result,
        expect._seat,
        expect._fields,
        knowledge.Recorder._tell_sizes,
        knowledge._follow,
        worker_protocol.Opened,
        worker_protocol.Moved,
        worker_protocol.Replayed,
        worker_protocol.RecordMade,
    ],
    ids=lambda t: getattr(t, "__qualname__", str(t)),
)
def test_no_any_where_the_shape_is_known(target: Callable[..., object] | type) -> None:
    hints = _hints(target)
    assert hints
    loose = {name: hint for name, hint in hints.items() if "Any" in repr(hint)}
    assert not loose, f"typed as Any: {loose}"


def test_the_replayed_game_is_typed() -> None:
    """``taken_back`` calls the game's ``new_state`` through a protocol that gives the state's
    own kind back, not through a value typed ``Any``."""
    assert "Any" not in inspect.getsource(undo.taken_back)
    assert "_Replays" in repr(_hints(undo.Watched.game.fget)["return"])
