"""A worker sends the server only the fields a move changed (serve/snapshot.py, ``known``):
the position rebuilt from them is the worker's, field by field, in the same order and of the
same types, and it costs a fraction of the bytes of the whole."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from interpreter.engine.loader import load_game
from interpreter.serve.snapshot import restore, snapshot


@pytest.fixture(scope="module")
def game() -> Any:
    return load_game("puerto-rico", 3)


def test_a_position_rebuilt_from_the_changed_fields_is_the_played_one(game: Any) -> None:
    played = game.new_state(7)
    held = restore(game, pickle.loads(pickle.dumps(snapshot(played))))
    rng = random.Random(7)
    changed_bytes = whole_bytes = 0
    known_rng = played._rng
    for _ in range(40):
        moved = played.copy(recording=True)
        moved.log = list(played.log or [])
        moved.apply(rng.choice(moved.legal_options()))
        at = (len(held.log or ()), len(held.history), known_rng)
        whole_bytes += len(pickle.dumps(snapshot(moved, *at)))
        sent = snapshot(moved, *at, played)
        assert "g" not in sent and "p" not in sent
        (whole, g), seats = sent["changed"]
        assert not whole and all(played.g[name] != value for name, value in g.items())
        data = pickle.dumps(sent)
        changed_bytes += len(data)
        known_rng = moved._rng
        held = restore(game, pickle.loads(data), held)
        assert repr((held.g, held.p, held.v)) == repr((moved.g, moved.p, moved.v))
        assert held.legal_options() == moved.legal_options()
        assert held.view(0) == moved.view(0)
        played = moved
    assert changed_bytes < whole_bytes / 2


def test_a_field_of_another_type_or_a_field_added_is_sent(game: Any) -> None:
    """Equal is not the same: ``1``, ``1.0`` and ``True`` compare equal in Python, and a
    field that comes or goes changes the fields' order; each reaches the server as it is."""
    known = game.new_state(7)
    held = restore(game, pickle.loads(pickle.dumps(snapshot(known))))
    moved = known.copy()
    name = next(n for n, v in moved.p[0].items() if type(v) is int)
    moved.p[0][name] = float(moved.p[0][name])
    moved.g["a-field-added"] = 1
    sent = pickle.loads(pickle.dumps(snapshot(moved, len(held.log or ()), 0, None, known)))
    again = restore(game, sent, held)
    assert type(again.p[0][name]) is float
    assert list(again.g) == list(moved.g) and again.g["a-field-added"] == 1
