"""The messages of a rule worker's pipe (serve/worker_protocol.py): each answer of
``Player.handle`` has the keys its op's TypedDict names, a failure's ``message`` is its reason
(a string) and nothing else's, a replay's message and a seat's record come under keys of their
own, and a server whose rules run in a worker replays and records as one that runs them
itself. The real San Juan ruleset, its worker in this process."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from interpreter.engine.savefile import FORMAT
from interpreter.serve.caps import Caps
from interpreter.serve.offloop import WorkerHub
from interpreter.serve.player import Player
from interpreter.serve.records import seat_record
from interpreter.serve.replaying import NotCached, ReplayCache
from interpreter.serve.store import TableStore
from interpreter.serve.worker_protocol import (
    Failure,
    Moved,
    Opened,
    RecordMade,
    Replayed,
)
from tests.serve.test_boards_ahead import _in_a_thread
from tests.serve.test_undo import InProcessPool

SEED = 5
HEADER = {
    "game": "san-juan",
    "players": 2,
    "overlays": [],
    "options": {},
    "seed": SEED,
    "seats": ["human", "human"],
    "format": FORMAT,
}
SAVED = {**HEADER, "result": None}
MOVES = 4


def _fits(answer: Mapping[str, object], kind: Any) -> None:
    """``answer`` has every key ``kind`` requires and none it does not name."""
    keys = set(answer)
    required, optional = set(kind.__required_keys__), set(kind.__optional_keys__)
    assert required <= keys <= required | optional, (kind.__name__, sorted(keys))


def _move(table: str, option: str) -> dict[str, object]:
    return {"op": "move", "table": table, "option": option, "log_from": 0, "history_from": 0}


def _replay(choices: list[str]) -> dict[str, object]:
    return {
        "op": "replay",
        "table": "",
        "header": SAVED,
        "choices": choices,
        "step": len(choices),
        "key": "k",
        "most": None,
    }


def test_each_answer_has_its_ops_keys_and_message_is_only_a_failures_reason():
    player = Player(Caps(), budget=False)
    opened = player.handle({"op": "open", "table": "t", "header": HEADER, "choices": []})
    _fits(opened, Opened)
    choices = []
    for _ in range(MOVES):
        option = player.tables["t"].state.legal_options()[0]
        moved = player.handle({**_move("t", option), "names": ["Ana", "Bo"]})
        _fits(moved, Moved)
        assert moved["choice"] == option
        choices.append(option)
    replayed = player.handle({**_replay(choices), "step": 2})
    _fits(replayed, Replayed)
    assert (replayed["replayed"]["step"], replayed["played"]) == (2, 2)
    record = player.handle(
        {
            "op": "record",
            "table": "t",
            "header": SAVED,
            "choices": choices,
            "seat": 0,
            "practice": True,
        }
    )
    _fits(record, RecordMade)
    assert len(record["record"]["steps"]) == MOVES + 1
    composed = {k: HEADER[k] for k in ("game", "players", "overlays", "options")}
    assert player.handle({"op": "compile", "table": "", "header": composed}) == {}
    failures = {
        "unknown table": player.handle(_move("nowhere", choices[0])),
        "illegal option": player.handle(_move("t", "no-such-option")),
        "no bot to move": player.handle(
            {"op": "bot", "table": "t", "log_from": 0, "history_from": 0}
        ),
        "too far from a kept position": player.handle(
            {**_replay(choices), "key": "other", "most": 0}
        ),
    }
    kinds = {why: answer["failed"] for why, answer in failures.items()}
    assert kinds == {
        "unknown table": "unknown",
        "illegal option": "illegal",
        "no bot to move": "unknown",
        "too far from a kept position": "uncached",
    }
    for answer in failures.values():
        _fits(answer, Failure)
        assert isinstance(answer["message"], str) and answer["message"]
    assert player.handle({"op": "drop", "table": "t"}) == {}
    assert "t" not in player.tables


class AnyWorkerPool(InProcessPool):
    """:class:`InProcessPool` with the requests of no table too (replays, records)."""

    async def call_any(self, stranger, request, moves=1, key=""):
        return self.player.handle(request)


def test_a_worker_replays_and_records_as_the_server_itself_does(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "tables.sqlite3")
    hub = WorkerHub(store, AnyWorkerPool())

    async def play() -> None:
        table = await hub.create_async("san-juan", 2, ["human", "human"], seed=SEED)
        for _ in range(MOVES):
            mover = table.state.to_move
            option = table.state.legal_options()[0]
            await hub.move_async(table, table.tokens[mover], option, table.decision)
        for seat in (0, 1, None):
            assert await hub.record(table, seat) == seat_record(table, seat)
        save = table.to_save()
        here = ReplayCache().message("", table.game, table.presentation, table.to_save(), 2)
        assert await hub.replay(save, save.overlays, 2, "k", None) == here
        with pytest.raises(NotCached):
            await hub.replay(table.to_save(), save.overlays, MOVES, "other", 0)

    try:
        _in_a_thread(play())
    finally:
        store.close()
