"""The TypedDicts that name the keys of the web table's messages (table/shapes.py,
serve/wire.py) and of a worker's snapshot (serve/snapshot.py) say what their builders make: a
game of Puerto Rico played through the real engine, in a worker (serve/player.py, here in
this process) and at the server's own table, and every message it sends compared key by key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.serve.caps import Caps
from interpreter.serve.messages import seat_message
from interpreter.serve.player import Player
from interpreter.serve.replaying import held_step
from interpreter.serve.snapshot import Snapshot
from interpreter.serve.tables import Hub
from interpreter.serve.wire import FinalResult, Record, RecordStep, ReplayStep, SeatMessage
from interpreter.table.shapes import Gesture, GestureMessage, OptionEntry

HEADER = {
    "game": "puerto-rico",
    "players": 3,
    "overlays": [],
    "options": {},
    "seed": 5,
    "seats": ["human", "human", "human"],
    "format": "rulebook-save/4",
}


def _fits(shape: Any, message: Mapping[str, object]) -> None:
    """``message`` has every key ``shape`` requires, and no key it does not name."""
    required, optional = set(shape.__required_keys__), set(shape.__optional_keys__)
    keys = set(message)
    assert required <= keys, f"{shape.__name__} lacks {sorted(required - keys)}"
    assert keys <= required | optional, f"{shape.__name__} has {sorted(keys - required - optional)}"


def test_a_worker_answers_in_the_shapes_it_names() -> None:
    player = Player(Caps(), budget=False)
    answer = player.handle({"op": "open", "table": "t", "header": HEADER, "choices": []})
    assert "failed" not in answer
    _fits(Snapshot, answer["snap"])
    assert "g" in answer["snap"] and "changed" not in answer["snap"]
    gestures = 0
    for _ in range(60):
        assert "failed" not in answer
        assert answer["options"]
        for entry in answer["options"]:
            _fits(OptionEntry, entry)
        if answer["gesture"] is not None:
            _fits(Gesture, answer["gesture"])
            gestures += 1
        option = answer["options"][0]["id"]
        request = {"op": "move", "table": "t", "option": option, "log_from": 0, "history_from": 0}
        answer = player.handle(request)
        _fits(Snapshot, answer["snap"])
    assert gestures, "no gesture was asked"
    assert "changed" in answer["snap"] and "g" not in answer["snap"]

    choices = list(player.tables["t"].state.history)
    saved = {**HEADER, "result": None}
    for seat in (0, None):
        request = {"op": "record", "table": "t", "header": saved, "choices": choices}
        made = player.handle({**request, "seat": seat, "practice": False})
        assert "failed" not in made
        _fits(Record, made["record"])
        for step in made["record"]["steps"]:
            _fits(RecordStep, step)
        assert any("chose" in step for step in made["record"]["steps"]) == (seat == 0)
    request = {"op": "replay", "table": "t", "header": saved, "choices": choices}
    replayed = player.handle({**request, "step": 10, "key": "k", "most": None})
    assert "failed" not in replayed
    _fits(ReplayStep, replayed["replayed"])


def test_a_seat_message_has_the_keys_it_names(hub: Hub) -> None:
    table = hub.create("puerto-rico", 3, ["human", "human", "human"], seed=5)
    gestures = 0
    while not table.state.is_over and table.decision < 400:
        mover = table.state.to_move
        assert mover is not None
        for seat in (mover, (mover + 1) % 3, None):
            message = seat_message(table, seat)
            _fits(SeatMessage, message)
            for entry in message["options"]:
                _fits(OptionEntry, entry)
            if message["gesture"] is not None:
                _fits(GestureMessage, message["gesture"])
                gestures += 1
        hub.commit(table, table.state.legal_options()[0])
    assert gestures
    _fits(ReplayStep, held_step(table))
    assert table.state.is_over, "the game did not end"
    message = seat_message(table, 0)
    _fits(SeatMessage, message)
    assert message["result"] is not None
    _fits(FinalResult, message["result"])
