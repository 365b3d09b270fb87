"""Compiling a stranger's rules is the uploader's work to size: a house rule of a few hundred
added steps takes seconds of CPU to compile (some 14 s at 250 KB). So a new table whose
composition has an uploaded overlay is compiled first in a worker process, within the server's
compile budget (``--compile-seconds``); past it the table is refused with the reason, and the
server, which compiles only a composition a worker compiled within the budget, answers every
other table meanwhile. A real ``rulebook serve`` on 127.0.0.1."""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.server import free_port, start_server

BUDGET = ["--workers", "1", "--compile-seconds", "0.2"]
# wall-clock seconds a niced worker's answer may take on a machine busy with other work (the
# server's own limit is its CPU budget's thirty-fold, rule_workers.WALL_FACTOR)
PATIENCE_S = 240


def _costly_overlay(steps: int) -> bytes:
    """A valid house rule whose compile takes seconds: many chained steps after a role pick."""
    lines = ["overlay: costly", "extends: puerto-rico", "title: Many steps", "add:"]
    for n in range(steps):
        lines.append(f"  flow/round/choose-roles/repeat/steps/each-chooses/each-player/steps/s{n}:")
        lines.append("    after: " + ("pick-role" if n == 0 else f"s{n - 1}"))
        lines.append("    do: rooms-left = " + "+".join(["1"] * 20))
    return ("\n".join(lines) + "\n").encode()


def _children_cpu_ticks(pid: int) -> int:
    """CPU ticks the server's worker processes (its children) have used so far."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total


def test_a_costly_composition_is_compiled_by_a_worker_within_its_budget(tmp_path: Path) -> None:
    db, port = tmp_path / "tables.sqlite3", free_port()
    # an overlay the upload check accepted (under a more patient check limit than the tests
    # wait for): kept beside the database as an upload is
    data = _costly_overlay(400)
    digest = hashlib.sha256(data).hexdigest()[:24]
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / f"{digest}.yaml").write_bytes(data)
    server = start_server(db, port, *BUDGET)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE_S) as client:
            normal = client.post(
                "/api/tables", json={"game": "puerto-rico", "seats": ["human", "random", "random"]}
            )
            assert normal.status_code == 201, normal.text
            before = _children_cpu_ticks(server.pid)
            answers: list[httpx.Response] = []
            done = threading.Event()

            def create() -> None:
                answers.append(
                    client.post(
                        "/api/tables",
                        json={
                            "game": "puerto-rico",
                            "seats": ["human", "random", "random"],
                            "overlays": [f"upload:{digest}"],
                        },
                    )
                )
                done.set()

            creator = threading.Thread(target=create)
            creator.start()
            while _children_cpu_ticks(server.pid) == before:  # a worker is compiling it
                assert not done.is_set(), answers[0].text
                time.sleep(0.005)
            state = client.get(f"/api/tables/{normal.json()['id']}/state")
            assert state.status_code == 200
            assert not done.is_set()  # the other table was answered while it compiled
            creator.join(PATIENCE_S)
            assert answers, "the table with the costly overlay was not answered"
        assert answers[0].status_code == 413, answers[0].text
        assert answers[0].json()["error"] == (
            "the game could not be set up: compiling its rules used more than this server's "
            "0.2 s of CPU time"
        )
    finally:
        server.terminate()
        server.wait(10)


def test_a_table_opens_on_the_game_its_compile_request_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server asks a worker to compile a composition with the options the creator gave
    (here none); the table's save then names every option's value, and its ``open`` finds the
    game that compile made instead of compiling the stranger's rules a second time."""
    from interpreter.engine.savefile import FORMAT
    from interpreter.serve import player as player_module
    from interpreter.serve.caps import Caps
    from interpreter.serve.player import Player
    from interpreter.serve.worker_protocol import Composed, Header

    compiles: list[object] = []
    real = player_module.compile_game

    def counted(*args: Any, **kwargs: Any) -> Any:
        compiles.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(player_module, "compile_game", counted)
    player = Player(Caps(), budget=False)
    composed: Composed = {"game": "puerto-rico", "players": 3, "overlays": [], "options": {}}
    assert player.handle({"op": "compile", "table": "", "header": composed}) == {}
    game, _ = player.games[next(iter(player.games))]
    assert game.options  # the compiled game names its options' values
    header: Header = {
        **composed,
        "options": dict(game.options),
        "seed": 1,
        "seats": ["human"] * 3,
        "format": FORMAT,
    }
    opened = player.handle({"op": "open", "table": "t", "header": header, "choices": []})
    assert "failed" not in opened, opened
    assert len(compiles) == 1
